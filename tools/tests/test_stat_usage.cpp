// SPDX-License-Identifier: GPL-2.0
// kprofile stat without CAP_PERFMON (issue 23 item 5): the kernel's task
// accounting parsed from /proc and rusage, the refusals' advice, and the
// result as text, -x and JSON.
#include <cerrno>
#include <string>
#include <sys/resource.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "stat_usage.h"
#include "stat_render.h"

using namespace kprofile;

TEST(StatUsage, ParsesContextSwitches)
{
	const std::string status = "Name:\tspin\nState:\tR (running)\n"
				   "voluntary_ctxt_switches:\t12\n"
				   "nonvoluntary_ctxt_switches:\t30\n";

	EXPECT_EQ(parse_ctxt_switches(status), 42u);
	EXPECT_EQ(parse_ctxt_switches("voluntary_ctxt_switches:\t1\n"), std::nullopt);
	EXPECT_EQ(parse_ctxt_switches("voluntary_ctxt_switches: x\n"
				      "nonvoluntary_ctxt_switches: 2\n"),
		  std::nullopt);
}

TEST(StatUsage, ParsesCpuTicksPastAnOddComm)
{
	// A comm with spaces and ')' in it: fields count from the last ')'.
	const std::string stat = "4242 (a) b (c)) R 1 4242 4242 0 -1 4194560 100 0 0 0 "
				 "250 50 0 0 20 0 1 0 100 1000 10";

	EXPECT_EQ(parse_stat_cpu_ticks(stat), 300u);
	EXPECT_EQ(parse_stat_cpu_ticks("4242 (x) R 1 2"), std::nullopt);
	EXPECT_EQ(parse_stat_cpu_ticks("no comm"), std::nullopt);
}

TEST(StatUsage, ReadsItsOwnProcess)
{
	auto u = read_process_usage(::getpid());

	ASSERT_TRUE(u.has_value());
	EXPECT_GE(u->threads, 1u);
	EXPECT_EQ(may_inspect(::getpid()), 0);
	EXPECT_EQ(may_inspect(0x3fffffff), ESRCH);
}

TEST(StatUsage, RusageSumsBothKinds)
{
	struct rusage ru {};

	ru.ru_nvcsw = 3;
	ru.ru_nivcsw = 4;
	ru.ru_utime.tv_sec = 1;
	ru.ru_stime.tv_usec = 500000;
	TaskUsage u = usage_from_rusage(ru);
	EXPECT_EQ(u.context_switches, 7u);
	EXPECT_DOUBLE_EQ(u.cpu_seconds, 1.5);
}

// As rr explains perf_event_paranoid: why, and what to do.
TEST(StatUsage, CountersRefusedSayWhatToDo)
{
	Error e = counters_need_perfmon(EPERM, true);

	EXPECT_NE(e.message().find("CAP_PERFMON"), std::string::npos) << e.message();
	EXPECT_NE(e.message().find("setcap cap_perfmon+ep"), std::string::npos);
	EXPECT_NE(e.message().find("every task"), std::string::npos);
	EXPECT_NE(e.message().find("no -s/-e"), std::string::npos);
	Error p = inspect_refused(1, EACCES);
	EXPECT_NE(p.message().find("may not count process 1"), std::string::npos) << p.message();
	EXPECT_NE(p.message().find("ptrace-read"), std::string::npos);
	EXPECT_NE(p.message().find("EACCES"), std::string::npos);
}

TEST(StatUsage, RendersTaskClockNotCycleTime)
{
	StatResult r;

	r.command = {"true"};
	r.unprivileged = true;
	r.task_clock_seconds = 0.25;
	r.totals.context_switches = 5;
	const std::string text = render_stat(r);
	EXPECT_NE(text.find("250.00 msec task-clock"), std::string::npos) << text;
	EXPECT_EQ(text.find("cycle-time"), std::string::npos) << text;
	EXPECT_NE(render_stat_csv(r, ",").find("250.00,msec,task-clock"), std::string::npos);
	nlohmann::json j = stat_json(r);
	EXPECT_TRUE(j["cycle_time"].is_null());
	EXPECT_DOUBLE_EQ(j["task_clock_seconds"].get<double>(), 0.25);
	EXPECT_TRUE(j["unprivileged"].get<bool>());
	EXPECT_EQ(j["context_switches"].get<std::uint64_t>(), 5u);
}

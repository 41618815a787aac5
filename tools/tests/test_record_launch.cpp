// SPDX-License-Identifier: GPL-2.0
// `record -- CMD`: the command is held until exec, its new image is mapped
// when exec() returns, its exit status is kept, and exec failure is an
// error that says so.
#include <gtest/gtest.h>

#include <csignal>
#include <sys/stat.h>
#include <unistd.h>

#include "args_check.h"
#include "launch.h"
#include "maps.h"
#include "profile_device.h"
#include "runner.h"

using namespace kprofile::record;

TEST(RecordLaunch, MapsShowTheNewImageAfterExec)
{
	Command cmd({"sleep", "5"});
	ASSERT_GT(cmd.pid(), 0);
	cmd.exec();
	bool found = false;
	for (const auto &m : executable_mappings(read_maps(cmd.pid()).value()))
		found |= m.path.find("sleep") != std::string::npos;
	EXPECT_TRUE(found) << "the exec'd program's text is mapped when exec() returns";
	cmd.resume();
	EXPECT_FALSE(cmd.poll()) << "sleep 5 is still running";
	const int status = cmd.terminate();
	EXPECT_EQ(Command::exit_code(status), 128 + SIGTERM);
}

TEST(RecordLaunch, ExitStatusIsKept)
{
	Command cmd({"sh", "-c", "exit 7"});
	cmd.exec();
	cmd.resume();
	std::optional<int> st;
	while (!(st = cmd.poll()))
		usleep(1000);
	EXPECT_EQ(Command::exit_code(*st), 7);
}

TEST(RecordLaunch, MissingCommandIsAnErrorWithAdvice)
{
	Command cmd({"/nonexistent/kprofile-no-such-command"});
	try {
		cmd.exec();
		FAIL() << "exec of a missing file succeeded";
	} catch (const kprofile::Failure &f) {
		EXPECT_EQ(f.error().err, ENOENT);
		EXPECT_EQ(f.error().code, kprofile::ExitCode::Usage);
		ASSERT_FALSE(f.error().hints.empty());
		EXPECT_NE(f.error().hints[0].find("PATH"), std::string::npos);
	}
}

TEST(RecordLaunch, CpuLists)
{
	auto map = parse_cpu_list("0-2,9");
	ASSERT_GE(map.size(), 2U);
	EXPECT_EQ(map[0], 0x07);
	EXPECT_EQ(map[1], 0x02);
	EXPECT_EQ(map.size() % 8, 0U) << "whole 64-bit words, as sched_setaffinity's";
	EXPECT_THROW(parse_cpu_list("3-1"), std::invalid_argument);
	EXPECT_THROW(parse_cpu_list("x"), std::invalid_argument);
	EXPECT_THROW(parse_cpu_list(""), std::invalid_argument);
	// Source names: kprofile::parse_source, the one parser (record's own
	// exact-match one is gone; test_source_parse.cpp tests the shared one).
}

// The review's C9: errors named ranges ("0xffff800000000000..0xffff...");
// they name what the range is.
TEST(RecordLaunch, ProfileErrorsNameTheRangeNotItsAddresses)
{
	EXPECT_EQ(profile_label(false, true, "", 42), "the kernel text of process 42");
	EXPECT_EQ(profile_label(false, true, "[9p]", 0), "module [9p] (system-wide)");
	EXPECT_EQ(profile_label(false, false, "/usr/lib/libc.so.6", 42),
		  "/usr/lib/libc.so.6 of process 42");
	EXPECT_EQ(profile_label(true, false, "", 42), "the user-space catch-all of process 42");
	EXPECT_EQ(profile_label(true, true, "", 0), "the kernel catch-all (system-wide)");
}

// ... and a -p target that exits during setup says so (it gave no file and
// an error about a profile request).
TEST(RecordLaunch, ATargetGoneDuringSetupIsSaidPlainly)
{
	const kprofile::Error e = target_gone_error(4242, 2.5);
	EXPECT_NE(e.what.find("process 4242 exited while record was setting up"), std::string::npos)
		<< e.what;
	EXPECT_NE(e.what.find("no file was written"), std::string::npos) << e.what;
	EXPECT_EQ(e.what.find("0x"), std::string::npos) << e.what;
	ASSERT_FALSE(e.hints.empty());
	EXPECT_NE(e.hints[0].find("kprofile record -- CMD"), std::string::npos);
	EXPECT_FALSE(process_alive(0x3fffffff)) << "no such pid";
	EXPECT_TRUE(process_alive(::getpid()));
}

TEST(RecordLaunch, ScheduleErrorSaysWhichSourcesFitTogether)
{
	kprofile_schedule s{};
	s.nr_sources = 3;
	s.num_counters = 2;
	s.busy_mask = 0x1;
	s.counters[0] = 1;
	s.counters[1] = KPROFILE_NO_COUNTER;
	s.counters[2] = KPROFILE_NO_COUNTER;
	std::snprintf(s.reason, sizeof(s.reason), "counter 0 is held by the NMI watchdog");
	kprofile::Error e = schedule_error({"ProfileTotalIssues", "ProfileBranchInstructions",
					     "ProfileCacheMisses"}, s);
	const std::string what = e.what;
	EXPECT_EQ(e.err, EBUSY);
	EXPECT_EQ(e.code, kprofile::ExitCode::Refused);
	ASSERT_EQ(e.hints.size(), 1U);
	const std::string advice = e.hints[0];
	EXPECT_NE(what.find("ProfileBranchInstructions, ProfileCacheMisses"), std::string::npos) << what;
	EXPECT_NE(what.find("NMI watchdog"), std::string::npos) << what;
	EXPECT_NE(advice.find("these fit together: ProfileTotalIssues"), std::string::npos)
		<< advice;
	EXPECT_NE(advice.find("kernel.nmi_watchdog=0"), std::string::npos) << advice;
}

// A failed setup never leaves the command running unprofiled (the review's
// `record -C 5 -- sh -c 'echo CHILD-RAN'`): a command dropped before its
// release, or after exec but before resume, never runs a line of it.
// Before the fix the held child exec'd at EOF of its pipe, and a stopped
// one was detached and ran until SIGTERM came (never, if it blocks it).
TEST(RecordLaunch, DroppedCommandNeverRuns)
{
	char dir[] = "/tmp/kp-launch-XXXXXX";
	ASSERT_NE(mkdtemp(dir), nullptr);
	const std::string held = std::string(dir) + "/held", stopped = std::string(dir) + "/stopped";
	// A command that does not die of SIGTERM (blocked: the mask is
	// inherited through fork and exec), so only not running it helps.
	sigset_t term, old;
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, &old);
	{
		Command cmd({"sh", "-c", "touch " + held});
	}
	{
		Command cmd({"sh", "-c", "touch " + stopped});
		cmd.exec();
	}
	sigprocmask(SIG_SETMASK, &old, nullptr);
	usleep(200 * 1000);
	EXPECT_NE(access(held.c_str(), F_OK), 0) << "a command never released did not run";
	EXPECT_NE(access(stopped.c_str(), F_OK), 0) << "a command stopped at exec did not run";
	unlink(held.c_str());
	unlink(stopped.c_str());
	rmdir(dir);
}

TEST(RecordArgs, IntervalUnitsAndFrequency)
{
	EXPECT_EQ(parse_interval("10000", true), 10000U) << "plain: 100 ns units, as before";
	EXPECT_EQ(parse_interval("1ms", true), 10000U);
	EXPECT_EQ(parse_interval("250us", true), 2500U);
	EXPECT_EQ(parse_interval("0.5ms", true), 5000U);
	EXPECT_EQ(parse_interval("100000ns", true), 1000U);
	EXPECT_EQ(parse_interval("1s", true), 10000000U);
	EXPECT_EQ(parse_interval("65536", false), 65536U) << "a counter source: events";
	EXPECT_THROW(parse_interval("1ms", false), kprofile::Failure) << "events have no unit";
	EXPECT_THROW(parse_interval("1h", true), kprofile::Failure);
	EXPECT_THROW(parse_interval("abc", true), kprofile::Failure);
	EXPECT_THROW(parse_interval("0", true), kprofile::Failure);
	EXPECT_THROW(parse_interval("-5", true), kprofile::Failure);
	EXPECT_THROW(parse_interval("1000s", true), kprofile::Failure) << "over 2^32 units";
	EXPECT_EQ(frequency_interval(1000), 10000U) << "-F 1000 is 1 ms";
	EXPECT_EQ(frequency_interval(4000), 2500U);
	EXPECT_THROW(frequency_interval(0), kprofile::Failure);
	try {
		parse_interval("1ms", false);
	} catch (const kprofile::Failure &f) {
		EXPECT_EQ(f.error().code, kprofile::ExitCode::Usage);
	}
}

// The review's `-C 5` on a 2-CPU guest was a bare EINVAL after the
// command had started; now it is a usage error naming the CPUs.
TEST(RecordArgs, CpuListIsCheckedAgainstTheMachine)
{
	auto map = check_cpu_list("0-1", 2);
	EXPECT_EQ(map[0], 0x03);
	try {
		check_cpu_list("5", 2);
		FAIL() << "CPU 5 of 2 accepted";
	} catch (const kprofile::Failure &f) {
		EXPECT_EQ(f.error().code, kprofile::ExitCode::Usage);
		EXPECT_NE(f.error().what.find("CPU 5 does not exist"), std::string::npos);
		ASSERT_FALSE(f.error().hints.empty());
		EXPECT_NE(f.error().hints[0].find("0-1"), std::string::npos);
	}
	EXPECT_THROW(check_cpu_list("abc", 2), kprofile::Failure);
}

// `-o /nonexistent/x.data` failed only after the command had run.
TEST(RecordArgs, OutputPathIsCheckedFirst)
{
	EXPECT_NO_THROW(check_output_path("/tmp/kprofile-test.data"));
	EXPECT_NO_THROW(check_output_path("relative.data"));
	try {
		check_output_path("/nonexistent/x.data");
		FAIL() << "a missing directory accepted";
	} catch (const kprofile::Failure &f) {
		EXPECT_EQ(f.error().code, kprofile::ExitCode::Usage);
		EXPECT_NE(f.error().what.find("/nonexistent/x.data"), std::string::npos);
		EXPECT_EQ(f.error().what.find(".tmp"), std::string::npos) << "no temporary name";
	}
	EXPECT_THROW(check_output_path("/tmp"), kprofile::Failure) << "a directory";
	EXPECT_THROW(check_output_path("/etc/passwd/x"), kprofile::Failure) << "not a directory";
}

// SPDX-License-Identifier: GPL-2.0
// `record -- CMD`: the command is held until exec, its new image is mapped
// when exec() returns, its exit status is kept, and exec failure is an
// error that says so.
#include <gtest/gtest.h>

#include "record/launch.h"
#include "record/maps.h"

using namespace kprofile::record;

TEST(RecordLaunch, MapsShowTheNewImageAfterExec)
{
	Command cmd({"sleep", "5"});
	ASSERT_GT(cmd.pid(), 0);
	cmd.exec();
	bool found = false;
	for (const auto &m : executable_mappings(read_maps(cmd.pid())))
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

TEST(RecordLaunch, CpuListsAndSourceNames)
{
	auto map = parse_cpu_list("0-2,9");
	ASSERT_GE(map.size(), 2U);
	EXPECT_EQ(map[0], 0x07);
	EXPECT_EQ(map[1], 0x02);
	EXPECT_EQ(map.size() % 8, 0U) << "whole 64-bit words, as sched_setaffinity's";
	EXPECT_THROW(parse_cpu_list("3-1"), std::invalid_argument);
	EXPECT_THROW(parse_cpu_list("x"), std::invalid_argument);
	EXPECT_THROW(parse_cpu_list(""), std::invalid_argument);

	std::vector<SourceDesc> known = {{0, "ProfileTime", 10000, true, true, ""},
					 {0x13, "ProfileTotalCycles", 65536, false, false, "no PMU"}};
	EXPECT_EQ(parse_source("ProfileTime", known), 0U);
	EXPECT_EQ(parse_source("TotalCycles", known), 0x13U);
	EXPECT_EQ(parse_source("0x13", known), 0x13U);
	EXPECT_EQ(parse_source("19", known), 0x13U);
	EXPECT_THROW(parse_source("ProfileNothing", known), kprofile::Failure);
	EXPECT_THROW(parse_source("0x99", known), kprofile::Failure);
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

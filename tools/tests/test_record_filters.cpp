// SPDX-License-Identifier: GPL-2.0
// `kprofile report` options: --source through the one SOURCE parser.
#include <gtest/gtest.h>

#include "errors.h"
#include "record/report_model.h"

using namespace kprofile;
using namespace kprofile::record;

namespace {

ProfileData two_sources()
{
	ProfileData d;
	d.machine.interface = "emon";
	d.sources = {{0x00, "ProfileTime", 10000, true}, {0x13, "ProfileTotalCycles", 65536, false}};
	return d;
}

// The message and hints of the Failure @f throws.
template <typename F>
std::string failure_of(F f)
{
	try {
		f();
	} catch (const Failure &e) {
		EXPECT_EQ(e.error().code, ExitCode::Usage);
		return e.error().message();
	}
	ADD_FAILURE() << "no Failure";
	return {};
}

} // namespace

TEST(RecordFilters, SourceFilterTakesNamesAliasesAndNumbers)
{
	const ProfileData d = two_sources();
	for (const char *s : {"time", "Timer", "timer", "ProfileTime", "Time", "0", "0x00",
			      "cpu-clock"})
		EXPECT_EQ(resolve_source_filter(d, {s}), std::vector<std::string>{"ProfileTime"}) << s;
	EXPECT_EQ(resolve_source_filter(d, {"cycles"}),
		  std::vector<std::string>{"ProfileTotalCycles"});
	EXPECT_TRUE(resolve_source_filter(d, {}).empty()) << "no filter: every source";
}

TEST(RecordFilters, SourceFilterRefusesWhatTheRecordingLacks)
{
	const ProfileData d = two_sources();
	std::string msg = failure_of([&] { resolve_source_filter(d, {"TotalIssues"}); });
	EXPECT_NE(msg.find("the recording has no ProfileTotalIssues"), std::string::npos) << msg;
	EXPECT_NE(msg.find("ProfileTime (0x00)"), std::string::npos) << "names what it has: " << msg;

	msg = failure_of([&] { resolve_source_filter(d, {"Tme"}); });
	EXPECT_NE(msg.find("Did you mean"), std::string::npos) << msg;
}

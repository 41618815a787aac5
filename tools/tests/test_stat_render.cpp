// SPDX-License-Identifier: GPL-2.0
// `kprofile stat` output: perf-stat-like text with <not supported> and the
// reason, per-thread rows, and the JSON document's stable keys.
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "stat_render.h"

using namespace kprofile;
using nlohmann::json;

namespace {

std::set<std::string> keys(const json &j)
{
	std::set<std::string> out;

	for (const auto &[k, v] : j.items())
		out.insert(k);
	return out;
}

// No PMU: switches and cycles counted, a counter not supported.
StatResult no_pmu()
{
	StatResult r;

	r.command = {"./spin", "1"};
	r.elapsed_seconds = 1.25;
	r.totals.context_switches = 1234;
	r.totals.cycle_time = 987654321;
	r.totals.threads = 2;
	StatCounter c;
	c.source = 0x02;
	c.name = "ProfileTotalIssues";
	c.state = StatCounter::State::NotSupported;
	c.reason = "no profile interface: hidden by the hypervisor";
	r.counters.push_back(c);
	ThreadRow a, b;
	a.tid = a.pid = 100;
	a.comm = "spin";
	a.context_switches = 1000;
	a.cycle_time = 900000000;
	b.tid = 101;
	b.pid = 100;
	b.comm = "spin";
	b.exited = true;
	b.context_switches = 234;
	b.cycle_time = 87654321;
	r.threads = {a, b};
	return r;
}

// A PMU: two counters counted, one not counted (no counter free).
StatResult with_pmu()
{
	StatResult r = no_pmu();
	StatCounter issues, branches, misses;

	issues.source = 0x02;
	issues.name = "ProfileTotalIssues";
	issues.state = StatCounter::State::Counted;
	issues.value = 5000000;
	issues.entry = 0;
	branches.source = 0x06;
	branches.name = "ProfileBranchInstructions";
	branches.state = StatCounter::State::Counted;
	branches.value = 7;
	branches.entry = 1;
	misses.source = 0x0b;
	misses.name = "ProfileBranchMispredictions";
	misses.state = StatCounter::State::NotCounted;
	misses.reason = "all 4 counters in use: 0:reserve pid 42";
	r.counters = {issues, branches, misses};
	r.totals.counters_valid = true;
	r.totals.counters = {5000000, 7};
	r.threads[0].counters = {4000000, 5};
	r.threads[1].counters = {1000000, 2};
	return r;
}

} // namespace

TEST(StatRender, GroupsDigits)
{
	EXPECT_EQ(group_digits(0), "0");
	EXPECT_EQ(group_digits(999), "999");
	EXPECT_EQ(group_digits(1000), "1,000");
	EXPECT_EQ(group_digits(987654321), "987,654,321");
	EXPECT_EQ(group_digits(18446744073709551615ULL), "18,446,744,073,709,551,615");
}

TEST(StatRender, TextHasSwitchesCyclesAndNotSupportedWithReason)
{
	std::string t = render_stat(no_pmu());

	EXPECT_NE(t.find("Performance counter stats for './spin 1' (2 threads)"), std::string::npos) << t;
	EXPECT_NE(t.find("1,234      context-switches"), std::string::npos) << t;
	EXPECT_NE(t.find("987,654,321      cycle-time"), std::string::npos) << t;
	EXPECT_NE(t.find("<not supported>      ProfileTotalIssues"), std::string::npos) << t;
	EXPECT_NE(t.find("# no profile interface: hidden by the hypervisor"), std::string::npos) << t;
	EXPECT_NE(t.find("1.250000000 seconds time elapsed"), std::string::npos) << t;
	EXPECT_EQ(t.find("Per thread"), std::string::npos) << t;
	EXPECT_EQ(t.find("exited with status"), std::string::npos) << t;
}

TEST(StatRender, TextShowsCountsNotCountedAndExitStatus)
{
	StatResult r = with_pmu();

	r.exit_status = 3;
	std::string t = render_stat(r);
	EXPECT_NE(t.find("5,000,000      ProfileTotalIssues"), std::string::npos) << t;
	EXPECT_NE(t.find("7      ProfileBranchInstructions"), std::string::npos) << t;
	EXPECT_NE(t.find("<not counted>      ProfileBranchMispredictions"), std::string::npos) << t;
	EXPECT_NE(t.find("reserve pid 42"), std::string::npos) << t;
	EXPECT_NE(t.find("exited with status 3"), std::string::npos) << t;
}

// F3: with no PMU every default counter had the same 100-character
// reason, printed three times.
TEST(StatRender, AReasonSharedByCountersIsPrintedOnce)
{
	StatResult r = no_pmu();
	StatCounter branches = r.counters[0];
	branches.source = 0x06;
	branches.name = "ProfileBranchInstructions";
	r.counters.push_back(branches);
	r.counters.push_back(branches);
	r.counters.back().name = "ProfileBranchMispredictions";
	const std::string t = render_stat(r);
	const std::string why = "no profile interface: hidden by the hypervisor";

	EXPECT_EQ(t.find(why), t.rfind(why)) << t;
	EXPECT_NE(t.find("<not supported>      ProfileTotalIssues          # " + why), std::string::npos)
		<< "the first row keeps it: " << t;
	EXPECT_NE(t.find("ProfileBranchMispredictions # (as for ProfileTotalIssues)"),
		  std::string::npos) << t;
}

// perf stat -x SEP: machine-readable lines.
TEST(StatRender, SeparatorLinesAsPerfStatX)
{
	StatResult r = with_pmu();
	EXPECT_EQ(render_stat_csv(r, ","),
		  "1234,,context-switches\n"
		  "987654321,,cycle-time\n"
		  "5000000,,ProfileTotalIssues\n"
		  "7,,ProfileBranchInstructions\n"
		  "<not counted>,,ProfileBranchMispredictions\n");
	r.per_thread = true;
	const std::string t = render_stat_csv(r, ";");
	EXPECT_NE(t.find("spin-100;1000;;context-switches\n"), std::string::npos) << t;
	EXPECT_NE(t.find("spin-101;1000000;;ProfileTotalIssues\n"), std::string::npos) << t;
}

TEST(StatRender, AttachedToAPidSaysSo)
{
	StatResult r = no_pmu();
	r.command.clear();
	r.pid = 4242;
	EXPECT_NE(render_stat(r).find("Performance counter stats for process id '4242'"),
		  std::string::npos) << render_stat(r);
}

TEST(StatRender, PerThreadRows)
{
	StatResult r = with_pmu();

	r.per_thread = true;
	std::string t = render_stat(r);
	EXPECT_NE(t.find("Per thread"), std::string::npos) << t;
	EXPECT_NE(t.find("4,000,000"), std::string::npos) << t;
	EXPECT_NE(t.find("87,654,321"), std::string::npos) << t;
	EXPECT_EQ(counter_cell(r.counters[0], &r.threads[1]), "1,000,000");
	EXPECT_EQ(counter_cell(r.counters[2], &r.threads[1]), "<not counted>");
}

TEST(StatRender, JsonKeysAndValues)
{
	json j = stat_json(with_pmu());

	EXPECT_EQ(keys(j), (std::set<std::string>{"command", "exit_status", "elapsed_seconds",
						   "context_switches", "cycle_time", "threads",
						   "counters", "per_thread", "task_clock_seconds",
						   "unprivileged"}));
	EXPECT_TRUE(j["task_clock_seconds"].is_null());
	EXPECT_FALSE(j["unprivileged"].get<bool>());
	EXPECT_TRUE(j["per_thread"].is_null());
	EXPECT_EQ(j["context_switches"], 1234);
	EXPECT_EQ(j["cycle_time"], 987654321);
	ASSERT_EQ(j["counters"].size(), 3u);
	for (const auto &c : j["counters"])
		EXPECT_EQ(keys(c), (std::set<std::string>{"source", "name", "supported", "counted",
							   "count", "reason"}));
	EXPECT_EQ(j["counters"][0]["count"], 5000000);
	EXPECT_TRUE(j["counters"][2]["supported"]);
	EXPECT_FALSE(j["counters"][2]["counted"]);
	EXPECT_TRUE(j["counters"][2]["count"].is_null());
}

TEST(StatRender, JsonNotSupportedAndPerThread)
{
	StatResult r = no_pmu();

	r.per_thread = true;
	json j = stat_json(r);
	EXPECT_FALSE(j["counters"][0]["supported"]);
	EXPECT_TRUE(j["counters"][0]["count"].is_null());
	EXPECT_EQ(j["counters"][0]["reason"], "no profile interface: hidden by the hypervisor");
	ASSERT_EQ(j["per_thread"].size(), 2u);
	EXPECT_EQ(keys(j["per_thread"][0]),
		  (std::set<std::string>{"tid", "pid", "comm", "exited", "context_switches",
					 "cycle_time", "counters"}));
	EXPECT_TRUE(j["per_thread"][1]["exited"]);
	EXPECT_TRUE(j["per_thread"][0]["counters"][0].is_null());
}

// SPDX-License-Identifier: GPL-2.0
// The `sources --conflicts` answer: placements, the reason, JSON keys.
#include <cstring>

#include <gtest/gtest.h>

#include "conflicts_render.h"

namespace kprofile {
namespace {

kprofile_schedule answer(bool fits, std::vector<std::uint32_t> counters, const char *reason)
{
	kprofile_schedule s{};

	s.flags = fits ? KPROFILE_SCHED_FITS : 0;
	s.num_counters = 4;
	s.busy_mask = 0x3;
	s.nr_sources = static_cast<std::uint32_t>(counters.size());
	for (std::size_t i = 0; i < counters.size(); i++)
		s.counters[i] = counters[i];
	std::strncpy(s.reason, reason, sizeof(s.reason) - 1);
	return s;
}

const std::vector<ParsedSource> asked = {
	{KPROFILE_SOURCE_TOTAL_ISSUES, "ProfileTotalIssues"},
	{KPROFILE_SOURCE_TIME, "ProfileTime"},
	{KPROFILE_SOURCE_CACHE_MISSES, "ProfileCacheMisses"},
};

TEST(ConflictsRender, PlacementsFollowTheModuleAndProfileTimeNeedsNoCounter)
{
	const Conflicts c = conflicts_from(answer(true, {2, KPROFILE_NO_COUNTER, 3}, ""), asked);

	ASSERT_EQ(c.placements.size(), 3U);
	EXPECT_EQ(c.placements[0].counter, 2U);
	EXPECT_FALSE(c.placements[1].counter);
	EXPECT_EQ(c.placements[2].counter, 3U);
	const std::string text = render_conflicts(c);
	EXPECT_NE(text.find("timer"), std::string::npos);
	EXPECT_NE(text.find("can run together"), std::string::npos);
	EXPECT_NE(text.find("busy now: 0x3"), std::string::npos);
}

TEST(ConflictsRender, AMisfitShowsTheModulesReason)
{
	const char *why = "4 of 4 counters are held by perf (the NMI watchdog?)";
	const Conflicts c = conflicts_from(
		answer(false, {KPROFILE_NO_COUNTER, KPROFILE_NO_COUNTER, KPROFILE_NO_COUNTER}, why),
		asked);
	const std::string text = render_conflicts(c);

	EXPECT_FALSE(c.fits);
	EXPECT_NE(text.find("cannot run together now: "), std::string::npos);
	EXPECT_NE(text.find(why), std::string::npos);
	EXPECT_NE(text.find("0x0A  ProfileCacheMisses"), std::string::npos);
}

TEST(ConflictsRender, TheReasonNamesTheSourceAsTheUserAskedAndIdsAreUpperCaseHex)
{
	// The module writes "source 0x2: ..." (kmod/pmu_schedule.c); sources
	// lists ids as 0x0A, and so does --conflicts now.
	const Conflicts c = conflicts_from(
		answer(false, {KPROFILE_NO_COUNTER, KPROFILE_NO_COUNTER, KPROFILE_NO_COUNTER},
		       "source 0x2: no profile interface; source 0x7f: other"),
		asked);
	EXPECT_EQ(c.reason, "ProfileTotalIssues (0x02): no profile interface; source 0x7f: other");
	const std::string text = render_conflicts(c);
	EXPECT_EQ(text.find("0x0a"), std::string::npos) << text;
	EXPECT_NE(text.find("0x0A  ProfileCacheMisses"), std::string::npos) << text;
}

TEST(ConflictsRender, JsonKeysAreStable)
{
	const auto fit = conflicts_json(conflicts_from(answer(true, {0, KPROFILE_NO_COUNTER, 1}, ""),
						       asked));
	const auto misfit = conflicts_json(
		conflicts_from(answer(false, {0, KPROFILE_NO_COUNTER, KPROFILE_NO_COUNTER}, "no"),
			       asked));

	for (const auto *key : {"fits", "num_counters", "busy_mask", "placements", "reason"}) {
		EXPECT_TRUE(fit.contains(key)) << key;
		EXPECT_TRUE(misfit.contains(key)) << key;
	}
	EXPECT_TRUE(fit["reason"].is_null());
	EXPECT_EQ(misfit["reason"], "no");
	EXPECT_EQ(fit["placements"][0]["counter"], 0);
	EXPECT_TRUE(fit["placements"][1]["counter"].is_null());
	EXPECT_EQ(misfit["placements"][2]["name"], "ProfileCacheMisses");
	EXPECT_EQ(misfit["placements"][2]["value"], KPROFILE_SOURCE_CACHE_MISSES);
}

} // namespace
} // namespace kprofile

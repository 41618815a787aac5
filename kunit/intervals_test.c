// SPDX-License-Identifier: GPL-2.0
/*
 * intervals_test.c - KUnit suite "kprofile_intervals": the machine-wide
 * interval of each source (HalSetProfileInterval semantics:
 * clamp to the range, return what is used) and the list contract of
 * EventTraceProfileSourceListInformation (ENOSPC with the count needed).
 *
 * Ranges and counts come from the documents (docs/profiles.md, "Sources":
 * the HAL's ranges as xperf -pmcsources shows them, Geoff Chappell's
 * Emon and Amd64 tables), not from the module's own constants and tables.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/string.h>

#include "../kmod/sources.h"
#include "sources_fixture.h"

#define SRC_TIME		KPROFILE_SOURCE_TIME
#define SRC_BRANCH_MISPRED	0x0b
#define SRC_LLC_MISSES		0x1d
#define TIME_DEF		KP_TEST_TIME_DEF
#define TIME_MIN		KP_TEST_TIME_MIN
#define TIME_MAX		KP_TEST_TIME_MAX
#define CTR_DEF			KP_TEST_CTR_DEF
#define CTR_MIN			KP_TEST_CTR_MIN
#define CTR_MAX			KP_TEST_CTR_MAX
#define NR_GENERIC		KP_TEST_NR_GENERIC
#define EMON_LAST		KP_TEST_EMON_LAST
#define AMD64_LAST		KP_TEST_AMD64_LAST

struct clamp_case {
	u32 request, used;
};

static void expect_clamps(struct kunit *test, struct kp_sources *s,
			  u32 source, const struct clamp_case *c,
			  unsigned int n)
{
	unsigned int i;
	u32 iv, got;

	for (i = 0; i < n; i++) {
		iv = c[i].request;
		KUNIT_ASSERT_EQ(test, kp_source_set_interval(s, source, &iv),
				0);
		KUNIT_EXPECT_EQ_MSG(test, iv, c[i].used,
				    "source %#x request %u", source,
				    c[i].request);
		got = 0;
		KUNIT_ASSERT_EQ(test, kp_source_get_interval(s, source, &got),
				0);
		KUNIT_EXPECT_EQ(test, got, c[i].used);
	}
}

static void intervals_clamp_time(struct kunit *test)
{
	static const struct clamp_case c[] = {
		{ 0, TIME_MIN }, { 1, TIME_MIN }, { TIME_MIN - 1, TIME_MIN },
		{ TIME_MIN, TIME_MIN }, { 5000, 5000 }, { TIME_MAX, TIME_MAX },
		{ TIME_MAX + 1, TIME_MAX }, { U32_MAX, TIME_MAX },
	};

	expect_clamps(test, kp_test_emon_model(test, 7, 0), SRC_TIME, c,
		      ARRAY_SIZE(c));
	expect_clamps(test, kp_test_none_model(test), SRC_TIME, c, ARRAY_SIZE(c));
}

static void intervals_clamp_counter(struct kunit *test)
{
	static const struct clamp_case c[] = {
		{ 0, CTR_MIN }, { CTR_MIN - 1, CTR_MIN }, { CTR_MIN, CTR_MIN },
		{ 10000, 10000 }, { CTR_MAX, CTR_MAX },
		{ CTR_MAX + 1U, CTR_MAX }, { U32_MAX, CTR_MAX },
	};

	expect_clamps(test, kp_test_emon_model(test, 7, 0), SRC_BRANCH_MISPRED, c,
		      ARRAY_SIZE(c));
	expect_clamps(test, kp_test_amd64_model(test), 0x30, c, ARRAY_SIZE(c));
}

static void expect_range(struct kunit *test, const struct kp_sources *s,
			 u32 source, u32 def, u32 min, u32 max)
{
	struct kprofile_source_info info;
	u32 iv = 0;

	KUNIT_ASSERT_EQ(test, kp_source_query(s, source, &info), 0);
	KUNIT_EXPECT_EQ(test, info.default_interval, def);
	KUNIT_EXPECT_EQ(test, info.min_interval, min);
	KUNIT_EXPECT_EQ(test, info.max_interval, max);
	KUNIT_EXPECT_EQ(test, info.interval, def);
	KUNIT_ASSERT_EQ(test, kp_source_get_interval(s, source, &iv), 0);
	KUNIT_EXPECT_EQ(test, iv, def);
}

static void intervals_defaults(struct kunit *test)
{
	struct kp_sources *emon = kp_test_emon_model(test, 7, 0);
	struct kp_sources *amd = kp_test_amd64_model(test);

	expect_range(test, emon, SRC_TIME, TIME_DEF, TIME_MIN, TIME_MAX);
	expect_range(test, emon, SRC_BRANCH_MISPRED, CTR_DEF, CTR_MIN,
		     CTR_MAX);
	expect_range(test, emon, 0x1f, CTR_DEF, CTR_MIN, CTR_MAX);
	expect_range(test, amd, SRC_TIME, TIME_DEF, TIME_MIN, TIME_MAX);
	expect_range(test, amd, AMD64_LAST, CTR_DEF, CTR_MIN, CTR_MAX);
}

static void intervals_per_source(struct kunit *test)
{
	struct kp_sources *s = kp_test_emon_model(test, 7, 0);
	u32 iv = 5000, other;

	KUNIT_ASSERT_EQ(test, kp_source_set_interval(s, 0x19, &iv), 0);
	KUNIT_ASSERT_EQ(test, kp_source_get_interval(s, 0x1a, &other), 0);
	KUNIT_EXPECT_EQ(test, other, CTR_DEF);
	/* ProfileTotalCycles uses the same event but is its own source. */
	KUNIT_ASSERT_EQ(test, kp_source_get_interval(s, 0x13, &other), 0);
	KUNIT_EXPECT_EQ(test, other, CTR_DEF);
	KUNIT_ASSERT_EQ(test, kp_source_get_interval(s, SRC_TIME, &other), 0);
	KUNIT_EXPECT_EQ(test, other, TIME_DEF);
	KUNIT_ASSERT_EQ(test, kp_source_get_interval(s, 0x19, &other), 0);
	KUNIT_EXPECT_EQ(test, other, 5000U);
}

static void intervals_unsupported(struct kunit *test)
{
	struct kp_sources *s = kp_test_emon_model(test, 7, BIT(4));
	struct kprofile_source_info info;
	u32 iv = 8192;

	KUNIT_EXPECT_EQ(test, kp_source_set_interval(s, SRC_LLC_MISSES, &iv),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, iv, 8192U);
	KUNIT_EXPECT_EQ(test, kp_source_get_interval(s, SRC_LLC_MISSES, &iv),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, kp_source_set_interval(s, 0x01, &iv),
			-EOPNOTSUPP);
	/* Query still answers, with the range and the reason. */
	KUNIT_ASSERT_EQ(test, kp_source_query(s, SRC_LLC_MISSES, &info), 0);
	KUNIT_EXPECT_EQ(test, info.min_interval, CTR_MIN);
	KUNIT_EXPECT_NE(test, info.reason[0], '\0');
}

static void expect_list(struct kunit *test, const struct kp_sources *s,
			u32 need)
{
	struct kprofile_source_info *buf, one;
	u32 count, i;

	KUNIT_ASSERT_EQ(test, kp_source_count(s), need);
	buf = kunit_kcalloc(test, need + 2, sizeof(*buf), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);

	count = 0;
	KUNIT_EXPECT_EQ(test, kp_source_list(s, NULL, &count), -ENOSPC);
	KUNIT_EXPECT_EQ(test, count, need);

	/* One short: ENOSPC, the count needed, and nothing written. */
	memset(buf, 0xa5, (need + 2) * sizeof(*buf));
	count = need - 1;
	KUNIT_EXPECT_EQ(test, kp_source_list(s, buf, &count), -ENOSPC);
	KUNIT_EXPECT_EQ(test, count, need);
	KUNIT_EXPECT_NULL(test, memchr_inv(buf, 0xa5,
					   (need + 2) * sizeof(*buf)));

	/* Room to spare: exactly @need written, the rest untouched. */
	count = need + 2;
	KUNIT_ASSERT_EQ(test, kp_source_list(s, buf, &count), 0);
	KUNIT_EXPECT_EQ(test, count, need);
	KUNIT_EXPECT_NULL(test, memchr_inv(&buf[need], 0xa5,
					   2 * sizeof(*buf)));

	/* Exactly enough. */
	count = need;
	KUNIT_ASSERT_EQ(test, kp_source_list(s, buf, &count), 0);
	KUNIT_ASSERT_EQ(test, count, need);
	for (i = 0; i < count; i++) {
		if (i < NR_GENERIC)
			KUNIT_EXPECT_EQ(test, buf[i].source, i);
		else
			KUNIT_EXPECT_GT_MSG(test, buf[i].source,
					    buf[i - 1].source,
					    "entry %u not ascending", i);
		/* Each entry is what a query of that source says. */
		KUNIT_ASSERT_EQ(test, kp_source_query(s, buf[i].source, &one),
				0);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(&one, &buf[i], sizeof(one)),
				    0, "entry %u (%#x)", i, buf[i].source);
	}
	KUNIT_EXPECT_GE(test, buf[NR_GENERIC].source,
			(u32)KPROFILE_SOURCE_FIRST_SPECIFIC);
}

static void intervals_list_contract(struct kunit *test)
{
	/* Generic 0x00..0x18, then each table's specific rows. */
	expect_list(test, kp_test_emon_model(test, 7, BIT(4)),
		    NR_GENERIC + (EMON_LAST - 0x18));
	expect_list(test, kp_test_amd64_model(test), NR_GENERIC + (AMD64_LAST - 0x18));
	expect_list(test, kp_test_none_model(test), NR_GENERIC);
}

static struct kunit_case kp_intervals_cases[] = {
	KUNIT_CASE(intervals_clamp_time),
	KUNIT_CASE(intervals_clamp_counter),
	KUNIT_CASE(intervals_defaults),
	KUNIT_CASE(intervals_per_source),
	KUNIT_CASE(intervals_unsupported),
	KUNIT_CASE(intervals_list_contract),
	{}
};

static struct kunit_suite kp_intervals_suite = {
	.name = "kprofile_intervals",
	.test_cases = kp_intervals_cases,
};

kunit_test_suite(kp_intervals_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * sources_test.c - KUnit suite "kprofile_sources": the profile-source
 * model (KPROFILE_SOURCE, HalProfileSourceInformation) on machines
 * described by the fake processor: which sources each interface supports
 * and why not, what a query answers, and the shape of the tables.
 * Intervals and the list are in intervals_test.c.
 *
 * Expected sets and counts come from Geoff Chappell's studies of the Emon
 * and Amd64 profile interfaces and the HAL's documented ranges
 * (docs/profiles.md, "Sources"), not from the module's own tables.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/string.h>

#include "../kmod/detect.h"
#include "../kmod/sources.h"
#include "sources_fixture.h"

/* The generic sources the Emon table maps (Geoff Chappell). */
static const u32 emon_generic[] = { 0x00, 0x02, 0x06, 0x0a, 0x0b, 0x13 };
/* The generic sources the Amd64 table maps (Geoff Chappell). */
static const u32 amd64_generic[] = {
	0x00, 0x02, 0x06, 0x08, 0x09, 0x0b, 0x0d, 0x14, 0x15,
};

#define EMON_ROWS		13
#define AMD64_ROWS		176
#define SRC_TIME		KPROFILE_SOURCE_TIME
#define SRC_CACHE_MISSES	0x0a
#define SRC_LLC_MISSES		0x1d
#define SRC_MAXIMUM		KPROFILE_SOURCE_MAXIMUM

static bool in_set(const u32 *set, unsigned int n, u32 v)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (set[i] == v)
			return true;
	return false;
}

/*
 * Over every value 0..KP_SOURCE_LIMIT: supported exactly when @want says
 * so, and every known but unsupported source has a reason.
 */
static void expect_supported_set(struct kunit *test,
				 const struct kp_sources *s,
				 bool (*want)(u32 source))
{
	char reason[KPROFILE_REASON_LEN];
	u32 v;

	for (v = 0; v < KP_SOURCE_LIMIT; v++) {
		bool sup = kp_source_supported(s, v, reason, sizeof(reason));

		KUNIT_EXPECT_EQ_MSG(test, sup, want(v),
				    "source %#x: reason \"%s\"", v, reason);
		if (sup)
			KUNIT_EXPECT_STREQ(test, reason, "");
		else if (kp_source_known(s, v))
			KUNIT_EXPECT_NE_MSG(test, reason[0], '\0',
					    "source %#x has no reason", v);
	}
}

/* --- support rules ----------------------------------------------------- */

static bool want_emon_bit4(u32 v)
{
	if (v == SRC_CACHE_MISSES || v == SRC_LLC_MISSES)
		return false;
	return in_set(emon_generic, ARRAY_SIZE(emon_generic), v) ||
	       (v >= KPROFILE_SOURCE_FIRST_SPECIFIC && v <= KP_TEST_EMON_LAST);
}

static void sources_emon_ebx_len7_bit4(struct kunit *test)
{
	struct kp_sources *s = kp_test_emon_model(test, 7, BIT(4));
	struct kprofile_source_info info;

	expect_supported_set(test, s, want_emon_bit4);

	KUNIT_ASSERT_EQ(test, kp_source_query(s, SRC_LLC_MISSES, &info), 0);
	KUNIT_EXPECT_STREQ(test, info.name, "ProfileLLCMisses");
	KUNIT_EXPECT_FALSE(test, info.flags & KPROFILE_SOURCE_SUPPORTED);
	KUNIT_EXPECT_TRUE(test, info.flags & KPROFILE_SOURCE_IN_TABLE);
	KUNIT_EXPECT_EQ(test, info.ebx_bit, 4);
	KUNIT_EXPECT_EQ(test, info.select, 0x0003412eU);
	KUNIT_EXPECT_EQ(test, info.interval, 0U);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(info.reason, "EBX bit 4"),
				  "reason \"%s\"", info.reason);
}

static bool want_emon_len2(u32 v)
{
	/* ProfileTime, then the sources of EBX bits 0 and 1 (the Emon table). */
	static const u32 set[] = { 0x00, 0x02, 0x13, 0x19, 0x1a };

	return in_set(set, ARRAY_SIZE(set), v);
}

static void sources_emon_ebx_len2(struct kunit *test)
{
	struct kp_sources *s = kp_test_emon_model(test, 2, 0);
	struct kprofile_source_info info;

	expect_supported_set(test, s, want_emon_len2);
	/* Bit 2 is clear but not meaningful. */
	KUNIT_ASSERT_EQ(test, kp_source_query(s, 0x1b, &info), 0);
	KUNIT_EXPECT_FALSE(test, info.flags & KPROFILE_SOURCE_SUPPORTED);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(info.reason, "EBX bit 2"),
				  "reason \"%s\"", info.reason);
}

static bool want_emon_all(u32 v)
{
	return in_set(emon_generic, ARRAY_SIZE(emon_generic), v) ||
	       (v >= KPROFILE_SOURCE_FIRST_SPECIFIC && v <= KP_TEST_EMON_LAST);
}

static void sources_emon_all_events(struct kunit *test)
{
	struct kp_sources *s = kp_test_emon_model(test, 7, 0);

	expect_supported_set(test, s, want_emon_all);
}

static bool want_amd64(u32 v)
{
	return in_set(amd64_generic, ARRAY_SIZE(amd64_generic), v) ||
	       (v >= KPROFILE_SOURCE_FIRST_SPECIFIC && v <= KP_TEST_AMD64_LAST);
}

static void sources_amd64_all_table(struct kunit *test)
{
	struct kp_sources *s = kp_test_amd64_model(test);
	const struct kp_source_row *rows;
	unsigned int i, nr;

	expect_supported_set(test, s, want_amd64);
	rows = kp_table(KPROFILE_INTERFACE_AMD64, &nr);
	KUNIT_ASSERT_EQ(test, nr, (unsigned int)AMD64_ROWS);
	for (i = 0; i < nr; i++)
		KUNIT_EXPECT_TRUE_MSG(test,
				      kp_source_supported(s, rows[i].value,
							  NULL, 0),
				      "Amd64 row %u (%#x)", i, rows[i].value);
}

static bool want_time_only(u32 v)
{
	return v == SRC_TIME;
}

static void sources_none_time_only(struct kunit *test)
{
	struct kp_sources *s = kp_test_none_model(test);
	char reason[KPROFILE_REASON_LEN];
	u32 iv = 5000;

	expect_supported_set(test, s, want_time_only);
	/* The interface's own reason is passed on. */
	KUNIT_EXPECT_FALSE(test, kp_source_supported(s, 0x02, reason,
						     sizeof(reason)));
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(reason, "version 0"),
				  "reason \"%s\"", reason);
	/* No table: specific values are unknown. */
	KUNIT_EXPECT_FALSE(test, kp_source_known(s, 0x19));
	KUNIT_EXPECT_EQ(test, kp_source_set_interval(s, SRC_TIME, &iv), 0);
	KUNIT_EXPECT_EQ(test, iv, 5000U);
	KUNIT_EXPECT_EQ(test, kp_source_set_interval(s, 0x02, &iv),
			-EOPNOTSUPP);
}

static void sources_generic_not_in_table(struct kunit *test)
{
	struct kp_sources *emon = kp_test_emon_model(test, 7, 0);
	struct kp_sources *amd = kp_test_amd64_model(test);
	struct kprofile_source_info info;

	/* ProfileAlignmentFixup: in neither table. */
	KUNIT_ASSERT_EQ(test, kp_source_query(emon, 0x01, &info), 0);
	KUNIT_EXPECT_STREQ(test, info.name, "ProfileAlignmentFixup");
	KUNIT_EXPECT_FALSE(test, info.flags & KPROFILE_SOURCE_SUPPORTED);
	KUNIT_EXPECT_FALSE(test, info.flags & KPROFILE_SOURCE_IN_TABLE);
	KUNIT_EXPECT_TRUE(test, info.flags & KPROFILE_SOURCE_GENERIC);
	KUNIT_EXPECT_NE(test, info.reason[0], '\0');
	KUNIT_EXPECT_EQ(test, info.select, 0U);
	KUNIT_EXPECT_EQ(test, info.ebx_bit, -1);
	/* ProfileCacheMisses: Emon maps it, Amd64 does not. */
	KUNIT_ASSERT_EQ(test, kp_source_query(amd, SRC_CACHE_MISSES, &info),
			0);
	KUNIT_EXPECT_FALSE(test, info.flags & KPROFILE_SOURCE_SUPPORTED);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(info.reason, "Amd64"),
				  "reason \"%s\"", info.reason);
	/* ProfileDcacheMisses: Amd64 maps it, Emon does not. */
	KUNIT_EXPECT_FALSE(test, kp_source_supported(emon, 0x08, NULL, 0));
	KUNIT_EXPECT_TRUE(test, kp_source_supported(amd, 0x08, NULL, 0));
}

static void sources_specific_value_per_interface(struct kunit *test)
{
	struct kp_sources *emon = kp_test_emon_model(test, 7, 0);
	struct kp_sources *amd = kp_test_amd64_model(test);
	struct kprofile_source_info info;
	u32 iv = KP_TEST_CTR_DEF;

	/* 0x30 is past the Emon table, inside the Amd64 one. */
	KUNIT_EXPECT_FALSE(test, kp_source_known(emon, 0x30));
	KUNIT_EXPECT_EQ(test, kp_source_query(emon, 0x30, &info), -EINVAL);
	KUNIT_EXPECT_EQ(test, kp_source_set_interval(emon, 0x30, &iv),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, kp_source_get_interval(emon, 0x30, &iv),
			-EINVAL);

	KUNIT_EXPECT_TRUE(test, kp_source_known(amd, 0x30));
	KUNIT_ASSERT_EQ(test, kp_source_query(amd, 0x30, &info), 0);
	KUNIT_EXPECT_TRUE(test, info.flags & KPROFILE_SOURCE_SUPPORTED);
	KUNIT_EXPECT_TRUE(test, info.flags & KPROFILE_SOURCE_IN_TABLE);
	KUNIT_EXPECT_FALSE(test, info.flags & KPROFILE_SOURCE_GENERIC);
	KUNIT_EXPECT_EQ(test, info.source, 0x30U);
	KUNIT_EXPECT_EQ(test, strncmp(info.name, "Profile", 7), 0);

	/* The same number is a different event on the two interfaces. */
	KUNIT_ASSERT_EQ(test, kp_source_query(emon, 0x19, &info), 0);
	KUNIT_EXPECT_STREQ(test, info.name, "ProfileUnhaltedCoreCycles");
	KUNIT_ASSERT_EQ(test, kp_source_query(amd, 0x19, &info), 0);
	KUNIT_EXPECT_STREQ(test, info.name, "ProfileFPDispatchedFPUOps");
}

static void sources_unknown_values(struct kunit *test)
{
	static const u32 bad[] = { KP_TEST_AMD64_LAST + 1, KP_SOURCE_LIMIT,
				   KP_SOURCE_LIMIT + 1, U32_MAX };
	struct kp_sources *amd = kp_test_amd64_model(test);
	struct kprofile_source_info info;
	unsigned int i;
	u32 iv;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		iv = KP_TEST_CTR_DEF;
		KUNIT_EXPECT_FALSE(test, kp_source_known(amd, bad[i]));
		KUNIT_EXPECT_FALSE(test, kp_source_supported(amd, bad[i],
							     NULL, 0));
		KUNIT_EXPECT_EQ(test, kp_source_query(amd, bad[i], &info),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, kp_source_set_interval(amd, bad[i], &iv),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, kp_source_get_interval(amd, bad[i], &iv),
				-EINVAL);
	}
}

static void sources_profile_maximum(struct kunit *test)
{
	struct kp_sources *models[] = {
		kp_test_emon_model(test, 7, 0), kp_test_amd64_model(test), kp_test_none_model(test),
	};
	struct kprofile_source_info info;
	unsigned int i;
	u32 iv;

	for (i = 0; i < ARRAY_SIZE(models); i++) {
		iv = KP_TEST_CTR_DEF;
		KUNIT_EXPECT_TRUE(test, kp_source_known(models[i],
							SRC_MAXIMUM));
		KUNIT_ASSERT_EQ(test, kp_source_query(models[i], SRC_MAXIMUM,
						      &info), 0);
		KUNIT_EXPECT_STREQ(test, info.name, "ProfileMaximum");
		KUNIT_EXPECT_FALSE(test,
				   info.flags & KPROFILE_SOURCE_SUPPORTED);
		KUNIT_EXPECT_NE(test, info.reason[0], '\0');
		KUNIT_EXPECT_EQ(test, kp_source_set_interval(models[i],
							     SRC_MAXIMUM, &iv),
				-EOPNOTSUPP);
	}
}

/* --- the tables -------------------------------------------------------- */

static const char *row_name(const struct kp_source_row *row)
{
	return row->name ? row->name : kp_generic_name(row->value);
}

static void expect_table_shape(struct kunit *test,
			       enum kprofile_interface iface,
			       unsigned int want_rows)
{
	const u32 on = KP_EVTSEL_USR | KP_EVTSEL_OS;
	const u32 off = KP_EVTSEL_EN | KP_EVTSEL_INT;
	const struct kp_source_row *rows;
	unsigned int i, j, nr;

	rows = kp_table(iface, &nr);
	KUNIT_ASSERT_NOT_NULL(test, rows);
	KUNIT_ASSERT_EQ(test, nr, want_rows);
	for (i = 0; i < nr; i++) {
		const char *name = row_name(&rows[i]);

		KUNIT_ASSERT_NOT_NULL(test, name);
		KUNIT_EXPECT_EQ_MSG(test, rows[i].select & on, on,
				    "%s: select %#x lacks USR|OS", name,
				    rows[i].select);
		KUNIT_EXPECT_EQ_MSG(test, rows[i].select & off, 0U,
				    "%s: select %#x has EN or INT", name,
				    rows[i].select);
		KUNIT_EXPECT_EQ(test, strncmp(name, "Profile", 7), 0);
		KUNIT_EXPECT_LT(test, strlen(name), (size_t)KPROFILE_NAME_LEN);
		if (iface == KPROFILE_INTERFACE_AMD64)
			KUNIT_EXPECT_EQ(test, rows[i].ebx_bit, -1);
		else if (rows[i].value != SRC_TIME)
			KUNIT_EXPECT_TRUE_MSG(test, rows[i].ebx_bit >= 0 &&
					      rows[i].ebx_bit <= 6,
					      "%s: EBX bit %d", name,
					      rows[i].ebx_bit);
		if (i)
			KUNIT_EXPECT_GT_MSG(test, rows[i].value,
					    rows[i - 1].value,
					    "%s: table not ascending", name);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_STRNEQ_MSG(test, name, row_name(&rows[j]),
						"rows %u and %u", j, i);
	}
}

static void sources_table_shape(struct kunit *test)
{
	unsigned int nr = 1;

	expect_table_shape(test, KPROFILE_INTERFACE_EMON, EMON_ROWS);
	expect_table_shape(test, KPROFILE_INTERFACE_AMD64, AMD64_ROWS);
	KUNIT_EXPECT_NULL(test, kp_table(KPROFILE_INTERFACE_NONE, &nr));
	KUNIT_EXPECT_EQ(test, nr, 0U);
}

static void sources_query_flags(struct kunit *test)
{
	struct kp_sources *emon = kp_test_emon_model(test, 7, 0);
	struct kp_sources *none = kp_test_none_model(test);
	struct kprofile_source_info info;

	KUNIT_ASSERT_EQ(test, kp_source_query(emon, SRC_TIME, &info), 0);
	KUNIT_EXPECT_EQ(test, info.flags,
			KPROFILE_SOURCE_SUPPORTED | KPROFILE_SOURCE_TIMER |
			KPROFILE_SOURCE_GENERIC | KPROFILE_SOURCE_IN_TABLE);
	KUNIT_EXPECT_STREQ(test, info.name, "ProfileTime");
	KUNIT_EXPECT_EQ(test, info.reserved[0] | info.reserved[1], 0U);

	KUNIT_ASSERT_EQ(test, kp_source_query(none, SRC_TIME, &info), 0);
	KUNIT_EXPECT_EQ(test, info.flags,
			KPROFILE_SOURCE_SUPPORTED | KPROFILE_SOURCE_TIMER |
			KPROFILE_SOURCE_GENERIC);

	KUNIT_ASSERT_EQ(test, kp_source_query(emon, 0x1e, &info), 0);
	KUNIT_EXPECT_EQ(test, info.flags,
			KPROFILE_SOURCE_SUPPORTED | KPROFILE_SOURCE_IN_TABLE);
	KUNIT_EXPECT_STREQ(test, info.name, "ProfileBranchInstructionRetired");
	KUNIT_EXPECT_EQ(test, info.select, 0x000300c4U);
	KUNIT_EXPECT_EQ(test, info.ebx_bit, 5);
	KUNIT_EXPECT_STREQ(test, info.reason, "");
}

static struct kunit_case kp_sources_cases[] = {
	KUNIT_CASE(sources_emon_ebx_len7_bit4),
	KUNIT_CASE(sources_emon_ebx_len2),
	KUNIT_CASE(sources_emon_all_events),
	KUNIT_CASE(sources_amd64_all_table),
	KUNIT_CASE(sources_none_time_only),
	KUNIT_CASE(sources_generic_not_in_table),
	KUNIT_CASE(sources_specific_value_per_interface),
	KUNIT_CASE(sources_unknown_values),
	KUNIT_CASE(sources_profile_maximum),
	KUNIT_CASE(sources_table_shape),
	KUNIT_CASE(sources_query_flags),
	{}
};

static struct kunit_suite kp_sources_suite = {
	.name = "kprofile_sources",
	.test_cases = kp_sources_cases,
};

kunit_test_suite(kp_sources_suite);

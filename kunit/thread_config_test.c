// SPDX-License-Identifier: GPL-2.0
/*
 * thread_config_test.c - KUnit suite "kprofile_thread_config": the rules of
 * KeSetHardwareCounterConfiguration (Microsoft's ntddk.h documentation) on a fake
 * processor: at most 16 entries (EINVAL), counters in use (EBUSY, naming
 * who), no PMU (EOPNOTSUPP), count 0 empties, each set replaces the last
 * and a failed one keeps it (unless Linux took one of its counters in
 * between: then none is in force), no set while thread profiling is enabled,
 * and one thread-profiling client at a time.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/err.h>
#include <linux/string.h>

#include "thread_fixture.h"

#define ISSUES		KPROFILE_SOURCE_TOTAL_ISSUES
#define BRANCHES	KPROFILE_SOURCE_BRANCH_INSTRUCTIONS
#define MISPRED		KPROFILE_SOURCE_BRANCH_MISPREDICTIONS

static struct kp_thread_fix *intel(struct kunit *test)
{
	return kp_thread_fix_new(test, kp_pmu_fix_intel(test, 2, 4, 48));
}

static int set(struct kp_thread_fix *fix, const u32 *sources, u32 n,
	       char *reason)
{
	struct kprofile_hw_config cfg = { .count = n };
	u32 i;

	for (i = 0; i < n && i < KPROFILE_MAX_COUNTERS; i++)
		cfg.counters[i].source = sources[i];
	return kp_hwconfig_set(&fix->threads, &cfg, reason,
			       KPROFILE_REASON_LEN);
}

static void expect_config(struct kunit *test, struct kp_thread_fix *fix,
			  const u32 *sources, u32 n)
{
	struct kprofile_hw_config cfg;
	struct kp_counter_holder h;
	u32 i, counting = 0;

	kp_hwconfig_query(&fix->threads, &cfg);
	KUNIT_ASSERT_EQ(test, cfg.count, n);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, cfg.counters[i].source, sources[i]);
		KUNIT_ASSERT_LT(test, cfg.counters[i].index,
				fix->pmu->desc.num_counters);
		kp_pmu_holder(&fix->pmu->pmu, cfg.counters[i].index, &h);
		KUNIT_EXPECT_EQ(test, h.kind, KP_HOLDER_COUNTING);
		KUNIT_EXPECT_EQ(test, h.source, sources[i]);
	}
	/* Thread profiling holds exactly the configured counters. */
	for (i = 0; i < fix->pmu->desc.num_counters; i++) {
		kp_pmu_holder(&fix->pmu->pmu, i, &h);
		counting += h.kind == KP_HOLDER_COUNTING;
	}
	KUNIT_EXPECT_EQ(test, counting, n);
}

static void kp_hwconfig_empty_at_start(struct kunit *test)
{
	struct kp_thread_fix *fix = intel(test);

	expect_config(test, fix, NULL, 0);
}

static void kp_hwconfig_set_query_replace(struct kunit *test)
{
	static const u32 two[] = { ISSUES, BRANCHES };
	static const u32 one[] = { MISPRED };
	struct kp_thread_fix *fix = intel(test);
	char reason[KPROFILE_REASON_LEN];
	struct kprofile_hw_config cfg;

	KUNIT_ASSERT_EQ_MSG(test, set(fix, two, 2, reason), 0, "%s", reason);
	expect_config(test, fix, two, 2);
	kp_hwconfig_query(&fix->threads, &cfg);
	KUNIT_EXPECT_NE(test, cfg.counters[0].index, cfg.counters[1].index);

	KUNIT_ASSERT_EQ_MSG(test, set(fix, one, 1, reason), 0, "%s", reason);
	expect_config(test, fix, one, 1);

	KUNIT_ASSERT_EQ(test, set(fix, NULL, 0, reason), 0);
	expect_config(test, fix, NULL, 0);
}

static void kp_hwconfig_too_many_is_einval(struct kunit *test)
{
	static const u32 one[] = { ISSUES };
	u32 many[KPROFILE_MAX_COUNTERS];
	struct kp_thread_fix *fix = intel(test);
	char reason[KPROFILE_REASON_LEN];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(many); i++)
		many[i] = ISSUES;
	KUNIT_ASSERT_EQ(test, set(fix, one, 1, reason), 0);
	KUNIT_EXPECT_EQ(test, set(fix, many, KPROFILE_MAX_COUNTERS + 1,
				  reason), -EINVAL);
	KUNIT_EXPECT_NE(test, reason[0], '\0');
	expect_config(test, fix, one, 1);
	/* 16 is allowed by the ABI; this processor has 4 counters. */
	KUNIT_EXPECT_EQ(test, set(fix, many, KPROFILE_MAX_COUNTERS, reason),
			-EBUSY);
	expect_config(test, fix, one, 1);
}

static void kp_hwconfig_bad_entries_are_einval(struct kunit *test)
{
	struct kp_thread_fix *fix = intel(test);
	char reason[KPROFILE_REASON_LEN];
	struct kprofile_hw_config cfg;
	static const u32 time[] = { KPROFILE_SOURCE_TIME };
	static const u32 unknown[] = { 0xEE };

	KUNIT_EXPECT_EQ(test, set(fix, time, 1, reason), -EINVAL);
	KUNIT_EXPECT_EQ(test, set(fix, unknown, 1, reason), -EINVAL);

	memset(&cfg, 0, sizeof(cfg));
	cfg.count = 1;
	cfg.counters[0].source = ISSUES;
	cfg.counters[0].mode = KPROFILE_MODE_BOTH + 1;
	KUNIT_EXPECT_EQ(test, kp_hwconfig_set(&fix->threads, &cfg, reason,
					      sizeof(reason)), -EINVAL);
	cfg.counters[0].mode = 0;
	cfg.counters[0].type = 1;
	KUNIT_EXPECT_EQ(test, kp_hwconfig_set(&fix->threads, &cfg, reason,
					      sizeof(reason)), -EINVAL);
	cfg.counters[0].type = 0;
	cfg.flags = 1;
	KUNIT_EXPECT_EQ(test, kp_hwconfig_set(&fix->threads, &cfg, reason,
					      sizeof(reason)), -EINVAL);
	expect_config(test, fix, NULL, 0);
}

static void kp_hwconfig_no_pmu_is_eopnotsupp(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	static const u32 one[] = { ISSUES };
	char reason[KPROFILE_REASON_LEN];
	struct kp_thread_fix *fix;

	kp_fake_intel(fake, 0, 0, 0, 0, 0);	/* no architectural perfmon */
	fix = kp_thread_fix_new(test, kp_pmu_fix_build(test, fake));
	KUNIT_ASSERT_EQ(test, fix->pmu->desc.iface, KPROFILE_INTERFACE_NONE);
	KUNIT_EXPECT_EQ(test, set(fix, one, 1, reason), -EOPNOTSUPP);
	KUNIT_EXPECT_NOT_NULL(test, strstr(reason, fix->pmu->desc.reason));
	KUNIT_EXPECT_EQ(test, set(fix, NULL, 0, reason), -EOPNOTSUPP);
	expect_config(test, fix, NULL, 0);
}

static void kp_hwconfig_unsupported_source(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	static const u32 one[] = { ISSUES };
	char reason[KPROFILE_REASON_LEN];
	struct kp_thread_fix *fix;
	struct kp_pmu_fix *pmu;

	/* EBX bit 1 set: instructions retired (ProfileTotalIssues) absent. */
	kp_fake_intel(fake, 2, 4, 48, 7, BIT(1));
	pmu = kp_pmu_fix_build(test, fake);
	kp_pmu_fix_up(pmu);
	fix = kp_thread_fix_new(test, pmu);
	KUNIT_EXPECT_EQ(test, set(fix, one, 1, reason), -EOPNOTSUPP);
	KUNIT_EXPECT_NE(test, reason[0], '\0');
	expect_config(test, fix, NULL, 0);
}

static void kp_hwconfig_counter_in_use_names_holder(struct kunit *test)
{
	static const u32 one[] = { ISSUES };
	static const u32 two[] = { ISSUES, BRANCHES };
	struct kp_thread_fix *fix = intel(test);
	char reason[KPROFILE_REASON_LEN];
	u64 others;

	KUNIT_ASSERT_EQ(test, set(fix, one, 1, reason), 0);
	/* Someone reserves every other counter. */
	others = GENMASK_ULL(3, 0) & ~(u64)fix->pmu->held;
	KUNIT_ASSERT_EQ(test, kp_pmu_hold(&fix->pmu->pmu, others,
					  "reserve pid 42", NULL, reason,
					  sizeof(reason)), 0);
	KUNIT_EXPECT_EQ(test, set(fix, two, 2, reason), -EBUSY);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(reason, "reserve pid 42"),
				  "reason \"%s\"", reason);
	/* The failed set kept the previous configuration. */
	expect_config(test, fix, one, 1);
	kp_pmu_unhold(&fix->pmu->pmu, others);
	KUNIT_EXPECT_EQ_MSG(test, set(fix, two, 2, reason), 0, "%s", reason);
	expect_config(test, fix, two, 2);
}

/*
 * A set frees the previous configuration's counters so the new one may
 * reuse them.  When the new one fails and Linux took a freed counter in
 * between (perf, the NMI watchdog), the previous configuration cannot be
 * claimed back: none is in force, the reason says so, and kprofile holds
 * no counting counter (struct kprofile_hw_config_set's promise).
 */
static void kp_hwconfig_failed_set_loses_counter(struct kunit *test)
{
	static const u32 one[] = { ISSUES };
	static const u32 two[] = { ISSUES, BRANCHES };
	struct kp_thread_fix *fix = intel(test);
	char reason[KPROFILE_REASON_LEN];
	struct kprofile_hw_config cfg;
	u64 others;

	KUNIT_ASSERT_EQ(test, set(fix, one, 1, reason), 0);
	others = GENMASK_ULL(3, 0) & ~(u64)fix->pmu->held;
	KUNIT_ASSERT_EQ(test, kp_pmu_hold(&fix->pmu->pmu, others,
					  "reserve pid 42", NULL, reason,
					  sizeof(reason)), 0);
	/* perf takes the configuration's counter as soon as it is free. */
	fix->pmu->perf_grabs = fix->pmu->held & ~(unsigned long)others;
	KUNIT_EXPECT_EQ(test, set(fix, two, 2, reason), -EBUSY);
	KUNIT_EXPECT_EQ_MSG(test, strncmp(reason, "no configuration is in force",
					  28), 0, "reason \"%s\"", reason);
	/* Then why the set failed, as far as it fits. */
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(reason, "counters in use"),
				  "reason \"%s\"", reason);
	kp_hwconfig_query(&fix->threads, &cfg);
	KUNIT_EXPECT_EQ(test, cfg.count, 0U);
	expect_config(test, fix, NULL, 0);
	kp_pmu_unhold(&fix->pmu->pmu, others);
}

static void kp_hwconfig_perf_holds_pmu(struct kunit *test)
{
	static const u32 one[] = { ISSUES };
	struct kp_thread_fix *fix = intel(test);
	char reason[KPROFILE_REASON_LEN];

	fix->pmu->perf = GENMASK(3, 0);
	KUNIT_EXPECT_EQ(test, set(fix, one, 1, reason), -EBUSY);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(reason, "nmi_watchdog"),
				  "reason \"%s\"", reason);
	fix->pmu->perf = 0;
	expect_config(test, fix, NULL, 0);
}

static void kp_hwconfig_busy_while_enabled(struct kunit *test)
{
	static const u32 one[] = { ISSUES };
	struct kp_thread_fix *fix = intel(test);
	char reason[KPROFILE_REASON_LEN];
	struct kp_thread_client *c;

	c = kp_thread_client_new(&fix->threads, 0, ~0U >> 16, reason,
				 sizeof(reason));
	KUNIT_ASSERT_FALSE(test, IS_ERR(c));
	KUNIT_EXPECT_EQ(test, set(fix, one, 1, reason), -EBUSY);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(reason, "thread profiling"),
				  "reason \"%s\"", reason);
	KUNIT_EXPECT_EQ(test, set(fix, NULL, 0, reason), -EBUSY);
	kp_thread_client_free(c);
	KUNIT_EXPECT_EQ(test, set(fix, one, 1, reason), 0);
	expect_config(test, fix, one, 1);
}

static void kp_thread_one_client_at_a_time(struct kunit *test)
{
	struct kp_thread_fix *fix = intel(test);
	char reason[KPROFILE_REASON_LEN];
	struct kp_thread_client *a, *b;

	a = kp_thread_client_new(&fix->threads, 0, 0, reason, sizeof(reason));
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	b = kp_thread_client_new(&fix->threads, 0, 0, reason, sizeof(reason));
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(b), -EBUSY);
	kp_thread_client_free(a);
	b = kp_thread_client_new(&fix->threads, 0, 0, reason, sizeof(reason));
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	kp_thread_client_free(b);
}

static void kp_thread_enable_bad_args(struct kunit *test)
{
	struct kp_thread_fix *fix = intel(test);
	char reason[KPROFILE_REASON_LEN];
	struct kp_thread_client *c;

	c = kp_thread_client_new(&fix->threads, BIT(5), 0, reason,
				 sizeof(reason));
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(c), -EINVAL);
	c = kp_thread_client_new(&fix->threads, 0, BIT(16), reason,
				 sizeof(reason));
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(c), -EINVAL);
	KUNIT_EXPECT_NULL(test, fix->threads.client);
}

static struct kunit_case kp_hwconfig_cases[] = {
	KUNIT_CASE(kp_hwconfig_empty_at_start),
	KUNIT_CASE(kp_hwconfig_set_query_replace),
	KUNIT_CASE(kp_hwconfig_too_many_is_einval),
	KUNIT_CASE(kp_hwconfig_bad_entries_are_einval),
	KUNIT_CASE(kp_hwconfig_no_pmu_is_eopnotsupp),
	KUNIT_CASE(kp_hwconfig_unsupported_source),
	KUNIT_CASE(kp_hwconfig_counter_in_use_names_holder),
	KUNIT_CASE(kp_hwconfig_failed_set_loses_counter),
	KUNIT_CASE(kp_hwconfig_perf_holds_pmu),
	KUNIT_CASE(kp_hwconfig_busy_while_enabled),
	KUNIT_CASE(kp_thread_one_client_at_a_time),
	KUNIT_CASE(kp_thread_enable_bad_args),
	{}
};

static struct kunit_suite kp_hwconfig_suite = {
	.name = "kprofile_thread_config",
	.exit = kp_thread_fix_exit,
	.test_cases = kp_hwconfig_cases,
};

kunit_test_suite(kp_hwconfig_suite);

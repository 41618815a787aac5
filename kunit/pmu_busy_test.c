// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_busy_test.c - KUnit suite "kprofile_pmu_busy": a PMU perf holds is
 * reported busy, with the reason, and usable once perf lets go, without
 * reloading (docs/hardware.md F1).  perf's arbitration is the fixture's
 * all-or-nothing model of reserve_pmc_hardware().
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "pmu_fixture.h"

#define ISSUES		KPROFILE_SOURCE_TOTAL_ISSUES

static struct kprofile_info_ex *state(struct kunit *test,
				      struct kp_pmu_fix *fix)
{
	struct kprofile_info_ex *x = kunit_kzalloc(test, sizeof(*x),
						   GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, x);
	kp_pmu_state(&fix->pmu, x);
	return x;
}

/* AMD with the watchdog at load: busy, then usable when it stops. */
static void kp_busy_amd_watchdog_then_free(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	char reason[KPROFILE_REASON_LEN];
	struct kprofile_info_ex *x;
	struct kp_pmu_fix *fix;

	kp_fake_amd(fake, 0x17, false);
	kp_fake_perf_watchdog(fake);
	fix = kp_pmu_fix_build(test, fake);
	KUNIT_ASSERT_EQ(test, fix->desc.iface, KPROFILE_INTERFACE_AMD64);
	KUNIT_ASSERT_EQ(test, kp_pmu_fix_perf_open(fix), 0);
	kp_pmu_fix_up(fix);

	x = state(test, fix);
	KUNIT_EXPECT_EQ(test, x->pmu_state, (u32)KPROFILE_PMU_BUSY);
	KUNIT_EXPECT_EQ(test, x->busy_mask, 1U);
	KUNIT_EXPECT_NOT_NULL(test, strstr(x->state_reason, "nmi_watchdog"));
	KUNIT_EXPECT_EQ(test, x->amd_family, (u32)KPROFILE_AMD_FAMILY_ZEN1);
	KUNIT_EXPECT_STREQ(test, x->amd_family_name, "zen1");
	KUNIT_EXPECT_EQ(test, kp_pmu_arm(&fix->pmu, ISSUES, KPROFILE_MODE_TABLE,
					 NULL, reason, sizeof(reason)),
			-EBUSY);

	/* sysctl kernel.nmi_watchdog=0: perf disables and releases. */
	kp_fake_msr_set(fake, KP_FAKE_ALL_CPUS, KP_FAKE_MSR_K7_EVNTSEL0,
			0x130076);
	kp_pmu_fix_perf_close(fix);
	x = state(test, fix);
	KUNIT_EXPECT_EQ(test, x->pmu_state, (u32)KPROFILE_PMU_AVAILABLE);
	KUNIT_EXPECT_EQ(test, x->busy_mask, 0U);
	KUNIT_EXPECT_EQ(test, kp_pmu_arm(&fix->pmu, ISSUES, KPROFILE_MODE_TABLE,
					 NULL, reason, sizeof(reason)),
			0);
	/* kprofile's own armed counter is not "someone else's". */
	x = state(test, fix);
	KUNIT_EXPECT_EQ(test, x->pmu_state, (u32)KPROFILE_PMU_AVAILABLE);
	/* And now perf cannot take the PMU: all or nothing. */
	KUNIT_EXPECT_EQ(test, kp_pmu_fix_perf_open(fix), -EBUSY);
	kp_pmu_disarm(&fix->pmu, ISSUES, KPROFILE_MODE_TABLE);
}

/* Intel: the watchdog's fixed counter makes every counter busy. */
static void kp_busy_intel_fixed_counter(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kprofile_info_ex *x;
	struct kp_pmu_fix *fix;

	kp_fake_intel(fake, 4, 4, 48, 7, 0);
	kp_fake_perf_watchdog(fake);
	fix = kp_pmu_fix_build(test, fake);
	kp_pmu_fix_up(fix);
	x = state(test, fix);
	KUNIT_EXPECT_EQ(test, x->pmu_state, (u32)KPROFILE_PMU_BUSY);
	KUNIT_EXPECT_EQ(test, x->busy_mask, 0xfU);
	KUNIT_EXPECT_EQ(test, x->counter_mask, 0xfU);
	KUNIT_EXPECT_TRUE(test, x->flags & KPROFILE_INFO_EX_PERF_PMU);
}

/* No PMU: the state is None, with detection's reason. */
static void kp_busy_none_has_reason(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kprofile_info_ex *x;
	struct kp_pmu_fix *fix;

	kp_fake_intel(fake, 0, 0, 0, 0, 0);
	fix = kp_pmu_fix_build(test, fake);
	kp_pmu_fix_up(fix);
	x = state(test, fix);
	KUNIT_EXPECT_EQ(test, x->pmu_state, (u32)KPROFILE_PMU_NONE);
	KUNIT_EXPECT_STREQ(test, x->state_reason, fix->desc.reason);
	KUNIT_EXPECT_EQ(test, x->counter_mask, 0U);
}

static struct kunit_case kp_busy_cases[] = {
	KUNIT_CASE(kp_busy_amd_watchdog_then_free),
	KUNIT_CASE(kp_busy_intel_fixed_counter),
	KUNIT_CASE(kp_busy_none_has_reason),
	{}
};

static struct kunit_suite kp_busy_suite = {
	.name = "kprofile_pmu_busy",
	.exit = kp_pmu_fix_exit,
	.test_cases = kp_busy_cases,
};

kunit_test_suite(kp_busy_suite);

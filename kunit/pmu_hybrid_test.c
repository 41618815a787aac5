// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_hybrid_test.c - KUnit suite "kprofile_pmu_hybrid": counters and
 * events that differ per CPU (docs/hardware.md F7: hybrid parts report a
 * different CPUID leaf 0xA, or leaf 0x23, on each core type), and
 * counter 3 left to the TSX force-abort microcode (F13).
 *
 * The fake gives CPU 1 CPUID leaves of its own (kp_fake_cpuid_cpu()); the
 * per-CPU cases skip on a machine with one CPU.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "pmu_fixture.h"

#define SEL0	KP_FAKE_MSR_IA32_PERFEVTSEL0
#define PMC0	KP_FAKE_MSR_IA32_PMC0
#define LLC_MISSES	0x1D	/* Emon ProfileLLCMisses, EBX bit 4 */

/* Seven Emon sources with distinct events. */
static const u32 srcs[] = {
	KPROFILE_SOURCE_TOTAL_ISSUES, KPROFILE_SOURCE_BRANCH_INSTRUCTIONS,
	KPROFILE_SOURCE_CACHE_MISSES, KPROFILE_SOURCE_BRANCH_MISPREDICTIONS,
	KPROFILE_SOURCE_TOTAL_CYCLES, 0x1B, 0x1C,
};

static u32 leaf_a(u32 version, u32 counters, u32 width, u32 ebx_len)
{
	return version | counters << 8 | width << 16 | ebx_len << 24;
}

/*
 * CPUs 0 and 1 online, and this test on CPU 0: detection reads CPUID on
 * the CPU it runs on, and CPU 1 is the one with the other leaves.  Each
 * test case runs in a kthread of its own: the affinity goes with it.
 */
static bool two_cpus(struct kunit *test)
{
	if (num_online_cpus() < 2 || !cpu_online(1)) {
		kunit_skip(test, "needs CPUs 0 and 1 online");
		return false;
	}
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(0)), 0);
	return true;
}

static struct kp_pmu_fix *build_up(struct kunit *test, struct kp_fake *fake)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_build(test, fake);

	KUNIT_ASSERT_EQ(test, fix->desc.iface, KPROFILE_INTERFACE_EMON);
	kp_pmu_fix_up(fix);
	return fix;
}

static void disarm_all(struct kp_pmu_fix *fix, unsigned int n)
{
	while (n--)
		kp_pmu_disarm(&fix->pmu, srcs[n], KPROFILE_MODE_TABLE);
}

/* CPU 1 has 6 counters, CPU 0 8: a source never lands on counter 6. */
static void kp_hybrid_fewer_counters_on_cpu1(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	char reason[KPROFILE_REASON_LEN] = "";
	struct kp_pmu_fix *fix;
	unsigned int i;

	if (!two_cpus(test))
		return;
	kp_fake_intel(fake, 4, 8, 48, 7, 0);
	kp_fake_cpuid_cpu(fake, 1, 0xa, KP_FAKE_ANY_SUBLEAF,
			  leaf_a(4, 6, 48, 7), 0, 0, 3 | 48 << 5);
	fix = build_up(test, fake);
	KUNIT_EXPECT_EQ(test, kp_pmu_usable_counters(&fix->pmu), 0x3fULL);
	kp_fake_log_clear(fake);
	for (i = 0; i < 6; i++)
		KUNIT_ASSERT_EQ_MSG(test, kp_pmu_arm(&fix->pmu, srcs[i],
						     KPROFILE_MODE_TABLE, NULL,
						     reason, sizeof(reason)),
				    0, "%s", reason);
	KUNIT_EXPECT_EQ(test, kp_pmu_arm(&fix->pmu, srcs[6],
					 KPROFILE_MODE_TABLE, NULL, reason,
					 sizeof(reason)), -EBUSY);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(reason, "CPU 1"),
				  "reason \"%s\"", reason);
	/* Nothing touched the counters CPU 1 does not have. */
	KUNIT_EXPECT_EQ(test, kp_fake_log_count_msr(fake, 1, SEL0 + 6), 0U);
	KUNIT_EXPECT_EQ(test, kp_fake_log_count_msr(fake, 1, PMC0 + 6), 0U);
	disarm_all(fix, 6);
}

/* CPU 1 lacks LLC misses (EBX bit 4): refused there, fine on CPU 0. */
static void kp_hybrid_event_missing_on_cpu1(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	char reason[KPROFILE_REASON_LEN] = "";
	struct kp_pmu_fix *fix;

	if (!two_cpus(test))
		return;
	kp_fake_intel(fake, 4, 8, 48, 7, 0);
	kp_fake_cpuid_cpu(fake, 1, 0xa, KP_FAKE_ANY_SUBLEAF,
			  leaf_a(4, 8, 48, 7), BIT(4), 0, 3 | 48 << 5);
	fix = build_up(test, fake);
	KUNIT_EXPECT_EQ(test, kp_pmu_arm(&fix->pmu, LLC_MISSES,
					 KPROFILE_MODE_TABLE, NULL, reason,
					 sizeof(reason)), -EOPNOTSUPP);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(reason, "CPU 1"),
				  "reason \"%s\"", reason);
	KUNIT_EXPECT_EQ(test, kp_pmu_arm(&fix->pmu, LLC_MISSES,
					 KPROFILE_MODE_TABLE, cpumask_of(0),
					 reason, sizeof(reason)), 0);
	kp_pmu_disarm(&fix->pmu, LLC_MISSES, KPROFILE_MODE_TABLE);
}

/* Leaf 0x23 sub-leaf 1's counter bitmap wins over leaf 0xA's count. */
static void kp_hybrid_leaf_0x23(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_fix *fix;

	if (!two_cpus(test))
		return;
	kp_fake_intel(fake, 5, 8, 48, 7, 0);
	kp_fake_max_leaf(fake, 0x23);
	kp_fake_cpuid_cpu(fake, 1, 0x23, 0, BIT(1), 0, 0, 0);
	kp_fake_cpuid_cpu(fake, 1, 0x23, 1, 0x0f, 0x7, 0, 0);
	fix = build_up(test, fake);
	KUNIT_EXPECT_EQ(test, kp_pmu_usable_counters(&fix->pmu), 0x0fULL);
}

/* F13: TSX force-abort without RTM_ALWAYS_ABORT: counter 3 is not ours. */
static void kp_tfa_skips_counter3(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	char reason[KPROFILE_REASON_LEN] = "";
	struct kp_pmu_fix *fix;
	unsigned int i;

	kp_fake_intel(fake, 4, 4, 48, 7, 0);
	kp_fake_feature(fake, KP_FEAT_TSX_FORCE_ABORT, true);
	fix = build_up(test, fake);
	KUNIT_EXPECT_EQ(test, fix->desc.avoid_mask, BIT_ULL(3));
	KUNIT_EXPECT_EQ(test, kp_pmu_usable_counters(&fix->pmu), 0x7ULL);
	kp_fake_log_clear(fake);
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ_MSG(test, kp_pmu_arm(&fix->pmu, srcs[i],
						     KPROFILE_MODE_TABLE, NULL,
						     reason, sizeof(reason)),
				    0, "%s", reason);
	KUNIT_EXPECT_EQ(test, kp_pmu_arm(&fix->pmu, srcs[3],
					 KPROFILE_MODE_TABLE, NULL, reason,
					 sizeof(reason)), -EBUSY);
	KUNIT_EXPECT_EQ(test, kp_fake_log_count_msr(fake, KP_FAKE_ALL_CPUS,
						    SEL0 + 3), 0U);
	KUNIT_EXPECT_EQ(test, kp_pmu_hold(&fix->pmu, BIT_ULL(3), "test", NULL,
					  reason, sizeof(reason)),
			-EOPNOTSUPP);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(reason, "TSX"),
				  "reason \"%s\"", reason);
	disarm_all(fix, 3);
}

/* With RTM_ALWAYS_ABORT the microcode leaves PMC3 alone: it is ours. */
static void kp_tfa_rtm_always_abort_keeps_counter3(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_fix *fix;

	kp_fake_intel(fake, 4, 4, 48, 7, 0);
	kp_fake_feature(fake, KP_FEAT_TSX_FORCE_ABORT |
			KP_FEAT_RTM_ALWAYS_ABORT, true);
	fix = build_up(test, fake);
	KUNIT_EXPECT_EQ(test, fix->desc.avoid_mask, 0ULL);
	KUNIT_EXPECT_EQ(test, kp_pmu_usable_counters(&fix->pmu), 0xfULL);
}

static struct kunit_case kp_hybrid_cases[] = {
	KUNIT_CASE(kp_hybrid_fewer_counters_on_cpu1),
	KUNIT_CASE(kp_hybrid_event_missing_on_cpu1),
	KUNIT_CASE(kp_hybrid_leaf_0x23),
	KUNIT_CASE(kp_tfa_skips_counter3),
	KUNIT_CASE(kp_tfa_rtm_always_abort_keeps_counter3),
	{}
};

static struct kunit_suite kp_hybrid_suite = {
	.name = "kprofile_pmu_hybrid",
	.exit = kp_pmu_fix_exit,
	.test_cases = kp_hybrid_cases,
};

kunit_test_suite(kp_hybrid_suite);

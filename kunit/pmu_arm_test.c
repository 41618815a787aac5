// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_arm_test.c - KUnit suite "kprofile_pmu_arm": arming and disarming a
 * source writes exactly the registers the Intel SDM and the AMD APM ask
 * for, on every CPU, on Intel perfmon v1 and v2+, AMD legacy and AMD
 * PerfMonV2; sharing, counter exhaustion, perf holding the PMU and the
 * None interface are refused with the right errno and reason, writing
 * nothing.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/string.h>

#include "pmu_fixture.h"

#define PMC0		KP_FAKE_MSR_IA32_PMC0
#define SEL0		KP_FAKE_MSR_IA32_PERFEVTSEL0
#define GCTRL		KP_FAKE_MSR_IA32_GLOBAL_CTRL
#define OVF_CTRL	KP_FAKE_MSR_IA32_GLOBAL_OVF_CTRL
#define K7_SEL0		KP_FAKE_MSR_K7_EVNTSEL0
#define K7_CTR0		KP_FAKE_MSR_K7_PERFCTR0
#define AMD_GCTL	KP_FAKE_MSR_AMD_GLOBAL_CTL
#define AMD_GCLR	KP_FAKE_MSR_AMD_GLOBAL_STATUS_CLR

#define MISPRED		KPROFILE_SOURCE_BRANCH_MISPREDICTIONS	/* 0x0B */
#define ISSUES		KPROFILE_SOURCE_TOTAL_ISSUES		/* 0x02 */
#define BRANCHES	KPROFILE_SOURCE_BRANCH_INSTRUCTIONS	/* 0x06 */

static void arm_ok(struct kunit *test, struct kp_pmu_fix *fix, u32 source,
		   enum kprofile_mode mode)
{
	char reason[KPROFILE_REASON_LEN] = "";
	int ret;

	ret = kp_pmu_arm(&fix->pmu, source, mode, NULL, reason,
			 sizeof(reason));
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "arming 0x%x: %s", source, reason);
}

/* Intel v1, 40-bit counters: counter loaded, then the select. */
static void kp_arm_emon_v1(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_intel(test, 1, 2, 40);
	static const struct kp_fake_msrval arm[] = {
		{ PMC0, 0xffffffd8f0ULL }, { SEL0, 0x005300c5 },
	};
	static const struct kp_fake_msrval disarm[] = {
		{ SEL0, 0x000300c5 },
	};

	KUNIT_EXPECT_EQ(test, kp_pmu_fix_interval(fix, MISPRED, 10000), 10000);
	kp_fake_log_clear(fix->fake);
	arm_ok(test, fix, MISPRED, KPROFILE_MODE_TABLE);
	KP_FAKE_EXPECT_WRITES(test, fix->fake, KP_FAKE_EACH_CPU, arm);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fix->fake, 0, PMC0),
			0xffffffd8f0ULL);

	kp_fake_log_clear(fix->fake);
	kp_pmu_disarm(&fix->pmu, MISPRED, KPROFILE_MODE_TABLE);
	KP_FAKE_EXPECT_WRITES(test, fix->fake, KP_FAKE_EACH_CPU, disarm);
	KUNIT_EXPECT_EQ(test, fix->held, 0UL);
}

/*
 * Intel v2+, 48-bit counters: the worked example, select 0x005300C5 and
 * counter 0xFFFFFFFFD8F0, then IA32_PERF_GLOBAL_CTRL bit 0.  Disarming
 * clears the global bit, EN and INT, and acknowledges a pending overflow.
 */
static void kp_arm_emon_v2(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_intel(test, 4, 4, 48);
	static const struct kp_fake_msrval arm[] = {
		{ PMC0, 0xffffffffd8f0ULL }, { SEL0, 0x005300c5 },
		{ GCTRL, 0x1 },
	};
	static const struct kp_fake_msrval disarm[] = {
		{ GCTRL, 0x0 }, { SEL0, 0x000300c5 }, { OVF_CTRL, 0x1 },
	};

	kp_fake_msr_set(fix->fake, KP_FAKE_ALL_CPUS, GCTRL, 0);
	kp_pmu_fix_interval(fix, MISPRED, 10000);
	kp_fake_log_clear(fix->fake);
	arm_ok(test, fix, MISPRED, KPROFILE_MODE_TABLE);
	KP_FAKE_EXPECT_WRITES(test, fix->fake, KP_FAKE_EACH_CPU, arm);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fix->fake, 0, PMC0),
			0xffffffffd8f0ULL);

	kp_fake_log_clear(fix->fake);
	kp_pmu_disarm(&fix->pmu, MISPRED, KPROFILE_MODE_TABLE);
	KP_FAKE_EXPECT_WRITES(test, fix->fake, KP_FAKE_EACH_CPU, disarm);
}

/* The largest interval survives the 32-bit sign-extended legacy write. */
static void kp_arm_emon_max_interval(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_intel(test, 2, 4, 48);

	KUNIT_EXPECT_EQ(test, kp_pmu_fix_interval(fix, ISSUES, U32_MAX),
			KP_COUNTER_INTERVAL_MAX);
	arm_ok(test, fix, ISSUES, KPROFILE_MODE_TABLE);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fix->fake, 0, PMC0),
			0xffff80000001ULL);
	kp_pmu_disarm(&fix->pmu, ISSUES, KPROFILE_MODE_TABLE);
}

/* AMD legacy: PerfCtr0 then PerfEvtSel0; no global register exists. */
static void kp_arm_amd_legacy(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_amd(test, 0x17, false);
	static const struct kp_fake_msrval arm[] = {
		{ K7_CTR0, 0xffffffffd8f0ULL }, { K7_SEL0, 0x005300c3 },
	};
	static const struct kp_fake_msrval disarm[] = {
		{ K7_SEL0, 0x000300c3 },
	};

	kp_pmu_fix_interval(fix, MISPRED, 10000);
	kp_fake_log_clear(fix->fake);
	arm_ok(test, fix, MISPRED, KPROFILE_MODE_TABLE);
	KP_FAKE_EXPECT_WRITES(test, fix->fake, KP_FAKE_EACH_CPU, arm);
	kp_fake_log_clear(fix->fake);
	kp_pmu_disarm(&fix->pmu, MISPRED, KPROFILE_MODE_TABLE);
	KP_FAKE_EXPECT_WRITES(test, fix->fake, KP_FAKE_EACH_CPU, disarm);
}

/* AMD PerfMonV2: PerfCntrGlobalCtl enables, StatusClr acknowledges. */
static void kp_arm_amd_v2(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_amd(test, 0x19, true);
	static const struct kp_fake_msrval arm[] = {
		{ K7_CTR0, 0xffffffffd8f0ULL }, { K7_SEL0, 0x005300c3 },
		{ AMD_GCTL, 0x1 },
	};
	static const struct kp_fake_msrval disarm[] = {
		{ AMD_GCTL, 0x0 }, { K7_SEL0, 0x000300c3 }, { AMD_GCLR, 0x1 },
	};

	kp_pmu_fix_interval(fix, MISPRED, 10000);
	kp_fake_log_clear(fix->fake);
	arm_ok(test, fix, MISPRED, KPROFILE_MODE_TABLE);
	KP_FAKE_EXPECT_WRITES(test, fix->fake, KP_FAKE_EACH_CPU, arm);
	kp_fake_log_clear(fix->fake);
	kp_pmu_disarm(&fix->pmu, MISPRED, KPROFILE_MODE_TABLE);
	KP_FAKE_EXPECT_WRITES(test, fix->fake, KP_FAKE_EACH_CPU, disarm);
}

/* User-only and kernel-only replace the table's USR/OS bits. */
static void kp_arm_modes(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_intel(test, 2, 4, 48);

	arm_ok(test, fix, MISPRED, KPROFILE_MODE_USER);
	arm_ok(test, fix, MISPRED, KPROFILE_MODE_KERNEL);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fix->fake, 0, SEL0),
			0x005100c5ULL);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fix->fake, 0, SEL0 + 1),
			0x005200c5ULL);
	KUNIT_EXPECT_EQ(test, fix->held, 0x3UL);
	kp_pmu_disarm(&fix->pmu, MISPRED, KPROFILE_MODE_USER);
	kp_pmu_disarm(&fix->pmu, MISPRED, KPROFILE_MODE_KERNEL);
	KUNIT_EXPECT_EQ(test, fix->held, 0UL);
}

/* A second arm of the same (source, mode) shares the counter. */
static void kp_arm_refcount(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_intel(test, 2, 4, 48);

	arm_ok(test, fix, ISSUES, KPROFILE_MODE_TABLE);
	kp_fake_log_clear(fix->fake);
	arm_ok(test, fix, ISSUES, KPROFILE_MODE_TABLE);
	KUNIT_EXPECT_EQ(test, kp_fake_log_len(fix->fake), 0U);
	KUNIT_EXPECT_EQ(test, fix->held, 0x1UL);

	kp_pmu_disarm(&fix->pmu, ISSUES, KPROFILE_MODE_TABLE);
	KUNIT_EXPECT_EQ(test, kp_fake_log_len(fix->fake), 0U);
	KUNIT_EXPECT_EQ(test, fix->held, 0x1UL);
	KUNIT_EXPECT_TRUE(test, kp_fake_msr_get(fix->fake, 0, SEL0) &
			  KP_EVTSEL_EN);

	kp_pmu_disarm(&fix->pmu, ISSUES, KPROFILE_MODE_TABLE);
	KUNIT_EXPECT_EQ(test, fix->held, 0UL);
	KUNIT_EXPECT_FALSE(test, kp_fake_msr_get(fix->fake, 0, SEL0) &
			   (KP_EVTSEL_EN | KP_EVTSEL_INT));
}

/* Each source on its own counter; past the last, EBUSY naming them. */
static void kp_arm_out_of_counters(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_intel(test, 2, 2, 48);
	char reason[KPROFILE_REASON_LEN];
	int ret;

	arm_ok(test, fix, ISSUES, KPROFILE_MODE_TABLE);
	arm_ok(test, fix, MISPRED, KPROFILE_MODE_TABLE);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fix->fake, 0, SEL0) & 0xff,
			0xc0ULL);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fix->fake, 0, SEL0 + 1) & 0xff,
			0xc5ULL);

	kp_fake_log_clear(fix->fake);
	ret = kp_pmu_arm(&fix->pmu, BRANCHES, KPROFILE_MODE_TABLE, NULL,
			 reason, sizeof(reason));
	KUNIT_EXPECT_EQ(test, ret, -EBUSY);
	KUNIT_EXPECT_NOT_NULL(test, strstr(reason, "ProfileTotalIssues"));
	KUNIT_EXPECT_NOT_NULL(test,
			      strstr(reason, "ProfileBranchMispredictions"));
	KUNIT_EXPECT_EQ(test, kp_fake_log_len(fix->fake), 0U);
	KUNIT_EXPECT_EQ(test, fix->held, 0x3UL);

	kp_pmu_disarm(&fix->pmu, ISSUES, KPROFILE_MODE_TABLE);
	kp_pmu_disarm(&fix->pmu, MISPRED, KPROFILE_MODE_TABLE);
}

/* perf (the NMI watchdog) holds every counter: EBUSY with the advice. */
static void kp_arm_perf_holds_pmu(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_amd(test, 0x17, false);
	char reason[KPROFILE_REASON_LEN];
	int ret;

	fix->perf = 0xf;
	kp_fake_log_clear(fix->fake);
	ret = kp_pmu_arm(&fix->pmu, ISSUES, KPROFILE_MODE_TABLE, NULL,
			 reason, sizeof(reason));
	KUNIT_EXPECT_EQ(test, ret, -EBUSY);
	KUNIT_EXPECT_NOT_NULL(test, strstr(reason, "perf"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(reason, "nmi_watchdog=0"));
	KUNIT_EXPECT_EQ(test, kp_fake_log_len(fix->fake), 0U);
	KUNIT_EXPECT_EQ(test, fix->held, 0UL);
}

/* A hypervisor that masks the PMU: None, and arming says why. */
static void kp_arm_none_interface(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	char reason[KPROFILE_REASON_LEN];
	struct kp_pmu_fix *fix;
	int ret;

	kp_fake_intel(fake, 2, 4, 48, 7, 0);
	kp_fake_hypervisor(fake, true);
	kp_fake_perf_no_pmu(fake);	/* perf's boot-time check failed */
	fix = kp_pmu_fix_build(test, fake);
	KUNIT_ASSERT_EQ(test, fix->desc.iface, KPROFILE_INTERFACE_NONE);
	kp_pmu_fix_up(fix);

	kp_fake_log_clear(fake);
	ret = kp_pmu_arm(&fix->pmu, ISSUES, KPROFILE_MODE_TABLE, NULL,
			 reason, sizeof(reason));
	KUNIT_EXPECT_EQ(test, ret, -EOPNOTSUPP);
	KUNIT_EXPECT_NOT_NULL(test, strstr(reason, "virtualization"));
	KUNIT_EXPECT_EQ(test, kp_pmu_fix_nmi(fix, 0, NULL), NMI_DONE);
	KUNIT_EXPECT_EQ(test, kp_fake_log_len(fake), 0U);
	KUNIT_EXPECT_EQ(test, kp_fake_lvtpc_count(fake, 0), 0U);
}

/* ProfileTime, unknown sources and modes, and missing events. */
static void kp_arm_bad_requests(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	char reason[KPROFILE_REASON_LEN];
	struct kp_pmu_fix *fix;
	struct kp_pmu *pmu;

	kp_fake_intel(fake, 2, 4, 48, 7, BIT(6));
	fix = kp_pmu_fix_build(test, fake);
	kp_pmu_fix_up(fix);
	pmu = &fix->pmu;
	kp_fake_log_clear(fake);

	KUNIT_EXPECT_EQ(test, kp_pmu_arm(pmu, KPROFILE_SOURCE_TIME,
					 KPROFILE_MODE_TABLE, NULL, reason,
					 sizeof(reason)), -EINVAL);
	KUNIT_EXPECT_EQ(test, kp_pmu_arm(pmu, 0xff, KPROFILE_MODE_TABLE, NULL,
					 reason, sizeof(reason)), -EINVAL);
	KUNIT_EXPECT_EQ(test, kp_pmu_arm(pmu, ISSUES, 7, NULL, reason,
					 sizeof(reason)), -EINVAL);
	KUNIT_EXPECT_EQ(test, kp_pmu_arm(pmu, MISPRED, KPROFILE_MODE_TABLE,
					 NULL, reason, sizeof(reason)),
			-EOPNOTSUPP);
	KUNIT_EXPECT_NOT_NULL(test, strstr(reason, "EBX bit 6"));
	KUNIT_EXPECT_EQ(test, kp_fake_log_len(fake), 0U);
	KUNIT_EXPECT_EQ(test, fix->held, 0UL);
}

/* A CPU set arms only those CPUs. */
static void kp_arm_cpu_subset(struct kunit *test)
{
	struct kp_pmu_fix *fix;
	unsigned int first, other;
	char reason[KPROFILE_REASON_LEN];

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two online CPUs");
	fix = kp_pmu_fix_intel(test, 2, 4, 48);
	first = cpumask_first(cpu_online_mask);
	other = cpumask_next(first, cpu_online_mask);
	kp_fake_log_clear(fix->fake);
	KUNIT_ASSERT_EQ(test, kp_pmu_arm(&fix->pmu, ISSUES,
					 KPROFILE_MODE_TABLE,
					 cpumask_of(other), reason,
					 sizeof(reason)), 0);
	KUNIT_EXPECT_EQ(test, kp_fake_log_count_msr(fix->fake, first, SEL0),
			0U);
	KUNIT_EXPECT_EQ(test, kp_fake_log_count_msr(fix->fake, other, SEL0),
			1U);
	kp_pmu_disarm(&fix->pmu, ISSUES, KPROFILE_MODE_TABLE);
	KUNIT_EXPECT_EQ(test, kp_fake_log_count_msr(fix->fake, first, SEL0),
			0U);
	KUNIT_EXPECT_EQ(test, kp_fake_log_count_msr(fix->fake, other, SEL0),
			2U);
}

static struct kunit_case kp_pmu_arm_cases[] = {
	KUNIT_CASE(kp_arm_emon_v1),
	KUNIT_CASE(kp_arm_emon_v2),
	KUNIT_CASE(kp_arm_emon_max_interval),
	KUNIT_CASE(kp_arm_amd_legacy),
	KUNIT_CASE(kp_arm_amd_v2),
	KUNIT_CASE(kp_arm_modes),
	KUNIT_CASE(kp_arm_refcount),
	KUNIT_CASE(kp_arm_out_of_counters),
	KUNIT_CASE(kp_arm_perf_holds_pmu),
	KUNIT_CASE(kp_arm_none_interface),
	KUNIT_CASE(kp_arm_bad_requests),
	KUNIT_CASE(kp_arm_cpu_subset),
	{}
};

static struct kunit_suite kp_pmu_arm_suite = {
	.name = "kprofile_pmu_arm",
	.exit = kp_pmu_fix_exit,
	.test_cases = kp_pmu_arm_cases,
};

kunit_test_suite(kp_pmu_arm_suite);

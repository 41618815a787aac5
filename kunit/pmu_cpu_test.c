// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_cpu_test.c - KUnit suite "kprofile_pmu_cpu": what the hardware
 * layer leaves behind and brings back.  Unload and CPU offline disable
 * what kprofile programmed and touch nothing else; a CPU coming online and
 * a resume re-program what is armed; reservations are all or nothing and
 * leave nothing programmed when they fail; counting counters for thread
 * profiling; and the schedule answer (which sources fit together).  F4,
 * F8 and F14 are findings in docs/hardware.md.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/string.h>
#include <asm/nmi.h>

#include "pmu_fixture.h"

#define PMC0		KP_FAKE_MSR_IA32_PMC0
#define SEL0		KP_FAKE_MSR_IA32_PERFEVTSEL0
#define GCTRL		KP_FAKE_MSR_IA32_GLOBAL_CTRL
#define GSTATUS		KP_FAKE_MSR_IA32_GLOBAL_STATUS
#define K7_CTR0		KP_FAKE_MSR_K7_PERFCTR0
#define K7_SEL0		KP_FAKE_MSR_K7_EVNTSEL0
#define AMD_GCTL	KP_FAKE_MSR_AMD_GLOBAL_CTL

#define MISPRED		KPROFILE_SOURCE_BRANCH_MISPREDICTIONS
#define ISSUES		KPROFILE_SOURCE_TOTAL_ISSUES
#define BRANCHES	KPROFILE_SOURCE_BRANCH_INSTRUCTIONS

/* perf's NMI watchdog select on AMD: cycles (0x76), USR, OS, INT, EN. */
#define WATCHDOG_SEL	0x530076ULL

static void expect_untouched(struct kunit *test, struct kp_fake *fake,
			     u32 msr)
{
	KUNIT_EXPECT_EQ_MSG(test, kp_fake_log_count_msr(fake, KP_FAKE_ALL_CPUS,
							msr), 0U,
			    "MSR %#x was written", msr);
}

/*
 * F4, AMD PerfMonV2: the module loads while perf's watchdog counts on
 * counter 2; the watchdog is turned off (perf clears EN and lets the
 * counter go); rmmod while two sources are armed.  kprofile's counters
 * end disabled (no EN or INT, global bits clear), counters it never
 * programmed are not written at all: the watchdog's old enabled select
 * is not brought back to life (a counter nobody owns, raising PMIs that
 * are unknown NMIs).
 */
static void kp_cpu_teardown_amd(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_fix *fix;
	unsigned int cpu;

	kp_fake_amd(fake, 0x19, true);
	kp_fake_seed(fake);
	kp_fake_msr_set(fake, KP_FAKE_ALL_CPUS, K7_SEL0 + 2, WATCHDOG_SEL);
	kp_fake_msr_set(fake, KP_FAKE_ALL_CPUS, AMD_GCTL, 0xf);
	fix = kp_pmu_fix_build(test, fake);
	fix->perf = BIT(2);
	kp_pmu_fix_up(fix);
	kp_pmu_fix_arm_ok(test, fix, ISSUES);
	kp_pmu_fix_arm_ok(test, fix, MISPRED);
	/* nmi_watchdog=0: perf writes the select without EN, releases. */
	kp_fake_msr_set(fake, KP_FAKE_ALL_CPUS, K7_SEL0 + 2,
			WATCHDOG_SEL & ~KP_EVTSEL_EN);
	fix->perf = 0;
	kp_fake_log_clear(fake);
	kp_pmu_fix_down(fix);
	for_each_online_cpu(cpu) {
		KUNIT_EXPECT_FALSE(test, kp_fake_msr_get(fake, cpu, K7_SEL0 + 2) &
				   KP_EVTSEL_EN);
		KUNIT_EXPECT_FALSE(test, kp_fake_msr_get(fake, cpu, K7_SEL0) &
				   (KP_EVTSEL_EN | KP_EVTSEL_INT));
		KUNIT_EXPECT_FALSE(test, kp_fake_msr_get(fake, cpu, K7_SEL0 + 1) &
				   (KP_EVTSEL_EN | KP_EVTSEL_INT));
		KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, cpu, AMD_GCTL),
				0xcULL);
	}
	expect_untouched(test, fake, K7_SEL0 + 2);
	expect_untouched(test, fake, K7_SEL0 + 3);
	expect_untouched(test, fake, K7_CTR0 + 2);
	expect_untouched(test, fake, K7_CTR0 + 3);
	kp_pmu_disarm(&fix->pmu, ISSUES, KPROFILE_MODE_TABLE);
	kp_pmu_disarm(&fix->pmu, MISPRED, KPROFILE_MODE_TABLE);
}

/*
 * F4 and F14, Intel v2: registers kprofile never programmed keep what they
 * had, 48-bit counter values included (a restore through the legacy
 * IA32_PMCx would keep 32 bits, sign-extended).  Only counter 0, which a
 * source used, was written.
 */
static void kp_cpu_teardown_intel(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_fix *fix;
	unsigned int i;

	kp_fake_intel(fake, 2, 4, 48, 7, 0);
	kp_fake_seed(fake);
	for (i = 1; i < 4; i++)
		kp_fake_msr_set(fake, KP_FAKE_ALL_CPUS, PMC0 + i,
				0x123456789abcULL + i);
	fix = kp_pmu_fix_build(test, fake);
	kp_fake_log_clear(fake);
	kp_pmu_fix_up(fix);
	kp_pmu_fix_arm_ok(test, fix, ISSUES);
	kp_pmu_disarm(&fix->pmu, ISSUES, KPROFILE_MODE_TABLE);
	kp_pmu_fix_down(fix);
	for (i = 1; i < 4; i++) {
		expect_untouched(test, fake, SEL0 + i);
		expect_untouched(test, fake, PMC0 + i);
		KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, 0, PMC0 + i),
				0x123456789abcULL + i);
	}
	KUNIT_EXPECT_FALSE(test, kp_fake_msr_get(fake, 0, SEL0) &
			   (KP_EVTSEL_EN | KP_EVTSEL_INT));
}

/*
 * The real CPU hotplug machinery: adding a layer to kprofile's cpuhp state
 * brings every online CPU up (LVTPC to NMI, nothing written), an armed
 * source is programmed on all of them, and removing the layer takes every
 * CPU down: the source's counter disabled, no other counter written.
 */
static void kp_cpu_cpuhp(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_fix *fix;
	unsigned int cpu, i;

	kp_fake_intel(fake, 4, 8, 48, 7, 0);
	kp_fake_seed(fake);
	fix = kp_pmu_fix_build(test, fake);
	kp_fake_log_clear(fake);
	KUNIT_ASSERT_EQ(test, kp_pmu_hotplug_add(&fix->pmu), 0);
	fix->hotplug = true;
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_EQ(test, kp_fake_lvtpc_count(fake, cpu), 1U);
	KUNIT_EXPECT_EQ(test, kp_fake_log_len(fake), 0U);

	kp_pmu_fix_arm_ok(test, fix, ISSUES);
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_TRUE(test, kp_fake_msr_get(fake, cpu, SEL0) &
				  KP_EVTSEL_EN);
	kp_pmu_hotplug_remove(&fix->pmu);
	fix->hotplug = false;
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_FALSE(test, kp_fake_msr_get(fake, cpu, SEL0) &
				   KP_EVTSEL_EN);
	for (i = 1; i < 8; i++) {
		expect_untouched(test, fake, SEL0 + i);
		expect_untouched(test, fake, PMC0 + i);
	}
	kp_pmu_disarm(&fix->pmu, ISSUES, KPROFILE_MODE_TABLE);
}

/*
 * F4 and F8: taking CPUs down with nothing armed writes nothing, and does
 * not ask Linux's arbitration about any counter (a reserve-and-release
 * probe makes a concurrent perf_event_open() or watchdog enable fail).
 */
static void kp_cpu_down_writes_nothing(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_amd(test, 0x17, false);

	fix->perf = BIT(2) | BIT(3);
	kp_fake_log_clear(fix->fake);
	atomic_set(&fix->reserves, 0);
	kp_pmu_fix_down(fix);
	KUNIT_EXPECT_EQ(test, kp_fake_log_len(fix->fake), 0U);
	KUNIT_EXPECT_EQ(test, atomic_read(&fix->reserves), 0);
}

/*
 * A CPU that goes offline and comes back (its registers reset) gets
 * InitializeProfiling and every armed source back, with a fresh period.
 */
static void kp_cpu_hotplug(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_intel(test, 2, 4, 48);
	unsigned int cpu = cpumask_last(cpu_online_mask);
	static const struct kp_fake_msrval seq[] = {
		{ PMC0, 0xffffffffd8f0ULL }, { SEL0, 0x005300c5 },
		{ GCTRL, 0x1 },
	};

	kp_pmu_fix_interval(fix, MISPRED, 10000);
	kp_pmu_fix_arm_ok(test, fix, MISPRED);
	kp_pmu_fix_cpu_down(fix, cpu);
	kp_fake_msr_set(fix->fake, cpu, PMC0, 0);
	kp_fake_msr_set(fix->fake, cpu, SEL0, 0);
	kp_fake_msr_set(fix->fake, cpu, GCTRL, 0);
	kp_fake_log_clear(fix->fake);
	kp_pmu_fix_cpu_up(fix, cpu);
	KP_FAKE_EXPECT_WRITES(test, fix->fake, cpu, seq);
	KUNIT_EXPECT_EQ(test, kp_fake_lvtpc_count(fix->fake, cpu), 1U);
	kp_pmu_disarm(&fix->pmu, MISPRED, KPROFILE_MODE_TABLE);
}

/* Resume: the firmware reset the registers; the armed state comes back. */
static void kp_cpu_resume(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_amd(test, 0x19, true);
	unsigned int cpu = cpumask_first(cpu_online_mask);
	static const struct kp_fake_msrval seq[] = {
		{ K7_CTR0, 0xffffffffd8f0ULL }, { K7_SEL0, 0x005300c3 },
		{ AMD_GCTL, 0x1 },
	};

	kp_pmu_fix_interval(fix, MISPRED, 10000);
	kp_pmu_fix_arm_ok(test, fix, MISPRED);
	kp_fake_msr_set(fix->fake, cpu, K7_CTR0, 0);
	kp_fake_msr_set(fix->fake, cpu, K7_SEL0, 0);
	kp_fake_msr_set(fix->fake, cpu, AMD_GCTL, 0);
	kp_fake_log_clear(fix->fake);
	kp_pmu_fix_resume(fix, cpu);
	KP_FAKE_EXPECT_WRITES(test, fix->fake, cpu, seq);
	KUNIT_EXPECT_EQ(test, kp_fake_lvtpc_count(fix->fake, cpu), 1U);
	kp_pmu_disarm(&fix->pmu, MISPRED, KPROFILE_MODE_TABLE);
}

/* Single and Range descriptors; a source then gets the next counter. */
static void kp_cpu_reserve(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_intel(test, 2, 4, 48);
	static const struct kprofile_counter_desc descs[] = {
		{ .type = KPROFILE_COUNTER_SINGLE, .begin = 0 },
		{ .type = KPROFILE_COUNTER_RANGE, .begin = 2, .end = 3 },
	};
	struct kprofile_reservation *r;
	char reason[KPROFILE_REASON_LEN];
	struct kp_counter_holder h;

	kp_fake_log_clear(fix->fake);
	KUNIT_ASSERT_EQ(test, kp_reserve(&fix->pmu, descs, ARRAY_SIZE(descs),
					 NULL, NULL, NULL, "pid 7", &r,
					 reason, sizeof(reason)), 0);
	KUNIT_EXPECT_EQ(test, kp_reserve_mask(r), 0xdULL);
	KUNIT_EXPECT_EQ(test, fix->held, 0xdUL);
	KUNIT_EXPECT_EQ(test, kp_fake_log_len(fix->fake), 0U);
	kp_pmu_holder(&fix->pmu, 2, &h);
	KUNIT_EXPECT_EQ(test, h.kind, KP_HOLDER_RESERVED);
	KUNIT_EXPECT_STREQ(test, h.owner, "pid 7");

	kp_pmu_fix_arm_ok(test, fix, ISSUES);
	KUNIT_EXPECT_TRUE(test, kp_fake_msr_get(fix->fake, 0, SEL0 + 1) &
			  KP_EVTSEL_EN);
	KUNIT_EXPECT_EQ(test, kp_pmu_arm(&fix->pmu, MISPRED,
					 KPROFILE_MODE_TABLE, NULL, reason,
					 sizeof(reason)), -EBUSY);
	KUNIT_EXPECT_NOT_NULL(test, strstr(reason, "pid 7"));
	kp_pmu_disarm(&fix->pmu, ISSUES, KPROFILE_MODE_TABLE);
	kp_unreserve(r);
	KUNIT_EXPECT_EQ(test, fix->held, 0UL);
}

/*
 * Failing reservations change nothing: perf holding one counter of the
 * whole-PMU request, a counter a source holds, EventBuffer, bad indexes.
 */
static void kp_cpu_reserve_fails(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_amd(test, 0x17, false);
	static const struct kprofile_counter_desc pebs[] = {
		{ .type = KPROFILE_COUNTER_EVENT_BUFFER },
	};
	static const struct kprofile_counter_desc beyond[] = {
		{ .type = KPROFILE_COUNTER_RANGE, .begin = 1, .end = 4 },
	};
	static const struct kprofile_counter_desc first[] = {
		{ .type = KPROFILE_COUNTER_SINGLE, .begin = 0 },
	};
	struct kprofile_reservation *r = NULL;
	char reason[KPROFILE_REASON_LEN];

	fix->perf = BIT(3);
	kp_fake_log_clear(fix->fake);
	KUNIT_EXPECT_EQ(test, kp_reserve(&fix->pmu, NULL, 0, NULL, NULL, NULL,
					 "t", &r, reason, sizeof(reason)),
			-EBUSY);
	KUNIT_EXPECT_NOT_NULL(test, strstr(reason, "nmi_watchdog=0"));
	KUNIT_EXPECT_EQ(test, fix->held, 0UL);
	KUNIT_EXPECT_EQ(test, kp_fake_log_len(fix->fake), 0U);
	fix->perf = 0;

	kp_pmu_fix_arm_ok(test, fix, ISSUES);
	kp_fake_log_clear(fix->fake);
	KUNIT_EXPECT_EQ(test, kp_reserve(&fix->pmu, first, 1, NULL, NULL,
					 NULL, "t", &r, reason,
					 sizeof(reason)), -EBUSY);
	KUNIT_EXPECT_NOT_NULL(test, strstr(reason, "ProfileTotalIssues"));
	KUNIT_EXPECT_EQ(test, kp_reserve(&fix->pmu, pebs, 1, NULL, NULL, NULL,
					 "t", &r, reason, sizeof(reason)),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, kp_reserve(&fix->pmu, beyond, 1, NULL, NULL,
					 NULL, "t", &r, reason,
					 sizeof(reason)), -EINVAL);
	KUNIT_EXPECT_EQ(test, kp_fake_log_len(fix->fake), 0U);
	KUNIT_EXPECT_EQ(test, fix->held, 0x1UL);
	KUNIT_EXPECT_NULL(test, r);
	kp_pmu_disarm(&fix->pmu, ISSUES, KPROFILE_MODE_TABLE);

	KUNIT_ASSERT_EQ(test, kp_reserve(&fix->pmu, NULL, 0, NULL, NULL, NULL,
					 "t", &r, reason, sizeof(reason)), 0);
	KUNIT_EXPECT_EQ(test, kp_reserve_mask(r), 0xfULL);
	kp_unreserve(r);
}

/*
 * Counting for thread profiling: EN without INT, started and stopped on
 * the current CPU, read and written there; its overflow is not an NMI
 * kprofile claims.
 */
static void kp_cpu_counting(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_intel(test, 2, 4, 48);
	struct kp_pmu *pmu = &fix->pmu;
	struct kp_counter_holder h;
	unsigned int cpu;
	u32 idx = ~0U;
	int ret;
	u64 val;

	KUNIT_ASSERT_EQ(test, kp_pmu_claim_counting(pmu, BRANCHES,
						    KPROFILE_MODE_USER,
						    "thread profiling", &idx),
			0);
	KUNIT_EXPECT_EQ(test, idx, 0U);
	kp_pmu_holder(pmu, idx, &h);
	KUNIT_EXPECT_EQ(test, h.kind, KP_HOLDER_COUNTING);

	preempt_disable();
	cpu = smp_processor_id();
	kp_pmu_write_counter(pmu, idx, 0);
	kp_pmu_start_counting(pmu, idx);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fix->fake, cpu, SEL0),
			0x004100c4ULL);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fix->fake, cpu, GCTRL) & 1, 1ULL);
	kp_fake_count(fix->fake, cpu, PMC0, 1234);
	val = kp_pmu_read_counter(pmu, idx);
	kp_fake_msr_set(fix->fake, cpu, GSTATUS, BIT_ULL(0));
	ret = kp_pmu_fix_nmi(fix, cpu, NULL);
	kp_pmu_stop_counting(pmu, idx);
	KUNIT_EXPECT_FALSE(test, kp_fake_msr_get(fix->fake, cpu, SEL0) &
			   KP_EVTSEL_EN);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, val, 1234ULL);
	KUNIT_EXPECT_EQ(test, ret, NMI_DONE);

	kp_pmu_release_counting(pmu, idx);
	KUNIT_EXPECT_EQ(test, fix->held, 0UL);
}

/* Which sources fit together, and on which counters. */
static void kp_cpu_schedule(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_intel(test, 2, 2, 48);
	struct kprofile_schedule s = {};

	kp_pmu_fix_arm_ok(test, fix, MISPRED);
	s.nr_sources = 3;
	s.sources[0] = ISSUES;
	s.sources[1] = MISPRED;
	s.sources[2] = KPROFILE_SOURCE_TIME;
	KUNIT_ASSERT_EQ(test, kp_pmu_schedule(&fix->pmu, &s), 0);
	KUNIT_EXPECT_TRUE(test, s.flags & KPROFILE_SCHED_FITS);
	KUNIT_EXPECT_EQ(test, s.busy_mask, 0x1U);
	KUNIT_EXPECT_EQ(test, s.num_counters, 2U);
	KUNIT_EXPECT_EQ(test, s.counters[0], 1U);
	KUNIT_EXPECT_EQ(test, s.counters[1], 0U);
	KUNIT_EXPECT_EQ(test, s.counters[2], KPROFILE_NO_COUNTER);

	s.nr_sources = 3;
	s.sources[2] = BRANCHES;
	KUNIT_ASSERT_EQ(test, kp_pmu_schedule(&fix->pmu, &s), 0);
	KUNIT_EXPECT_FALSE(test, s.flags & KPROFILE_SCHED_FITS);
	KUNIT_EXPECT_EQ(test, s.counters[2], KPROFILE_NO_COUNTER);
	KUNIT_EXPECT_NOT_NULL(test,
			      strstr(s.reason, "ProfileBranchMispredictions"));

	s.nr_sources = 1;
	s.sources[0] = 0xff;
	KUNIT_EXPECT_EQ(test, kp_pmu_schedule(&fix->pmu, &s), -EINVAL);
	kp_pmu_disarm(&fix->pmu, MISPRED, KPROFILE_MODE_TABLE);
}

static struct kunit_case kp_pmu_state_cases[] = {
	KUNIT_CASE(kp_cpu_teardown_amd),
	KUNIT_CASE(kp_cpu_teardown_intel),
	KUNIT_CASE(kp_cpu_down_writes_nothing),
	KUNIT_CASE(kp_cpu_cpuhp),
	KUNIT_CASE(kp_cpu_hotplug),
	KUNIT_CASE(kp_cpu_resume),
	KUNIT_CASE(kp_cpu_reserve),
	KUNIT_CASE(kp_cpu_reserve_fails),
	KUNIT_CASE(kp_cpu_counting),
	KUNIT_CASE(kp_cpu_schedule),
	{}
};

static struct kunit_suite kp_pmu_state_suite = {
	.name = "kprofile_pmu_cpu",
	.exit = kp_pmu_fix_exit,
	.test_cases = kp_pmu_state_cases,
};

kunit_test_suite(kp_pmu_state_suite);

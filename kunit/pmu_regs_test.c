// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_regs_test.c - KUnit suite "kprofile_pmu_regs": how the hardware
 * layer writes registers it shares with perf and the rest of the kernel
 * (docs/hardware.md F8, F9, F12, F14): no "is it perf's?" probes of
 * Linux's arbitration, global-control read-modify-writes with interrupts
 * off, everything stopped for reboot and kexec, and full-width counter
 * writes where the processor has them.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/preempt.h>
#include <linux/string.h>

#include "pmu_fixture.h"

#define PMC0		KP_FAKE_MSR_IA32_PMC0
#define A_PMC0		KP_FAKE_MSR_IA32_A_PMC0
#define SEL0		KP_FAKE_MSR_IA32_PERFEVTSEL0
#define GCTRL		KP_FAKE_MSR_IA32_GLOBAL_CTRL
#define K7_SEL0		KP_FAKE_MSR_K7_EVNTSEL0
#define AMD_GCTL	KP_FAKE_MSR_AMD_GLOBAL_CTL

#define MISPRED		KPROFILE_SOURCE_BRANCH_MISPREDICTIONS
#define ISSUES		KPROFILE_SOURCE_TOTAL_ISSUES
#define BRANCHES	KPROFILE_SOURCE_BRANCH_INSTRUCTIONS

/*
 * F8: asking who holds the counters (EBUSY reasons, KPROFILE_IOC_SCHEDULE)
 * never reserves and releases through Linux's arbitration: perf's own
 * reservation is all or nothing, so such a probe makes a concurrent
 * perf_event_open() or NMI-watchdog enable fail.  perf is still named
 * when a real attempt to take a counter was refused.
 */
static void kp_regs_no_arbiter_probe(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_intel(test, 2, 4, 48);
	struct kprofile_schedule s = {};
	char reason[KPROFILE_REASON_LEN];
	struct kp_counter_holder h;

	kp_pmu_fix_arm_ok(test, fix, MISPRED);
	atomic_set(&fix->reserves, 0);
	kp_pmu_holder(&fix->pmu, 1, &h);
	KUNIT_EXPECT_EQ(test, h.kind, KP_HOLDER_FREE);
	kp_pmu_busy_reason(&fix->pmu, reason, sizeof(reason));
	s.nr_sources = 1;
	s.sources[0] = ISSUES;
	KUNIT_EXPECT_EQ(test, kp_pmu_schedule(&fix->pmu, &s), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&fix->reserves), 0);

	/* perf takes counters 1..3; the next arm is refused and says so. */
	fix->perf = 0xe;
	KUNIT_EXPECT_EQ(test, kp_pmu_arm(&fix->pmu, ISSUES,
					 KPROFILE_MODE_TABLE, NULL, reason,
					 sizeof(reason)), -EBUSY);
	KUNIT_EXPECT_NOT_NULL(test, strstr(reason, "perf"));
	kp_pmu_holder(&fix->pmu, 2, &h);
	KUNIT_EXPECT_EQ(test, h.kind, KP_HOLDER_PERF);
	fix->perf = 0;
	kp_pmu_disarm(&fix->pmu, MISPRED, KPROFILE_MODE_TABLE);
}

/*
 * A counter perf refused once is not perf's for ever: when perf lets go
 * (the NMI watchdog turned off) without telling kprofile, a set of
 * sources needing those counters still fits (KPROFILE_IOC_SCHEDULE, which
 * record asks first), and arming them takes them.  Failed before: the
 * refusal remembered from the watchdog's time made "kprofile record -s
 * instructions,branches" say the sources do not fit, 3 of 4 counters held
 * by perf, after sysctl kernel.nmi_watchdog=0.
 */
static void kp_regs_perf_let_go(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_intel(test, 2, 4, 48);
	struct kprofile_schedule s = {};
	char reason[KPROFILE_REASON_LEN];

	kp_pmu_fix_arm_ok(test, fix, MISPRED);
	fix->perf = 0xe;
	KUNIT_EXPECT_EQ(test, kp_pmu_arm(&fix->pmu, ISSUES,
					 KPROFILE_MODE_TABLE, NULL, reason,
					 sizeof(reason)), -EBUSY);
	fix->perf = 0;

	s.nr_sources = 3;
	s.sources[0] = ISSUES;
	s.sources[1] = BRANCHES;
	s.sources[2] = MISPRED;
	KUNIT_ASSERT_EQ(test, kp_pmu_schedule(&fix->pmu, &s), 0);
	KUNIT_EXPECT_TRUE_MSG(test, s.flags & KPROFILE_SCHED_FITS, "%s",
			      s.reason);
	KUNIT_EXPECT_EQ(test, s.counters[2], 0U);
	KUNIT_EXPECT_NE(test, s.counters[0], KPROFILE_NO_COUNTER);
	KUNIT_EXPECT_NE(test, s.counters[1], KPROFILE_NO_COUNTER);
	KUNIT_EXPECT_NE(test, s.counters[0], s.counters[1]);

	kp_pmu_fix_arm_ok(test, fix, ISSUES);
	kp_pmu_fix_arm_ok(test, fix, BRANCHES);
	kp_pmu_disarm(&fix->pmu, BRANCHES, KPROFILE_MODE_TABLE);
	kp_pmu_disarm(&fix->pmu, ISSUES, KPROFILE_MODE_TABLE);
	kp_pmu_disarm(&fix->pmu, MISPRED, KPROFILE_MODE_TABLE);
}

static bool irqs_off_writes(struct kp_fake *fake, u32 msr, unsigned int *n)
{
	unsigned int i, len = kp_fake_log_len(fake);
	bool all = true;

	*n = 0;
	for (i = 0; i < len; i++) {
		const struct kp_fake_write *w = kp_fake_log_at(fake, i);

		if (w->msr != msr)
			continue;
		(*n)++;
		all = all && w->irqs_off;
	}
	return all;
}

/*
 * F9: IA32_PERF_GLOBAL_CTRL is read, modified and written back with
 * interrupts off, from the CPU-online callback (a preemptible hotplug
 * thread) and at thread-profiling switch-in (preemption off only), so an
 * arm/disarm IPI or a context-switch probe cannot slip between the read
 * and the write and lose its update.
 */
static void kp_regs_global_rmw_irqs_off(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_intel(test, 2, 4, 48);
	unsigned int cpu = cpumask_last(cpu_online_mask), n;
	u32 idx = ~0U;

	kp_pmu_fix_arm_ok(test, fix, MISPRED);
	kp_fake_log_clear(fix->fake);
	kp_pmu_fix_cpu_down(fix, cpu);
	kp_pmu_fix_cpu_up(fix, cpu);
	KUNIT_EXPECT_TRUE(test, irqs_off_writes(fix->fake, GCTRL, &n));
	KUNIT_EXPECT_EQ(test, n, 2U);
	kp_pmu_disarm(&fix->pmu, MISPRED, KPROFILE_MODE_TABLE);

	KUNIT_ASSERT_EQ(test, kp_pmu_claim_counting(&fix->pmu, BRANCHES,
						    KPROFILE_MODE_USER, "t",
						    &idx), 0);
	kp_fake_log_clear(fix->fake);
	preempt_disable();
	kp_pmu_start_counting(&fix->pmu, idx);
	kp_pmu_stop_counting(&fix->pmu, idx);
	preempt_enable();
	KUNIT_EXPECT_TRUE(test, irqs_off_writes(fix->fake, GCTRL, &n));
	KUNIT_EXPECT_EQ(test, n, 2U);
	kp_pmu_release_counting(&fix->pmu, idx);
}

/*
 * F12: at reboot or kexec every counter kprofile runs, sampling or
 * counting, stops on every CPU, and nothing starts it again: no counter
 * with INT runs into the next kernel.
 */
static void kp_regs_shutdown(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_amd(test, 0x19, true);
	struct kp_pmu *pmu = &fix->pmu;
	unsigned int cpu;
	u32 idx = ~0U;

	kp_pmu_fix_arm_ok(test, fix, MISPRED);
	KUNIT_ASSERT_EQ(test, kp_pmu_claim_counting(pmu, BRANCHES,
						    KPROFILE_MODE_USER, "t",
						    &idx), 0);
	preempt_disable();
	kp_pmu_start_counting(pmu, idx);
	preempt_enable();

	kp_pmu_shutdown(pmu);
	for_each_online_cpu(cpu) {
		KUNIT_EXPECT_FALSE(test, kp_fake_msr_get(fix->fake, cpu,
							 K7_SEL0) &
				   (KP_EVTSEL_EN | KP_EVTSEL_INT));
		KUNIT_EXPECT_FALSE(test, kp_fake_msr_get(fix->fake, cpu,
							 K7_SEL0 + idx) &
				   KP_EVTSEL_EN);
		KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fix->fake, cpu,
						      AMD_GCTL) & 0x3, 0ULL);
	}
	/* A CPU coming online and a thread switching in start nothing. */
	kp_fake_log_clear(fix->fake);
	kp_pmu_fix_cpu_up(fix, cpumask_first(cpu_online_mask));
	preempt_disable();
	kp_pmu_start_counting(pmu, idx);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, kp_fake_log_len(fix->fake), 0U);
	kp_pmu_release_counting(pmu, idx);
	kp_pmu_disarm(pmu, MISPRED, KPROFILE_MODE_TABLE);
}

/*
 * F14: with IA32_PERF_CAPABILITIES.FW_WRITE, counters are written
 * through the full-width aliases IA32_A_PMCx, and any value up to the
 * counter width lands exactly (a legacy IA32_PMCx write keeps 32 bits,
 * sign-extended); without it, the legacy MSRs are used and A_PMCx, which
 * does not exist, is never touched.
 */
static void kp_regs_full_width(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_fix *fix;
	unsigned int cpu;
	u64 val;

	kp_fake_intel(fake, 4, 4, 48, 7, 0);
	kp_fake_intel_full_width(fake, true);
	fix = kp_pmu_fix_build(test, fake);
	kp_pmu_fix_up(fix);
	preempt_disable();
	cpu = smp_processor_id();
	kp_pmu_write_counter(&fix->pmu, 2, 0x923456789abcULL);
	val = kp_fake_msr_get(fake, cpu, PMC0 + 2);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, val, 0x923456789abcULL);
	kp_pmu_fix_interval(fix, MISPRED, 10000);
	kp_fake_log_clear(fake);
	kp_pmu_fix_arm_ok(test, fix, MISPRED);
	KUNIT_EXPECT_EQ(test, kp_fake_log_count_msr(fake, KP_FAKE_ALL_CPUS,
						    A_PMC0), num_online_cpus());
	KUNIT_EXPECT_EQ(test, kp_fake_log_count_msr(fake, KP_FAKE_ALL_CPUS,
						    PMC0), 0U);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, cpu, PMC0),
			0xffffffffd8f0ULL);
	kp_pmu_disarm(&fix->pmu, MISPRED, KPROFILE_MODE_TABLE);
}

static void kp_regs_no_full_width(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_fix *fix;

	kp_fake_intel(fake, 4, 4, 48, 7, 0);
	kp_fake_intel_full_width(fake, false);
	fix = kp_pmu_fix_build(test, fake);
	kp_pmu_fix_up(fix);
	kp_fake_log_clear(fake);
	kp_pmu_fix_arm_ok(test, fix, MISPRED);
	KUNIT_EXPECT_EQ(test, kp_fake_log_count_msr(fake, KP_FAKE_ALL_CPUS,
						    A_PMC0), 0U);
	KUNIT_EXPECT_EQ(test, kp_fake_log_count_msr(fake, KP_FAKE_ALL_CPUS,
						    PMC0), num_online_cpus());
	kp_pmu_disarm(&fix->pmu, MISPRED, KPROFILE_MODE_TABLE);
}

static struct kunit_case kp_pmu_regs_cases[] = {
	KUNIT_CASE(kp_regs_no_arbiter_probe),
	KUNIT_CASE(kp_regs_perf_let_go),
	KUNIT_CASE(kp_regs_global_rmw_irqs_off),
	KUNIT_CASE(kp_regs_shutdown),
	KUNIT_CASE(kp_regs_full_width),
	KUNIT_CASE(kp_regs_no_full_width),
	{}
};

static struct kunit_suite kp_pmu_regs_suite = {
	.name = "kprofile_pmu_regs",
	.exit = kp_pmu_fix_exit,
	.test_cases = kp_pmu_regs_cases,
};

kunit_test_suite(kp_pmu_regs_suite);

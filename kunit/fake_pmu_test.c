// SPDX-License-Identifier: GPL-2.0
/*
 * fake_pmu_test.c - KUnit suite "kprofile_fake_pmu": the fake processor's
 * performance-monitoring model behaves as the Intel SDM and the AMD APM
 * describe the hardware, not as kprofile expects it to.  The hardware
 * layer's suites rely on each rule here; a rule the fake got wrong would
 * hide the same mistake in the code under test.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/preempt.h>
#include <linux/smp.h>

#include "fake_hw.h"

#define PMC0		KP_FAKE_MSR_IA32_PMC0
#define A_PMC0		KP_FAKE_MSR_IA32_A_PMC0
#define SEL0		KP_FAKE_MSR_IA32_PERFEVTSEL0
#define GCTRL		KP_FAKE_MSR_IA32_GLOBAL_CTRL
#define GSTATUS		KP_FAKE_MSR_IA32_GLOBAL_STATUS
#define GOVF		KP_FAKE_MSR_IA32_GLOBAL_OVF_CTRL
#define DEBUGCTL	KP_FAKE_MSR_IA32_DEBUGCTL
#define K7_SEL0		KP_FAKE_MSR_K7_EVNTSEL0
#define K7_CTR0		KP_FAKE_MSR_K7_PERFCTR0
#define AMD_GCTL	KP_FAKE_MSR_AMD_GLOBAL_CTL

#define EN		KP_FAKE_EVTSEL_EN
#define INT		KP_FAKE_EVTSEL_INT

static int wr(struct kp_fake *fake, u32 msr, u64 val)
{
	int ret;

	preempt_disable();
	ret = kp_wrmsr(kp_fake_hw(fake), msr, val);
	preempt_enable();
	return ret;
}

struct on_cpu_op {
	struct kp_fake *fake;
	u32 msr;
	u64 val;
	int ret;
};

static void on_cpu_fn(void *arg)
{
	struct on_cpu_op *op = arg;

	if (op->msr)
		op->ret = kp_wrmsr(kp_fake_hw(op->fake), op->msr, op->val);
	else
		kp_lvtpc_nmi(kp_fake_hw(op->fake));
}

/* A write (or, with @msr 0, the LVTPC op) on @cpu, as code there does. */
static int wr_on(struct kp_fake *fake, unsigned int cpu, u32 msr, u64 val)
{
	struct on_cpu_op op = { .fake = fake, .msr = msr, .val = val };

	smp_call_function_single(cpu, on_cpu_fn, &op, 1);
	return op.ret;
}

struct cpuid_op {
	struct kp_fake *fake;
	u32 leaf, subleaf;
	struct kp_cpuid_regs regs;
};

static void cpuid_fn(void *arg)
{
	struct cpuid_op *op = arg;

	kp_cpuid(kp_fake_hw(op->fake), op->leaf, op->subleaf, &op->regs);
}

/* CPUID(@leaf, @subleaf) executed on @cpu, as code running there does. */
static struct kp_cpuid_regs cpuid_on(struct kp_fake *fake, unsigned int cpu,
				     u32 leaf, u32 subleaf)
{
	struct cpuid_op op = { .fake = fake, .leaf = leaf,
			       .subleaf = subleaf };

	smp_call_function_single(cpu, cpuid_fn, &op, 1);
	return op.regs;
}

static struct kp_fake_nmi_stats stats(struct kp_fake *fake, unsigned int cpu)
{
	struct kp_fake_nmi_stats st;

	kp_fake_nmi_stats(fake, cpu, &st);
	return st;
}

/*
 * Counters count only when enabled: EN in the select, and on Intel v2+ the
 * counter's GLOBAL_CTRL bit.  A counter someone else enabled before
 * kprofile was loaded counts on its own (perf's NMI watchdog).
 */
static void fake_counts_only_when_enabled(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);

	kp_fake_intel(fake, 2, 4, 48, 7, 0);
	kp_fake_msr_set(fake, 0, GCTRL, 0);
	KUNIT_EXPECT_FALSE(test, kp_fake_counter_enabled(fake, 0, 0));
	kp_fake_count(fake, 0, PMC0, 100);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, 0, PMC0), 0ULL);
	kp_fake_msr_set(fake, 0, SEL0, EN | 0x3c);
	kp_fake_count(fake, 0, PMC0, 100);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, 0, PMC0), 0ULL);
	kp_fake_msr_set(fake, 0, GCTRL, BIT_ULL(0));
	KUNIT_EXPECT_TRUE(test, kp_fake_counter_enabled(fake, 0, 0));
	kp_fake_tick(fake, 0, 100);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, 0, PMC0), 100ULL);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, 0, PMC0 + 1), 0ULL);

	/* AMD PerfMonV2: PerfCntrGlobalCtl gates too; legacy: EN alone. */
	fake = kp_fake_new(test);
	kp_fake_amd(fake, 0x19, true);
	kp_fake_msr_set(fake, 0, K7_SEL0, 0x530076);
	kp_fake_tick(fake, 0, 7);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, 0, K7_CTR0), 0ULL);
	kp_fake_msr_set(fake, 0, AMD_GCTL, 0x1);
	kp_fake_tick(fake, 0, 7);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, 0, K7_CTR0), 7ULL);
	fake = kp_fake_new(test);
	kp_fake_amd(fake, 0x17, false);
	kp_fake_msr_set(fake, 0, K7_SEL0 + 3, 0x530076);
	kp_fake_tick(fake, 0, 9);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, 0, K7_CTR0 + 3), 9ULL);
}

/*
 * An overflow sets the status bit with or without INT; only INT raises a
 * PMI, and only through an unmasked LVTPC.  Intel's APIC masks the LVTPC
 * when it delivers the PMI, so the next one is lost until the handler
 * unmasks it; AMD's does not.
 */
static void fake_overflow_pmi_lvtpc(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	unsigned int cpu = cpumask_first(cpu_online_mask);

	kp_fake_intel(fake, 4, 4, 48, 7, 0);
	kp_fake_msr_set(fake, cpu, SEL0, EN | 0x3c);
	kp_fake_msr_set(fake, cpu, PMC0, 0xfffffffffff0ULL);
	KUNIT_EXPECT_TRUE(test, kp_fake_count(fake, cpu, PMC0, 0x10));
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, cpu, GSTATUS), 0x1ULL);
	KUNIT_EXPECT_EQ(test, stats(fake, cpu).raised, 0U);

	kp_fake_msr_set(fake, cpu, SEL0 + 1, EN | INT | 0x3c);
	kp_fake_msr_set(fake, cpu, PMC0 + 1, 0xfffffffffff0ULL);
	kp_fake_count(fake, cpu, PMC0 + 1, 0x10);
	KUNIT_EXPECT_EQ(test, kp_fake_nmi_pending(fake, cpu), 1U);
	KUNIT_EXPECT_TRUE(test, kp_fake_lvtpc_masked(fake, cpu));
	kp_fake_msr_set(fake, cpu, PMC0 + 1, 0xfffffffffff0ULL);
	kp_fake_count(fake, cpu, PMC0 + 1, 0x10);
	KUNIT_EXPECT_EQ(test, stats(fake, cpu).lost, 1U);
	KUNIT_EXPECT_EQ(test, kp_fake_nmi_pending(fake, cpu), 1U);
	/* No handler: the NMI is unknown, and the LVTPC stays masked. */
	KUNIT_EXPECT_EQ(test, kp_fake_nmi_deliver(fake, cpu, 0, NULL), 1U);
	KUNIT_EXPECT_EQ(test, stats(fake, cpu).unknown, 1U);
	KUNIT_EXPECT_TRUE(test, kp_fake_lvtpc_masked(fake, cpu));
	wr_on(fake, cpu, 0, 0);
	KUNIT_EXPECT_FALSE(test, kp_fake_lvtpc_masked(fake, cpu));

	fake = kp_fake_new(test);
	kp_fake_amd(fake, 0x17, false);
	kp_fake_msr_set(fake, cpu, K7_SEL0, EN | INT | 0x76);
	kp_fake_msr_set(fake, cpu, K7_CTR0, 0xfffffffffff0ULL);
	kp_fake_count(fake, cpu, K7_CTR0, 0x10);
	KUNIT_EXPECT_FALSE(test, kp_fake_lvtpc_masked(fake, cpu));
	KUNIT_EXPECT_EQ(test, kp_fake_nmi_pending(fake, cpu), 1U);
}

/*
 * Reserved bits and counters that do not exist fault (#GP), and the _safe
 * accessors (the seam's ops) report it; the register keeps its value.
 */
static void fake_reserved_bits_fault(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);

	kp_fake_intel(fake, 2, 4, 48, 7, 0);
	KUNIT_EXPECT_EQ(test, wr(fake, GCTRL, BIT_ULL(3) | BIT_ULL(32)), 0);
	KUNIT_EXPECT_EQ(test, wr(fake, GCTRL, BIT_ULL(4)), -EIO);
	KUNIT_EXPECT_EQ(test, wr(fake, SEL0, BIT_ULL(40)), -EIO);
	KUNIT_EXPECT_EQ(test, wr(fake, PMC0 + 4, 1), -EIO);
	KUNIT_EXPECT_EQ(test, wr(fake, SEL0 + 4, 1), -EIO);
	KUNIT_EXPECT_EQ(test, wr(fake, GOVF, BIT_ULL(59)), -EIO);
	KUNIT_EXPECT_EQ(test, wr(fake, GOVF, BIT_ULL(63) | 0x1), 0);

	fake = kp_fake_new(test);
	kp_fake_amd(fake, 0x19, true);
	KUNIT_EXPECT_EQ(test, wr(fake, K7_SEL0, BIT_ULL(21)), -EIO);
	KUNIT_EXPECT_EQ(test, wr(fake, K7_SEL0, 0x30f00530076ULL), 0);
	KUNIT_EXPECT_EQ(test, wr(fake, AMD_GCTL, BIT_ULL(4)), -EIO);
	KUNIT_EXPECT_EQ(test, wr(fake, K7_CTR0 + 4, 0), -EIO);
}

/*
 * A second NMI consumer: perf's handler with Intel PT active acknowledges
 * every status bit, unmasks the LVTPC and claims the NMI; the handlers
 * after it find the status clear.
 */
static void fake_perf_acks_first(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	unsigned int cpu = cpumask_first(cpu_online_mask);

	kp_fake_intel(fake, 4, 4, 48, 7, 0);
	kp_fake_nmi_register(fake, kp_fake_perf_pt_nmi, NULL);
	kp_fake_msr_set(fake, cpu, SEL0, EN | INT | 0x3c);
	kp_fake_msr_set(fake, cpu, PMC0, 0xfffffffffff0ULL);
	kp_fake_count(fake, cpu, PMC0, 0x10);
	KUNIT_EXPECT_EQ(test, kp_fake_nmi_deliver(fake, cpu, 0, NULL), 1U);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, cpu, GSTATUS), 0ULL);
	KUNIT_EXPECT_EQ(test, stats(fake, cpu).handled, 1U);
	KUNIT_EXPECT_FALSE(test, kp_fake_lvtpc_masked(fake, cpu));
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, cpu, GCTRL),
			0x70000000fULL);
}

static int two_handled(struct kp_fake *fake, void *data, struct pt_regs *r)
{
	int *n = data;

	return (*n)-- > 0 ? 2 : 0;
}

/*
 * AMD PMIs of two counters are two NMIs.  Taken back to back after a
 * handler that claimed two, the second is swallowed, as Linux does; if it
 * arrives late (another delivery), nobody claims it: an unknown NMI.
 */
static void fake_late_and_back_to_back(struct kunit *test)
{
	unsigned int cpu = cpumask_first(cpu_online_mask);
	struct kp_fake *fake;
	int n, round;

	for (round = 0; round < 2; round++) {
		fake = kp_fake_new(test);
		kp_fake_amd(fake, 0x17, false);
		n = 1;
		kp_fake_nmi_register(fake, two_handled, &n);
		kp_fake_msr_set(fake, cpu, K7_SEL0, EN | INT | 0x76);
		kp_fake_msr_set(fake, cpu, K7_SEL0 + 1, EN | INT | 0x76);
		kp_fake_msr_set(fake, cpu, K7_CTR0, 0xfffffffffff0ULL);
		kp_fake_msr_set(fake, cpu, K7_CTR0 + 1, 0xfffffffffff0ULL);
		kp_fake_tick(fake, cpu, 0x10);
		KUNIT_EXPECT_EQ(test, kp_fake_nmi_pending(fake, cpu), 2U);
		if (round == 0) {
			kp_fake_nmi_deliver(fake, cpu, 0, NULL);
			KUNIT_EXPECT_EQ(test, stats(fake, cpu).swallowed, 1U);
			KUNIT_EXPECT_EQ(test, stats(fake, cpu).unknown, 0U);
		} else {
			kp_fake_nmi_deliver(fake, cpu, 1, NULL);
			kp_fake_nmi_deliver(fake, cpu, 1, NULL);
			KUNIT_EXPECT_EQ(test, stats(fake, cpu).swallowed, 0U);
			KUNIT_EXPECT_EQ(test, stats(fake, cpu).unknown, 1U);
		}
	}
}

/*
 * Legacy IA32_PMCx writes keep 32 bits, sign-extended; the full-width
 * aliases IA32_A_PMCx exist only when IA32_PERF_CAPABILITIES bit 13 says
 * so, and keep every bit of the counter's width.
 */
static void fake_full_width_aliases(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	unsigned int cpu = cpumask_first(cpu_online_mask);

	kp_fake_intel(fake, 4, 4, 48, 7, 0);
	KUNIT_EXPECT_EQ(test, wr(fake, A_PMC0, 1), -EIO);
	kp_fake_intel_full_width(fake, false);
	KUNIT_EXPECT_EQ(test, wr(fake, A_PMC0, 1), -EIO);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, cpu,
					      KP_FAKE_MSR_IA32_PERF_CAPS), 0ULL);

	fake = kp_fake_new(test);
	kp_fake_intel(fake, 4, 4, 48, 7, 0);
	kp_fake_intel_full_width(fake, true);
	KUNIT_EXPECT_EQ(test, wr_on(fake, cpu, A_PMC0 + 1, 0x923456789abcULL),
			0);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, cpu, PMC0 + 1),
			0x923456789abcULL);
	KUNIT_EXPECT_EQ(test, wr_on(fake, cpu, PMC0 + 1, 0x923456789abcULL), 0);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, cpu, PMC0 + 1),
			0x56789abcULL);
}

/*
 * Freeze on PMI: with DEBUGCTL bit 12, a PMI clears GLOBAL_CTRL (v2/v3)
 * or sets GLOBAL_STATUS.CTR_Frz (v4+), which stops every counter until it
 * is cleared through GLOBAL_OVF_CTRL.
 */
static void fake_freeze_on_pmi(struct kunit *test)
{
	unsigned int cpu = cpumask_first(cpu_online_mask);
	struct kp_fake *fake = kp_fake_new(test);

	kp_fake_intel(fake, 2, 4, 48, 7, 0);
	kp_fake_msr_set(fake, cpu, DEBUGCTL, KP_FAKE_DEBUGCTL_FREEZE_ON_PMI);
	kp_fake_msr_set(fake, cpu, SEL0, EN | INT | 0x3c);
	kp_fake_msr_set(fake, cpu, PMC0, 0xfffffffffff0ULL);
	kp_fake_count(fake, cpu, PMC0, 0x10);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, cpu, GCTRL), 0ULL);

	fake = kp_fake_new(test);
	kp_fake_intel(fake, 4, 4, 48, 7, 0);
	kp_fake_msr_set(fake, cpu, DEBUGCTL, KP_FAKE_DEBUGCTL_FREEZE_ON_PMI);
	kp_fake_msr_set(fake, cpu, SEL0, EN | INT | 0x3c);
	kp_fake_msr_set(fake, cpu, SEL0 + 1, EN | 0x3c);
	kp_fake_msr_set(fake, cpu, PMC0, 0xfffffffffff0ULL);
	kp_fake_count(fake, cpu, PMC0, 0x10);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, cpu, GSTATUS),
			KP_FAKE_STATUS_CTR_FRZ | BIT_ULL(0));
	kp_fake_tick(fake, cpu, 5);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, cpu, PMC0 + 1), 0ULL);
	KUNIT_EXPECT_EQ(test, wr_on(fake, cpu, GOVF, KP_FAKE_STATUS_CTR_FRZ),
			0);
	kp_fake_tick(fake, cpu, 5);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, cpu, PMC0 + 1), 5ULL);
}

/*
 * CPUID can differ per CPU (hybrid parts: leaf 0xA and leaf 0x23 per core
 * type).  A CPU's own entry wins over the shared table, on that CPU only;
 * an exact subleaf answers only that subleaf, KP_FAKE_ANY_SUBLEAF every
 * one; a leaf a CPU has no entry for is the shared table's.
 */
static void fake_cpuid_per_cpu(struct kunit *test)
{
	unsigned int first = cpumask_first(cpu_online_mask);
	unsigned int last = cpumask_last(cpu_online_mask);
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_cpuid_regs r;

	/* Shared: v4, 4 counters of 48 bits. */
	kp_fake_intel(fake, 4, 4, 48, 7, 0);
	/* The last CPU: 8 counters (a P-core), every subleaf. */
	kp_fake_cpuid_cpu(fake, last, 0xa, KP_FAKE_ANY_SUBLEAF,
			  0x07300804, 0, 0, 0x603);
	/* The first CPU: leaf 0x23 subleaf 1 only (counter bitmap 0x3f). */
	kp_fake_cpuid_cpu(fake, first, 0x23, 1, 0x3f, 0x7, 0, 0);

	r = cpuid_on(fake, last, 0xa, 0);
	KUNIT_EXPECT_EQ(test, r.eax, 0x07300804U);
	KUNIT_EXPECT_EQ(test, r.edx, 0x603U);
	KUNIT_EXPECT_EQ(test, cpuid_on(fake, last, 0xa, 5).eax, 0x07300804U);
	KUNIT_EXPECT_EQ(test, cpuid_on(fake, first, 0x23, 1).eax, 0x3fU);
	KUNIT_EXPECT_EQ(test, cpuid_on(fake, first, 0x23, 0).eax, 0U);
	KUNIT_EXPECT_EQ(test, cpuid_on(fake, first, 0x23, 2).ebx, 0U);
	/* Leaves without an entry of their own come from the shared table. */
	KUNIT_EXPECT_EQ(test, cpuid_on(fake, last, 1, 0).eax,
			cpuid_on(fake, first, 1, 0).eax);
	if (first == last) {
		kunit_info(test, "one online CPU: no second CPU to compare");
		return;
	}
	/* Each CPU sees its own entries and the shared table otherwise. */
	KUNIT_EXPECT_EQ(test, cpuid_on(fake, first, 0xa, 0).eax,
			(48U << 16) | (4U << 8) | 4U | (7U << 24));
	KUNIT_EXPECT_EQ(test, cpuid_on(fake, last, 0x23, 1).eax, 0U);
	/* Replacing an entry changes that CPU's answer only. */
	kp_fake_cpuid_cpu(fake, last, 0xa, KP_FAKE_ANY_SUBLEAF,
			  0x07300604, 0, 0, 0x603);
	KUNIT_EXPECT_EQ(test, (cpuid_on(fake, last, 0xa, 0).eax >> 8) & 0xff,
			6U);
	KUNIT_EXPECT_EQ(test, (cpuid_on(fake, first, 0xa, 0).eax >> 8) & 0xff,
			4U);
}

/* An injection counts right after the named write, on that CPU, once. */
static void fake_inject_after_write(struct kunit *test)
{
	unsigned int cpu = cpumask_first(cpu_online_mask);
	struct kp_fake *fake = kp_fake_new(test);

	kp_fake_amd(fake, 0x17, false);
	kp_fake_msr_set(fake, cpu, K7_SEL0 + 1, EN | 0x76);
	kp_fake_inject_after_write(fake, cpu, K7_SEL0, K7_CTR0 + 1, 3);
	KUNIT_EXPECT_EQ(test, wr_on(fake, cpu, K7_SEL0, 0x76), 0);
	KUNIT_EXPECT_EQ(test, wr_on(fake, cpu, K7_SEL0, 0x76), 0);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, cpu, K7_CTR0 + 1), 3ULL);
}

static struct kunit_case kp_fake_pmu_cases[] = {
	KUNIT_CASE(fake_counts_only_when_enabled),
	KUNIT_CASE(fake_overflow_pmi_lvtpc),
	KUNIT_CASE(fake_reserved_bits_fault),
	KUNIT_CASE(fake_perf_acks_first),
	KUNIT_CASE(fake_late_and_back_to_back),
	KUNIT_CASE(fake_full_width_aliases),
	KUNIT_CASE(fake_freeze_on_pmi),
	KUNIT_CASE(fake_inject_after_write),
	KUNIT_CASE(fake_cpuid_per_cpu),
	{}
};

static struct kunit_suite kp_fake_pmu_suite = {
	.name = "kprofile_fake_pmu",
	.test_cases = kp_fake_pmu_cases,
};

kunit_test_suite(kp_fake_pmu_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_nmi_test.c - KUnit suite "kprofile_pmu_nmi": the PMI handler on a
 * simulated overflow, per interface, delivered through the fake's LVTPC
 * and NMI code: it finds the counter, reloads the period from the
 * source's current interval, acknowledges, unmasks the LVTPC, and hands
 * the overflow to every consumer; and it leaves NMIs that are not
 * kprofile's alone, writing no MSR.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/irqflags.h>
#include <linux/mutex.h>
#include <linux/smp.h>
#include <asm/nmi.h>

#include "pmu_fixture.h"

#define PMC0		KP_FAKE_MSR_IA32_PMC0
#define SEL0		KP_FAKE_MSR_IA32_PERFEVTSEL0
#define GSTATUS		KP_FAKE_MSR_IA32_GLOBAL_STATUS
#define OVF_CTRL	KP_FAKE_MSR_IA32_GLOBAL_OVF_CTRL
#define K7_SEL0		KP_FAKE_MSR_K7_EVNTSEL0
#define K7_CTR0		KP_FAKE_MSR_K7_PERFCTR0
#define AMD_GSTATUS	KP_FAKE_MSR_AMD_GLOBAL_STATUS
#define AMD_GCLR	KP_FAKE_MSR_AMD_GLOBAL_STATUS_CLR
#define AMD_GCTL	KP_FAKE_MSR_AMD_GLOBAL_CTL

#define MISPRED		KPROFILE_SOURCE_BRANCH_MISPREDICTIONS
#define ISSUES		KPROFILE_SOURCE_TOTAL_ISSUES

struct kp_nmi_case {
	struct kp_pmu_fix *fix;
	struct kp_test_consumer tc;
	struct pt_regs regs;
	unsigned int cpu;
};

/* Arm MISPRED at 10000 on every CPU with a recording consumer. */
static struct kp_nmi_case *nmi_setup(struct kunit *test,
				     struct kp_pmu_fix *fix)
{
	struct kp_nmi_case *nc = kunit_kzalloc(test, sizeof(*nc), GFP_KERNEL);
	char reason[KPROFILE_REASON_LEN];

	KUNIT_ASSERT_NOT_NULL(test, nc);
	nc->fix = fix;
	nc->cpu = cpumask_last(cpu_online_mask);
	kp_test_consumer_init(&nc->tc);
	kp_pmu_add_consumer(&fix->pmu, &nc->tc.c);
	kp_pmu_fix_interval(fix, MISPRED, 10000);
	KUNIT_ASSERT_EQ(test, kp_pmu_arm(&fix->pmu, MISPRED,
					 KPROFILE_MODE_TABLE, NULL, reason,
					 sizeof(reason)), 0);
	kp_fake_log_clear(fix->fake);
	return nc;
}

static void nmi_teardown(struct kp_nmi_case *nc)
{
	kp_pmu_disarm(&nc->fix->pmu, MISPRED, KPROFILE_MODE_TABLE);
	kp_pmu_remove_consumer(&nc->fix->pmu, &nc->tc.c);
}

/*
 * The overflow's PMI is taken through the fake's NMI code and handled:
 * one NMI, claimed; one consumer call with the source and regs; the
 * LVTPC written once and left unmasked.
 */
static void expect_delivered(struct kunit *test, struct kp_nmi_case *nc)
{
	struct kp_fake_nmi_stats st;

	KUNIT_EXPECT_EQ(test, kp_pmu_fix_deliver(nc->fix, nc->cpu, 0,
						 &nc->regs), 1U);
	kp_fake_nmi_stats(nc->fix->fake, nc->cpu, &st);
	KUNIT_EXPECT_EQ(test, st.handled, 1U);
	KUNIT_EXPECT_EQ(test, st.unknown, 0U);
	KUNIT_EXPECT_EQ(test, atomic_read(&nc->tc.calls), 1);
	KUNIT_EXPECT_EQ(test, nc->tc.source, (u32)MISPRED);
	KUNIT_EXPECT_PTR_EQ(test, nc->tc.regs, &nc->regs);
	KUNIT_EXPECT_EQ(test, kp_fake_lvtpc_count(nc->fix->fake, nc->cpu), 1U);
	KUNIT_EXPECT_FALSE(test, kp_fake_lvtpc_masked(nc->fix->fake, nc->cpu));
}

/*
 * Intel v2+: GLOBAL_STATUS names the counter; the period is reloaded with
 * the interval set since arming, then GLOBAL_OVF_CTRL acknowledges it.
 */
static void kp_nmi_emon_v2(struct kunit *test)
{
	struct kp_nmi_case *nc = nmi_setup(test,
					   kp_pmu_fix_intel(test, 3, 4, 48));
	static const struct kp_fake_msrval seq[] = {
		{ PMC0, 0xffffffffb1e0ULL }, { OVF_CTRL, 0x1 },
	};
	struct kp_fake *fake = nc->fix->fake;

	KUNIT_EXPECT_TRUE(test, kp_fake_count(fake, nc->cpu, PMC0, 10000));
	kp_pmu_fix_interval(nc->fix, MISPRED, 20000);
	expect_delivered(test, nc);
	KP_FAKE_EXPECT_WRITES(test, fake, nc->cpu, seq);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, nc->cpu, GSTATUS), 0ULL);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, nc->cpu, PMC0),
			0xffffffffb1e0ULL);
	nmi_teardown(nc);
}

/*
 * Two counters overflow at once: both reload, one acknowledgment clears
 * both, each source reaches the consumer, and the handler reports two
 * (so the NMI code swallows a latched back-to-back NMI, as for perf).
 */
static void kp_nmi_two_overflows(struct kunit *test)
{
	struct kp_nmi_case *nc = nmi_setup(test,
					   kp_pmu_fix_intel(test, 2, 4, 48));
	static const struct kp_fake_msrval seq[] = {
		{ PMC0, 0xffffffffd8f0ULL }, { PMC0 + 1, 0xffffffffd8f0ULL },
		{ OVF_CTRL, 0x3 },
	};
	struct kp_fake *fake = nc->fix->fake;
	char reason[KPROFILE_REASON_LEN];

	kp_pmu_fix_interval(nc->fix, ISSUES, 10000);
	KUNIT_ASSERT_EQ(test, kp_pmu_arm(&nc->fix->pmu, ISSUES,
					 KPROFILE_MODE_TABLE, NULL, reason,
					 sizeof(reason)), 0);
	kp_fake_log_clear(fake);
	kp_fake_count(fake, nc->cpu, PMC0, 10000);
	/* The first PMI masked the LVTPC: the second one is lost. */
	kp_fake_count(fake, nc->cpu, PMC0 + 1, 10000);
	KUNIT_EXPECT_EQ(test, kp_fake_nmi_pending(fake, nc->cpu), 1U);
	KUNIT_EXPECT_EQ(test, kp_pmu_fix_nmi(nc->fix, nc->cpu, &nc->regs), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&nc->tc.calls), 2);
	KP_FAKE_EXPECT_WRITES(test, fake, nc->cpu, seq);
	KUNIT_EXPECT_EQ(test, kp_fake_lvtpc_count(fake, nc->cpu), 1U);
	kp_pmu_disarm(&nc->fix->pmu, ISSUES, KPROFILE_MODE_TABLE);
	nmi_teardown(nc);
}

/* Intel v1: no status register; the counter's top bit went clear. */
static void kp_nmi_emon_v1(struct kunit *test)
{
	struct kp_nmi_case *nc = nmi_setup(test,
					   kp_pmu_fix_intel(test, 1, 2, 40));
	static const struct kp_fake_msrval seq[] = {
		{ PMC0, 0xffffffd8f0ULL },
	};

	KUNIT_EXPECT_TRUE(test, kp_fake_count(nc->fix->fake, nc->cpu, PMC0,
					      10005));
	expect_delivered(test, nc);
	KP_FAKE_EXPECT_WRITES(test, nc->fix->fake, nc->cpu, seq);
	nmi_teardown(nc);
}

/* AMD legacy: bit 47 clear means overflowed. */
static void kp_nmi_amd_legacy(struct kunit *test)
{
	struct kp_nmi_case *nc = nmi_setup(test,
					   kp_pmu_fix_amd(test, 0x17, false));
	static const struct kp_fake_msrval seq[] = {
		{ K7_CTR0, 0xffffffffd8f0ULL },
	};

	KUNIT_EXPECT_TRUE(test, kp_fake_count(nc->fix->fake, nc->cpu,
					      K7_CTR0, 10000));
	expect_delivered(test, nc);
	KP_FAKE_EXPECT_WRITES(test, nc->fix->fake, nc->cpu, seq);
	nmi_teardown(nc);
}

/* AMD PerfMonV2: PerfCntrGlobalStatus, cleared via StatusClr. */
static void kp_nmi_amd_v2(struct kunit *test)
{
	struct kp_nmi_case *nc = nmi_setup(test,
					   kp_pmu_fix_amd(test, 0x19, true));
	static const struct kp_fake_msrval seq[] = {
		{ K7_CTR0, 0xffffffffd8f0ULL }, { AMD_GCLR, 0x1 },
	};

	KUNIT_EXPECT_TRUE(test, kp_fake_count(nc->fix->fake, nc->cpu,
					      K7_CTR0, 10000));
	expect_delivered(test, nc);
	KP_FAKE_EXPECT_WRITES(test, nc->fix->fake, nc->cpu, seq);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(nc->fix->fake, nc->cpu,
					      AMD_GSTATUS), 0ULL);
	nmi_teardown(nc);
}

/*
 * Not kprofile's: an armed counter that has not overflowed, and another
 * counter's status bit (perf's, say).  NMI_DONE, no MSR written, nobody
 * called, the foreign status bit left for its owner; the LVTPC is still
 * unmasked, since something is armed here (a PMI may have masked it).
 */
static void kp_nmi_not_ours(struct kunit *test)
{
	struct kp_nmi_case *nc = nmi_setup(test,
					   kp_pmu_fix_intel(test, 2, 4, 48));
	struct kp_fake *fake = nc->fix->fake;

	KUNIT_EXPECT_FALSE(test, kp_fake_count(fake, nc->cpu, PMC0, 9999));
	KUNIT_EXPECT_EQ(test, kp_pmu_fix_nmi(nc->fix, nc->cpu, &nc->regs),
			NMI_DONE);
	kp_fake_msr_set(fake, nc->cpu, GSTATUS, BIT_ULL(3));
	KUNIT_EXPECT_EQ(test, kp_pmu_fix_nmi(nc->fix, nc->cpu, &nc->regs),
			NMI_DONE);
	KUNIT_EXPECT_EQ(test, kp_fake_log_len(fake), 0U);
	KUNIT_EXPECT_EQ(test, kp_fake_lvtpc_count(fake, nc->cpu), 2U);
	KUNIT_EXPECT_EQ(test, atomic_read(&nc->tc.calls), 0);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, nc->cpu, GSTATUS),
			BIT_ULL(3));
	nmi_teardown(nc);

	/* Nothing armed at all: nothing touched, not even the LVTPC. */
	kp_fake_log_clear(fake);
	kp_fake_msr_set(fake, nc->cpu, GSTATUS, BIT_ULL(0));
	KUNIT_EXPECT_EQ(test, kp_pmu_fix_nmi(nc->fix, nc->cpu, NULL),
			NMI_DONE);
	KUNIT_EXPECT_EQ(test, kp_fake_log_len(fake), 0U);
	KUNIT_EXPECT_EQ(test, kp_fake_lvtpc_count(fake, nc->cpu), 0U);
}

/* AMD legacy: a disarmed counter that wrapped is not ours either. */
static void kp_nmi_amd_disarmed(struct kunit *test)
{
	struct kp_nmi_case *nc = nmi_setup(test,
					   kp_pmu_fix_amd(test, 0x17, false));
	struct kp_fake *fake = nc->fix->fake;

	nmi_teardown(nc);
	kp_fake_log_clear(fake);
	kp_fake_msr_set(fake, nc->cpu, K7_CTR0, 0);
	KUNIT_EXPECT_EQ(test, kp_pmu_fix_nmi(nc->fix, nc->cpu, NULL),
			NMI_DONE);
	KUNIT_EXPECT_EQ(test, kp_fake_log_len(fake), 0U);
	KUNIT_EXPECT_EQ(test, atomic_read(&nc->tc.calls), 0);
}

/* A removed consumer is not called; the overflow is still handled. */
static void kp_nmi_consumer_removed(struct kunit *test)
{
	struct kp_nmi_case *nc = nmi_setup(test,
					   kp_pmu_fix_intel(test, 2, 4, 48));

	kp_pmu_remove_consumer(&nc->fix->pmu, &nc->tc.c);
	kp_fake_count(nc->fix->fake, nc->cpu, PMC0, 10000);
	KUNIT_EXPECT_EQ(test, kp_pmu_fix_nmi(nc->fix, nc->cpu, &nc->regs),
			NMI_HANDLED);
	KUNIT_EXPECT_EQ(test, atomic_read(&nc->tc.calls), 0);
	kp_pmu_disarm(&nc->fix->pmu, MISPRED, KPROFILE_MODE_TABLE);
}

struct kp_claim_rec {
	atomic_t calls;
	u64 mask;
};

static void kp_claim_record(void *data, u64 mask, struct pt_regs *regs)
{
	struct kp_claim_rec *rec = data;

	rec->mask = mask;
	atomic_inc(&rec->calls);
}

/*
 * A reservation with an overflow handler: the holder enabled counter 1
 * with INT; its overflow is acknowledged and handed to the handler, not to
 * the source consumers, and nothing reloads it (the holder does).
 */
static void kp_nmi_reserved_overflow(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_intel(test, 2, 4, 48);
	static const struct kprofile_counter_desc descs[] = {
		{ .type = KPROFILE_COUNTER_SINGLE, .begin = 1 },
		{ .type = KPROFILE_COUNTER_OVERFLOW },
	};
	static const struct kp_fake_msrval seq[] = { { OVF_CTRL, 0x2 } };
	struct kprofile_reservation *r;
	struct kp_claim_rec rec = {};
	char reason[KPROFILE_REASON_LEN];
	unsigned int cpu = cpumask_first(cpu_online_mask);

	KUNIT_ASSERT_EQ(test, kp_reserve(&fix->pmu, descs, ARRAY_SIZE(descs),
					 NULL, kp_claim_record, &rec, "test",
					 &r, reason, sizeof(reason)), 0);
	kp_fake_msr_set(fix->fake, cpu, SEL0 + 1,
			0x3003c | KP_EVTSEL_EN | KP_EVTSEL_INT);
	kp_fake_msr_set(fix->fake, cpu, PMC0 + 1, 0xfffffffffff0ULL);
	kp_fake_count(fix->fake, cpu, PMC0 + 1, 0x20);
	kp_fake_log_clear(fix->fake);
	KUNIT_EXPECT_EQ(test, kp_pmu_fix_nmi(fix, cpu, NULL), NMI_HANDLED);
	KUNIT_EXPECT_EQ(test, atomic_read(&rec.calls), 1);
	KUNIT_EXPECT_EQ(test, rec.mask, BIT_ULL(1));
	KP_FAKE_EXPECT_WRITES(test, fix->fake, cpu, seq);
	kp_unreserve(r);
	KUNIT_EXPECT_EQ(test, fix->held, 0UL);
}

/* A holder's overflow handler: what it saw, and in which context. */
struct kp_test_holder_rec {
	atomic_t calls;
	u64 mask;
	bool irqs_on;
};

static void kp_test_holder_overflow(void *data, u64 mask, struct pt_regs *regs)
{
	struct kp_test_holder_rec *rec = data;

	rec->mask = mask;
	if (!irqs_disabled())
		rec->irqs_on = true;
	atomic_inc(&rec->calls);
}

/* The holder programs its counter on each CPU, as the contract says. */
struct kp_test_holder {
	struct kp_fake *fake;
	u32 sel, ctr;
	u64 select, value, global;
};

static void kp_test_holder_program(void *arg)
{
	const struct kp_test_holder *h = arg;
	const struct kp_hw *hw = kp_fake_hw(h->fake);
	unsigned long flags;
	u64 ctl;

	local_irq_save(flags);
	kp_wrmsr(hw, h->ctr, h->value);
	kp_wrmsr(hw, h->sel, h->select);
	if (h->global && !kp_rdmsr(hw, AMD_GCTL, &ctl))
		kp_wrmsr(hw, AMD_GCTL, ctl | h->global);
	local_irq_restore(flags);
}

/*
 * docs/hardware.md F16: the reservation contract of include/linux/kprofile.h
 * ("reserving counters"), on Zen 4 (PerfMonV2), from the holder's side.
 * Reserving programs nothing; the holder's counter counts only with EN and its
 * PerfCntrGlobalCtl bit; an overflow with INT is acknowledged, the LVTPC
 * unmasked and the handler called (interrupts off, as in the NMI) with the
 * counter's bit, and kprofile does not reload the counter; without INT nothing
 * is reported and the status bit is left to the holder; at CPU start (Linux
 * zeroes PerfCntrGlobalCtl) kprofile re-enables its own armed counter, not the
 * holder's; release disables the counter (EN, INT, global bit) on every CPU and
 * stops the handler before it returns.
 */
static void kp_nmi_reservation_contract(struct kunit *test)
{
	struct kp_pmu_fix *fix = kp_pmu_fix_amd(test, 0x19, true);
	static const struct kprofile_counter_desc descs[] = {
		{ .type = KPROFILE_COUNTER_SINGLE, .begin = 1 },
		{ .type = KPROFILE_COUNTER_OVERFLOW },
	};
	struct kp_test_holder h = {
		.fake = fix->fake,
		.sel = fix->desc.evtsel_base + 1,
		.ctr = fix->desc.counter_base + 1,
		.select = 0x30076 | KP_EVTSEL_EN | KP_EVTSEL_INT,
		.value = 0xfffffffff000ULL,
	};
	unsigned int cpu = cpumask_first(cpu_online_mask), other;
	char reason[KPROFILE_REASON_LEN];
	struct kp_test_holder_rec rec = {};
	struct kprofile_reservation *r;
	struct pt_regs regs = {};
	struct kp_fake *fake = fix->fake;
	u64 wrapped, gctl;
	int idx;

	kp_fake_log_clear(fake);
	KUNIT_ASSERT_EQ(test, kp_reserve(&fix->pmu, descs, ARRAY_SIZE(descs),
					 NULL, kp_test_holder_overflow, &rec,
					 "test", &r, reason, sizeof(reason)),
			0);
	KUNIT_EXPECT_EQ(test, kp_reserve_mask(r), BIT_ULL(1));
	KUNIT_EXPECT_EQ(test, kp_fake_log_len(fake), 0U);

	/* EN alone does not count: the global-control bit is the holder's. */
	on_each_cpu(kp_test_holder_program, &h, 1);
	kp_fake_tick(fake, cpu, 100);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, cpu, h.ctr), h.value);
	h.global = BIT_ULL(1);
	on_each_cpu(kp_test_holder_program, &h, 1);
	kp_fake_tick(fake, cpu, 100);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, cpu, h.ctr),
			h.value + 100);

	/* Overflow with INT: acknowledged, unmasked, handed over. */
	kp_fake_log_clear(fake);
	KUNIT_EXPECT_TRUE(test, kp_fake_count(fake, cpu, h.ctr, 0x1000));
	wrapped = kp_fake_msr_get(fake, cpu, h.ctr);
	kp_pmu_fix_deliver(fix, cpu, 0, &regs);
	KUNIT_EXPECT_EQ(test, atomic_read(&rec.calls), 1);
	KUNIT_EXPECT_EQ(test, rec.mask, BIT_ULL(1));
	KUNIT_EXPECT_FALSE(test, rec.irqs_on);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, cpu, AMD_GSTATUS) &
			BIT_ULL(1), 0ULL);
	KUNIT_EXPECT_GE(test, kp_fake_lvtpc_count(fake, cpu), 1U);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, cpu, h.ctr), wrapped);
	KUNIT_EXPECT_EQ(test, kp_fake_log_count_msr(fake, cpu, h.ctr), 0U);
	KUNIT_EXPECT_EQ(test, kp_fake_log_count_msr(fake, cpu, h.sel), 0U);

	/* Without INT: no PMI, not reported, status left to the holder. */
	h.select &= ~KP_EVTSEL_INT;
	on_each_cpu(kp_test_holder_program, &h, 1);
	KUNIT_EXPECT_TRUE(test, kp_fake_count(fake, cpu, h.ctr, 0x2000));
	KUNIT_EXPECT_EQ(test, kp_fake_nmi_pending(fake, cpu), 0U);
	kp_fake_pmi_raise(fake, cpu);
	kp_pmu_fix_deliver(fix, cpu, 0, &regs);
	KUNIT_EXPECT_EQ(test, atomic_read(&rec.calls), 1);
	KUNIT_EXPECT_NE(test, kp_fake_msr_get(fake, cpu, AMD_GSTATUS) &
			BIT_ULL(1), 0ULL);

	/* CPU start: GlobalCtl zeroed; kprofile restores only its own. */
	kp_pmu_fix_arm_ok(test, fix, ISSUES);
	mutex_lock(&fix->pmu.lock);
	idx = kp_pmu_find_armed(&fix->pmu, ISSUES, KPROFILE_MODE_TABLE);
	mutex_unlock(&fix->pmu.lock);
	KUNIT_ASSERT_GE(test, idx, 0);
	KUNIT_EXPECT_NE(test, idx, 1);
	kp_pmu_fix_cpu_down(fix, cpu);
	kp_fake_msr_set(fake, cpu, AMD_GCTL, 0);
	kp_pmu_fix_cpu_up(fix, cpu);
	gctl = kp_fake_msr_get(fake, cpu, AMD_GCTL);
	KUNIT_EXPECT_NE(test, gctl & BIT_ULL(idx), 0ULL);
	KUNIT_EXPECT_EQ(test, gctl & BIT_ULL(1), 0ULL);
	kp_pmu_disarm(&fix->pmu, ISSUES, KPROFILE_MODE_TABLE);

	/* Release: disabled everywhere; the handler is never called again. */
	h.select |= KP_EVTSEL_INT;
	on_each_cpu(kp_test_holder_program, &h, 1);
	kp_unreserve(r);
	KUNIT_EXPECT_EQ(test, fix->held, 0UL);
	for_each_online_cpu(other) {
		KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, other, h.sel) &
				(KP_EVTSEL_EN | KP_EVTSEL_INT), 0ULL);
		KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, other, AMD_GCTL) &
				BIT_ULL(1), 0ULL);
	}
	kp_fake_msr_set(fake, cpu, AMD_GSTATUS, BIT_ULL(1));
	kp_fake_pmi_raise(fake, cpu);
	kp_pmu_fix_deliver(fix, cpu, 0, &regs);
	KUNIT_EXPECT_EQ(test, atomic_read(&rec.calls), 1);
}

static struct kunit_case kp_pmu_nmi_cases[] = {
	KUNIT_CASE(kp_nmi_emon_v2),
	KUNIT_CASE(kp_nmi_two_overflows),
	KUNIT_CASE(kp_nmi_emon_v1),
	KUNIT_CASE(kp_nmi_amd_legacy),
	KUNIT_CASE(kp_nmi_amd_v2),
	KUNIT_CASE(kp_nmi_not_ours),
	KUNIT_CASE(kp_nmi_amd_disarmed),
	KUNIT_CASE(kp_nmi_consumer_removed),
	KUNIT_CASE(kp_nmi_reserved_overflow),
	KUNIT_CASE(kp_nmi_reservation_contract),
	{}
};

static struct kunit_suite kp_pmu_nmi_suite = {
	.name = "kprofile_pmu_nmi",
	.exit = kp_pmu_fix_exit,
	.test_cases = kp_pmu_nmi_cases,
};

kunit_test_suite(kp_pmu_nmi_suite);

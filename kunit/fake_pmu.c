// SPDX-License-Identifier: GPL-2.0
/*
 * fake_pmu.c - the performance-monitoring model of the fake processor
 * (fake_pmu.h): which counters count, what an overflow does, PMIs through
 * the LVTPC, NMI delivery, and one other NMI consumer (perf's handler
 * while Intel PT is active).
 *
 * Counting and PMIs touch only the CPU concerned: from the write op on
 * that CPU (injections), from kp_fake_nmi_deliver() on that CPU, or from
 * the test while the fake is idle (kp_fake_count(), kp_fake_tick()).
 */
#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/bits.h>
#include <linux/smp.h>

#include "fake_priv.h"

#define KP_FAKE_NMI_MAX_RUN	8	/* NMIs one delivery run takes */
#define KP_FAKE_PERF_MAX_LOOPS	100	/* perf's intel_pmu_handle_irq() */

static u64 *kp_fake_reg(struct kp_fake *fake, unsigned int cpu, int idx)
{
	return idx >= 0 ? kp_fake_val(fake, cpu, idx) : NULL;
}

/**
 * kp_fake_pmc_define() - make an (event select, counter) pair counter @n.
 * @fake:    the fake.
 * @n:       the counter number (its bit in the global registers).
 * @sel_msr: its event select, a defined MSR.
 * @ctr_msr: its counter, a defined MSR.
 */
void kp_fake_pmc_define(struct kp_fake *fake, unsigned int n, u32 sel_msr,
			u32 ctr_msr)
{
	int sel = kp_fake_msr_lookup(fake, sel_msr);
	int ctr = kp_fake_msr_lookup(fake, ctr_msr);

	KUNIT_ASSERT_LT(fake->test, n, (unsigned int)KP_FAKE_MAX_PMCS);
	if (sel < 0 || ctr < 0)
		return;
	fake->pmu.sel[n] = sel;
	fake->pmu.ctr[n] = ctr;
	fake->msrs[ctr].pmc = n;
	fake->pmu.nr = max(fake->pmu.nr, n + 1);
}

/**
 * kp_fake_pmu_global() - model a global control and a global status.
 * @fake:       the fake.
 * @ctrl_msr:   the global enable register (bit n enables counter n), or 0.
 * @status_msr: the global status register, or 0.
 */
void kp_fake_pmu_global(struct kp_fake *fake, u32 ctrl_msr, u32 status_msr)
{
	fake->pmu.global_ctrl = ctrl_msr ? kp_fake_msr_lookup(fake, ctrl_msr)
					 : -1;
	fake->pmu.status = status_msr ? kp_fake_msr_lookup(fake, status_msr)
				      : -1;
}

/**
 * kp_fake_pmu_freeze() - model freeze-on-PMI.
 * @fake:	  the fake.
 * @debugctl_msr: IA32_DEBUGCTL, a defined MSR.
 * @how:	  what a PMI does while its bit 12 is set.
 */
void kp_fake_pmu_freeze(struct kp_fake *fake, u32 debugctl_msr,
			enum kp_fake_freeze how)
{
	fake->pmu.debugctl = kp_fake_msr_lookup(fake, debugctl_msr);
	fake->pmu.freeze = how;
}

/**
 * kp_fake_pmu_lvtpc_automask() - whether delivering a PMI masks the LVTPC.
 * @fake: the fake.
 * @on:   true for Intel, false for AMD.
 */
void kp_fake_pmu_lvtpc_automask(struct kp_fake *fake, bool on)
{
	fake->pmu.lvtpc_automask = on;
}

/**
 * kp_fake_x2apic() - put the local APIC in x2APIC mode.
 * @fake: the fake, after kp_fake_intel() or kp_fake_amd().
 *
 * The LVTPC becomes MSR 0x834 (x2APIC LVT Performance Monitoring
 * register; Intel SDM Vol. 3A "x2APIC Register Address Space"): a write
 * sets the mask bit (16) to the written value's, and counts as an LVTPC
 * programming (kp_fake_lvtpc_count()); bits other than the vector (7:0),
 * delivery mode (10:8) and mask are reserved (#GP).  The memory-mapped
 * interface is off in x2APIC mode, so the lvtpc_nmi op changes nothing.
 * The platform op reports KP_FEAT_X2APIC, as the kernel's x2apic_mode.
 */
void kp_fake_x2apic(struct kp_fake *fake)
{
	kp_fake_msr_define(fake, KP_MSR_X2APIC_LVTPC, KP_LVTPC_NMI, 64, 0);
	kp_fake_msr_reserved(fake, KP_MSR_X2APIC_LVTPC,
			     ~(u64)(GENMASK(10, 0) | BIT(16)));
	fake->x2apic_lvtpc = kp_fake_msr_lookup(fake, KP_MSR_X2APIC_LVTPC);
	kp_fake_feature(fake, KP_FEAT_X2APIC, true);
}

/**
 * kp_fake_counter_status() - link a counter to an overflow-status bit.
 * @fake:       the fake.
 * @counter:    a defined counter MSR.
 * @status_msr: a defined status MSR (IA32_PERF_GLOBAL_STATUS, AMD
 *		PerfCntrGlobalStatus).
 * @bit:        the bit an overflow of @counter sets there.
 */
void kp_fake_counter_status(struct kp_fake *fake, u32 counter,
			    u32 status_msr, unsigned int bit)
{
	int idx = kp_fake_msr_lookup(fake, counter);
	int s = kp_fake_msr_lookup(fake, status_msr);

	KUNIT_ASSERT_LT(fake->test, bit, 64U);
	if (idx < 0 || s < 0)
		return;
	fake->msrs[idx].status = s;
	fake->msrs[idx].status_bit = bit;
}

/**
 * kp_fake_counter_enabled() - whether counter @n counts on @cpu now.
 * @fake: the fake.
 * @cpu:  a possible CPU.
 * @n:    a counter of kp_fake_pmc_define().
 *
 * Return: EN in its select, its global-control bit (when modelled), and
 * no streamlined freeze in effect.
 */
bool kp_fake_counter_enabled(struct kp_fake *fake, unsigned int cpu,
			     unsigned int n)
{
	const struct kp_fake_pmu *pmu = &fake->pmu;
	u64 *reg;

	if (n >= pmu->nr || pmu->sel[n] < 0 || !kp_fake_cpu_ok(fake, cpu))
		return false;
	if (!(READ_ONCE(*kp_fake_val(fake, cpu, pmu->sel[n])) &
	      KP_FAKE_EVTSEL_EN))
		return false;
	reg = kp_fake_reg(fake, cpu, pmu->global_ctrl);
	if (reg && !(READ_ONCE(*reg) & BIT_ULL(n)))
		return false;
	reg = kp_fake_reg(fake, cpu, pmu->status);
	if (reg && pmu->freeze == KP_FAKE_FREEZE_STREAMLINED &&
	    (READ_ONCE(*reg) & KP_FAKE_STATUS_CTR_FRZ))
		return false;
	return true;
}

/* The PMU signals a PMI on @cpu: freeze if asked, then the local APIC. */
static void kp_fake_pmi(struct kp_fake *fake, unsigned int cpu)
{
	struct kp_fake_cpu *c = &fake->cpus[cpu];
	const struct kp_fake_pmu *pmu = &fake->pmu;
	u64 *dbg = kp_fake_reg(fake, cpu, pmu->debugctl);
	u64 *reg;

	c->stats.raised++;
	if (dbg && (READ_ONCE(*dbg) & KP_FAKE_DEBUGCTL_FREEZE_ON_PMI)) {
		if (pmu->freeze == KP_FAKE_FREEZE_LEGACY) {
			reg = kp_fake_reg(fake, cpu, pmu->global_ctrl);
			if (reg)
				WRITE_ONCE(*reg, 0);
		} else if (pmu->freeze == KP_FAKE_FREEZE_STREAMLINED) {
			reg = kp_fake_reg(fake, cpu, pmu->status);
			if (reg)
				WRITE_ONCE(*reg, READ_ONCE(*reg) |
					   KP_FAKE_STATUS_CTR_FRZ);
		}
	}
	if (READ_ONCE(c->lvtpc_masked)) {
		c->stats.lost++;
		return;
	}
	if (pmu->lvtpc_automask)
		WRITE_ONCE(c->lvtpc_masked, true);
	if (c->pending < (c->in_nmi ? 1U : 2U))
		c->pending++;
	else
		c->stats.merged++;
}

/**
 * kp_fake_count() - let a counter count events, as the PMU would.
 * @fake:    the fake.
 * @cpu:     a possible CPU (the fake must be idle, or this is @cpu).
 * @counter: a defined counter MSR.
 * @events:  how many events happen.
 *
 * A counter of kp_fake_pmc_define() counts only while enabled
 * (kp_fake_counter_enabled()); any other counter MSR always counts.  The
 * value wraps modulo its width.  A wrap is an overflow: the counter's top
 * bit is then clear (how Intel v1 and AMD legacy report it), its status
 * bit is set, and with INT in its select a PMI is raised (fake_pmu.h).
 * Nothing is logged.
 *
 * Return: true when the counter wrapped (overflowed).
 */
bool kp_fake_count(struct kp_fake *fake, unsigned int cpu, u32 counter,
		   u64 events)
{
	int idx = kp_fake_msr_lookup(fake, counter);
	const struct kp_fake_msr *m;
	u64 old, new, *p;
	bool wrapped;

	if (idx < 0 || !kp_fake_cpu_ok(fake, cpu))
		return false;
	m = &fake->msrs[idx];
	if (m->pmc >= 0 && !kp_fake_counter_enabled(fake, cpu, m->pmc))
		return false;
	p = kp_fake_val(fake, cpu, idx);
	old = READ_ONCE(*p);
	new = (old + events) & m->mask;
	/* Wrapped past the maximum: at least mask + 1 - old events. */
	wrapped = events > m->mask - old;
	WRITE_ONCE(*p, new);
	if (!wrapped)
		return false;
	if (m->status >= 0) {
		p = kp_fake_val(fake, cpu, m->status);
		WRITE_ONCE(*p, READ_ONCE(*p) | BIT_ULL(m->status_bit));
	}
	if (m->pmc >= 0 &&
	    (READ_ONCE(*kp_fake_val(fake, cpu, fake->pmu.sel[m->pmc])) &
	     KP_FAKE_EVTSEL_INT))
		kp_fake_pmi(fake, cpu);
	return true;
}

/**
 * kp_fake_tick() - @events events for every counter enabled on @cpu.
 * @fake:   the fake.
 * @cpu:    a possible CPU.
 * @events: events that happen (each counter counts them all).
 */
void kp_fake_tick(struct kp_fake *fake, unsigned int cpu, u64 events)
{
	unsigned int n;

	for (n = 0; n < fake->pmu.nr; n++)
		if (fake->pmu.ctr[n] >= 0 &&
		    kp_fake_counter_enabled(fake, cpu, n))
			kp_fake_count(fake, cpu,
				      fake->msrs[fake->pmu.ctr[n]].msr, events);
}

/**
 * kp_fake_inject_after_write() - events that happen right after a write.
 * @fake:        the fake.
 * @cpu:         the CPU that will write.
 * @trigger_msr: a defined MSR; the next successful write to it on @cpu
 *		 fires the injection (once).
 * @counter:     the counter MSR that then counts, with kp_fake_count().
 * @events:      how many events.
 *
 * This places an overflow inside the code under test, for example
 * between a PMI handler's acknowledgment and its return.
 */
void kp_fake_inject_after_write(struct kp_fake *fake, unsigned int cpu,
				u32 trigger_msr, u32 counter, u64 events)
{
	int t = kp_fake_msr_lookup(fake, trigger_msr);
	unsigned int i;

	if (t < 0 || kp_fake_msr_lookup(fake, counter) < 0)
		return;
	for (i = 0; i < KP_FAKE_MAX_INJECT; i++) {
		struct kp_fake_inject *in = &fake->pmu.inject[i];

		if (in->armed)
			continue;
		in->cpu = cpu;
		in->trigger = t;
		in->counter = counter;
		in->events = events;
		in->armed = true;
		return;
	}
	KUNIT_FAIL(fake->test, "more than %d pending injections",
		   KP_FAKE_MAX_INJECT);
}

/* From the write op on @cpu, after a successful write of MSR index @idx. */
void kp_fake_pmu_written(struct kp_fake *fake, unsigned int cpu, int idx)
{
	struct kp_fake_cpu *c = &fake->cpus[cpu];
	unsigned int i;

	if (idx == fake->x2apic_lvtpc) {
		WRITE_ONCE(c->lvtpc_calls, c->lvtpc_calls + 1);
		WRITE_ONCE(c->lvtpc_masked,
			   !!(READ_ONCE(*kp_fake_val(fake, cpu, idx)) &
			      BIT_ULL(16)));
	}

	for (i = 0; i < KP_FAKE_MAX_INJECT; i++) {
		struct kp_fake_inject *in = &fake->pmu.inject[i];

		if (!READ_ONCE(in->armed) || in->cpu != cpu ||
		    in->trigger != idx)
			continue;
		WRITE_ONCE(in->armed, false);
		kp_fake_count(fake, cpu, in->counter, in->events);
	}
}

/**
 * kp_fake_pmi_raise() - a PMI from another agent of the PMU (Intel PT's
 *	ToPA interrupt, a counter someone else programmed).
 * @fake: the fake (idle).
 * @cpu:  a possible CPU.
 *
 * Goes through the LVTPC as a counter's PMI does; freeze-on-PMI applies.
 */
void kp_fake_pmi_raise(struct kp_fake *fake, unsigned int cpu)
{
	if (kp_fake_cpu_ok(fake, cpu))
		kp_fake_pmi(fake, cpu);
}

/**
 * kp_fake_lvtpc_masked() - the LVTPC mask bit of a CPU.
 * @fake: the fake.
 * @cpu:  a possible CPU.
 *
 * Return: true when PMIs on @cpu are not delivered.
 */
bool kp_fake_lvtpc_masked(struct kp_fake *fake, unsigned int cpu)
{
	return kp_fake_cpu_ok(fake, cpu) &&
	       READ_ONCE(fake->cpus[cpu].lvtpc_masked);
}

/**
 * kp_fake_lvtpc_set_masked() - set the LVTPC mask bit, as firmware or a
 *	missed unmask leaves it.
 * @fake:   the fake (idle).
 * @cpu:    a possible CPU.
 * @masked: the bit.
 */
void kp_fake_lvtpc_set_masked(struct kp_fake *fake, unsigned int cpu,
			      bool masked)
{
	if (kp_fake_cpu_ok(fake, cpu))
		WRITE_ONCE(fake->cpus[cpu].lvtpc_masked, masked);
}

/**
 * kp_fake_nmi_register() - add an NMI handler, called after those before.
 * @fake: the fake.
 * @fn:   the handler.
 * @data: its argument.
 */
void kp_fake_nmi_register(struct kp_fake *fake, kp_fake_nmi_fn fn,
			  void *data)
{
	KUNIT_ASSERT_LT(fake->test, fake->pmu.nr_nmi,
			(unsigned int)KP_FAKE_MAX_NMI_HANDLERS);
	fake->pmu.nmi[fake->pmu.nr_nmi].fn = fn;
	fake->pmu.nmi[fake->pmu.nr_nmi].data = data;
	fake->pmu.nr_nmi++;
}

/**
 * kp_fake_nmi_pending() - NMIs waiting for delivery on a CPU.
 * @fake: the fake.
 * @cpu:  a possible CPU.
 *
 * Return: 0, 1 or 2.
 */
unsigned int kp_fake_nmi_pending(struct kp_fake *fake, unsigned int cpu)
{
	return kp_fake_cpu_ok(fake, cpu) ? READ_ONCE(fake->cpus[cpu].pending)
					 : 0;
}

struct kp_fake_delivery {
	struct kp_fake *fake;
	struct pt_regs *regs;
	unsigned int max;
	unsigned int done;
};

static void kp_fake_deliver_here(void *arg)
{
	struct kp_fake_delivery *d = arg;
	struct kp_fake *fake = d->fake;
	struct kp_fake_cpu *c = &fake->cpus[smp_processor_id()];
	bool swallow = false;
	unsigned int i;
	int handled;

	while (c->pending && d->done < d->max) {
		c->pending--;
		d->done++;
		c->in_nmi = true;
		handled = 0;
		for (i = 0; i < fake->pmu.nr_nmi; i++)
			handled += fake->pmu.nmi[i].fn(fake,
						       fake->pmu.nmi[i].data,
						       d->regs);
		c->in_nmi = false;
		c->stats.delivered++;
		if (handled) {
			c->stats.handled++;
			swallow = handled > 1;
		} else if (swallow) {
			c->stats.swallowed++;
			swallow = false;
		} else {
			c->stats.unknown++;
		}
	}
}

/**
 * kp_fake_nmi_deliver() - take the NMIs pending on a CPU.
 * @fake: the fake.
 * @cpu:  an online CPU; the handlers run there with interrupts off.
 * @max:  at most this many (0: all, up to 8); the rest stay pending and
 *	  arrive late, with a later call.
 * @regs: the interrupted registers handed to the handlers.
 *
 * NMIs raised while a handler runs (an overflow inside it, with the LVTPC
 * unmasked) are taken in the same run, back to back.
 *
 * Return: the number of NMIs delivered.
 */
unsigned int kp_fake_nmi_deliver(struct kp_fake *fake, unsigned int cpu,
				 unsigned int max, struct pt_regs *regs)
{
	struct kp_fake_delivery d = {
		.fake = fake,
		.regs = regs,
		.max = max ?: KP_FAKE_NMI_MAX_RUN,
	};

	smp_call_function_single(cpu, kp_fake_deliver_here, &d, 1);
	return d.done;
}

/**
 * kp_fake_nmi_stats() - what PMIs and NMIs did on a CPU.
 * @fake: the fake (idle).
 * @cpu:  a possible CPU.
 * @st:   filled in.
 */
void kp_fake_nmi_stats(struct kp_fake *fake, unsigned int cpu,
		       struct kp_fake_nmi_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (kp_fake_cpu_ok(fake, cpu))
		*st = fake->cpus[cpu].stats;
}

/**
 * kp_fake_perf_pt_nmi() - perf's PMI handler while Intel PT (or anything
 *	else that raises perf's active_events without reserving counters)
 *	is active: intel_pmu_handle_irq() of Linux 6.1.
 * @fake: the fake (Intel v2+, with the global registers modelled).
 * @data: unused.
 * @regs: unused.
 *
 * Disables every counter in GLOBAL_CTRL, acknowledges *every* bit of
 * GLOBAL_STATUS (a second consumer that acks kprofile's bits first), loops
 * while status is non-zero, enables every counter again, and unmasks the
 * LVTPC (late_ack).  Register it before kprofile's handler: perf's is
 * registered at boot, so it comes first on the NMI_LOCAL list.
 *
 * Return: the number of status bits it acknowledged.
 */
int kp_fake_perf_pt_nmi(struct kp_fake *fake, void *data,
			struct pt_regs *regs)
{
	const struct kp_fake_pmu *pmu = &fake->pmu;
	const struct kp_hw *hw = kp_fake_hw(fake);
	u32 ctrl, status, ack = 0;
	unsigned int i, loops = 0;
	int handled = 0;
	u64 st;

	if (pmu->global_ctrl < 0 || pmu->status < 0)
		return 0;
	ctrl = fake->msrs[pmu->global_ctrl].msr;
	status = fake->msrs[pmu->status].msr;
	for (i = 0; i < fake->nr_msrs; i++)
		if (fake->msrs[i].w1c == pmu->status)
			ack = fake->msrs[i].msr;
	kp_wrmsr(hw, ctrl, 0);
	while (!kp_rdmsr(hw, status, &st) && st &&
	       loops++ < KP_FAKE_PERF_MAX_LOOPS) {
		kp_wrmsr(hw, ack, st);
		handled += hweight64(st);
	}
	kp_wrmsr(hw, ctrl, ~fake->msrs[pmu->global_ctrl].reserved);
	kp_lvtpc_unmask(hw, fake->x2apic_lvtpc >= 0 ? KP_FEAT_X2APIC : 0);
	return handled;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_regs.c - register helpers the profile interfaces (pmu_emon.c,
 * pmu_amd64.c) share: overflow detection by the counter's top bit, the
 * INT filter of claimed counters, and read-modify-writes of the global
 * registers with interrupts off.  The first two run in the NMI handler:
 * no locks, no allocation, not kprobe-able.
 */
#include <linux/bitops.h>
#include <linux/irqflags.h>
#include <linux/kprobes.h>

#include "pmu.h"

/**
 * kp_pmu_topbit_overflow() - CheckOverflowStatus without a global status
 *	register (Intel v1, AMD legacy): a counter whose top bit is clear
 *	has overflowed, since it was loaded with its top bit set.
 * @pmu:     the layer.
 * @armed:   kprofile's sampling counters on this CPU.
 * @claimed: reserved counters whose overflows kprofile takes; they count
 *	     only while their select has EN and INT.
 *
 * NMI-safe.
 *
 * Return: the overflowed counters.
 */
u64 kp_pmu_topbit_overflow(struct kp_pmu *pmu, u64 armed, u64 claimed)
{
	const struct kp_pmu_desc *d = pmu->desc;
	u64 top = BIT_ULL(d->counter_width - 1), ovf = 0, val, sel;
	unsigned int i;

	for (i = 0; i < d->num_counters; i++) {
		if (!((armed | claimed) & BIT_ULL(i)))
			continue;
		if (!(armed & BIT_ULL(i)) &&
		    (kp_rdmsr(pmu->hw, d->evtsel_base + i, &sel) ||
		     (sel & (KP_EVTSEL_EN | KP_EVTSEL_INT)) !=
		     (KP_EVTSEL_EN | KP_EVTSEL_INT)))
			continue;
		if (!kp_rdmsr(pmu->hw, d->counter_base + i, &val) &&
		    !(val & top))
			ovf |= BIT_ULL(i);
	}
	return ovf;
}

NOKPROBE_SYMBOL(kp_pmu_topbit_overflow);

/**
 * kp_pmu_claimed_int() - the claimed counters that raise interrupts.
 * @pmu:     the layer.
 * @claimed: reserved counters whose status bit is set.
 *
 * A status bit says a counter overflowed, not that it interrupted: a
 * holder's counter counting without INT sets it too, and claiming an NMI
 * for it would hide another NMI's cause (default_do_nmi() skips the
 * SERR/IOCHK check of an NMI a handler claimed).  NMI-safe.
 *
 * Return: the counters of @claimed whose select has INT (and EN).
 */
u64 kp_pmu_claimed_int(struct kp_pmu *pmu, u64 claimed)
{
	const struct kp_pmu_desc *d = pmu->desc;
	unsigned long c = claimed;
	unsigned int i;
	u64 sel, ret = 0;

	for_each_set_bit(i, &c, d->num_counters)
		if (!kp_rdmsr(pmu->hw, d->evtsel_base + i, &sel) &&
		    (sel & (KP_EVTSEL_EN | KP_EVTSEL_INT)) ==
		    (KP_EVTSEL_EN | KP_EVTSEL_INT))
			ret |= BIT_ULL(i);
	return ret;
}

NOKPROBE_SYMBOL(kp_pmu_claimed_int);

/**
 * kp_pmu_global_rmw() - set and clear bits of a global register of this
 *	CPU (IA32_PERF_GLOBAL_CTRL, PerfCntrGlobalCtl).
 * @pmu:   the layer.
 * @msr:   the register.
 * @set:   bits to set.
 * @clear: bits to clear.
 *
 * The read-modify-write runs with interrupts off: an IPI (arm, disarm,
 * thread stop) or a context-switch probe between the read and the write
 * would otherwise lose its own update.  Not from NMI context (an NMI may
 * interrupt it; kprofile's never writes these registers).
 */
void kp_pmu_global_rmw(struct kp_pmu *pmu, u32 msr, u64 set, u64 clear)
{
	unsigned long flags;
	u64 val;

	local_irq_save(flags);
	if (!kp_rdmsr(pmu->hw, msr, &val))
		kp_wrmsr(pmu->hw, msr, (val | set) & ~clear);
	local_irq_restore(flags);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_nmi.c - the performance-monitoring interrupt (PMI), delivered as an NMI
 * through the LVTPC entry: detect kprofile's overflows, reload their
 * period, acknowledge, unmask the LVTPC, and hand each overflow to the
 * consumers (the sampler, and other modules' handlers through api.c's
 * consumer: kprofile_register_overflow_handler(),
 * HalProfileSourceInterruptHandler).
 *
 * NMI context: no locks, no allocation, no sleeping.  The handler reads
 * the per-CPU armed mask and sources, the sources' intervals and the RCU
 * consumer list; NMI handlers are RCU readers, so synchronize_rcu() after
 * a removal waits for every handler that could still see it.
 */
#include <linux/bitops.h>
#include <linux/jiffies.h>
#include <linux/kprobes.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <asm/nmi.h>

#include "compat.h"
#include "pmu.h"

/* Bound on the re-checks of one PMI (perf's intel_pmu_handle_irq() has 100). */
#define KP_NMI_MAX_LOOPS	8

/**
 * kp_pmu_nmi_window_open() - claim unknown NMIs on this CPU for a while.
 * @pmu: the layer, on a late-PMI interface (AMD).
 *
 * A PMI can reach the CPU after the overflow it reports was handled (by an
 * earlier NMI that saw two counters, or just before a counter was
 * disabled).  Such an NMI finds nothing; perf claims it when it arrives
 * within 100 ms of a handled one (amd_pmu_adjust_nmi_window()), and so
 * does kprofile.
 * Context: this CPU, interrupts off or NMI.
 */
void kp_pmu_nmi_window_open(struct kp_pmu *pmu)
{
	struct kp_pmu_cpu *c = this_cpu_ptr(pmu->cpu);

	if (pmu->ops && pmu->ops->late_pmi)
		WRITE_ONCE(c->nmi_until, jiffies + pmu->nmi_window);
}

NOKPROBE_SYMBOL(kp_pmu_nmi_window_open);

static int kp_pmu_nmi_result(struct kp_pmu *pmu, struct kp_pmu_cpu *c,
			     int handled)
{
	if (!pmu->ops->late_pmi)
		return handled ?: NMI_DONE;
	if (handled) {
		kp_pmu_nmi_window_open(pmu);
		return handled;
	}
	if (time_after(jiffies, READ_ONCE(c->nmi_until)))
		return NMI_DONE;
	return NMI_HANDLED;
}

NOKPROBE_SYMBOL(kp_pmu_nmi_result);

/* The mode a select counts in: its USR (bit 16) and OS (bit 17) bits. */
static enum kprofile_mode kp_select_mode(u64 select)
{
	switch ((select >> 16) & 3) {
	case 1:
		return KPROFILE_MODE_USER;
	case 2:
		return KPROFILE_MODE_KERNEL;
	default:
		return KPROFILE_MODE_TABLE;
	}
}

NOKPROBE_SYMBOL(kp_select_mode);

/**
 * kp_pmu_delivering() - the mode of the counter whose overflow this CPU
 *	hands to the consumers now.
 * @pmu: the layer.
 *
 * A source armed in one mode and in both has a counter for each
 * (kp_pmu_arm() is per source and mode); a consumer counts an overflow
 * only for its users of that counter's mode (kp_counter_mode()).
 * Context: NMI (a consumer's @overflow), or any other (then 0).
 *
 * Return: 1 + KPROFILE_MODE_USER, KPROFILE_MODE_KERNEL or
 * KPROFILE_MODE_TABLE; 0 when no overflow is being delivered here (a
 * timer, a test).
 */
u8 kp_pmu_delivering(struct kp_pmu *pmu)
{
	if (!pmu->ops || !pmu->cpu)
		return 0;
	return this_cpu_ptr(pmu->cpu)->delivering;
}
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_delivering);
NOKPROBE_SYMBOL(kp_pmu_delivering);

static void kp_pmu_deliver(struct kp_pmu *pmu, struct kp_pmu_cpu *c,
			   unsigned long mine, unsigned long theirs,
			   struct pt_regs *regs)
{
	struct kp_overflow_consumer *cons;
	unsigned int idx;

	rcu_read_lock();
	for_each_set_bit(idx, &mine, KPROFILE_MAX_COUNTERS) {
		c->delivering = 1 + kp_select_mode(c->select[idx]);
		list_for_each_entry_rcu(cons, &pmu->consumers, node)
			cons->overflow(cons, c->source[idx], regs);
		c->delivering = 0;
	}
	for_each_set_bit(idx, &theirs, KPROFILE_MAX_COUNTERS) {
		struct kp_claim *claim;

		claim = rcu_dereference(pmu->counters[idx].claim);
		if (!claim)
			continue;
		atomic64_inc(&claim->overflows);
		if (claim->fn)
			claim->fn(claim->data, BIT_ULL(idx), regs);
	}
	rcu_read_unlock();
}

NOKPROBE_SYMBOL(kp_pmu_deliver);

/**
 * kp_pmu_handle_overflow() - the PMI handler's work, on this CPU.
 * @pmu:  the layer.
 * @regs: the interrupted registers.
 *
 * When nothing is armed or claimed here the NMI is not kprofile's and
 * nothing is touched.  Otherwise, as perf does:
 *
 * - the LVTPC is unmasked on every NMI, found overflow or not (an Intel
 *   PMI masks it; a PMI kprofile did not recognise, e.g. one that raced
 *   with a disarm or whose status another handler acknowledged, must not
 *   leave it masked): first on top-bit interfaces (a late overflow raises
 *   a new PMI), after the acknowledgment on status interfaces;
 * - CheckOverflowStatus over the counters armed here (status bit or top
 *   bit clear) and those reservations claim (status bit, INT set); all
 *   are handed to the consumers or the claim, then each of kprofile's
 *   gets SetInterval with its source's current interval (so the
 *   handler's own events are not spent from the next period) and all are
 *   acknowledged; then
 *   the status is read again, at most KP_NMI_MAX_LOOPS times, so an
 *   overflow that lands inside the handler is not left to a PMI the
 *   masked LVTPC dropped;
 * - on late-PMI interfaces (AMD) an NMI that finds nothing shortly after
 *   a handled one or a disable is claimed (kp_pmu_nmi_window_open()).
 *
 * Context: NMI (or a test with interrupts off).
 *
 * Return: NMI_DONE when nothing was kprofile's; else the number of
 * overflows handled (NMI_HANDLED for one, or for a late PMI), as perf
 * returns, so the NMI code swallows the back-to-back NMI that several
 * overflows at once can latch.
 */
int kp_pmu_handle_overflow(struct kp_pmu *pmu, struct pt_regs *regs)
{
	bool status_iface;
	struct kp_pmu_cpu *c;
	u64 armed, claimed, ovf;
	unsigned int idx, loops;
	unsigned long mine;
	int handled = 0;

	if (!pmu->ops)
		return NMI_DONE;
	c = this_cpu_ptr(pmu->cpu);
	armed = READ_ONCE(c->armed);
	claimed = READ_ONCE(pmu->claimed) & ~armed;
	if (!(armed | claimed))
		return kp_pmu_nmi_result(pmu, c, 0);
	status_iface = pmu->ops->global_status(pmu);
	if (!status_iface)
		kp_lvtpc_unmask(pmu->hw, pmu->desc->features);

	for (loops = 0; loops < KP_NMI_MAX_LOOPS; loops++) {
		ovf = pmu->ops->check_overflow(pmu, armed, claimed);
		if (!ovf)
			break;
		mine = ovf & armed;
		/*
		 * The consumers first: what the counters count meanwhile
		 * (the NMI entry, this handler, a stack walk: kernel
		 * instructions, cycles) is overwritten by the reload, not
		 * spent from the next period, which perf keeps free of its
		 * handler too (it disables the counters there).
		 */
		kp_pmu_deliver(pmu, c, mine, ovf & claimed, regs);
		for_each_set_bit(idx, &mine, KPROFILE_MAX_COUNTERS)
			pmu->ops->set_interval(pmu, idx,
					       kp_source_interval(pmu->sources,
								  c->source[idx]));
		pmu->ops->ack_overflow(pmu, ovf);
		handled += hweight64(ovf);
	}
	if (status_iface)
		kp_lvtpc_unmask(pmu->hw, pmu->desc->features);
	return kp_pmu_nmi_result(pmu, c, handled);
}
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_handle_overflow);
NOKPROBE_SYMBOL(kp_pmu_handle_overflow);

/**
 * kp_pmu_add_consumer() - receive overflows of armed sources.
 * @pmu: the layer.
 * @c:   the consumer; its @overflow runs in NMI context.
 *
 * Context: process.
 */
void kp_pmu_add_consumer(struct kp_pmu *pmu, struct kp_overflow_consumer *c)
{
	mutex_lock(&pmu->lock);
	list_add_tail_rcu(&c->node, &pmu->consumers);
	mutex_unlock(&pmu->lock);
}
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_add_consumer);

/**
 * kp_pmu_remove_consumer() - stop receiving overflows.
 * @pmu: the layer.
 * @c:   a consumer kp_pmu_add_consumer() added.
 *
 * On return no CPU runs or will run @c->overflow: @c may be freed.
 * Context: process; sleeps (synchronize_rcu()).
 */
void kp_pmu_remove_consumer(struct kp_pmu *pmu,
			    struct kp_overflow_consumer *c)
{
	mutex_lock(&pmu->lock);
	list_del_rcu(&c->node);
	mutex_unlock(&pmu->lock);
	synchronize_rcu();
}
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_remove_consumer);

/*
 * The layer the NMI handler serves, the one kp_nmi_register() was given
 * (NMI handlers take no argument of their own).  Written before the
 * handler is registered (register_nmi_handler() publishes it with RCU)
 * and after unregister_nmi_handler() returned, so the handler always
 * sees it set.
 */
static struct kp_pmu *kp_nmi_pmu;

static int kp_nmi_handler(unsigned int cmd, struct pt_regs *regs)
{
	return kp_pmu_handle_overflow(READ_ONCE(kp_nmi_pmu), regs);
}

NOKPROBE_SYMBOL(kp_nmi_handler);

/**
 * kp_nmi_register() - take PMIs: register the NMI_LOCAL handler, for one
 *	layer (the module's).
 * @pmu: the layer whose overflows the PMIs report.
 *
 * Return: 0 or the errno of register_nmi_handler().
 */
int kp_nmi_register(struct kp_pmu *pmu)
{
	int ret;

	WRITE_ONCE(kp_nmi_pmu, pmu);
	ret = register_nmi_handler(NMI_LOCAL, kp_nmi_handler, 0,
				   KBUILD_MODNAME);
	if (ret)
		WRITE_ONCE(kp_nmi_pmu, NULL);
	return ret;
}

/**
 * kp_nmi_unregister() - stop taking PMIs.
 * @pmu: the layer kp_nmi_register() was given.
 *
 * On return the handler runs nowhere (unregister_nmi_handler() waits).
 */
void kp_nmi_unregister(struct kp_pmu *pmu)
{
	unregister_nmi_handler(NMI_LOCAL, KBUILD_MODNAME);
	WRITE_ONCE(kp_nmi_pmu, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * pmu.c - the core of the hardware layer: counter slots and who holds
 * them, arming a source on every CPU (HalStartProfileInterrupt /
 * HalStopProfileInterrupt), counting counters for thread profiling, and
 * arbitration with Linux perf through reserve_perfctr_nmi().
 *
 * See pmu.h for the counter model and the locking rules.
 */
#include <linux/bitops.h>
#include <linux/cpu.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <asm/nmi.h>

#include "compat.h"
#include "pmu.h"

#define KP_EMON_MAX_PERIOD	((1ULL << 31) - 1)

static bool kp_arbiter_nmi_reserve(struct kp_pmu *pmu, unsigned int idx)
{
	const struct kp_pmu_desc *d = pmu->desc;

	if (!reserve_perfctr_nmi(d->counter_base + idx))
		return false;
	if (!reserve_evntsel_nmi(d->evtsel_base + idx)) {
		release_perfctr_nmi(d->counter_base + idx);
		return false;
	}
	return true;
}

static void kp_arbiter_nmi_release(struct kp_pmu *pmu, unsigned int idx)
{
	const struct kp_pmu_desc *d = pmu->desc;

	release_evntsel_nmi(d->evtsel_base + idx);
	release_perfctr_nmi(d->counter_base + idx);
}

/* Linux's arbitration: the bitmaps perf and the NMI watchdog use. */
const struct kp_pmu_arbiter kp_pmu_arbiter_nmi = {
	.reserve = kp_arbiter_nmi_reserve,
	.release = kp_arbiter_nmi_release,
};

/**
 * kp_pmu_setup() - build a hardware layer over a seam and a detected
 *	interface.
 * @pmu:     zeroed or stale memory to initialise.
 * @hw:      the processor (kp_hw_real, or a fake).
 * @desc:    what kp_detect() found on @hw; must outlive @pmu.
 * @sources: the source model over @desc; must outlive @pmu.
 *
 * Nothing is written to the processor: per-CPU bring-up is kp_pmu_cpu_up()
 * (the module's CPU hotplug callback).  The arbiter is Linux's; a test may
 * replace @pmu->arbiter before using @pmu.
 *
 * Return: 0 or -ENOMEM.
 */
int kp_pmu_setup(struct kp_pmu *pmu, const struct kp_hw *hw,
		 const struct kp_pmu_desc *desc,
		 const struct kp_sources *sources)
{
	unsigned int i, w = desc->counter_width;

	memset(pmu, 0, sizeof(*pmu));
	pmu->hw = hw;
	pmu->desc = desc;
	pmu->sources = sources;
	pmu->arbiter = &kp_pmu_arbiter_nmi;
	mutex_init(&pmu->lock);
	INIT_LIST_HEAD(&pmu->consumers);
	if (desc->iface == KPROFILE_INTERFACE_EMON)
		pmu->ops = &kp_pmu_emon_ops;
	else if (desc->iface == KPROFILE_INTERFACE_AMD64)
		pmu->ops = &kp_pmu_amd64_ops;
	if (pmu->ops && w >= 2) {
		pmu->counter_mask = w >= 64 ? ~0ULL : GENMASK_ULL(w - 1, 0);
		pmu->max_period = (1ULL << (min(w, 64U) - 1)) - 1;
		if (desc->iface == KPROFILE_INTERFACE_EMON)
			pmu->max_period = min(pmu->max_period,
					      KP_EMON_MAX_PERIOD);
	} else {
		pmu->ops = NULL;
	}

	pmu->cpu = alloc_percpu(struct kp_pmu_cpu);
	if (!pmu->cpu)
		return -ENOMEM;
	for (i = 0; i < KPROFILE_MAX_COUNTERS; i++)
		if (!zalloc_cpumask_var(&pmu->counters[i].cpus, GFP_KERNEL))
			goto err;
	return 0;

err:
	while (i--)
		free_cpumask_var(pmu->counters[i].cpus);
	free_percpu(pmu->cpu);
	pmu->cpu = NULL;
	return -ENOMEM;
}
EXPORT_SYMBOL_IF_KP_TEST(kp_pmu_setup);

/**
 * kp_pmu_teardown() - free what kp_pmu_setup() allocated.
 * @pmu: a layer with nothing armed, reserved or counting, and no CPU up
 *	 (kp_pmu_cpu_down() ran on every CPU kp_pmu_cpu_up() did).
 *
 * A counter still held is a bug of the caller: it is warned about and its
 * arbitration released, so perf is not locked out until reboot.
 */
void kp_pmu_teardown(struct kp_pmu *pmu)
{
	unsigned int i;

	for (i = 0; i < KPROFILE_MAX_COUNTERS; i++) {
		if (WARN_ON_ONCE(pmu->counters[i].kind != KP_HOLDER_FREE))
			pmu->arbiter->release(pmu, i);
		free_cpumask_var(pmu->counters[i].cpus);
	}
	WARN_ON_ONCE(!list_empty(&pmu->consumers));
	free_percpu(pmu->cpu);
	pmu->cpu = NULL;
	mutex_destroy(&pmu->lock);
}
EXPORT_SYMBOL_IF_KP_TEST(kp_pmu_teardown);

/**
 * kp_pmu_period() - the counter value that overflows after @interval
 *	events: (-interval) & mask.
 * @pmu:      the layer.
 * @interval: events per overflow; clamped to 1..@pmu->max_period so the
 *	      counter's top bit is set after the load (the overflow test of
 *	      Intel v1 and AMD legacy), and so an Emon legacy write (32 bits,
 *	      sign-extended) loads exactly this value.
 *
 * Return: the value to write to the counter.
 */
u64 kp_pmu_period(const struct kp_pmu *pmu, u32 interval)
{
	u64 n = clamp_t(u64, interval, 1, pmu->max_period);

	return (-n) & pmu->counter_mask;
}
EXPORT_SYMBOL_IF_KP_TEST(kp_pmu_period);

/**
 * kp_pmu_select() - the event select a source is programmed with.
 * @pmu:      the layer (its interface has @source in its table).
 * @source:   a supported counter source.
 * @mode:     KPROFILE_MODE_TABLE keeps the table's USR/OS bits; USER, KERNEL
 *	      and BOTH set them as named.
 * @sampling: set INT (overflow interrupts) as well as EN.
 *
 * Return: the select, or 0 when the table has no such source.
 */
u64 kp_pmu_select(const struct kp_pmu *pmu, u32 source,
		  enum kprofile_mode mode, bool sampling)
{
	const struct kp_source_row *row;
	u64 sel;

	row = kp_table_find(pmu->desc->iface, source);
	if (!row)
		return 0;
	sel = row->select;
	if (mode != KPROFILE_MODE_TABLE) {
		sel &= ~(KP_EVTSEL_USR | KP_EVTSEL_OS);
		if (mode == KPROFILE_MODE_USER || mode == KPROFILE_MODE_BOTH)
			sel |= KP_EVTSEL_USR;
		if (mode == KPROFILE_MODE_KERNEL || mode == KPROFILE_MODE_BOTH)
			sel |= KP_EVTSEL_OS;
	}
	sel |= KP_EVTSEL_EN;
	if (sampling)
		sel |= KP_EVTSEL_INT;
	return sel;
}
EXPORT_SYMBOL_IF_KP_TEST(kp_pmu_select);

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

static const char *kp_pmu_source_name(const struct kp_pmu *pmu, u32 source)
{
	const struct kp_source_row *row;

	row = kp_table_find(pmu->desc->iface, source);
	if (row && row->name)
		return row->name;
	return kp_generic_name(source) ?: "?";
}

/**
 * kp_pmu_holder_locked() - kp_pmu_holder() with @pmu->lock held.
 * @pmu: the layer.
 * @idx: a counter.
 * @h:   filled in.
 */
void kp_pmu_holder_locked(struct kp_pmu *pmu, unsigned int idx,
			  struct kp_counter_holder *h)
{
	const struct kp_counter *k = &pmu->counters[idx];

	lockdep_assert_held(&pmu->lock);
	memset(h, 0, sizeof(*h));
	h->kind = k->kind;
	h->source = k->source;
	h->mode = k->mode;
	h->users = k->users;
	strscpy(h->owner, k->owner, sizeof(h->owner));
	if (k->kind != KP_HOLDER_FREE || !pmu->ops)
		return;
	/* Free here: is it free for Linux too? */
	if (pmu->arbiter->reserve(pmu, idx))
		pmu->arbiter->release(pmu, idx);
	else
		h->kind = KP_HOLDER_PERF;
}

/**
 * kp_pmu_holder() - who holds counter @idx now.
 * @pmu: the layer.
 * @idx: a counter, < desc->num_counters.
 * @h:   filled in; a counter kprofile does not hold but Linux's arbitration
 *	 refuses is KP_HOLDER_PERF.
 *
 * Takes @pmu->lock.
 */
void kp_pmu_holder(struct kp_pmu *pmu, unsigned int idx,
		   struct kp_counter_holder *h)
{
	mutex_lock(&pmu->lock);
	kp_pmu_holder_locked(pmu, idx, h);
	mutex_unlock(&pmu->lock);
}
EXPORT_SYMBOL_IF_KP_TEST(kp_pmu_holder);

/**
 * kp_pmu_busy_reason_locked() - kp_pmu_busy_reason() with @pmu->lock held.
 * @pmu:    the layer.
 * @reason: filled in.
 * @len:    bytes at @reason.
 */
void kp_pmu_busy_reason_locked(struct kp_pmu *pmu, char *reason, size_t len)
{
	unsigned int i, n = pmu->desc->num_counters, perf = 0, held = 0;
	struct kp_counter_holder h;
	size_t pos;

	if (!reason || !len)
		return;
	for (i = 0; i < n; i++) {
		kp_pmu_holder_locked(pmu, i, &h);
		perf += h.kind == KP_HOLDER_PERF;
		held += h.kind != KP_HOLDER_FREE;
	}
	if (perf && perf == held) {
		scnprintf(reason, len,
			  "%u of %u counters are held by perf (the NMI watchdog?); sysctl kernel.nmi_watchdog=0 frees them",
			  perf, n);
		return;
	}
	pos = scnprintf(reason, len, "%u of %u counters in use:", held, n);
	for (i = 0; i < n && pos < len; i++) {
		kp_pmu_holder_locked(pmu, i, &h);
		switch (h.kind) {
		case KP_HOLDER_SOURCE:
			pos += scnprintf(reason + pos, len - pos, " %u:%s", i,
					 kp_pmu_source_name(pmu, h.source));
			break;
		case KP_HOLDER_RESERVED:
		case KP_HOLDER_COUNTING:
			pos += scnprintf(reason + pos, len - pos, " %u:%s", i,
					 h.owner);
			break;
		case KP_HOLDER_PERF:
			pos += scnprintf(reason + pos, len - pos,
					 " %u:perf(nmi_watchdog?)", i);
			break;
		default:
			break;
		}
	}
}

/**
 * kp_pmu_busy_reason() - say what holds the counters, for an -EBUSY.
 * @pmu:    the layer.
 * @reason: filled with e.g. "4 of 4 counters in use: 0:ProfileTotalIssues
 *	    1:reserved by pid 42 ..." or, when perf holds them, the advice
 *	    to turn the NMI watchdog off.
 * @len:    bytes at @reason.
 */
void kp_pmu_busy_reason(struct kp_pmu *pmu, char *reason, size_t len)
{
	mutex_lock(&pmu->lock);
	kp_pmu_busy_reason_locked(pmu, reason, len);
	mutex_unlock(&pmu->lock);
}
EXPORT_SYMBOL_IF_KP_TEST(kp_pmu_busy_reason);

/* Take the lowest free counter from kprofile's slots and from Linux. */
static int kp_pmu_alloc_counter(struct kp_pmu *pmu)
{
	unsigned int i;

	lockdep_assert_held(&pmu->lock);
	for (i = 0; i < pmu->desc->num_counters; i++) {
		if (pmu->counters[i].kind != KP_HOLDER_FREE)
			continue;
		if (pmu->arbiter->reserve(pmu, i))
			return i;
	}
	return -EBUSY;
}

static void kp_pmu_free_counter(struct kp_pmu *pmu, unsigned int idx)
{
	struct kp_counter *k = &pmu->counters[idx];

	lockdep_assert_held(&pmu->lock);
	pmu->arbiter->release(pmu, idx);
	k->kind = KP_HOLDER_FREE;
	k->source = 0;
	k->mode = KPROFILE_MODE_TABLE;
	k->users = 0;
	k->select = 0;
	k->all_cpus = false;
	cpumask_clear(k->cpus);
	k->owner[0] = '\0';
}

static int kp_pmu_check_source(struct kp_pmu *pmu, u32 source,
			       enum kprofile_mode mode, char *reason,
			       size_t len)
{
	if (reason && len)
		reason[0] = '\0';
	if (mode > KPROFILE_MODE_BOTH) {
		if (reason)
			scnprintf(reason, len, "unknown mode %u", mode);
		return -EINVAL;
	}
	if (!kp_source_known(pmu->sources, source)) {
		if (reason)
			scnprintf(reason, len,
				  "source 0x%x is unknown on this machine",
				  source);
		return -EINVAL;
	}
	if (source == KPROFILE_SOURCE_TIME) {
		if (reason)
			scnprintf(reason, len,
				  "ProfileTime is a timer, not a counter source");
		return -EINVAL;
	}
	if (!kp_source_supported(pmu->sources, source, reason, len))
		return -EOPNOTSUPP;
	if (!pmu->ops) {
		if (reason)
			scnprintf(reason, len, "no profile interface: %s",
				  pmu->desc->reason);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* IPI payload: which counter, for what. */
struct kp_pmu_ipi {
	struct kp_pmu *pmu;
	unsigned int idx;
	u32 source;
	u64 select;
};

/**
 * kp_pmu_program_cpu() - arm counter @idx for sampling on this CPU.
 * @pmu:    the layer.
 * @idx:    the counter.
 * @source: its source (the period comes from its interval).
 * @select: its select, with EN and INT.
 *
 * SetInterval, then EnableMonitoring.  The counter is marked armed after
 * it is loaded (its top bit is then set) and before it is enabled, so an
 * NMI never sees a stale value as an overflow nor misses a real one.
 * Runs with interrupts off on the CPU concerned; nothing if already armed.
 */
void kp_pmu_program_cpu(struct kp_pmu *pmu, unsigned int idx, u32 source,
			u64 select)
{
	struct kp_pmu_cpu *c = this_cpu_ptr(pmu->cpu);

	if (c->armed & BIT_ULL(idx))
		return;
	c->source[idx] = source;
	c->select[idx] = select;
	pmu->ops->set_interval(pmu, idx,
			       kp_source_interval(pmu->sources, source));
	WRITE_ONCE(c->armed, c->armed | BIT_ULL(idx));
	pmu->ops->enable_monitoring(pmu, idx, select);
}
EXPORT_SYMBOL_IF_KP_TEST(kp_pmu_program_cpu);

static void kp_pmu_ipi_arm(void *info)
{
	struct kp_pmu_ipi *a = info;

	kp_pmu_program_cpu(a->pmu, a->idx, a->source, a->select);
}

static void kp_pmu_ipi_disarm(void *info)
{
	struct kp_pmu_ipi *a = info;
	struct kp_pmu_cpu *c = this_cpu_ptr(a->pmu->cpu);

	if (!(c->armed & BIT_ULL(a->idx)))
		return;
	a->pmu->ops->disable_monitoring(a->pmu, a->idx);
	WRITE_ONCE(c->armed, c->armed & ~BIT_ULL(a->idx));
}

/**
 * kp_pmu_find_armed() - the counter a (source, mode) is armed on.
 * @pmu:    the layer; @pmu->lock held.
 * @source: the source.
 * @mode:   the mode.
 *
 * Return: the counter index, or -ENOENT.
 */
int kp_pmu_find_armed(struct kp_pmu *pmu, u32 source, enum kprofile_mode mode)
{
	unsigned int i;

	lockdep_assert_held(&pmu->lock);
	for (i = 0; i < pmu->desc->num_counters; i++)
		if (pmu->counters[i].kind == KP_HOLDER_SOURCE &&
		    pmu->counters[i].source == source &&
		    pmu->counters[i].mode == mode)
			return i;
	return -ENOENT;
}
EXPORT_SYMBOL_IF_KP_TEST(kp_pmu_find_armed);

/**
 * kp_pmu_arm() - HalStartProfileInterrupt: arm a counter source for
 *	sampling on a set of CPUs.
 * @pmu:    the layer.
 * @source: a supported counter source (not ProfileTime).
 * @mode:   which privilege levels count (enum kprofile_mode).
 * @cpus:   the CPUs, or NULL for every online CPU and every CPU that comes
 *	    online later.
 * @reason: on failure, filled with why (may be NULL).
 * @len:    bytes at @reason.
 *
 * Arming is refcounted per (@source, @mode).  The first arm takes a free
 * counter (kprofile's and Linux's arbitration), and on each CPU loads it
 * with the source's interval and writes the table's select with EN and
 * INT and the mode's USR/OS bits, then enables it in the global control.
 * Later arms of the same (@source, @mode) share the counter and add CPUs.
 * Overflows are delivered to the consumers (kp_pmu_add_consumer()).
 * Context: process; may sleep.  Takes cpus_read_lock() and @pmu->lock.
 *
 * Return: 0; -EINVAL for an unknown source or mode, ProfileTime, or a CPU
 * set with no online CPU; -EOPNOTSUPP when the source is not supported
 * here (no interface, or the processor lacks the event); -EBUSY when no
 * counter is free (@reason names the holders).
 */
int kp_pmu_arm(struct kp_pmu *pmu, u32 source, enum kprofile_mode mode,
	       const struct cpumask *cpus, char *reason, size_t len)
{
	struct kp_pmu_ipi a = { .pmu = pmu, .source = source };
	struct kp_counter *k;
	int ret, idx;

	ret = kp_pmu_check_source(pmu, source, mode, reason, len);
	if (ret)
		return ret;

	cpus_read_lock();
	mutex_lock(&pmu->lock);
	if (cpus && !cpumask_intersects(cpus, cpu_online_mask)) {
		if (reason)
			scnprintf(reason, len, "none of the CPUs is online");
		ret = -EINVAL;
		goto out;
	}
	idx = kp_pmu_find_armed(pmu, source, mode);
	if (idx < 0) {
		idx = kp_pmu_alloc_counter(pmu);
		if (idx < 0) {
			kp_pmu_busy_reason_locked(pmu, reason, len);
			ret = -EBUSY;
			goto out;
		}
		k = &pmu->counters[idx];
		k->kind = KP_HOLDER_SOURCE;
		k->source = source;
		k->mode = mode;
		k->select = kp_pmu_select(pmu, source, mode, true);
	}
	k = &pmu->counters[idx];
	k->users++;
	a.idx = idx;
	a.select = k->select;
	if (!cpus) {
		k->all_cpus = true;
		on_each_cpu(kp_pmu_ipi_arm, &a, 1);
	} else {
		cpumask_or(k->cpus, k->cpus, cpus);
		on_each_cpu_mask(k->all_cpus ? cpu_online_mask : cpus,
				 kp_pmu_ipi_arm, &a, 1);
	}
out:
	mutex_unlock(&pmu->lock);
	cpus_read_unlock();
	return ret;
}
EXPORT_SYMBOL_IF_KP_TEST(kp_pmu_arm);

/**
 * kp_pmu_disarm() - HalStopProfileInterrupt: drop one arm of (@source,
 *	@mode).
 * @pmu:    the layer.
 * @source: a source kp_pmu_arm() armed.
 * @mode:   its mode.
 *
 * The last user disables the counter on every CPU (global control, then
 * EN and INT, then a pending overflow acknowledged) and gives it back to
 * Linux.  CPUs stay armed while any user remains, even those only a
 * departed user asked for: a consumer filters by CPU.  Consumers may still
 * run on other CPUs until an RCU grace period passes.
 * Context: process; may sleep.
 */
void kp_pmu_disarm(struct kp_pmu *pmu, u32 source, enum kprofile_mode mode)
{
	struct kp_pmu_ipi a = { .pmu = pmu, .source = source };
	int idx;

	cpus_read_lock();
	mutex_lock(&pmu->lock);
	idx = kp_pmu_find_armed(pmu, source, mode);
	if (WARN_ON_ONCE(idx < 0))
		goto out;
	if (--pmu->counters[idx].users)
		goto out;
	a.idx = idx;
	on_each_cpu(kp_pmu_ipi_disarm, &a, 1);
	kp_pmu_free_counter(pmu, idx);
out:
	mutex_unlock(&pmu->lock);
	cpus_read_unlock();
}
EXPORT_SYMBOL_IF_KP_TEST(kp_pmu_disarm);

static void kp_pmu_ipi_stop_all(void *info)
{
	struct kp_pmu_ipi *a = info;
	u64 bit = BIT_ULL(a->idx);
	struct kp_pmu_cpu *c = this_cpu_ptr(a->pmu->cpu);

	a->pmu->ops->disable_monitoring(a->pmu, a->idx);
	WRITE_ONCE(c->counting, c->counting & ~bit);
}

/**
 * kp_pmu_hold() - hold counters for a reservation (HalAllocateHardwareCounters).
 * @pmu:    the layer.
 * @mask:   the counters, each < desc->num_counters.
 * @owner:  who, for messages (e.g. "reserve pid 42").
 * @claim:  overflows of these counters kprofile takes (acknowledges, unmasks
 *	    the LVTPC, counts and hands to @claim->fn), or NULL.
 * @reason: on failure, why (may be NULL).
 * @len:    bytes at @reason.
 *
 * All or nothing: if any counter is held by kprofile or refused by
 * Linux's arbitration (perf), nothing is held and nothing written.
 * Nothing is programmed either way: the holder programs them.
 *
 * Return: 0, -EOPNOTSUPP (no profile interface), -EINVAL (an index out of
 * range or an empty mask), -EBUSY.
 */
int kp_pmu_hold(struct kp_pmu *pmu, u64 mask, const char *owner,
		struct kp_claim *claim, char *reason, size_t len)
{
	unsigned int i, n = pmu->desc->num_counters;
	u64 taken = 0;
	int ret = 0;

	if (!pmu->ops) {
		if (reason)
			scnprintf(reason, len, "no profile interface: %s",
				  pmu->desc->reason);
		return -EOPNOTSUPP;
	}
	if (!mask || (n < 64 && (mask >> n))) {
		if (reason)
			scnprintf(reason, len,
				  "counters 0x%llx: this processor has %u",
				  mask, n);
		return -EINVAL;
	}
	mutex_lock(&pmu->lock);
	for (i = 0; i < n; i++) {
		if (!(mask & BIT_ULL(i)))
			continue;
		if (pmu->counters[i].kind != KP_HOLDER_FREE ||
		    !pmu->arbiter->reserve(pmu, i))
			break;
		taken |= BIT_ULL(i);
	}
	if (taken != mask) {
		struct kp_counter_holder h;

		for (i = 0; i < n; i++)
			if (taken & BIT_ULL(i))
				pmu->arbiter->release(pmu, i);
		kp_pmu_holder_locked(pmu, __ffs64(mask & ~taken), &h);
		if (reason && h.kind == KP_HOLDER_PERF)
			scnprintf(reason, len,
				  "counter %llu is held by perf (the NMI watchdog?); sysctl kernel.nmi_watchdog=0 frees it",
				  (u64)__ffs64(mask & ~taken));
		else if (reason)
			scnprintf(reason, len, "counter %llu is in use by %s",
				  (u64)__ffs64(mask & ~taken),
				  h.kind == KP_HOLDER_SOURCE ?
				  kp_pmu_source_name(pmu, h.source) : h.owner);
		ret = -EBUSY;
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (!(mask & BIT_ULL(i)))
			continue;
		pmu->counters[i].kind = KP_HOLDER_RESERVED;
		strscpy(pmu->counters[i].owner, owner,
			sizeof(pmu->counters[i].owner));
		rcu_assign_pointer(pmu->counters[i].claim, claim);
	}
	if (claim)
		WRITE_ONCE(pmu->claimed, pmu->claimed | mask);
out:
	mutex_unlock(&pmu->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KP_TEST(kp_pmu_hold);

/**
 * kp_pmu_unhold() - HalFreeHardwareCounters: give reserved counters back.
 * @pmu:  the layer.
 * @mask: counters kp_pmu_hold() took.
 *
 * The counters are disabled on every CPU (the holder may have left them
 * running) and returned to Linux.  On return the NMI path no longer uses
 * their claim: it may be freed.
 * Context: process; may sleep.
 */
void kp_pmu_unhold(struct kp_pmu *pmu, u64 mask)
{
	struct kp_pmu_ipi a = { .pmu = pmu };
	unsigned int i;

	cpus_read_lock();
	mutex_lock(&pmu->lock);
	WRITE_ONCE(pmu->claimed, pmu->claimed & ~mask);
	for (i = 0; i < pmu->desc->num_counters; i++) {
		if (!(mask & BIT_ULL(i)) ||
		    WARN_ON_ONCE(pmu->counters[i].kind != KP_HOLDER_RESERVED))
			continue;
		RCU_INIT_POINTER(pmu->counters[i].claim, NULL);
		a.idx = i;
		on_each_cpu(kp_pmu_ipi_stop_all, &a, 1);
		kp_pmu_free_counter(pmu, i);
	}
	mutex_unlock(&pmu->lock);
	cpus_read_unlock();
	synchronize_rcu();
}
EXPORT_SYMBOL_IF_KP_TEST(kp_pmu_unhold);

/**
 * kp_pmu_claim_counting() - take a counter that counts @source without
 *	interrupts (thread profiling).
 * @pmu:    the layer.
 * @source: a supported counter source.
 * @mode:   which privilege levels count.
 * @owner:  who, for messages (e.g. "thread profiling").
 * @idx:    out: the counter.
 *
 * Nothing is programmed: kp_pmu_start_counting() and
 * kp_pmu_stop_counting() run it on the current CPU (at context switch),
 * kp_pmu_read_counter() and kp_pmu_write_counter() access its value.
 * Context: process; may sleep.
 *
 * Return: 0, -EINVAL, -EOPNOTSUPP (as kp_pmu_arm()), -EBUSY.
 */
int kp_pmu_claim_counting(struct kp_pmu *pmu, u32 source,
			  enum kprofile_mode mode, const char *owner,
			  u32 *idx)
{
	struct kp_counter *k;
	int ret;

	ret = kp_pmu_check_source(pmu, source, mode, NULL, 0);
	if (ret)
		return ret;
	mutex_lock(&pmu->lock);
	ret = kp_pmu_alloc_counter(pmu);
	if (ret >= 0) {
		k = &pmu->counters[ret];
		k->kind = KP_HOLDER_COUNTING;
		k->source = source;
		k->mode = mode;
		k->select = kp_pmu_select(pmu, source, mode, false);
		strscpy(k->owner, owner, sizeof(k->owner));
		*idx = ret;
		ret = 0;
	}
	mutex_unlock(&pmu->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KP_TEST(kp_pmu_claim_counting);

/**
 * kp_pmu_release_counting() - give back a counting counter.
 * @pmu: the layer.
 * @idx: from kp_pmu_claim_counting().
 *
 * Stops it on every CPU where it still counts, then returns it to Linux.
 * Context: process; may sleep.
 */
void kp_pmu_release_counting(struct kp_pmu *pmu, u32 idx)
{
	struct kp_pmu_ipi a = { .pmu = pmu, .idx = idx };

	cpus_read_lock();
	mutex_lock(&pmu->lock);
	if (!WARN_ON_ONCE(idx >= KPROFILE_MAX_COUNTERS ||
			  pmu->counters[idx].kind != KP_HOLDER_COUNTING)) {
		on_each_cpu(kp_pmu_ipi_stop_all, &a, 1);
		kp_pmu_free_counter(pmu, idx);
	}
	mutex_unlock(&pmu->lock);
	cpus_read_unlock();
}
EXPORT_SYMBOL_IF_KP_TEST(kp_pmu_release_counting);

/**
 * kp_pmu_start_counting() - start a counting counter on this CPU.
 * @pmu: the layer.
 * @idx: a counter the caller holds from kp_pmu_claim_counting().
 *
 * EnableMonitoring with the claimed select (EN, no INT); the value is
 * left as it is (see kp_pmu_write_counter()).
 * Context: preemption or interrupts off (context switch); NMI-safe.
 */
void kp_pmu_start_counting(struct kp_pmu *pmu, u32 idx)
{
	struct kp_pmu_cpu *c = this_cpu_ptr(pmu->cpu);
	u64 sel = READ_ONCE(pmu->counters[idx].select);

	c->select[idx] = sel;
	c->source[idx] = READ_ONCE(pmu->counters[idx].source);
	WRITE_ONCE(c->counting, c->counting | BIT_ULL(idx));
	pmu->ops->enable_monitoring(pmu, idx, sel);
}
EXPORT_SYMBOL_IF_KP_TEST(kp_pmu_start_counting);

/**
 * kp_pmu_stop_counting() - stop a counting counter on this CPU.
 * @pmu: the layer.
 * @idx: a counter the caller holds from kp_pmu_claim_counting().
 *
 * Context: preemption or interrupts off; NMI-safe.
 */
void kp_pmu_stop_counting(struct kp_pmu *pmu, u32 idx)
{
	struct kp_pmu_cpu *c = this_cpu_ptr(pmu->cpu);

	pmu->ops->disable_monitoring(pmu, idx);
	WRITE_ONCE(c->counting, c->counting & ~BIT_ULL(idx));
}
EXPORT_SYMBOL_IF_KP_TEST(kp_pmu_stop_counting);

/**
 * kp_pmu_read_counter() - a counter's value on this CPU.
 * @pmu: the layer.
 * @idx: a counter the caller holds.
 *
 * Context: any; NMI-safe.
 *
 * Return: the value, masked to the counter width (0 if the read faults).
 */
u64 kp_pmu_read_counter(struct kp_pmu *pmu, u32 idx)
{
	u64 val;

	if (kp_rdmsr(pmu->hw, pmu->desc->counter_base + idx, &val))
		return 0;
	return val & pmu->counter_mask;
}
EXPORT_SYMBOL_IF_KP_TEST(kp_pmu_read_counter);

/**
 * kp_pmu_write_counter() - set a counter's value on this CPU.
 * @pmu: the layer.
 * @idx: a counter the caller holds.
 * @val: the value, masked to the counter width.  On Emon the legacy
 *	 counter MSRs keep only the low 32 bits, sign-extended: values
 *	 below 2^31 (such as 0) and (-n) & mask for n <= 2^31 are exact.
 *
 * Context: any; NMI-safe.
 */
void kp_pmu_write_counter(struct kp_pmu *pmu, u32 idx, u64 val)
{
	kp_wrmsr(pmu->hw, pmu->desc->counter_base + idx,
		 val & pmu->counter_mask);
}
EXPORT_SYMBOL_IF_KP_TEST(kp_pmu_write_counter);

// SPDX-License-Identifier: GPL-2.0
/*
 * pmu.c - the core of the hardware layer: setting a layer up, Linux's
 * arbitration (reserve_perfctr_nmi(), the arbiter the counter slots ask),
 * and arming a source on every CPU (HalStartProfileInterrupt /
 * HalStopProfileInterrupt).
 *
 * The counter slots and who holds them (and reservations' holds) are in
 * pmu_owner.c, counting counters for thread profiling in pmu_counting.c,
 * register helpers the interfaces share in pmu_regs.c.  See pmu.h for
 * the counter model, and locking.h for the lock order.
 */
#include <linux/bitops.h>
#include <linux/cpu.h>
#include <linux/errno.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/pid.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <asm/nmi.h>

#include "compat.h"
#include "pmu.h"

#define KP_EMON_MAX_PERIOD	((1ULL << 31) - 1)

/* Full-width counter writes (Intel SDM Vol. 3B 18.2.6). */
#define KP_CPUID1_ECX_PDCM		BIT(15)
#define KP_MSR_IA32_PERF_CAPABILITIES	0x00000345
#define KP_PERF_CAP_FW_WRITE		BIT_ULL(13)
#define KP_MSR_IA32_A_PMC0		0x000004c1

/* perf's perf_nmi_window (amd/core.c): 100 ms. */
#define KP_NMI_WINDOW_MS		100

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

/*
 * Whether IA32_A_PMCx take full-width writes: CPUID.1:ECX.PDCM says
 * IA32_PERF_CAPABILITIES exists, and its bit 13 (FW_WRITE) says so.  perf
 * switches to them the same way (intel/core.c, intel_pmu_init()).
 */
static bool kp_pmu_full_width(const struct kp_hw *hw)
{
	struct kp_cpuid_regs r;
	u64 caps;

	kp_cpuid(hw, 1, 0, &r);
	if (!(r.ecx & KP_CPUID1_ECX_PDCM))
		return false;
	return !kp_rdmsr(hw, KP_MSR_IA32_PERF_CAPABILITIES, &caps) &&
	       (caps & KP_PERF_CAP_FW_WRITE);
}

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
	pmu->write_base = desc->counter_base;
	if (pmu->ops && desc->iface == KPROFILE_INTERFACE_EMON &&
	    kp_pmu_full_width(hw))
		pmu->write_base = KP_MSR_IA32_A_PMC0;
	pmu->nmi_window = msecs_to_jiffies(KP_NMI_WINDOW_MS);

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
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_setup);

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
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_teardown);

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
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_period);

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
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_select);

/**
 * kp_pmu_check_source() - whether a source can be put on a counter here.
 * @pmu:    the layer.
 * @source: a KPROFILE_SOURCE.
 * @mode:   the requested mode.
 * @reason: why not (may be NULL).
 * @len:    bytes at @reason.
 *
 * Return: 0, -EINVAL (unknown source or mode, ProfileTime) or -EOPNOTSUPP.
 */
int kp_pmu_check_source(struct kp_pmu *pmu, u32 source,
			enum kprofile_mode mode, char *reason, size_t len)
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

/* The global status register, or 0 on a top-bit interface. */
static u32 kp_pmu_status_msr(const struct kp_pmu *pmu)
{
	if (!pmu->ops->global_status(pmu))
		return 0;
	return pmu->desc->iface == KPROFILE_INTERFACE_EMON ?
	       KP_MSR_IA32_PERF_GLOBAL_STATUS : KP_MSR_AMD_GLOBAL_STATUS;
}

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
 * A status bit left over from earlier counting (another holder, a
 * previous arm) is acknowledged before the counter is marked armed, or the
 * next NMI of any kind would take it for a sample.
 * Runs with interrupts off on the CPU concerned; nothing if already armed
 * or after kp_pmu_shutdown().
 */
void kp_pmu_program_cpu(struct kp_pmu *pmu, unsigned int idx, u32 source,
			u64 select)
{
	struct kp_pmu_cpu *c = this_cpu_ptr(pmu->cpu);
	u32 status_msr = kp_pmu_status_msr(pmu);
	u64 status;

	if ((c->armed & BIT_ULL(idx)) || READ_ONCE(pmu->shut_down))
		return;
	/*
	 * A counter this CPU lacks (docs/hardware.md F7): arming refused
	 * it; never write it.
	 */
	if (c->checked && !(c->present & BIT_ULL(idx)))
		return;
	c->source[idx] = source;
	c->select[idx] = select;
	pmu->ops->set_interval(pmu, idx,
			       kp_source_interval(pmu->sources, source));
	if (status_msr && !kp_rdmsr(pmu->hw, status_msr, &status) &&
	    (status & BIT_ULL(idx)))
		pmu->ops->ack_overflow(pmu, BIT_ULL(idx));
	WRITE_ONCE(c->armed, c->armed | BIT_ULL(idx));
	pmu->ops->enable_monitoring(pmu, idx, select);
}
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_program_cpu);

static void kp_pmu_ipi_arm(void *info)
{
	struct kp_pmu_ipi *a = info;

	/* The LVTPC may have been left masked (a PMI nobody unmasked). */
	a->pmu->ops->initialize(a->pmu);
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
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_find_armed);

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
 * here (no interface, the processor lacks the event, or a CPU of the
 * request lacks it or every counter it may use: hybrid parts, F7); -EBUSY
 * when no counter is free on every CPU of the request (@reason names the
 * holders, or the CPU with fewer counters).
 */
int kp_pmu_arm(struct kp_pmu *pmu, u32 source, enum kprofile_mode mode,
	       const struct cpumask *cpus, char *reason, size_t len)
{
	struct kp_pmu_ipi a = { .pmu = pmu, .source = source };
	int ret, idx, short_cpu;
	struct kp_counter *k;
	u64 allowed;

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
	ret = kp_pmu_cpus_allow(pmu, cpus, source, &allowed, &short_cpu,
				reason, len);
	if (ret)
		goto out;
	idx = kp_pmu_find_armed(pmu, source, mode);
	if (idx >= 0 && !(allowed & BIT_ULL(idx))) {
		if (reason)
			scnprintf(reason, len,
				  "%s is armed on counter %d, which CPU %d lacks",
				  kp_source_name(pmu->desc->iface, source), idx,
				  short_cpu);
		ret = -EOPNOTSUPP;
		goto out;
	}
	if (idx < 0) {
		idx = kp_pmu_alloc_counter(pmu, allowed);
		if (idx < 0) {
			kp_pmu_busy_reason_locked(pmu, reason, len);
			if (reason && short_cpu >= 0)
				scnprintf(reason, len,
					  "no counter free on every CPU: CPU %d has counters 0x%llx only; ask for CPUs that have more",
					  short_cpu,
					  per_cpu_ptr(pmu->cpu,
						      short_cpu)->present);
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
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_arm);

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
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_disarm);

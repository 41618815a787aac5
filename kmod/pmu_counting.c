// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_counting.c - counters that count without interrupts, for thread
 * profiling (KeSetHardwareCounterConfiguration): claimed and released in
 * process context, started, stopped, read and written on the current CPU
 * at context switch.  See pmu.h for the counter model and the locking
 * rules.
 */
#include <linux/bitops.h>
#include <linux/cpu.h>
#include <linux/irqflags.h>
#include <linux/lockdep.h>
#include <linux/string.h>

#include "compat.h"
#include "pmu.h"

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
	u64 allowed;
	int ret;

	ret = kp_pmu_check_source(pmu, source, mode, NULL, 0);
	if (ret)
		return ret;
	mutex_lock(&pmu->lock);
	allowed = kp_source_counters(pmu->sources, source) &
		  kp_pmu_usable_counters(pmu);
	ret = kp_pmu_alloc_counter(pmu, allowed);
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
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_claim_counting);

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
	cpus_read_lock();
	mutex_lock(&pmu->lock);
	if (!WARN_ON_ONCE(idx >= KPROFILE_MAX_COUNTERS ||
			  pmu->counters[idx].kind != KP_HOLDER_COUNTING)) {
		kp_pmu_stop_everywhere(pmu, idx);
		kp_pmu_free_counter(pmu, idx);
	}
	mutex_unlock(&pmu->lock);
	cpus_read_unlock();
}
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_release_counting);

/**
 * kp_pmu_start_counting() - start a counting counter on this CPU.
 * @pmu: the layer.
 * @idx: a counter the caller holds from kp_pmu_claim_counting().
 *
 * EnableMonitoring with the claimed select (EN, no INT); the value is
 * left as it is (see kp_pmu_write_counter()).  Nothing after
 * kp_pmu_shutdown().
 * Context: preemption or interrupts off (context switch); not NMI.
 */
void kp_pmu_start_counting(struct kp_pmu *pmu, u32 idx)
{
	struct kp_pmu_cpu *c = this_cpu_ptr(pmu->cpu);
	u64 sel = READ_ONCE(pmu->counters[idx].select);
	unsigned long flags;

	if (READ_ONCE(pmu->shut_down))
		return;
	/* A CPU without this counter (docs/hardware.md F7): none to start. */
	if (c->checked && !(c->present & BIT_ULL(idx)))
		return;
	/* An IPI (stop, arm) also updates this CPU's masks: interrupts off. */
	local_irq_save(flags);
	c->select[idx] = sel;
	c->source[idx] = READ_ONCE(pmu->counters[idx].source);
	WRITE_ONCE(c->counting, c->counting | BIT_ULL(idx));
	pmu->ops->enable_monitoring(pmu, idx, sel);
	local_irq_restore(flags);
}
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_start_counting);

/**
 * kp_pmu_stop_counting() - stop a counting counter on this CPU.
 * @pmu: the layer.
 * @idx: a counter the caller holds from kp_pmu_claim_counting().
 *
 * Context: preemption or interrupts off; not NMI.
 */
void kp_pmu_stop_counting(struct kp_pmu *pmu, u32 idx)
{
	struct kp_pmu_cpu *c = this_cpu_ptr(pmu->cpu);
	unsigned long flags;

	local_irq_save(flags);
	pmu->ops->disable_monitoring(pmu, idx);
	WRITE_ONCE(c->counting, c->counting & ~BIT_ULL(idx));
	local_irq_restore(flags);
}
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_stop_counting);

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
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_read_counter);

/**
 * kp_pmu_write_counter() - set a counter's value on this CPU.
 * @pmu: the layer.
 * @idx: a counter the caller holds.
 * @val: the value, masked to the counter width.  Written through
 *	 IA32_A_PMCx when the processor has full-width writes (every value
 *	 is then exact); else on Emon the legacy counter MSRs keep only the
 *	 low 32 bits, sign-extended: values below 2^31 (such as 0) and
 *	 (-n) & mask for n <= 2^31 are exact.
 *
 * Context: any; NMI-safe.
 */
void kp_pmu_write_counter(struct kp_pmu *pmu, u32 idx, u64 val)
{
	kp_wrmsr(pmu->hw, pmu->write_base + idx, val & pmu->counter_mask);
}
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_write_counter);

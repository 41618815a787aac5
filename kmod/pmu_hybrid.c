// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_hybrid.c - counters and events that differ per CPU (docs/hardware.md
 * F7).  On hybrid Intel parts CPUID leaf 0xA (and leaf 0x23, sub-leaf 1,
 * where present) can report fewer counters, or a different EBX event
 * vector, on one core type than on another; detection reads them on one
 * CPU only.  A counter that does not exist #GPs (wrmsr_safe() hides it),
 * and a GLOBAL_CTRL bit at or beyond the counter count #GPs too, so the
 * source would be "armed" and count nothing there.
 *
 * Each CPU therefore records, when it comes up, the counters and events
 * CPUID gives it (kp_pmu_cpu_check()), and arming asks for a counter that
 * exists, and an event that exists, on every CPU of the request
 * (kp_pmu_cpus_allow()); otherwise it refuses, naming the CPU.
 */
#include <linux/bitops.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/percpu.h>

#include "compat.h"
#include "pmu.h"

#define KP_CPUID_ARCH_PERFMON_EXT	0x23
#define KP_CPUID_23_COUNTER_LEAF	BIT(1)	/* sub-leaf 1 is valid */

/**
 * kp_pmu_cpu_check() - record the counters and events this CPU has.
 * @pmu: the layer.
 *
 * Emon: counters from CPUID.0AH:EAX[15:8], or the general-purpose counter
 * bitmap of CPUID.23H.1:EAX where leaf 0x23 has it; unavailable events
 * from CPUID.0AH:EBX (and bits beyond EAX[31:24]).  Amd64: every counter.
 * Counters the processor reserves for other uses (desc->avoid_mask, TSX
 * force-abort's PMC3) are left out everywhere.
 * Context: on the CPU concerned (kp_pmu_cpu_up()).
 */
void kp_pmu_cpu_check(struct kp_pmu *pmu)
{
	struct kp_pmu_cpu *c = this_cpu_ptr(pmu->cpu);
	const struct kp_pmu_desc *d = pmu->desc;
	u32 n = min_t(u32, d->num_counters, KPROFILE_MAX_COUNTERS);
	u64 all = n ? GENMASK_ULL(n - 1, 0) : 0, present = all;
	struct kp_cpuid_regs r;
	u32 unavail = 0, len;

	if (d->iface == KPROFILE_INTERFACE_EMON) {
		kp_cpuid(pmu->hw, 0xa, 0, &r);
		n = (r.eax >> 8) & 0xff;
		len = r.eax >> 24;
		present = n ? GENMASK_ULL(min_t(u32, n, 64) - 1, 0) : 0;
		unavail = r.ebx;
		if (len < 32)
			unavail |= ~(len ? GENMASK(len - 1, 0) : 0U);
		kp_cpuid(pmu->hw, 0, 0, &r);
		if (r.eax >= KP_CPUID_ARCH_PERFMON_EXT) {
			kp_cpuid(pmu->hw, KP_CPUID_ARCH_PERFMON_EXT, 0, &r);
			if (r.eax & KP_CPUID_23_COUNTER_LEAF) {
				kp_cpuid(pmu->hw, KP_CPUID_ARCH_PERFMON_EXT, 1,
					 &r);
				present = r.eax;
			}
		}
	}
	c->present = present & all & ~d->avoid_mask;
	c->ebx_unavail = unavail;
	WRITE_ONCE(c->checked, true);
}

/**
 * kp_pmu_cpus_allow() - the counters a source may use on every CPU of a
 *	request, and whether its event exists on all of them.
 * @pmu:     the layer.
 * @cpus:    the CPUs, or NULL for every online CPU.
 * @source:  a supported counter source.
 * @allowed: out: kp_source_counters() narrowed to the counters every
 *	     online CPU of @cpus has.
 * @short_cpu: out: a CPU of @cpus with the fewest counters (for messages),
 *	     or -1 when every CPU has them all.
 * @reason:  on failure, why, naming the CPU (may be NULL).
 * @len:     bytes at @reason.
 *
 * CPUs that were not brought up yet are not known and not counted.
 * Context: process, cpus_read_lock() held (the online mask is stable).
 *
 * Return: 0, or -EOPNOTSUPP when a CPU lacks the event or every counter
 * the source may use.
 */
int kp_pmu_cpus_allow(struct kp_pmu *pmu, const struct cpumask *cpus,
		      u32 source, u64 *allowed, int *short_cpu, char *reason,
		      size_t len)
{
	const struct kp_pmu_desc *d = pmu->desc;
	const struct kp_source_row *row = kp_table_find(d->iface, source);
	u64 mask = kp_source_counters(pmu->sources, source) & ~d->avoid_mask;
	unsigned int cpu, fewest = UINT_MAX;

	*short_cpu = -1;
	for_each_online_cpu(cpu) {
		const struct kp_pmu_cpu *c = per_cpu_ptr(pmu->cpu, cpu);

		if ((cpus && !cpumask_test_cpu(cpu, cpus)) ||
		    !READ_ONCE(c->checked))
			continue;
		if (d->iface == KPROFILE_INTERFACE_EMON && row &&
		    row->ebx_bit >= 0 && (c->ebx_unavail & BIT(row->ebx_bit))) {
			if (reason)
				scnprintf(reason, len,
					  "CPU %u lacks %s: CPUID.0AH:EBX bit %d is set there (another core type?)",
					  cpu, kp_source_name(pmu->desc->iface, source),
					  row->ebx_bit);
			return -EOPNOTSUPP;
		}
		if (!(mask & c->present)) {
			if (reason)
				scnprintf(reason, len,
					  "CPU %u has counters 0x%llx; %s may use none of them there",
					  cpu, c->present,
					  kp_source_name(pmu->desc->iface, source));
			return -EOPNOTSUPP;
		}
		if (hweight64(c->present) < fewest &&
		    c->present != kp_pmu_usable_counters_desc(pmu)) {
			fewest = hweight64(c->present);
			*short_cpu = cpu;
		}
		mask &= c->present;
	}
	*allowed = mask;
	return 0;
}

/**
 * kp_pmu_usable_counters() - the counters kprofile may use on every
 *	online CPU.
 * @pmu: the layer.
 *
 * Context: process, with CPU hotplug excluded by the caller or tolerated
 * (the answer is for the moment it is given).
 *
 * Return: a mask below desc->num_counters (0 without an interface).
 */
u64 kp_pmu_usable_counters(const struct kp_pmu *pmu)
{
	u64 mask = kp_pmu_usable_counters_desc(pmu);
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		const struct kp_pmu_cpu *c = per_cpu_ptr(pmu->cpu, cpu);

		if (READ_ONCE(c->checked))
			mask &= c->present;
	}
	return mask;
}
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_usable_counters);

/**
 * kp_pmu_usable_counters_desc() - the counters detection found, less
 *	those the processor reserves (desc->avoid_mask).
 * @pmu: the layer.
 *
 * Return: a mask below desc->num_counters (0 without an interface).
 */
u64 kp_pmu_usable_counters_desc(const struct kp_pmu *pmu)
{
	u32 n = pmu->ops ? pmu->desc->num_counters : 0;

	return (n ? GENMASK_ULL(min(n, 64U) - 1, 0) : 0) &
	       ~pmu->desc->avoid_mask;
}

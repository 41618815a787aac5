// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_busy.c - can the counters be used now?  The answer behind
 * KPROFILE_IOC_INFO_EX (docs/hardware.md F1): a PMU perf holds is busy, not
 * absent, and stops being busy when perf lets go.
 *
 * Nothing is reserved or written to find out: every online CPU reads its
 * event selects (and on Intel v2+ the fixed-counter control), and a
 * counter enabled there that kprofile does not hold is someone else's.
 * perf reserves every counter while it has any hardware event
 * (reserve_pmc_hardware(), all or nothing), so one such counter means
 * kprofile cannot take any.
 */
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/cpu.h>
#include <linux/kernel.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "compat.h"
#include "kprofile.h"

struct kp_busy_scan {
	struct kp_pmu *pmu;
	u64 ours;		/* counters kprofile holds machine-wide */
	atomic64_t foreign;	/* enabled selects that are not ours */
	atomic64_t select;	/* one of them, for the message */
	atomic64_t fixed;	/* Intel fixed-counter control, if enabled */
};

static void kp_busy_scan_cpu(void *info)
{
	struct kp_busy_scan *sc = info;
	struct kp_pmu *pmu = sc->pmu;
	const struct kp_pmu_desc *d = pmu->desc;
	u64 sel, fixed;
	unsigned int i;

	for (i = 0; i < d->num_counters; i++) {
		if ((sc->ours & BIT_ULL(i)) ||
		    kp_rdmsr(pmu->hw, d->evtsel_base + i, &sel) ||
		    !(sel & KP_EVTSEL_EN))
			continue;
		atomic64_or(BIT_ULL(i), &sc->foreign);
		atomic64_set(&sc->select, sel);
	}
	if (d->iface == KPROFILE_INTERFACE_EMON && d->perfmon_version >= 2 &&
	    !kp_rdmsr(pmu->hw, KP_MSR_IA32_FIXED_CTR_CTRL, &fixed) && fixed)
		atomic64_set(&sc->fixed, fixed);
}

/**
 * kp_pmu_state() - fill the state fields of KPROFILE_IOC_INFO_EX.
 * @pmu: the layer.
 * @x:   its @pmu_state, @flags, @amd_family(_name), @busy_mask,
 *	 @counter_mask and @state_reason are filled in.
 *
 * Context: process; may sleep (IPIs every online CPU, takes @pmu->lock).
 */
void kp_pmu_state(struct kp_pmu *pmu, struct kprofile_info_ex *x)
{
	const struct kp_pmu_desc *d = pmu->desc;
	struct kp_busy_scan sc = { .pmu = pmu };
	unsigned int i;
	u64 foreign;

	if (d->iface == KPROFILE_INTERFACE_AMD64) {
		x->amd_family = d->amd_family;
		strscpy(x->amd_family_name, kp_amd_family_name(d->amd_family),
			sizeof(x->amd_family_name));
	}
	if (d->features & KP_FEAT_HYBRID)
		x->flags |= KPROFILE_INFO_EX_HYBRID;
	if (!pmu->ops) {
		x->pmu_state = KPROFILE_PMU_NONE;
		strscpy(x->state_reason, d->reason, sizeof(x->state_reason));
		return;
	}
	x->flags |= KPROFILE_INFO_EX_PERF_PMU;
	x->counter_mask = kp_pmu_usable_counters(pmu);
	if (d->avoid_mask) {
		x->flags |= KPROFILE_INFO_EX_TSX_FORCE_ABORT;
		strscpy(x->state_reason, d->avoid_reason,
			sizeof(x->state_reason));
	}

	cpus_read_lock();
	mutex_lock(&pmu->lock);
	for (i = 0; i < d->num_counters; i++)
		if (pmu->counters[i].kind != KP_HOLDER_FREE)
			sc.ours |= BIT_ULL(i);
	on_each_cpu(kp_busy_scan_cpu, &sc, 1);
	mutex_unlock(&pmu->lock);
	cpus_read_unlock();

	foreign = atomic64_read(&sc.foreign);
	x->busy_mask = foreign;
	x->pmu_state = KPROFILE_PMU_AVAILABLE;
	if (foreign) {
		x->pmu_state = KPROFILE_PMU_BUSY;
		scnprintf(x->state_reason, sizeof(x->state_reason),
			  "counter %u is counting (select 0x%llx): perf (the NMI watchdog?) holds the PMU; sysctl kernel.nmi_watchdog=0 frees it",
			  (unsigned int)__ffs64(foreign),
			  (u64)atomic64_read(&sc.select));
	} else if (atomic64_read(&sc.fixed)) {
		x->pmu_state = KPROFILE_PMU_BUSY;
		x->busy_mask = ~sc.ours & GENMASK_ULL(d->num_counters - 1, 0);
		scnprintf(x->state_reason, sizeof(x->state_reason),
			  "fixed counters are counting (0x%llx): perf (the NMI watchdog?) holds the PMU; sysctl kernel.nmi_watchdog=0 frees it",
			  (u64)atomic64_read(&sc.fixed));
	}
}
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_state);

// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_emon.c - the Emon profile interface: Intel architectural performance
 * monitoring (Intel SDM Vol. 3B, "Architectural Performance Monitoring").
 *
 *   IA32_PERFEVTSELn  0x186 + n	event select (EN bit 22, INT bit 20)
 *   IA32_PMCn	       0xC1 + n		counter, CPUID.0AH:EAX[23:16] bits wide;
 *					writes here keep 32 bits, sign-extended
 *   Version 2 and later:
 *   IA32_PERF_GLOBAL_CTRL	0x38F	bit n enables PMCn (ANDed with EN)
 *   IA32_PERF_GLOBAL_STATUS	0x38E	bit n: PMCn overflowed
 *   IA32_PERF_GLOBAL_OVF_CTRL	0x390	write 1 to clear a status bit
 *   Version 1: a counter whose top bit is clear has overflowed.
 *   IA32_A_PMCn       0x4C1 + n	full-width writes, when
 *					IA32_PERF_CAPABILITIES[13] (pmu.c)
 *   IA32_DEBUGCTL     0x1D9		bit 12 FREEZE_PERFMON_ON_PMI
 *   GLOBAL_STATUS bit 59 (v4+)	CTR_Frz: counters frozen by a PMI
 *
 * The sequences are perf's (arch/x86/events/core.c, intel/core.c): the
 * counter is loaded before its select enables it, and global control is
 * enabled last; a PMI is acknowledged in GLOBAL_OVF_CTRL and the LVTPC
 * entry, which the processor masks on every PMI, is unmasked.
 *
 * Freeze on PMI: kprofile leaves its counters running through its PMI,
 * so InitializeProfiling clears DEBUGCTL.FREEZE_PERFMON_ON_PMI (Linux
 * never sets it; firmware or another agent might), and the handler
 * acknowledges CTR_Frz should a PMI have frozen the counters anyway.
 */
#include <linux/bits.h>
#include <linux/irqflags.h>
#include <linux/kprobes.h>

#include "pmu.h"

#define KP_MSR_IA32_DEBUGCTL		0x000001d9
#define KP_DEBUGCTL_FREEZE_ON_PMI	BIT_ULL(12)
#define KP_STATUS_CTR_FRZ		BIT_ULL(59)

static bool kp_emon_global(const struct kp_pmu *pmu)
{
	return pmu->desc->perfmon_version >= 2;
}

static bool kp_emon_global_status(const struct kp_pmu *pmu)
{
	return kp_emon_global(pmu);
}

static void kp_emon_initialize(struct kp_pmu *pmu)
{
	unsigned long flags;
	u64 dbg;

	/* DEBUGCTL is shared (LBR, BTF): clear only bit 12, only if set. */
	local_irq_save(flags);
	if (!kp_rdmsr(pmu->hw, KP_MSR_IA32_DEBUGCTL, &dbg) &&
	    (dbg & KP_DEBUGCTL_FREEZE_ON_PMI))
		kp_wrmsr(pmu->hw, KP_MSR_IA32_DEBUGCTL,
			 dbg & ~KP_DEBUGCTL_FREEZE_ON_PMI);
	local_irq_restore(flags);
	kp_lvtpc_unmask(pmu->hw, pmu->desc->features);
}

static void kp_emon_enable(struct kp_pmu *pmu, unsigned int idx, u64 select)
{
	kp_wrmsr(pmu->hw, KP_MSR_IA32_PERFEVTSEL0 + idx, select);
	if (kp_emon_global(pmu))
		kp_pmu_global_rmw(pmu, KP_MSR_IA32_PERF_GLOBAL_CTRL,
				  BIT_ULL(idx), 0);
}

static void kp_emon_disable(struct kp_pmu *pmu, unsigned int idx)
{
	u64 sel;

	if (kp_emon_global(pmu))
		kp_pmu_global_rmw(pmu, KP_MSR_IA32_PERF_GLOBAL_CTRL, 0,
				  BIT_ULL(idx));
	if (!kp_rdmsr(pmu->hw, KP_MSR_IA32_PERFEVTSEL0 + idx, &sel))
		kp_wrmsr(pmu->hw, KP_MSR_IA32_PERFEVTSEL0 + idx,
			 sel & ~(KP_EVTSEL_EN | KP_EVTSEL_INT));
	if (kp_emon_global(pmu))
		kp_wrmsr(pmu->hw, KP_MSR_IA32_PERF_GLOBAL_OVF_CTRL,
			 BIT_ULL(idx));
}

static void kp_emon_set_interval(struct kp_pmu *pmu, unsigned int idx,
				 u32 interval)
{
	kp_wrmsr(pmu->hw, pmu->write_base + idx, kp_pmu_period(pmu, interval));
}

NOKPROBE_SYMBOL(kp_emon_set_interval);

static u64 kp_emon_check_overflow(struct kp_pmu *pmu, u64 armed,
				  u64 claimed)
{
	u64 status;

	if (!kp_emon_global(pmu))
		return kp_pmu_topbit_overflow(pmu, armed, claimed);
	if (kp_rdmsr(pmu->hw, KP_MSR_IA32_PERF_GLOBAL_STATUS, &status))
		status = 0;
	/* A PMI froze the counters (v4 streamlined freeze): thaw them. */
	if (status & KP_STATUS_CTR_FRZ)
		kp_wrmsr(pmu->hw, KP_MSR_IA32_PERF_GLOBAL_OVF_CTRL,
			 KP_STATUS_CTR_FRZ);
	return (status & armed) | kp_pmu_topbit_overflow(pmu, armed, 0) |
	       kp_pmu_claimed_int(pmu, status & claimed);
}

NOKPROBE_SYMBOL(kp_emon_check_overflow);

static void kp_emon_ack_overflow(struct kp_pmu *pmu, u64 mask)
{
	if (kp_emon_global(pmu))
		kp_wrmsr(pmu->hw, KP_MSR_IA32_PERF_GLOBAL_OVF_CTRL, mask);
}

NOKPROBE_SYMBOL(kp_emon_ack_overflow);

static int kp_emon_query(struct kp_pmu *pmu, u32 source,
			 struct kprofile_source_info *info)
{
	return kp_source_query(pmu->sources, source, info);
}

/* HalpProfileInterface for Intel architectural performance monitoring. */
const struct kp_pmu_ops kp_pmu_emon_ops = {
	.name = "Emon",
	.initialize = kp_emon_initialize,
	.enable_monitoring = kp_emon_enable,
	.disable_monitoring = kp_emon_disable,
	.set_interval = kp_emon_set_interval,
	.check_overflow = kp_emon_check_overflow,
	.ack_overflow = kp_emon_ack_overflow,
	.query = kp_emon_query,
	.global_status = kp_emon_global_status,
};

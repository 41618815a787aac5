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
 *
 * The sequences are perf's (arch/x86/events/core.c, intel/core.c): the
 * counter is loaded before its select enables it, and global control is
 * enabled last; a PMI is acknowledged in GLOBAL_OVF_CTRL and the LVTPC
 * entry, which the processor masks on every PMI, is unmasked.
 */
#include <linux/bits.h>

#include "pmu.h"

static bool kp_emon_global(const struct kp_pmu *pmu)
{
	return pmu->desc->perfmon_version >= 2;
}

static void kp_emon_global_ctrl(struct kp_pmu *pmu, unsigned int idx,
				bool on)
{
	u64 ctrl;

	if (kp_rdmsr(pmu->hw, KP_MSR_IA32_PERF_GLOBAL_CTRL, &ctrl))
		return;
	if (on)
		ctrl |= BIT_ULL(idx);
	else
		ctrl &= ~BIT_ULL(idx);
	kp_wrmsr(pmu->hw, KP_MSR_IA32_PERF_GLOBAL_CTRL, ctrl);
}

static void kp_emon_initialize(struct kp_pmu *pmu)
{
	kp_lvtpc_nmi(pmu->hw);
}

static void kp_emon_enable(struct kp_pmu *pmu, unsigned int idx, u64 select)
{
	kp_wrmsr(pmu->hw, KP_MSR_IA32_PERFEVTSEL0 + idx, select);
	if (kp_emon_global(pmu))
		kp_emon_global_ctrl(pmu, idx, true);
}

static void kp_emon_disable(struct kp_pmu *pmu, unsigned int idx)
{
	u64 sel;

	if (kp_emon_global(pmu))
		kp_emon_global_ctrl(pmu, idx, false);
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
	kp_wrmsr(pmu->hw, KP_MSR_IA32_PMC0 + idx,
		 kp_pmu_period(pmu, interval));
}

static u64 kp_emon_check_overflow(struct kp_pmu *pmu, u64 armed,
				  u64 claimed)
{
	u64 status;

	if (!kp_emon_global(pmu))
		return kp_pmu_topbit_overflow(pmu, armed, claimed);
	if (kp_rdmsr(pmu->hw, KP_MSR_IA32_PERF_GLOBAL_STATUS, &status))
		return 0;
	return status & (armed | claimed);
}

static void kp_emon_ack_overflow(struct kp_pmu *pmu, u64 mask)
{
	if (kp_emon_global(pmu))
		kp_wrmsr(pmu->hw, KP_MSR_IA32_PERF_GLOBAL_OVF_CTRL, mask);
}

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
};

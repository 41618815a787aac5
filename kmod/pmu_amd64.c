// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_amd64.c - the Amd64 profile interface: the AMD64 legacy performance
 * counters (AMD APM Vol. 2, "Performance Monitoring Counters").
 *
 *   PerfEvtSeln  0xC0010000 + n	event select (EN bit 22, INT bit 20)
 *   PerfCtrn	  0xC0010004 + n	48-bit counter, n < 4
 *   PerfMonV2 (CPUID 0x80000022:EAX[0], Zen 4):
 *   PerfCntrGlobalCtl	     0xC0000301	bit n enables counter n (ANDed with EN)
 *   PerfCntrGlobalStatus    0xC0000300	bit n: counter n overflowed
 *   PerfCntrGlobalStatusClr 0xC0000302	write 1 to clear a status bit
 *   Without PerfMonV2: a counter whose bit 47 is clear has overflowed.
 *
 * The sequences follow perf's arch/x86/events/amd/core.c: the counter is
 * loaded before its select enables it, PerfCntrGlobalCtl is enabled last,
 * and an overflow is acknowledged in PerfCntrGlobalStatusClr.
 */
#include <linux/bits.h>

#include "pmu.h"

static bool kp_amd64_global(const struct kp_pmu *pmu)
{
	return pmu->desc->amd_perfmon_v2;
}

static void kp_amd64_global_ctl(struct kp_pmu *pmu, unsigned int idx, bool on)
{
	u64 ctl;

	if (kp_rdmsr(pmu->hw, KP_MSR_AMD_GLOBAL_CTL, &ctl))
		return;
	if (on)
		ctl |= BIT_ULL(idx);
	else
		ctl &= ~BIT_ULL(idx);
	kp_wrmsr(pmu->hw, KP_MSR_AMD_GLOBAL_CTL, ctl);
}

static void kp_amd64_initialize(struct kp_pmu *pmu)
{
	kp_lvtpc_nmi(pmu->hw);
}

static void kp_amd64_enable(struct kp_pmu *pmu, unsigned int idx, u64 select)
{
	kp_wrmsr(pmu->hw, KP_MSR_K7_EVNTSEL0 + idx, select);
	if (kp_amd64_global(pmu))
		kp_amd64_global_ctl(pmu, idx, true);
}

static void kp_amd64_disable(struct kp_pmu *pmu, unsigned int idx)
{
	u64 sel;

	if (kp_amd64_global(pmu))
		kp_amd64_global_ctl(pmu, idx, false);
	if (!kp_rdmsr(pmu->hw, KP_MSR_K7_EVNTSEL0 + idx, &sel))
		kp_wrmsr(pmu->hw, KP_MSR_K7_EVNTSEL0 + idx,
			 sel & ~(KP_EVTSEL_EN | KP_EVTSEL_INT));
	if (kp_amd64_global(pmu))
		kp_wrmsr(pmu->hw, KP_MSR_AMD_GLOBAL_STATUS_CLR, BIT_ULL(idx));
}

static void kp_amd64_set_interval(struct kp_pmu *pmu, unsigned int idx,
				  u32 interval)
{
	kp_wrmsr(pmu->hw, KP_MSR_K7_PERFCTR0 + idx,
		 kp_pmu_period(pmu, interval));
}

static u64 kp_amd64_check_overflow(struct kp_pmu *pmu, u64 armed,
				   u64 claimed)
{
	u64 status;

	if (!kp_amd64_global(pmu))
		return kp_pmu_topbit_overflow(pmu, armed, claimed);
	if (kp_rdmsr(pmu->hw, KP_MSR_AMD_GLOBAL_STATUS, &status))
		return 0;
	return status & (armed | claimed);
}

static void kp_amd64_ack_overflow(struct kp_pmu *pmu, u64 mask)
{
	if (kp_amd64_global(pmu))
		kp_wrmsr(pmu->hw, KP_MSR_AMD_GLOBAL_STATUS_CLR, mask);
}

static int kp_amd64_query(struct kp_pmu *pmu, u32 source,
			  struct kprofile_source_info *info)
{
	return kp_source_query(pmu->sources, source, info);
}

/* HalpProfileInterface for the AMD64 performance counters. */
const struct kp_pmu_ops kp_pmu_amd64_ops = {
	.name = "Amd64",
	.initialize = kp_amd64_initialize,
	.enable_monitoring = kp_amd64_enable,
	.disable_monitoring = kp_amd64_disable,
	.set_interval = kp_amd64_set_interval,
	.check_overflow = kp_amd64_check_overflow,
	.ack_overflow = kp_amd64_ack_overflow,
	.query = kp_amd64_query,
};

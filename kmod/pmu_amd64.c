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
 *
 * AMD delivers a PMI with some latency, so a counter's PMI may arrive
 * after it was handled or disabled: disabling an overflowed counter waits
 * (briefly) for its PMI, as amd_pmu_wait_on_overflow() does, and the NMI
 * handler claims unknown NMIs for a while after (ops.late_pmi).  The AMD
 * local APIC does not mask the LVTPC on a PMI.
 */
#include <linux/bits.h>
#include <linux/delay.h>
#include <linux/kprobes.h>
#include <linux/preempt.h>

#include "pmu.h"

/* amd/core.c OVERFLOW_WAIT_COUNT: at most 50 us for the PMI to land. */
#define KP_AMD64_OVERFLOW_WAIT	50

static bool kp_amd64_global(const struct kp_pmu *pmu)
{
	return pmu->desc->amd_perfmon_v2;
}

static bool kp_amd64_overflowed(struct kp_pmu *pmu, unsigned int idx)
{
	return kp_pmu_topbit_overflow(pmu, BIT_ULL(idx), 0) != 0;
}

static bool kp_amd64_global_status(const struct kp_pmu *pmu)
{
	return kp_amd64_global(pmu);
}

static void kp_amd64_initialize(struct kp_pmu *pmu)
{
	kp_lvtpc_unmask(pmu->hw, pmu->desc->features);
}

static void kp_amd64_enable(struct kp_pmu *pmu, unsigned int idx, u64 select)
{
	kp_wrmsr(pmu->hw, KP_MSR_K7_EVNTSEL0 + idx, select);
	if (kp_amd64_global(pmu))
		kp_pmu_global_rmw(pmu, KP_MSR_AMD_GLOBAL_CTL, BIT_ULL(idx), 0);
}

/*
 * A sampling counter that overflowed has a PMI on its way: give it a
 * moment to land and reload the counter (the handler still sees the
 * counter armed), then, if it has not, claim the late NMI when it comes.
 */
static void kp_amd64_wait_on_overflow(struct kp_pmu *pmu, unsigned int idx)
{
	unsigned int i;

	for (i = 0; i < KP_AMD64_OVERFLOW_WAIT; i++) {
		if (!kp_amd64_overflowed(pmu, idx))
			return;
		udelay(1);
	}
	kp_pmu_nmi_window_open(pmu);
}

static void kp_amd64_disable(struct kp_pmu *pmu, unsigned int idx)
{
	u64 sel = 0;

	if (kp_amd64_global(pmu))
		kp_pmu_global_rmw(pmu, KP_MSR_AMD_GLOBAL_CTL, 0, BIT_ULL(idx));
	if (!kp_rdmsr(pmu->hw, KP_MSR_K7_EVNTSEL0 + idx, &sel))
		kp_wrmsr(pmu->hw, KP_MSR_K7_EVNTSEL0 + idx,
			 sel & ~(KP_EVTSEL_EN | KP_EVTSEL_INT));
	if ((sel & (KP_EVTSEL_EN | KP_EVTSEL_INT)) ==
	    (KP_EVTSEL_EN | KP_EVTSEL_INT) && !in_nmi())
		kp_amd64_wait_on_overflow(pmu, idx);
	if (kp_amd64_global(pmu))
		kp_wrmsr(pmu->hw, KP_MSR_AMD_GLOBAL_STATUS_CLR, BIT_ULL(idx));
}

static void kp_amd64_set_interval(struct kp_pmu *pmu, unsigned int idx,
				  u32 interval)
{
	kp_wrmsr(pmu->hw, KP_MSR_K7_PERFCTR0 + idx,
		 kp_pmu_period(pmu, interval));
}

NOKPROBE_SYMBOL(kp_amd64_set_interval);

static u64 kp_amd64_check_overflow(struct kp_pmu *pmu, u64 armed,
				   u64 claimed)
{
	u64 status;

	if (!kp_amd64_global(pmu))
		return kp_pmu_topbit_overflow(pmu, armed, claimed);
	if (kp_rdmsr(pmu->hw, KP_MSR_AMD_GLOBAL_STATUS, &status))
		status = 0;
	return (status & armed) | kp_pmu_topbit_overflow(pmu, armed, 0) |
	       kp_pmu_claimed_int(pmu, status & claimed);
}

NOKPROBE_SYMBOL(kp_amd64_check_overflow);

static void kp_amd64_ack_overflow(struct kp_pmu *pmu, u64 mask)
{
	if (kp_amd64_global(pmu))
		kp_wrmsr(pmu->hw, KP_MSR_AMD_GLOBAL_STATUS_CLR, mask);
}

NOKPROBE_SYMBOL(kp_amd64_ack_overflow);

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
	.global_status = kp_amd64_global_status,
	.late_pmi = true,
};

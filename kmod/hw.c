// SPDX-License-Identifier: GPL-2.0
/*
 * hw.c - the real processor behind the kp_hw seam: CPUID, the _safe MSR
 * accessors (a #GP becomes -EIO, as perf's probe expects), and the LVTPC.
 */
#include <linux/errno.h>
#include <linux/kprobes.h>

#include "compat.h"
#include "hw.h"

static void kp_real_cpuid(void *ctx, u32 leaf, u32 subleaf,
			  struct kp_cpuid_regs *r)
{
	cpuid_count(leaf, subleaf, &r->eax, &r->ebx, &r->ecx, &r->edx);
}

static int kp_real_rdmsr(void *ctx, u32 msr, u64 *val)
{
	unsigned long long v;

	if (rdmsrq_safe(msr, &v)) {
		*val = 0;
		return -EIO;
	}
	*val = v;
	return 0;
}

NOKPROBE_SYMBOL(kp_real_rdmsr);

static int kp_real_wrmsr(void *ctx, u32 msr, u64 val)
{
	return wrmsrq_safe(msr, val) ? -EIO : 0;
}

NOKPROBE_SYMBOL(kp_real_wrmsr);

static void kp_real_lvtpc_nmi(void *ctx)
{
	kp_compat_lvtpc_write(APIC_DM_NMI);
}

NOKPROBE_SYMBOL(kp_real_lvtpc_nmi);

static void kp_real_platform(void *ctx, struct kp_platform *p)
{
	if (boot_cpu_has(X86_FEATURE_ARCH_PERFMON))
		p->features |= KP_FEAT_ARCH_PERFMON;
	if (boot_cpu_has(X86_FEATURE_PERFCTR_CORE))
		p->features |= KP_FEAT_PERFCTR_CORE;
	if (kp_compat_has_perfmon_v2())
		p->features |= KP_FEAT_PERFMON_V2;
	if (kp_compat_has_hybrid_cpu())
		p->features |= KP_FEAT_HYBRID;
	if (boot_cpu_has(X86_FEATURE_TSX_FORCE_ABORT))
		p->features |= KP_FEAT_TSX_FORCE_ABORT;
	if (kp_compat_has_rtm_always_abort())
		p->features |= KP_FEAT_RTM_ALWAYS_ABORT;
	/* Set once at boot (exported; the constant 0 without X86_X2APIC). */
	if (x2apic_mode)
		p->features |= KP_FEAT_X2APIC;
	/* perf_get_x86_pmu_capability() WARNs on hybrid parts. */
	if (p->features & KP_FEAT_HYBRID)
		return;
	p->perf_known = kp_compat_perf_caps(&p->perf_version,
					    &p->perf_counters, &p->perf_width);
	p->perf_pmu = p->perf_known && p->perf_counters > 0;
}

static const struct kp_hw_ops kp_real_ops = {
	.cpuid = kp_real_cpuid,
	.read_msr = kp_real_rdmsr,
	.write_msr = kp_real_wrmsr,
	.lvtpc_nmi = kp_real_lvtpc_nmi,
	.platform = kp_real_platform,
};

/* The processor this code runs on. */
const struct kp_hw kp_hw_real = {
	.ops = &kp_real_ops,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * fake_cpus.c - whole fake processors for the KUnit suites: an Intel part
 * with architectural perfmon of any version and shape, and an AMD64 part
 * with or without PerfMonV2.  Built only from the public fake_hw.h API.
 */
#include <linux/bits.h>
#include <linux/minmax.h>

#include "fake_hw.h"

/* Long mode, CPUID 0x80000001:EDX[29]; TSC, MSR and APIC in CPUID.1:EDX. */
#define KP_FAKE_EXT1_EDX_LM	BIT(29)
#define KP_FAKE_CPUID1_EDX	(BIT(4) | BIT(5) | BIT(9))
#define KP_FAKE_CPUID1_ECX_PDCM	BIT(15)
#define KP_FAKE_PERF_CAP_FW	BIT_ULL(13)

/* Intel: IA32_PERFEVTSELx bits 63:32 are reserved (SDM Vol. 3B 18.2.1). */
#define KP_FAKE_INTEL_SEL_RSVD	GENMASK_ULL(63, 32)
/* GLOBAL_OVF_CTRL condition bits: v4+ (SDM 18.2.4) and v2/v3. */
#define KP_FAKE_OVF_COND_V4	(BIT_ULL(55) | GENMASK_ULL(63, 58))
#define KP_FAKE_OVF_COND_V2	GENMASK_ULL(63, 62)
/* AMD PerfEvtSeln: 63:42, 39:36 and 21 are reserved (APM Vol. 2 13.2.1). */
#define KP_FAKE_AMD_SEL_RSVD	(GENMASK_ULL(63, 42) | GENMASK_ULL(39, 36) | \
				 BIT_ULL(21))

void kp_fake_intel(struct kp_fake *fake, u32 version, u32 counters,
		   u32 width, u32 ebx_len, u32 ebx_mask)
{
	u64 gp, fixed;
	u32 edx_a = 0;
	unsigned int i;

	kp_fake_cpuid_set(fake, 0, 0, 0x16, 0, 0, 0);
	kp_fake_vendor(fake, "GenuineIntel");
	/* Family 6, model 0x5e, stepping 3: a Skylake client part. */
	kp_fake_cpuid_set(fake, 1, 0, 0x000506e3, 0, 0, KP_FAKE_CPUID1_EDX);
	if (version >= 2)
		edx_a = KP_FAKE_INTEL_FIXED_COUNTERS |
			KP_FAKE_INTEL_FIXED_WIDTH << 5;
	kp_fake_cpuid_set(fake, 0xa, KP_FAKE_ANY_SUBLEAF,
			  (version & 0xff) | (counters & 0xff) << 8 |
			  (width & 0xff) << 16 | (ebx_len & 0xff) << 24,
			  ebx_mask, 0, edx_a);
	kp_fake_cpuid_set(fake, 0x80000000, 0, 0x80000008, 0, 0, 0);
	kp_fake_cpuid_set(fake, 0x80000001, 0, 0, 0, 0, KP_FAKE_EXT1_EDX_LM);

	if (!version)
		return;
	kp_fake_pmu_lvtpc_automask(fake, true);
	kp_fake_msr_define(fake, KP_FAKE_MSR_IA32_DEBUGCTL, 0, 64, 0);
	for (i = 0; i < counters; i++) {
		kp_fake_msr_define(fake, KP_FAKE_MSR_IA32_PERFEVTSEL0 + i, 0,
				   64, 0);
		kp_fake_msr_reserved(fake, KP_FAKE_MSR_IA32_PERFEVTSEL0 + i,
				     KP_FAKE_INTEL_SEL_RSVD);
		kp_fake_msr_define(fake, KP_FAKE_MSR_IA32_PMC0 + i, 0, width,
				   KP_FAKE_LEGACY32);
		if (i < KP_FAKE_MAX_PMCS)
			kp_fake_pmc_define(fake, i,
					   KP_FAKE_MSR_IA32_PERFEVTSEL0 + i,
					   KP_FAKE_MSR_IA32_PMC0 + i);
	}
	if (version < 2)
		return;
	gp = counters ? GENMASK_ULL(min(counters, 32U) - 1, 0) : 0;
	fixed = GENMASK_ULL(32 + KP_FAKE_INTEL_FIXED_COUNTERS - 1, 32);
	for (i = 0; i < KP_FAKE_INTEL_FIXED_COUNTERS; i++)
		kp_fake_msr_define(fake, KP_FAKE_MSR_IA32_FIXED_CTR0 + i, 0,
				   KP_FAKE_INTEL_FIXED_WIDTH, 0);
	kp_fake_msr_define(fake, KP_FAKE_MSR_IA32_FIXED_CTR_CTRL, 0, 64, 0);
	kp_fake_msr_define(fake, KP_FAKE_MSR_IA32_GLOBAL_STATUS, 0, 64,
			   KP_FAKE_FAULT_WRITE);
	kp_fake_msr_define(fake, KP_FAKE_MSR_IA32_GLOBAL_CTRL, gp, 64, 0);
	kp_fake_msr_reserved(fake, KP_FAKE_MSR_IA32_GLOBAL_CTRL, ~(gp | fixed));
	kp_fake_msr_define(fake, KP_FAKE_MSR_IA32_GLOBAL_OVF_CTRL, 0, 64,
			   KP_FAKE_WRITE_ONLY);
	kp_fake_msr_reserved(fake, KP_FAKE_MSR_IA32_GLOBAL_OVF_CTRL,
			     ~(gp | fixed | (version >= 4 ? KP_FAKE_OVF_COND_V4 :
					     KP_FAKE_OVF_COND_V2)));
	kp_fake_msr_w1c(fake, KP_FAKE_MSR_IA32_GLOBAL_OVF_CTRL,
			KP_FAKE_MSR_IA32_GLOBAL_STATUS);
	for (i = 0; i < counters && i < 32; i++)
		kp_fake_counter_status(fake, KP_FAKE_MSR_IA32_PMC0 + i,
				       KP_FAKE_MSR_IA32_GLOBAL_STATUS, i);
	kp_fake_pmu_global(fake, KP_FAKE_MSR_IA32_GLOBAL_CTRL,
			   KP_FAKE_MSR_IA32_GLOBAL_STATUS);
	kp_fake_pmu_freeze(fake, KP_FAKE_MSR_IA32_DEBUGCTL,
			   version >= 4 ? KP_FAKE_FREEZE_STREAMLINED :
			   KP_FAKE_FREEZE_LEGACY);
}

void kp_fake_intel_full_width(struct kp_fake *fake, bool fw)
{
	struct kp_cpuid_regs r;
	unsigned int i, n;

	kp_fake_cpuid_find(fake, 1, 0)->ecx |= KP_FAKE_CPUID1_ECX_PDCM;
	kp_fake_msr_define(fake, KP_FAKE_MSR_IA32_PERF_CAPS,
			   fw ? KP_FAKE_PERF_CAP_FW : 0, 64, KP_FAKE_FAULT_WRITE);
	if (!fw)
		return;
	r = *kp_fake_cpuid_find(fake, 0xa, KP_FAKE_ANY_SUBLEAF);
	n = (r.eax >> 8) & 0xff;
	for (i = 0; i < n; i++) {
		kp_fake_msr_define(fake, KP_FAKE_MSR_IA32_A_PMC0 + i, 0, 64, 0);
		kp_fake_msr_alias(fake, KP_FAKE_MSR_IA32_A_PMC0 + i,
				  KP_FAKE_MSR_IA32_PMC0 + i);
	}
}

void kp_fake_amd(struct kp_fake *fake, u32 family, bool perfmon_v2)
{
	u32 max_ext = 0x8000001f, leaf1;
	unsigned int i;

	if (family >= 0x19 || perfmon_v2)
		max_ext = 0x80000022;
	/* Base family 0xF plus extended family for 0xF and up; model 1. */
	if (family >= 0xf)
		leaf1 = (family - 0xf) << 20 | 0xf << 8 | 1 << 4;
	else
		leaf1 = family << 8 | 1 << 4;
	kp_fake_cpuid_set(fake, 0, 0, 0x10, 0, 0, 0);
	kp_fake_vendor(fake, "AuthenticAMD");
	kp_fake_cpuid_set(fake, 1, 0, leaf1, 0, 0, KP_FAKE_CPUID1_EDX);
	kp_fake_cpuid_set(fake, 0x80000000, 0, max_ext, 0, 0, 0);
	kp_fake_cpuid_set(fake, 0x80000001, 0, leaf1, 0, 0,
			  KP_FAKE_EXT1_EDX_LM);
	if (max_ext >= 0x80000022)
		kp_fake_cpuid_set(fake, 0x80000022, 0, perfmon_v2 ? BIT(0) : 0,
				  0, 0, 0);

	for (i = 0; i < KP_FAKE_AMD_COUNTERS; i++) {
		kp_fake_msr_define(fake, KP_FAKE_MSR_K7_EVNTSEL0 + i, 0, 64, 0);
		kp_fake_msr_reserved(fake, KP_FAKE_MSR_K7_EVNTSEL0 + i,
				     KP_FAKE_AMD_SEL_RSVD);
		kp_fake_msr_define(fake, KP_FAKE_MSR_K7_PERFCTR0 + i, 0,
				   KP_FAKE_AMD_WIDTH, 0);
		kp_fake_pmc_define(fake, i, KP_FAKE_MSR_K7_EVNTSEL0 + i,
				   KP_FAKE_MSR_K7_PERFCTR0 + i);
	}
	if (!perfmon_v2)
		return;
	kp_fake_msr_define(fake, KP_FAKE_MSR_AMD_GLOBAL_STATUS, 0, 64,
			   KP_FAKE_FAULT_WRITE);
	kp_fake_msr_define(fake, KP_FAKE_MSR_AMD_GLOBAL_CTL, 0, 64, 0);
	kp_fake_msr_reserved(fake, KP_FAKE_MSR_AMD_GLOBAL_CTL,
			     ~GENMASK_ULL(KP_FAKE_AMD_COUNTERS - 1, 0));
	kp_fake_msr_define(fake, KP_FAKE_MSR_AMD_GLOBAL_STATUS_CLR, 0, 64,
			   KP_FAKE_WRITE_ONLY);
	kp_fake_msr_w1c(fake, KP_FAKE_MSR_AMD_GLOBAL_STATUS_CLR,
			KP_FAKE_MSR_AMD_GLOBAL_STATUS);
	for (i = 0; i < KP_FAKE_AMD_COUNTERS; i++)
		kp_fake_counter_status(fake, KP_FAKE_MSR_K7_PERFCTR0 + i,
				       KP_FAKE_MSR_AMD_GLOBAL_STATUS, i);
	kp_fake_pmu_global(fake, KP_FAKE_MSR_AMD_GLOBAL_CTL,
			   KP_FAKE_MSR_AMD_GLOBAL_STATUS);
}

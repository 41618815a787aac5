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

	if (kp_compat_rdmsr_safe(msr, &v)) {
		*val = 0;
		return -EIO;
	}
	*val = v;
	return 0;
}

NOKPROBE_SYMBOL(kp_real_rdmsr);

static int kp_real_wrmsr(void *ctx, u32 msr, u64 val)
{
	return kp_compat_wrmsr_safe(msr, val) ? -EIO : 0;
}

NOKPROBE_SYMBOL(kp_real_wrmsr);

static void kp_real_lvtpc_nmi(void *ctx)
{
	kp_compat_lvtpc_write(APIC_DM_NMI);
}

NOKPROBE_SYMBOL(kp_real_lvtpc_nmi);

static const struct kp_hw_ops kp_real_ops = {
	.cpuid = kp_real_cpuid,
	.read_msr = kp_real_rdmsr,
	.write_msr = kp_real_wrmsr,
	.lvtpc_nmi = kp_real_lvtpc_nmi,
};

/* The processor this code runs on. */
const struct kp_hw kp_hw_real = {
	.ops = &kp_real_ops,
};

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hw.h - the one seam between kprofile and the processor.
 *
 * Every CPUID, MSR and local-APIC access kprofile makes goes through a
 * struct kp_hw.  The module uses kp_hw_real, which acts on the CPU it runs
 * on; the KUnit suites substitute a fake register file.  Upper layers
 * (sources, profiles, thread profiling) never call these directly: they go
 * through the profile-interface ops in pmu.h.
 *
 * All operations must be callable from NMI context: no locks, no sleeping.
 */
#ifndef _KPROFILE_HW_H
#define _KPROFILE_HW_H

#include <linux/types.h>

/**
 * struct kp_cpuid_regs - the four registers CPUID returns.
 * @eax: EAX.
 * @ebx: EBX.
 * @ecx: ECX.
 * @edx: EDX.
 */
struct kp_cpuid_regs {
	u32 eax, ebx, ecx, edx;
};

/**
 * struct kp_hw_ops - processor access, on the calling CPU.
 * @cpuid:     execute CPUID(@leaf, @subleaf).
 * @read_msr:     read an MSR; 0, or -EIO when it faults (#GP).
 * @write_msr:    write an MSR; 0, or -EIO when it faults (#GP).
 * @lvtpc_nmi: program the local APIC LVTPC entry to deliver an unmasked
 *	       NMI (also the "unmask after PMI" step).
 */
struct kp_hw_ops {
	void (*cpuid)(void *ctx, u32 leaf, u32 subleaf,
		      struct kp_cpuid_regs *regs);
	int (*read_msr)(void *ctx, u32 msr, u64 *val);
	int (*write_msr)(void *ctx, u32 msr, u64 val);
	void (*lvtpc_nmi)(void *ctx);
};

/**
 * struct kp_hw - an instance of the seam.
 * @ops: the operations.
 * @ctx: their private data (NULL for the real processor).
 */
struct kp_hw {
	const struct kp_hw_ops *ops;
	void *ctx;
};

extern const struct kp_hw kp_hw_real;

static inline void kp_cpuid(const struct kp_hw *hw, u32 leaf, u32 subleaf,
			    struct kp_cpuid_regs *regs)
{
	hw->ops->cpuid(hw->ctx, leaf, subleaf, regs);
}

static inline int kp_rdmsr(const struct kp_hw *hw, u32 msr, u64 *val)
{
	return hw->ops->read_msr(hw->ctx, msr, val);
}

static inline int kp_wrmsr(const struct kp_hw *hw, u32 msr, u64 val)
{
	return hw->ops->write_msr(hw->ctx, msr, val);
}

static inline void kp_lvtpc_nmi(const struct kp_hw *hw)
{
	hw->ops->lvtpc_nmi(hw->ctx);
}

#endif /* _KPROFILE_HW_H */

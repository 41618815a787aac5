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
 * All operations but @platform must be callable from NMI context: no
 * locks, no sleeping.  @platform runs once, in process context, before
 * detection pins a CPU (kp_detect()), and may sleep.
 */
#ifndef _KPROFILE_HW_H
#define _KPROFILE_HW_H

#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/string.h>
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

/* kp_platform.features: the boot CPU's feature bits, as the kernel sees them. */
#define KP_FEAT_ARCH_PERFMON	BIT(0)	/* X86_FEATURE_ARCH_PERFMON */
#define KP_FEAT_PERFCTR_CORE	BIT(1)	/* X86_FEATURE_PERFCTR_CORE (AMD) */
#define KP_FEAT_PERFMON_V2	BIT(2)	/* X86_FEATURE_PERFMON_V2 (AMD) */
#define KP_FEAT_HYBRID		BIT(3)	/* X86_FEATURE_HYBRID_CPU */
#define KP_FEAT_TSX_FORCE_ABORT	BIT(4)	/* X86_FEATURE_TSX_FORCE_ABORT */
#define KP_FEAT_RTM_ALWAYS_ABORT BIT(5)	/* X86_FEATURE_RTM_ALWAYS_ABORT */
#define KP_FEAT_X2APIC		BIT(6)	/* the local APIC is in x2APIC mode */

/*
 * The LVTPC in x2APIC mode: MSR 0x800 + (APIC_LVTPC 0x340 >> 4) (Intel SDM
 * Vol. 3A, "x2APIC Register Address Space"; AMD APM Vol. 2, "x2APIC").
 * KP_LVTPC_NMI is APIC_DM_NMI: delivery mode NMI, mask bit 16 clear.
 */
#define KP_MSR_X2APIC_LVTPC	0x00000834
#define KP_LVTPC_NMI		0x00000400

/**
 * struct kp_platform - what the kernel already decided about the PMU:
 *	perf's verdict and the boot CPU's feature bits.  Detection takes
 *	these instead of writing a counter (docs/hardware.md F1).
 * @perf_known:	   perf could answer: perf_get_x86_pmu_capability() does
 *		   not describe hybrid PMUs (it WARNs and says nothing there),
 *		   and where only KVM may call it, an event probe that failed
 *		   for another reason than "no PMU" leaves it unknown
 *		   (kp_compat_perf_caps()).
 * @perf_pmu:	   perf initialised a hardware PMU (its check_hw_exists()
 *		   passed at boot): general-purpose counters > 0.
 * @perf_version:  perf's PMU version (0 on AMD before PerfMonV2; 0 where
 *		   the verdict came from the event probe).
 * @perf_counters: perf's general-purpose counters (1 where the verdict
 *		   came from the event probe: "some").
 * @perf_width:	   their width (0 where the verdict came from the probe).
 * @features:	   KP_FEAT_* bits.
 */
struct kp_platform {
	bool perf_known;
	bool perf_pmu;
	u32 perf_version;
	u32 perf_counters;
	u32 perf_width;
	u32 features;
};

/**
 * struct kp_hw_ops - processor access, on the calling CPU.
 * @cpuid:     execute CPUID(@leaf, @subleaf).
 * @read_msr:     read an MSR; 0, or -EIO when it faults (#GP).
 * @write_msr:    write an MSR; 0, or -EIO when it faults (#GP).
 * @lvtpc_nmi: program the local APIC LVTPC entry to deliver an unmasked
 *	       NMI (also the "unmask after PMI" step) in xAPIC mode: the
 *	       memory-mapped register, or the kernel's APIC driver.  In
 *	       x2APIC mode kprofile writes MSR 0x834 through @write_msr
 *	       instead (kp_lvtpc_unmask()).
 * @platform:  fill a struct kp_platform.  Process context only: it may
 *	       sleep (kp_compat_perf_caps() may create and release a perf
 *	       event, which allocates and takes mutexes).  Any CPU.
 */
struct kp_hw_ops {
	void (*cpuid)(void *ctx, u32 leaf, u32 subleaf,
		      struct kp_cpuid_regs *regs);
	int (*read_msr)(void *ctx, u32 msr, u64 *val);
	int (*write_msr)(void *ctx, u32 msr, u64 val);
	void (*lvtpc_nmi)(void *ctx);

	/* Detection (F1): perf's verdict and the feature bits. */
	void (*platform)(void *ctx, struct kp_platform *p);
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

/**
 * kp_lvtpc_unmask() - program the LVTPC to deliver an unmasked NMI.
 * @hw:       the seam.
 * @features: KP_FEAT_* from detection (struct kp_pmu_desc): with
 *	      KP_FEAT_X2APIC the LVTPC is MSR 0x834 and is written through
 *	      the seam like any MSR (the mode was read once, at detection:
 *	      no APICBASE read per PMI); otherwise the lvtpc_nmi op.
 *
 * NMI context: no locks, no sleeping.
 */
static inline void kp_lvtpc_unmask(const struct kp_hw *hw, u32 features)
{
	if (features & KP_FEAT_X2APIC)
		kp_wrmsr(hw, KP_MSR_X2APIC_LVTPC, KP_LVTPC_NMI);
	else
		kp_lvtpc_nmi(hw);
}

/**
 * kp_platform() - perf's verdict and the feature bits (struct kp_platform).
 * @hw: the seam.
 * @p:  filled in; all zero when the seam has no answer (then detection
 *	relies on CPUID alone).
 *
 * Context: process; may sleep (might_sleep() makes a caller in atomic
 * context visible with CONFIG_DEBUG_ATOMIC_SLEEP).
 */
static inline void kp_platform(const struct kp_hw *hw, struct kp_platform *p)
{
	might_sleep();
	memset(p, 0, sizeof(*p));
	if (hw->ops->platform)
		hw->ops->platform(hw->ctx, p);
}

#endif /* _KPROFILE_HW_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * detect.h - choosing a profile interface, as the HAL does when it
 * initialises Hardware Performance Counters (docs/hardware.md, "Detection").
 */
#ifndef _KPROFILE_DETECT_H
#define _KPROFILE_DETECT_H

#include <linux/types.h>
#include <uapi/linux/kprofile.h>

#include "hw.h"

/* Intel architectural perfmon (Emon). */
#define KP_MSR_IA32_PMC0		0x000000c1
#define KP_MSR_IA32_PERFEVTSEL0		0x00000186
#define KP_MSR_IA32_FIXED_CTR_CTRL	0x0000038d
#define KP_MSR_IA32_PERF_GLOBAL_STATUS	0x0000038e
#define KP_MSR_IA32_PERF_GLOBAL_CTRL	0x0000038f
#define KP_MSR_IA32_PERF_GLOBAL_OVF_CTRL 0x00000390

/* AMD64 legacy counters, and Zen 4 PerfMonV2 global registers. */
#define KP_MSR_K7_EVNTSEL0		0xc0010000
#define KP_MSR_K7_PERFCTR0		0xc0010004
#define KP_MSR_AMD_GLOBAL_STATUS	0xc0000300
#define KP_MSR_AMD_GLOBAL_CTL		0xc0000301
#define KP_MSR_AMD_GLOBAL_STATUS_CLR	0xc0000302

#define KP_AMD64_NUM_COUNTERS		4
#define KP_AMD64_COUNTER_WIDTH		48

/* Event-select bits. */
#define KP_EVTSEL_USR			BIT_ULL(16)
#define KP_EVTSEL_OS			BIT_ULL(17)
#define KP_EVTSEL_INT			BIT_ULL(20)
#define KP_EVTSEL_EN			BIT_ULL(22)

/**
 * struct kp_pmu_desc - what detection found: the chosen interface and the
 *	facts every later layer needs.
 * @iface:	    the profile interface (enum kprofile_interface).
 * @vendor:	    CPUID vendor string, NUL-terminated.
 * @family:	    display family.
 * @model:	    display model.
 * @perfmon_version: Intel CPUID.0AH:EAX[7:0]; 2 on AMD with PerfMonV2.
 * @num_counters:   general-purpose counters per CPU.
 * @counter_width:  their width in bits.
 * @ebx_mask:	    Intel CPUID.0AH:EBX (set bit = event unavailable).
 * @ebx_length:	    Intel CPUID.0AH:EAX[31:24]: meaningful EBX bits.
 * @amd_perfmon_v2: AMD CPUID 0x80000022:EAX[0], global control present.
 * @amd_family:	    AMD/Hygon: enum kprofile_amd_family, which event list
 *		    applies (kprofile_amd_families.h); 0 otherwise.
 * @hypervisor:	    CPUID.1:ECX[31].
 * @evtsel_base:    MSR of event select 0.
 * @counter_base:   MSR of counter 0.
 * @reason:	    why @iface is KPROFILE_INTERFACE_NONE (else empty).
 * @features:	    KP_FEAT_* (hw.h): the kernel's feature bits.
 * @pmu_state:	    enum kprofile_pmu_state at detection: NONE, AVAILABLE,
 *		    or BUSY (a counter was counting for someone else).
 * @state_reason:   why BUSY (else empty).
 * @avoid_mask:	    counters the processor reserves for itself: PMC3 on
 *		    Skylake-era parts with the TSX force-abort microcode
 *		    (F13); never allocated.
 * @avoid_reason:   why (else empty).
 */
struct kp_pmu_desc {
	enum kprofile_interface iface;
	char vendor[KPROFILE_VENDOR_LEN];
	u32 family;
	u32 model;
	u32 perfmon_version;
	u32 num_counters;
	u32 counter_width;
	u32 ebx_mask;
	u32 ebx_length;
	bool amd_perfmon_v2;
	u32 amd_family;
	bool hypervisor;
	u32 evtsel_base;
	u32 counter_base;
	char reason[KPROFILE_REASON_LEN];
	u32 features;
	u32 pmu_state;
	char state_reason[KPROFILE_REASON_LEN];
	u64 avoid_mask;
	char avoid_reason[KPROFILE_REASON_LEN];
};

int kp_detect(const struct kp_hw *hw, struct kp_pmu_desc *desc);

#endif /* _KPROFILE_DETECT_H */

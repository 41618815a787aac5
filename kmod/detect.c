// SPDX-License-Identifier: GPL-2.0
/*
 * detect.c - choose the profile interface from CPUID, perf's verdict and
 * the feature bits, through the kp_hw seam (so KUnit can feed it any
 * processor).
 *
 *   Emon:  GenuineIntel, CPUID leaf 0xA version >= 1 with counters.
 *   Amd64: AuthenticAMD or HygonGenuine, long mode.
 *   None:  anything else, or counters perf found unusable at boot (its
 *	    check_hw_exists(): a hypervisor masks them) or that fault when
 *	    read; the reason says which.
 *
 * Nothing is written (docs/hardware.md F1): perf's own check ran at boot
 * before the NMI watchdog, on counters nobody used; a write/read-back now
 * would race a counter perf is counting on.  A usable PMU that perf holds
 * is reported as busy (pmu_state), not as None.
 */
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/preempt.h>
#include <linux/string.h>

#include "compat.h"
#include "detect.h"
#include "sources.h"

#define KP_CPUID1_ECX_HV	BIT(31)
#define KP_EXT1_EDX_LM		BIT(29)
#define KP_EXT22_EAX_PMV2	BIT(0)

static __printf(2, 3)
void kp_set_none(struct kp_pmu_desc *desc, const char *fmt, ...)
{
	va_list args;

	desc->iface = KPROFILE_INTERFACE_NONE;
	desc->pmu_state = KPROFILE_PMU_NONE;
	va_start(args, fmt);
	vsnprintf(desc->reason, sizeof(desc->reason), fmt, args);
	va_end(args);
}

/*
 * The state of a PMU detection found usable, on the calling CPU, without
 * writing anything: a select with EN set belongs to someone else (perf:
 * the NMI watchdog's cycles event sits on AMD counter 0), and on Intel
 * v2+ an enabled fixed counter is perf's (the watchdog uses fixed counter
 * 1).  perf reserves every counter while it has any hardware event
 * (reserve_pmc_hardware(), all or nothing), so either means busy.
 */
static void kp_detect_busy(const struct kp_hw *hw, struct kp_pmu_desc *desc)
{
	u64 sel, fixed;
	unsigned int i;

	desc->pmu_state = KPROFILE_PMU_AVAILABLE;
	for (i = 0; i < desc->num_counters; i++) {
		if (kp_rdmsr(hw, desc->evtsel_base + i, &sel) ||
		    !(sel & KP_EVTSEL_EN))
			continue;
		desc->pmu_state = KPROFILE_PMU_BUSY;
		scnprintf(desc->state_reason, sizeof(desc->state_reason),
			  "counter %u is counting (select 0x%llx): perf (the NMI watchdog?) holds the PMU; sysctl kernel.nmi_watchdog=0 frees it",
			  i, sel);
		return;
	}
	if (desc->iface == KPROFILE_INTERFACE_EMON &&
	    desc->perfmon_version >= 2 &&
	    !kp_rdmsr(hw, KP_MSR_IA32_FIXED_CTR_CTRL, &fixed) && fixed) {
		desc->pmu_state = KPROFILE_PMU_BUSY;
		scnprintf(desc->state_reason, sizeof(desc->state_reason),
			  "fixed counters are counting (0x%llx): perf (the NMI watchdog?) holds the PMU; sysctl kernel.nmi_watchdog=0 frees it",
			  fixed);
	}
}

/*
 * Perf's verdict and a read of every select and counter (reads only: a
 * #GP means a hypervisor hides them).  No counter is written: one may be
 * counting for perf (docs/hardware.md F1).
 */
static bool kp_check_counters(const struct kp_hw *hw,
			      const struct kp_platform *p,
			      struct kp_pmu_desc *desc)
{
	unsigned int i;
	u64 val;

	if (p->perf_known && !p->perf_pmu && desc->hypervisor) {
		kp_set_none(desc,
			    "PMU not available due to virtualization: perf found no usable counters at boot");
		return false;
	}
	if (p->perf_known && !p->perf_pmu) {
		kp_set_none(desc,
			    "perf found no usable PMU at boot (its hardware check failed: see dmesg)");
		return false;
	}
	for (i = 0; i < desc->num_counters; i++) {
		u32 sel = desc->evtsel_base + i, ctr = desc->counter_base + i;

		if (kp_rdmsr(hw, sel, &val)) {
			kp_set_none(desc,
				    "PMU not available due to virtualization: reading event select MSR 0x%x faults",
				    sel);
			return false;
		}
		if (kp_rdmsr(hw, ctr, &val)) {
			kp_set_none(desc,
				    "PMU not available due to virtualization: reading counter MSR 0x%x faults",
				    ctr);
			return false;
		}
	}
	kp_detect_busy(hw, desc);
	return true;
}

static void kp_detect_intel(const struct kp_hw *hw, u32 max_leaf,
			    const struct kp_platform *p,
			    struct kp_pmu_desc *desc)
{
	struct kp_cpuid_regs r;

	if (max_leaf < 0xa) {
		kp_set_none(desc,
			    "CPUID leaf 0xA is not implemented: no architectural performance monitoring");
		return;
	}
	kp_cpuid(hw, 0xa, 0, &r);
	desc->perfmon_version = r.eax & 0xff;
	desc->num_counters = (r.eax >> 8) & 0xff;
	desc->counter_width = (r.eax >> 16) & 0xff;
	desc->ebx_length = r.eax >> 24;
	desc->ebx_mask = r.ebx;
	if (!desc->perfmon_version) {
		kp_set_none(desc,
			    "CPUID leaf 0xA reports no architectural performance monitoring (version 0)");
		return;
	}
	if (!desc->num_counters || !desc->counter_width) {
		kp_set_none(desc,
			    "CPUID leaf 0xA reports perfmon version %u with %u counters of %u bits",
			    desc->perfmon_version, desc->num_counters,
			    desc->counter_width);
		return;
	}
	desc->num_counters = min_t(u32, desc->num_counters,
				   KPROFILE_MAX_COUNTERS);
	desc->counter_width = min_t(u32, desc->counter_width, 64);
	desc->evtsel_base = KP_MSR_IA32_PERFEVTSEL0;
	desc->counter_base = KP_MSR_IA32_PMC0;
	if ((p->features || p->perf_known) &&
	    !(p->features & KP_FEAT_ARCH_PERFMON)) {
		kp_set_none(desc,
			    "the kernel turned architectural perfmon off (X86_FEATURE_ARCH_PERFMON is clear)");
		return;
	}
	desc->iface = KPROFILE_INTERFACE_EMON;
	if (!kp_check_counters(hw, p, desc))
		return;
	/*
	 * Skylake-era microcode with TSX_FORCE_ABORT uses PMC3 for its TSX
	 * workaround while MSR_TSX_FORCE_ABORT.RTM_FORCE_ABORT is clear, and
	 * perf leaves PMC3 alone then (intel/core.c, F13): so does kprofile.
	 */
	if ((p->features & KP_FEAT_TSX_FORCE_ABORT) &&
	    !(p->features & KP_FEAT_RTM_ALWAYS_ABORT) &&
	    desc->num_counters > 3) {
		desc->avoid_mask = BIT_ULL(3);
		scnprintf(desc->avoid_reason, sizeof(desc->avoid_reason),
			  "counter 3 is left to the TSX force-abort microcode (TSX_FORCE_ABORT without RTM_ALWAYS_ABORT), as perf does");
	}
}

static void kp_detect_amd(const struct kp_hw *hw, const struct kp_platform *p,
			  struct kp_pmu_desc *desc)
{
	struct kp_cpuid_regs r;
	u32 max_ext;

	kp_cpuid(hw, 0x80000000, 0, &r);
	max_ext = r.eax;
	if (max_ext >= 0x80000001)
		kp_cpuid(hw, 0x80000001, 0, &r);
	if (max_ext < 0x80000001 || !(r.edx & KP_EXT1_EDX_LM)) {
		kp_set_none(desc,
			    "%s processor without 64-bit long mode: the Amd64 profile interface needs it",
			    desc->vendor);
		return;
	}
	if (max_ext >= 0x80000022) {
		kp_cpuid(hw, 0x80000022, 0, &r);
		desc->amd_perfmon_v2 = r.eax & KP_EXT22_EAX_PMV2;
	}
	desc->perfmon_version = desc->amd_perfmon_v2 ? 2 : 0;
	desc->amd_family = kp_amd_family_of(desc->vendor, desc->family,
					    desc->model);
	desc->num_counters = KP_AMD64_NUM_COUNTERS;
	desc->counter_width = KP_AMD64_COUNTER_WIDTH;
	desc->evtsel_base = KP_MSR_K7_EVNTSEL0;
	desc->counter_base = KP_MSR_K7_PERFCTR0;
	desc->iface = KPROFILE_INTERFACE_AMD64;
	kp_check_counters(hw, p, desc);
}

/*
 * Everything CPUID and the MSRs say, on the CPU this runs on, given the
 * platform answer @p that kp_detect() took beforehand.  Runs with
 * preemption disabled: every read is of one CPU.
 */
static void kp_detect_this_cpu(const struct kp_hw *hw,
			       const struct kp_platform *p,
			       struct kp_pmu_desc *desc)
{
	struct kp_cpuid_regs r;
	u32 max_leaf, fam;

	desc->features = p->features;
	kp_cpuid(hw, 0, 0, &r);
	max_leaf = r.eax;
	memcpy(desc->vendor, &r.ebx, 4);
	memcpy(desc->vendor + 4, &r.edx, 4);
	memcpy(desc->vendor + 8, &r.ecx, 4);
	desc->vendor[12] = '\0';

	if (max_leaf >= 1) {
		kp_cpuid(hw, 1, 0, &r);
		fam = (r.eax >> 8) & 0xf;
		desc->family = fam;
		desc->model = (r.eax >> 4) & 0xf;
		if (fam == 0xf)
			desc->family += (r.eax >> 20) & 0xff;
		if (fam == 0x6 || fam == 0xf)
			desc->model |= ((r.eax >> 16) & 0xf) << 4;
		desc->hypervisor = r.ecx & KP_CPUID1_ECX_HV;
	}

	if (!strcmp(desc->vendor, "GenuineIntel"))
		kp_detect_intel(hw, max_leaf, p, desc);
	else if (!strcmp(desc->vendor, "AuthenticAMD") ||
		 !strcmp(desc->vendor, "HygonGenuine"))
		kp_detect_amd(hw, p, desc);
	else
		kp_set_none(desc,
			    "vendor \"%s\" has no kprofile profile interface (Emon needs GenuineIntel, Amd64 AuthenticAMD or HygonGenuine)",
			    desc->vendor);
}

/**
 * kp_detect() - choose the profile interface of the processor behind @hw.
 * @hw:   the seam to query (the real processor, or a fake).
 * @desc: filled in; on KPROFILE_INTERFACE_NONE, @desc->reason says why;
 *	  otherwise @desc->pmu_state says whether the counters are free
 *	  now or busy (perf, the NMI watchdog), and @desc->state_reason why.
 *
 * The interface comes from CPUID, perf's verdict and the feature bits
 * (kp_platform()); the counters are only read, never written: one may be
 * counting for perf.  Busy is a state, not an interface: once perf lets
 * go the counters are usable without reloading.
 *
 * perf's verdict is asked first, in the caller's process context: where
 * perf_get_x86_pmu_capability() is not exported, kp_compat_perf_caps()
 * creates and releases a perf event, which allocates and takes mutexes.
 * Only then is the calling CPU pinned (preemption disabled) for the
 * CPUID and MSR reads, which must all come from one CPU.
 *
 * Context: process; may sleep.  Do not call with preemption disabled.
 *
 * Return: 0.  An unusable PMU is not an error: ProfileTime still works.
 */
int kp_detect(const struct kp_hw *hw, struct kp_pmu_desc *desc)
{
	struct kp_platform p;

	memset(desc, 0, sizeof(*desc));
	kp_platform(hw, &p);
	preempt_disable();
	kp_detect_this_cpu(hw, &p, desc);
	preempt_enable();
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kp_detect);

// SPDX-License-Identifier: GPL-2.0
/*
 * detect.c - choose the profile interface from CPUID and a probe of the
 * counters, through the kp_hw seam (so KUnit can feed it any processor).
 *
 *   Emon:  GenuineIntel, CPUID leaf 0xA version >= 1 with counters.
 *   Amd64: AuthenticAMD or HygonGenuine, long mode.
 *   None:  anything else, or counters a hypervisor masks; the reason says
 *	    which.
 *
 * The probe is perf's check_hw_exists(): the event selects must read
 * without a fault, and a value written to counter 0 must read back.
 */
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "compat.h"
#include "detect.h"
#include "sources.h"

#define KP_PROBE_VALUE		0xabcdULL
#define KP_CPUID1_ECX_HV	BIT(31)
#define KP_EXT1_EDX_LM		BIT(29)
#define KP_EXT22_EAX_PMV2	BIT(0)

static void kp_set_none(struct kp_pmu_desc *desc, const char *fmt, ...)
{
	va_list args;

	desc->iface = KPROFILE_INTERFACE_NONE;
	va_start(args, fmt);
	vsnprintf(desc->reason, sizeof(desc->reason), fmt, args);
	va_end(args);
}

/* Perf's check: the selects read, and counter 0 keeps what it is given. */
static bool kp_probe_counters(const struct kp_hw *hw, struct kp_pmu_desc *desc)
{
	u32 ctr = desc->counter_base;
	u64 val, saved;
	unsigned int i;

	for (i = 0; i < desc->num_counters; i++) {
		u32 msr = desc->evtsel_base + i;

		if (kp_rdmsr(hw, msr, &val)) {
			kp_set_none(desc,
				    "PMU not available due to virtualization: reading event select MSR 0x%x faults",
				    msr);
			return false;
		}
	}
	if (kp_rdmsr(hw, ctr, &saved)) {
		kp_set_none(desc,
			    "PMU not available due to virtualization: reading counter MSR 0x%x faults",
			    ctr);
		return false;
	}
	if (kp_wrmsr(hw, ctr, KP_PROBE_VALUE)) {
		kp_set_none(desc,
			    "PMU not available due to virtualization: writing counter MSR 0x%x faults",
			    ctr);
		return false;
	}
	if (kp_rdmsr(hw, ctr, &val) || val != KP_PROBE_VALUE) {
		kp_wrmsr(hw, ctr, saved);
		kp_set_none(desc,
			    "PMU not available due to virtualization: counter MSR 0x%x does not keep a written value",
			    ctr);
		return false;
	}
	kp_wrmsr(hw, ctr, saved);
	return true;
}

static void kp_detect_intel(const struct kp_hw *hw, u32 max_leaf,
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
	if (kp_probe_counters(hw, desc))
		desc->iface = KPROFILE_INTERFACE_EMON;
}

static void kp_detect_amd(const struct kp_hw *hw, struct kp_pmu_desc *desc)
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
	if (kp_probe_counters(hw, desc))
		desc->iface = KPROFILE_INTERFACE_AMD64;
}

/**
 * kp_detect() - choose the profile interface of the processor behind @hw.
 * @hw:   the seam to query (the boot CPU, or a fake).
 * @desc: filled in; on KPROFILE_INTERFACE_NONE, @desc->reason says why.
 *
 * Runs on one CPU with preemption disabled when @hw is the real processor
 * (the probe writes counter 0 and puts it back).
 *
 * Return: 0.  An unusable PMU is not an error: ProfileTime still works.
 */
int kp_detect(const struct kp_hw *hw, struct kp_pmu_desc *desc)
{
	struct kp_cpuid_regs r;
	u32 max_leaf, fam;

	memset(desc, 0, sizeof(*desc));
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
		kp_detect_intel(hw, max_leaf, desc);
	else if (!strcmp(desc->vendor, "AuthenticAMD") ||
		 !strcmp(desc->vendor, "HygonGenuine"))
		kp_detect_amd(hw, desc);
	else
		kp_set_none(desc,
			    "vendor \"%s\" has no kprofile profile interface (Emon needs GenuineIntel, Amd64 AuthenticAMD or HygonGenuine)",
			    desc->vendor);
	return 0;
}
EXPORT_SYMBOL_IF_KP_TEST(kp_detect);

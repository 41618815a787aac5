// SPDX-License-Identifier: GPL-2.0
/*
 * detect_test.c - KUnit suite "kprofile_detect": choosing the profile
 * interface (docs/hardware.md, "Detection") from fake CPUID and MSR
 * inputs.
 *
 * Every case checks the whole description a user sees through the info
 * ioctl, and that the reason is non-empty exactly when the interface is
 * None.  kp_detect() is called from process context, as module init
 * calls it: it asks the platform op (perf's verdict, which may sleep)
 * first and only then pins a CPU for the CPUID and MSR reads; the fake
 * counts platform calls made in atomic context, and every case checks
 * there were none.  Detection never writes a register (docs/hardware.md
 * F1): perf's verdict and the feature bits come from the fake's platform
 * op, and a counter someone else is counting on makes the PMU busy, not
 * None.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/kconfig.h>
#include <linux/string.h>

#include "../kmod/detect.h"
#include "fake_hw.h"

#define PMC0		KP_FAKE_MSR_IA32_PMC0
#define PERFEVTSEL0	KP_FAKE_MSR_IA32_PERFEVTSEL0
#define K7_EVNTSEL0	KP_FAKE_MSR_K7_EVNTSEL0
#define K7_PERFCTR0	KP_FAKE_MSR_K7_PERFCTR0

/* As module init does (kmod/main.c): process context, preemptible. */
static void detect(struct kunit *test, struct kp_fake *fake,
		   struct kp_pmu_desc *desc)
{
	unsigned int atomic;

	KUNIT_EXPECT_EQ(test, kp_detect(kp_fake_hw(fake), desc), 0);
	kp_fake_platform_calls(fake, &atomic);
	KUNIT_EXPECT_EQ_MSG(test, atomic, 0U,
			    "the platform op (it may sleep) ran in atomic context");
}

/* The reason is there exactly when the interface is None. */
static void expect_reason_iff_none(struct kunit *test,
				   const struct kp_pmu_desc *d)
{
	KUNIT_EXPECT_EQ_MSG(test, d->iface == KPROFILE_INTERFACE_NONE,
			    d->reason[0] != '\0', "iface %d reason \"%s\"",
			    d->iface, d->reason);
	KUNIT_EXPECT_LT(test, strnlen(d->reason, sizeof(d->reason)),
			sizeof(d->reason));
}

static void expect_none_because(struct kunit *test,
				const struct kp_pmu_desc *d, const char *why)
{
	KUNIT_EXPECT_EQ(test, d->iface, KPROFILE_INTERFACE_NONE);
	expect_reason_iff_none(test, d);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(d->reason, why),
				  "reason \"%s\" should mention \"%s\"",
				  d->reason, why);
}

static void expect_emon(struct kunit *test, const struct kp_pmu_desc *d,
			u32 version, u32 counters, u32 width, u32 ebx_len,
			u32 ebx_mask)
{
	KUNIT_EXPECT_EQ(test, d->iface, KPROFILE_INTERFACE_EMON);
	expect_reason_iff_none(test, d);
	KUNIT_EXPECT_STREQ(test, d->vendor, "GenuineIntel");
	KUNIT_EXPECT_EQ(test, d->family, 6U);
	KUNIT_EXPECT_EQ(test, d->model, 0x5eU);
	KUNIT_EXPECT_EQ(test, d->perfmon_version, version);
	KUNIT_EXPECT_EQ(test, d->num_counters, counters);
	KUNIT_EXPECT_EQ(test, d->counter_width, width);
	KUNIT_EXPECT_EQ(test, d->ebx_length, ebx_len);
	KUNIT_EXPECT_EQ(test, d->ebx_mask, ebx_mask);
	KUNIT_EXPECT_EQ(test, d->evtsel_base, 0x186U);
	KUNIT_EXPECT_EQ(test, d->counter_base, 0xc1U);
	KUNIT_EXPECT_FALSE(test, d->amd_perfmon_v2);
	KUNIT_EXPECT_FALSE(test, d->hypervisor);
}

static void expect_amd64(struct kunit *test, const struct kp_pmu_desc *d,
			 const char *vendor, u32 family, bool perfmon_v2)
{
	KUNIT_EXPECT_EQ(test, d->iface, KPROFILE_INTERFACE_AMD64);
	expect_reason_iff_none(test, d);
	KUNIT_EXPECT_STREQ(test, d->vendor, vendor);
	KUNIT_EXPECT_EQ(test, d->family, family);
	KUNIT_EXPECT_EQ(test, d->num_counters, 4U);
	KUNIT_EXPECT_EQ(test, d->counter_width, 48U);
	KUNIT_EXPECT_EQ(test, d->evtsel_base, 0xc0010000U);
	KUNIT_EXPECT_EQ(test, d->counter_base, 0xc0010004U);
	KUNIT_EXPECT_EQ(test, d->amd_perfmon_v2, perfmon_v2);
	KUNIT_EXPECT_EQ(test, d->perfmon_version, perfmon_v2 ? 2U : 0U);
	KUNIT_EXPECT_EQ(test, d->ebx_mask, 0U);
	KUNIT_EXPECT_EQ(test, d->ebx_length, 0U);
}

static void expect_no_msr_writes(struct kunit *test, struct kp_fake *fake)
{
	KUNIT_EXPECT_EQ(test, kp_fake_log_len(fake), 0U);
}

/* --- Intel ------------------------------------------------------------- */

static void detect_intel_v1_two_40bit(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_desc d;

	kp_fake_intel(fake, 1, 2, 40, 7, 0);
	detect(test, fake, &d);
	expect_emon(test, &d, 1, 2, 40, 7, 0);
}

struct intel_case {
	u32 version, counters, width;
	const char *desc;
};

static const struct intel_case intel_cases[] = {
	{ 2, 4, 48, "v2, 4 counters of 48 bits" },
	{ 2, 8, 48, "v2, 8 counters of 48 bits" },
	{ 4, 4, 48, "v4, 4 counters of 48 bits" },
	{ 4, 6, 48, "v4, 6 counters of 48 bits" },
	{ 4, 8, 48, "v4, 8 counters of 48 bits" },
};

static void intel_case_desc(const struct intel_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(intel, intel_cases, intel_case_desc);

static void detect_intel_versions(struct kunit *test)
{
	const struct intel_case *c = test->param_value;
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_desc d;

	kp_fake_intel(fake, c->version, c->counters, c->width, 7, 0);
	detect(test, fake, &d);
	expect_emon(test, &d, c->version, c->counters, c->width, 7, 0);
}

static void detect_intel_ebx_bits(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	u32 mask = BIT(2) | BIT(4) | BIT(6);
	struct kp_pmu_desc d;

	kp_fake_intel(fake, 2, 4, 48, 7, mask);
	detect(test, fake, &d);
	/* Unavailable events do not make the interface unusable. */
	expect_emon(test, &d, 2, 4, 48, 7, mask);
}

static void detect_intel_writes_nothing(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	/* A running count (40 bits): detection must leave it alone. */
	u64 orig = 0xfffffedcbaULL;
	struct kp_pmu_desc d;
	unsigned int cpu;

	kp_fake_intel(fake, 1, 2, 40, 7, 0);
	kp_fake_msr_set(fake, KP_FAKE_ALL_CPUS, PMC0, orig);
	detect(test, fake, &d);
	KUNIT_EXPECT_EQ(test, d.iface, KPROFILE_INTERFACE_EMON);
	KUNIT_EXPECT_EQ(test, d.pmu_state, (u32)KPROFILE_PMU_AVAILABLE);
	expect_no_msr_writes(test, fake);
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, cpu, PMC0), orig);
}

static void detect_intel_max_leaf_below_0xa(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_desc d;

	kp_fake_intel(fake, 2, 4, 48, 7, 0);
	kp_fake_max_leaf(fake, 0x9);
	detect(test, fake, &d);
	expect_none_because(test, &d, "0xA");
	KUNIT_EXPECT_STREQ(test, d.vendor, "GenuineIntel");
	expect_no_msr_writes(test, fake);
}

static void detect_intel_version0(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_desc d;

	/* QEMU's TCG Skylake: leaf 0xA exists and is all zeros. */
	kp_fake_intel(fake, 0, 0, 0, 0, 0);
	detect(test, fake, &d);
	expect_none_because(test, &d, "version 0");
	expect_no_msr_writes(test, fake);
}

static void detect_intel_no_counters(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_desc d;

	kp_fake_intel(fake, 2, 0, 48, 7, 0);
	detect(test, fake, &d);
	expect_none_because(test, &d, "0 counters");
	expect_no_msr_writes(test, fake);
}

/* --- AMD and Hygon ----------------------------------------------------- */

struct amd_case {
	u32 family;
	bool perfmon_v2;
	const char *desc;
};

static const struct amd_case amd_cases[] = {
	{ 0x17, false, "family 0x17 (Zen 1/2)" },
	{ 0x19, false, "family 0x19 (Zen 3)" },
	{ 0x19, true, "family 0x19 with PerfMonV2 (Zen 4)" },
};

static void amd_case_desc(const struct amd_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(amd, amd_cases, amd_case_desc);

static void detect_amd_families(struct kunit *test)
{
	const struct amd_case *c = test->param_value;
	struct kp_fake *fake = kp_fake_new(test);
	u64 orig = 0x0000fedcba987654ULL;
	struct kp_pmu_desc d;

	kp_fake_amd(fake, c->family, c->perfmon_v2);
	kp_fake_msr_set(fake, KP_FAKE_ALL_CPUS, K7_PERFCTR0, orig);
	detect(test, fake, &d);
	expect_amd64(test, &d, "AuthenticAMD", c->family, c->perfmon_v2);
	expect_no_msr_writes(test, fake);
}

static void detect_hygon(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_desc d;

	kp_fake_amd(fake, 0x18, false);
	kp_fake_vendor(fake, "HygonGenuine");
	detect(test, fake, &d);
	expect_amd64(test, &d, "HygonGenuine", 0x18, false);
}

static void detect_amd_not_64bit(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_desc d;

	kp_fake_amd(fake, 0x17, false);
	kp_fake_cpuid_find(fake, 0x80000001, 0)->edx &= ~BIT(29);
	detect(test, fake, &d);
	expect_none_because(test, &d, "64-bit");
	KUNIT_EXPECT_STREQ(test, d.vendor, "AuthenticAMD");
	expect_no_msr_writes(test, fake);
}

/* --- hypervisors and faults -------------------------------------------- */

/* perf's check_hw_exists() failed at boot: a hypervisor masks the PMU. */
static void detect_hypervisor_perf_found_no_pmu(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_desc d;

	kp_fake_intel(fake, 2, 4, 48, 7, 0);
	kp_fake_hypervisor(fake, true);
	kp_fake_perf_no_pmu(fake);
	detect(test, fake, &d);
	expect_none_because(test, &d, "virtualization");
	KUNIT_EXPECT_TRUE(test, d.hypervisor);
	expect_no_msr_writes(test, fake);
}

static void detect_hypervisor_amd_perf_found_no_pmu(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_desc d;

	kp_fake_amd(fake, 0x19, false);
	kp_fake_hypervisor(fake, true);
	kp_fake_perf_no_pmu(fake);
	detect(test, fake, &d);
	expect_none_because(test, &d, "virtualization");
	KUNIT_EXPECT_TRUE(test, d.hypervisor);
}

/* Bare metal, perf's own check failed: say so, and where to look. */
static void detect_perf_found_no_pmu(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_desc d;

	kp_fake_intel(fake, 4, 8, 48, 7, 0);
	kp_fake_perf_no_pmu(fake);
	detect(test, fake, &d);
	expect_none_because(test, &d, "perf found no usable PMU");
}

/* The kernel turned architectural perfmon off: believe it. */
static void detect_arch_perfmon_off(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_desc d;

	kp_fake_intel(fake, 4, 8, 48, 7, 0);
	kp_fake_feature(fake, KP_FEAT_ARCH_PERFMON, false);
	detect(test, fake, &d);
	expect_none_because(test, &d, "X86_FEATURE_ARCH_PERFMON");
}

/*
 * F1: the NMI watchdog's cycles event counts on AMD counter 0 at load (the
 * bare-metal default).  The counter here really counts: cycles pass on
 * every CPU, and more pass right after any write to it, so the old
 * write/read-back probe read back more than it wrote and said "None: PMU
 * not available due to virtualization".  Detection must say Amd64, busy,
 * why, and write nothing.
 */
static void detect_amd_watchdog_busy_not_none(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	unsigned int cpu, n = 0;
	struct kp_pmu_desc d;
	u64 before;

	kp_fake_amd(fake, 0x17, false);
	kp_fake_perf_watchdog(fake);
	for_each_online_cpu(cpu) {
		before = kp_fake_msr_get(fake, cpu, K7_PERFCTR0);
		kp_fake_tick(fake, cpu, 5000);
		KUNIT_ASSERT_EQ_MSG(test, kp_fake_msr_get(fake, cpu, K7_PERFCTR0),
				    before + 5000,
				    "the watchdog's counter should count on CPU %u",
				    cpu);
		if (n++ < KP_FAKE_MAX_INJECT)
			kp_fake_inject_after_write(fake, cpu, K7_PERFCTR0,
						   K7_PERFCTR0, 1000);
	}
	detect(test, fake, &d);
	expect_amd64(test, &d, "AuthenticAMD", 0x17, false);
	KUNIT_EXPECT_EQ(test, d.pmu_state, (u32)KPROFILE_PMU_BUSY);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(d.state_reason, "nmi_watchdog"),
				  "state reason \"%s\"", d.state_reason);
	expect_no_msr_writes(test, fake);
}

/*
 * Detection asks perf's verdict (the platform op) before it pins a CPU:
 * where perf_get_x86_pmu_capability() is not exported the real op creates
 * and releases a perf event (GFP_KERNEL, mutexes), which must not happen
 * with preemption disabled.  Module init used to call kp_detect() inside
 * preempt_disable(); that sequence fails here.  Observable only with
 * CONFIG_PREEMPT_COUNT (the debug kernel, which also has
 * DEBUG_ATOMIC_SLEEP for the might_sleep() in kp_platform()).
 */
static void detect_platform_asked_preemptible(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_desc d;
	unsigned int atomic;

	if (!IS_ENABLED(CONFIG_PREEMPT_COUNT))
		kunit_skip(test,
			   "no CONFIG_PREEMPT_COUNT: preemption is not observable (the debug kernel runs this)");
	kp_fake_amd(fake, 0x19, true);
	KUNIT_EXPECT_EQ(test, kp_detect(kp_fake_hw(fake), &d), 0);
	KUNIT_EXPECT_EQ(test, kp_fake_platform_calls(fake, &atomic), 1U);
	KUNIT_EXPECT_EQ_MSG(test, atomic, 0U,
			    "perf's verdict was asked with preemption disabled");
	expect_amd64(test, &d, "AuthenticAMD", 0x19, true);
}

/* Intel: the watchdog holds fixed counter 1, and so every counter. */
static void detect_intel_watchdog_busy(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_desc d;

	kp_fake_intel(fake, 4, 4, 48, 7, 0);
	kp_fake_perf_watchdog(fake);
	detect(test, fake, &d);
	KUNIT_EXPECT_EQ(test, d.iface, KPROFILE_INTERFACE_EMON);
	KUNIT_EXPECT_EQ(test, d.pmu_state, (u32)KPROFILE_PMU_BUSY);
	KUNIT_EXPECT_NOT_NULL(test, strstr(d.state_reason, "fixed counters"));
	expect_no_msr_writes(test, fake);
}

struct fault_case {
	bool amd;
	u32 msr;
	unsigned int flags;
	const char *desc;
};

static const struct fault_case fault_cases[] = {
	{ false, PERFEVTSEL0, KP_FAKE_FAULT_READ, "Intel event select 0 read #GP" },
	{ false, PERFEVTSEL0 + 3, KP_FAKE_FAULT_READ, "Intel event select 3 read #GP" },
	{ false, PMC0, KP_FAKE_FAULT_READ | KP_FAKE_LEGACY32, "Intel counter 0 read #GP" },
	{ true, K7_EVNTSEL0 + 1, KP_FAKE_FAULT_READ, "AMD event select 1 read #GP" },
	{ true, K7_PERFCTR0, KP_FAKE_FAULT_READ, "AMD counter 0 read #GP" },
	{ true, K7_PERFCTR0 + 3, KP_FAKE_FAULT_READ, "AMD counter 3 read #GP" },
};

static void fault_case_desc(const struct fault_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(fault, fault_cases, fault_case_desc);

static void detect_msr_faults(struct kunit *test)
{
	const struct fault_case *c = test->param_value;
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_desc d;
	char msr[16];

	if (c->amd)
		kp_fake_amd(fake, 0x17, false);
	else
		kp_fake_intel(fake, 2, 4, 48, 7, 0);
	kp_fake_msr_set_flags(fake, c->msr, c->flags);
	detect(test, fake, &d);
	expect_none_because(test, &d, "virtualization");
	/* The reason names the register that faulted. */
	snprintf(msr, sizeof(msr), "0x%x", c->msr);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(d.reason, msr),
				  "reason \"%s\" should name MSR %s",
				  d.reason, msr);
}

/* --- other vendors ----------------------------------------------------- */

static void detect_unknown_vendor(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_desc d;

	/* Counters that work do not matter: the vendor decides. */
	kp_fake_intel(fake, 2, 4, 48, 7, 0);
	kp_fake_vendor(fake, "CentaurHauls");
	detect(test, fake, &d);
	expect_none_because(test, &d, "CentaurHauls");
	KUNIT_EXPECT_STREQ(test, d.vendor, "CentaurHauls");
	expect_no_msr_writes(test, fake);
}

static void detect_empty_cpuid(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_desc d;

	/* Nothing at all: every leaf reads as zeros. */
	detect(test, fake, &d);
	KUNIT_EXPECT_EQ(test, d.iface, KPROFILE_INTERFACE_NONE);
	expect_reason_iff_none(test, &d);
	KUNIT_EXPECT_STREQ(test, d.vendor, "");
	expect_no_msr_writes(test, fake);
}

static struct kunit_case kp_detect_cases[] = {
	KUNIT_CASE(detect_intel_v1_two_40bit),
	KUNIT_CASE_PARAM(detect_intel_versions, intel_gen_params),
	KUNIT_CASE(detect_intel_ebx_bits),
	KUNIT_CASE(detect_intel_writes_nothing),
	KUNIT_CASE(detect_intel_max_leaf_below_0xa),
	KUNIT_CASE(detect_intel_version0),
	KUNIT_CASE(detect_intel_no_counters),
	KUNIT_CASE_PARAM(detect_amd_families, amd_gen_params),
	KUNIT_CASE(detect_hygon),
	KUNIT_CASE(detect_amd_not_64bit),
	KUNIT_CASE(detect_hypervisor_perf_found_no_pmu),
	KUNIT_CASE(detect_hypervisor_amd_perf_found_no_pmu),
	KUNIT_CASE(detect_perf_found_no_pmu),
	KUNIT_CASE(detect_arch_perfmon_off),
	KUNIT_CASE(detect_amd_watchdog_busy_not_none),
	KUNIT_CASE(detect_platform_asked_preemptible),
	KUNIT_CASE(detect_intel_watchdog_busy),
	KUNIT_CASE_PARAM(detect_msr_faults, fault_gen_params),
	KUNIT_CASE(detect_unknown_vendor),
	KUNIT_CASE(detect_empty_cpuid),
	{}
};

static struct kunit_suite kp_detect_suite = {
	.name = "kprofile_detect",
	.test_cases = kp_detect_cases,
};

kunit_test_suite(kp_detect_suite);

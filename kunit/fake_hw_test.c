// SPDX-License-Identifier: GPL-2.0
/*
 * fake_hw_test.c - KUnit suite "kprofile_fake_hw": the fake processor
 * itself.  The hardware-layer suites trust it to behave like the SDM and
 * APM say the registers do; a fake that got a rule wrong would hide the
 * same mistake in the code under test, so its rules are checked here.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/preempt.h>
#include <linux/smp.h>

#include "fake_hw.h"

#define PMC0		KP_FAKE_MSR_IA32_PMC0
#define EVTSEL0		KP_FAKE_MSR_IA32_PERFEVTSEL0
#define GSTATUS		KP_FAKE_MSR_IA32_GLOBAL_STATUS
#define GOVF		KP_FAKE_MSR_IA32_GLOBAL_OVF_CTRL
#define AMD_CTR0	KP_FAKE_MSR_K7_PERFCTR0
#define AMD_STATUS	KP_FAKE_MSR_AMD_GLOBAL_STATUS
#define AMD_STATUS_CLR	KP_FAKE_MSR_AMD_GLOBAL_STATUS_CLR

/* Run an op on this CPU with preemption off, as the code under test is. */
static int rd(struct kp_fake *fake, u32 msr, u64 *val)
{
	int ret;

	preempt_disable();
	ret = kp_rdmsr(kp_fake_hw(fake), msr, val);
	preempt_enable();
	return ret;
}

static int wr(struct kp_fake *fake, u32 msr, u64 val)
{
	int ret;

	preempt_disable();
	ret = kp_wrmsr(kp_fake_hw(fake), msr, val);
	preempt_enable();
	return ret;
}

static void fake_cpuid_table(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	const struct kp_hw *hw = kp_fake_hw(fake);
	struct kp_cpuid_regs r;

	kp_fake_intel(fake, 4, 8, 48, 7, BIT(3));
	kp_cpuid(hw, 0, 0, &r);
	KUNIT_EXPECT_EQ(test, r.eax, 0x16U);
	KUNIT_EXPECT_EQ(test, r.ebx, 0x756e6547U);	/* "Genu" */
	KUNIT_EXPECT_EQ(test, r.edx, 0x49656e69U);	/* "ineI" */
	KUNIT_EXPECT_EQ(test, r.ecx, 0x6c65746eU);	/* "ntel" */
	/* Leaf 0xA: version 4, 8 counters, 48 bits, 7 EBX bits. */
	kp_cpuid(hw, 0xa, 5, &r);
	KUNIT_EXPECT_EQ(test, r.eax, 0x07300804U);
	KUNIT_EXPECT_EQ(test, r.ebx, (u32)BIT(3));
	/* An exact subleaf wins over the any-subleaf entry. */
	kp_fake_cpuid_set(fake, 0xa, 1, 1, 2, 3, 4);
	kp_cpuid(hw, 0xa, 1, &r);
	KUNIT_EXPECT_EQ(test, r.ebx, 2U);
	kp_cpuid(hw, 0xa, 0, &r);
	KUNIT_EXPECT_EQ(test, r.ebx, (u32)BIT(3));
	/* A leaf not in the table reads as zeros. */
	kp_cpuid(hw, 0x4000000, 0, &r);
	KUNIT_EXPECT_EQ(test, r.eax | r.ebx | r.ecx | r.edx, 0U);
}

static void fake_undefined_msr_faults(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	u64 val = 1;

	KUNIT_EXPECT_EQ(test, rd(fake, PMC0, &val), -EIO);
	KUNIT_EXPECT_EQ(test, val, 0ULL);
	KUNIT_EXPECT_EQ(test, wr(fake, PMC0, 5), -EIO);
	KUNIT_ASSERT_EQ(test, kp_fake_log_len(fake), 1U);
	KUNIT_EXPECT_EQ(test, kp_fake_log_at(fake, 0)->ret, -EIO);
	KUNIT_EXPECT_EQ(test, kp_fake_log_at(fake, 0)->val, 5ULL);
}

static void fake_intel_legacy_counter_writes(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	u64 val;

	kp_fake_intel(fake, 2, 4, 48, 7, 0);
	/* -10000: bit 31 set, so bits 32..47 become ones. */
	KUNIT_EXPECT_EQ(test, wr(fake, PMC0, (u64)-10000), 0);
	KUNIT_EXPECT_EQ(test, rd(fake, PMC0, &val), 0);
	KUNIT_EXPECT_EQ(test, val, 0xffffffffd8f0ULL);
	/* Only the low 32 bits of a write count. */
	KUNIT_EXPECT_EQ(test, wr(fake, PMC0, 0x123456789ULL), 0);
	KUNIT_EXPECT_EQ(test, rd(fake, PMC0, &val), 0);
	KUNIT_EXPECT_EQ(test, val, 0x23456789ULL);
	KUNIT_EXPECT_EQ(test, wr(fake, PMC0, 0x80000000ULL), 0);
	KUNIT_EXPECT_EQ(test, rd(fake, PMC0, &val), 0);
	KUNIT_EXPECT_EQ(test, val, 0xffff80000000ULL);
	/* The log keeps what was written, not what was stored. */
	KUNIT_EXPECT_EQ(test, kp_fake_log_at(fake, 1)->val, 0x123456789ULL);
	/* Event selects keep what is written; bits 63:32 are reserved. */
	KUNIT_EXPECT_EQ(test, wr(fake, EVTSEL0, 0x4300c5ULL), 0);
	KUNIT_EXPECT_EQ(test, wr(fake, EVTSEL0, 0x1004300c5ULL), -EIO);
	KUNIT_EXPECT_EQ(test, rd(fake, EVTSEL0, &val), 0);
	KUNIT_EXPECT_EQ(test, val, 0x4300c5ULL);
}

static void fake_amd_counter_width(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	u64 val;

	kp_fake_amd(fake, 0x19, true);
	KUNIT_EXPECT_EQ(test, wr(fake, AMD_CTR0, (u64)-10000), 0);
	KUNIT_EXPECT_EQ(test, rd(fake, AMD_CTR0, &val), 0);
	KUNIT_EXPECT_EQ(test, val, 0xffffffffd8f0ULL);
	KUNIT_EXPECT_EQ(test, wr(fake, AMD_CTR0, 0x123456789aULL), 0);
	KUNIT_EXPECT_EQ(test, rd(fake, AMD_CTR0, &val), 0);
	KUNIT_EXPECT_EQ(test, val, 0x123456789aULL);
}

static void fake_flags(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	const struct kp_fake_write *last;
	u64 val;

	kp_fake_intel(fake, 1, 2, 40, 7, 0);
	kp_fake_msr_set(fake, KP_FAKE_ALL_CPUS, PMC0, 0x77);
	kp_fake_msr_set_flags(fake, PMC0, KP_FAKE_IGNORE_WRITES);
	KUNIT_EXPECT_EQ(test, wr(fake, PMC0, 0xabcd), 0);
	KUNIT_EXPECT_EQ(test, rd(fake, PMC0, &val), 0);
	KUNIT_EXPECT_EQ(test, val, 0x77ULL);

	kp_fake_msr_set_flags(fake, PMC0, KP_FAKE_FAULT_WRITE);
	KUNIT_EXPECT_EQ(test, wr(fake, PMC0, 0xabcd), -EIO);
	KUNIT_EXPECT_EQ(test, rd(fake, PMC0, &val), 0);
	KUNIT_EXPECT_EQ(test, val, 0x77ULL);

	kp_fake_msr_set_flags(fake, PMC0, KP_FAKE_FAULT_READ);
	KUNIT_EXPECT_EQ(test, rd(fake, PMC0, &val), -EIO);
	KUNIT_EXPECT_EQ(test, val, 0ULL);
	/* Faulting reads do not stop writes. */
	KUNIT_EXPECT_EQ(test, wr(fake, PMC0, 0x99), 0);
	last = kp_fake_log_at(fake, kp_fake_log_len(fake) - 1);
	KUNIT_ASSERT_NOT_NULL(test, last);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, last->cpu, PMC0), 0x99ULL);
}

static void fake_overflow_status_intel(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	u64 val;

	kp_fake_intel(fake, 2, 4, 48, 7, 0);
	kp_fake_msr_set(fake, 0, EVTSEL0 + 2, 0x4300c5);
	kp_fake_msr_set(fake, 0, PMC0 + 2, 0xfffffffffff0ULL);
	KUNIT_EXPECT_FALSE(test, kp_fake_count(fake, 0, PMC0 + 2, 0xf));
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, 0, GSTATUS), 0ULL);
	KUNIT_EXPECT_TRUE(test, kp_fake_count(fake, 0, PMC0 + 2, 5));
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, 0, PMC0 + 2), 4ULL);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, 0, GSTATUS), BIT_ULL(2));
	/* Other CPUs saw nothing. */
	if (nr_cpu_ids > 1)
		KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, 1, GSTATUS), 0ULL);

	/* Status is read-only; acknowledgment goes through OVF_CTRL. */
	kp_fake_msr_set(fake, KP_FAKE_ALL_CPUS, GSTATUS, BIT_ULL(2) | BIT(0));
	KUNIT_EXPECT_EQ(test, wr(fake, GSTATUS, 0), -EIO);
	KUNIT_EXPECT_EQ(test, wr(fake, GOVF, BIT_ULL(2)), 0);
	KUNIT_EXPECT_EQ(test, rd(fake, GOVF, &val), 0);
	KUNIT_EXPECT_EQ(test, val, 0ULL);
	KUNIT_EXPECT_EQ(test, rd(fake, GSTATUS, &val), 0);
	KUNIT_EXPECT_EQ(test, val, (u64)BIT(0));
}

static void fake_overflow_status_amd(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	u64 val;

	kp_fake_amd(fake, 0x19, true);
	kp_fake_msr_set(fake, 0, KP_FAKE_MSR_K7_EVNTSEL0 + 1, 0x4300c0);
	kp_fake_msr_set(fake, 0, KP_FAKE_MSR_AMD_GLOBAL_CTL, 0x2);
	kp_fake_msr_set(fake, KP_FAKE_ALL_CPUS, AMD_CTR0 + 1,
			0xffffffffff00ULL);
	KUNIT_EXPECT_TRUE(test, kp_fake_count(fake, 0, AMD_CTR0 + 1, 0x100));
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, 0, AMD_CTR0 + 1), 0ULL);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, 0, AMD_STATUS),
			BIT_ULL(1));
	kp_fake_msr_set(fake, KP_FAKE_ALL_CPUS, AMD_STATUS, BIT_ULL(1));
	KUNIT_EXPECT_EQ(test, wr(fake, AMD_STATUS_CLR, BIT_ULL(1)), 0);
	KUNIT_EXPECT_EQ(test, rd(fake, AMD_STATUS, &val), 0);
	KUNIT_EXPECT_EQ(test, val, 0ULL);
	/* Without PerfMonV2 there are no global registers. */
	fake = kp_fake_new(test);
	kp_fake_amd(fake, 0x17, false);
	KUNIT_EXPECT_EQ(test, rd(fake, AMD_STATUS, &val), -EIO);
	KUNIT_EXPECT_FALSE(test, kp_fake_msr_defined(fake, AMD_STATUS_CLR));
}

static void fake_ipi_write(void *info)
{
	struct kp_fake *fake = info;
	const struct kp_hw *hw = kp_fake_hw(fake);

	kp_wrmsr(hw, EVTSEL0, 0x4300c5);
	kp_wrmsr(hw, PMC0, 0x100 + smp_processor_id());
	kp_lvtpc_nmi(hw);
}

static void fake_per_cpu_file_and_log(struct kunit *test)
{
	static const struct kp_fake_msrval seq[] = {
		{ EVTSEL0, 0x4300c5 }, { PMC0, 0x100 },
	};
	static const struct kp_fake_msrval first[] = {
		{ EVTSEL0, 0x4300c5 },
	};
	struct kp_fake *fake = kp_fake_new(test);
	unsigned int cpu, n = 0;

	kp_fake_intel(fake, 2, 4, 48, 7, 0);
	on_each_cpu(fake_ipi_write, fake, 1);
	for_each_online_cpu(cpu) {
		KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, cpu, PMC0),
				0x100ULL + cpu);
		KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, cpu, EVTSEL0),
				0x4300c5ULL);
		KUNIT_EXPECT_EQ(test, kp_fake_lvtpc_count(fake, cpu), 1U);
		KUNIT_EXPECT_EQ(test, kp_fake_log_count_msr(fake, cpu, PMC0),
				1U);
		n++;
	}
	KUNIT_EXPECT_EQ(test, kp_fake_log_len(fake), 2 * n);
	KUNIT_EXPECT_EQ(test, kp_fake_log_count_msr(fake, KP_FAKE_ALL_CPUS,
						    PMC0), n);
	/* CPU 0 wrote 0x100; any other CPU wrote its own number. */
	KUNIT_EXPECT_TRUE(test, kp_fake_writes_match(test, fake, 0, seq,
						     ARRAY_SIZE(seq)));
	kunit_info(test, "two mismatches follow, on purpose\n");
	KUNIT_EXPECT_FALSE(test, kp_fake_writes_match(test, fake, 0, first,
						      ARRAY_SIZE(first)));
	KUNIT_EXPECT_EQ(test, kp_fake_writes_match(test, fake,
						   KP_FAKE_EACH_CPU, seq,
						   ARRAY_SIZE(seq)), n == 1);

	kp_fake_log_clear(fake);
	KUNIT_EXPECT_EQ(test, kp_fake_log_len(fake), 0U);
	KUNIT_EXPECT_EQ(test, kp_fake_lvtpc_count(fake, 0), 0U);
	KUNIT_EXPECT_TRUE(test, kp_fake_writes_match(test, fake,
						     KP_FAKE_EACH_CPU, seq, 0));
}

static void fake_log_overflow(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	unsigned int i, len = KP_FAKE_LOG_LEN;

	kp_fake_intel(fake, 2, 4, 48, 7, 0);
	for (i = 0; i < len; i++)
		wr(fake, EVTSEL0, i);
	KUNIT_EXPECT_FALSE(test, kp_fake_log_overflowed(fake));
	KUNIT_EXPECT_EQ(test, kp_fake_log_len(fake), len);
	wr(fake, EVTSEL0, i);
	KUNIT_EXPECT_TRUE(test, kp_fake_log_overflowed(fake));
	KUNIT_EXPECT_EQ(test, kp_fake_log_len(fake), len);
	KUNIT_EXPECT_EQ(test, kp_fake_log_at(fake, KP_FAKE_LOG_LEN - 1)->val,
			(u64)KP_FAKE_LOG_LEN - 1);
}

static void fake_seed_and_snapshot(struct kunit *test)
{
	struct kp_fake *fake = kp_fake_new(test);
	u64 *snap;

	kp_fake_intel(fake, 2, 4, 48, 7, 0);
	kp_fake_seed(fake);
	/* Distinct values, masked to the width; status left alone. */
	KUNIT_EXPECT_NE(test, kp_fake_msr_get(fake, 0, PMC0),
			kp_fake_msr_get(fake, 0, PMC0 + 1));
	KUNIT_EXPECT_NE(test, kp_fake_msr_get(fake, 0, PMC0), 0ULL);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, 0, PMC0) >> 48, 0ULL);
	KUNIT_EXPECT_EQ(test, kp_fake_msr_get(fake, 0, GSTATUS), 0ULL);
	if (nr_cpu_ids > 1)
		KUNIT_EXPECT_NE(test, kp_fake_msr_get(fake, 0, PMC0),
				kp_fake_msr_get(fake, 1, PMC0));
	snap = kp_fake_snapshot(fake);
	KUNIT_EXPECT_TRUE(test, kp_fake_snapshot_equal(fake, snap));
	wr(fake, EVTSEL0 + 3, 1);
	KUNIT_EXPECT_FALSE(test, kp_fake_snapshot_equal(fake, snap));
}

static struct kunit_case kp_fake_hw_cases[] = {
	KUNIT_CASE(fake_cpuid_table),
	KUNIT_CASE(fake_undefined_msr_faults),
	KUNIT_CASE(fake_intel_legacy_counter_writes),
	KUNIT_CASE(fake_amd_counter_width),
	KUNIT_CASE(fake_flags),
	KUNIT_CASE(fake_overflow_status_intel),
	KUNIT_CASE(fake_overflow_status_amd),
	KUNIT_CASE(fake_per_cpu_file_and_log),
	KUNIT_CASE(fake_log_overflow),
	KUNIT_CASE(fake_seed_and_snapshot),
	{}
};

static struct kunit_suite kp_fake_hw_suite = {
	.name = "kprofile_fake_hw",
	.test_cases = kp_fake_hw_cases,
};

kunit_test_suite(kp_fake_hw_suite);

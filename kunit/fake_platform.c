// SPDX-License-Identifier: GPL-2.0
/*
 * fake_platform.c - the parts of the fake processor that are not the
 * register file (fake_hw.c): perf's verdict and the kernel's feature bits
 * (the kp_hw platform op, docs/hardware.md F1), and CPUID answers that
 * differ per CPU (hybrid parts, F7).  See the "platform" section of
 * fake_hw.h.
 *
 * The op and the CPUID hook run wherever the code under test runs: no
 * locks, no allocation; each reads what the setup helpers wrote before.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/kconfig.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "fake_hw.h"

#define KP_FAKE_MAX_CPU_CPUID	16

struct kp_fake_cpu_cpuid {
	unsigned int cpu;
	u32 leaf;
	u32 subleaf;
	struct kp_cpuid_regs regs;
};

/**
 * struct kp_fake_platform - per fake: the platform answer and per-CPU
 *	CPUID entries.
 * @fixed:    @answer is used as set (kp_fake_platform_set()).
 * @answer:   the fixed answer.
 * @no_pmu:   perf found no PMU at boot.
 * @feat_set: feature bits added to the derived ones.
 * @feat_clr: feature bits removed from them.
 * @nr:       entries in @cpuid.
 * @cpuid:    per-CPU CPUID entries; they win over the shared table.
 * @calls:    platform op calls.
 * @atomic_calls: of those, made with preemption or interrupts disabled
 *	      (the real op may sleep); counted only with
 *	      CONFIG_PREEMPT_COUNT, without which preemptible() is always
 *	      false.
 */
struct kp_fake_platform {
	unsigned int calls;
	unsigned int atomic_calls;
	bool fixed;
	struct kp_platform answer;
	bool no_pmu;
	u32 feat_set;
	u32 feat_clr;
	unsigned int nr;
	struct kp_fake_cpu_cpuid cpuid[KP_FAKE_MAX_CPU_CPUID];
};

struct kp_fake_platform *kp_fake_platform_new(struct kunit *test)
{
	struct kp_fake_platform *p = kunit_kzalloc(test, sizeof(*p),
						   GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	return p;
}

bool kp_fake_cpuid_percpu(struct kp_fake *fake, u32 leaf, u32 subleaf,
			  struct kp_cpuid_regs *regs)
{
	struct kp_fake_platform *p = kp_fake_platform_of(fake);
	unsigned int i, cpu = raw_smp_processor_id();

	for (i = 0; i < p->nr; i++) {
		const struct kp_fake_cpu_cpuid *e = &p->cpuid[i];

		if (e->cpu == cpu && e->leaf == leaf &&
		    (e->subleaf == subleaf ||
		     e->subleaf == KP_FAKE_ANY_SUBLEAF)) {
			*regs = e->regs;
			return true;
		}
	}
	return false;
}

void kp_fake_op_platform(void *ctx, struct kp_platform *out)
{
	struct kp_fake *fake = ctx;
	struct kp_fake_platform *p = kp_fake_platform_of(fake);
	const struct kp_hw *hw = kp_fake_hw(fake);
	struct kp_cpuid_regs r0, r;
	u32 max_ext;

	/* The real op may sleep (kp_compat_perf_caps()): say where it ran. */
	WRITE_ONCE(p->calls, p->calls + 1);
	if (IS_ENABLED(CONFIG_PREEMPT_COUNT) && !preemptible())
		WRITE_ONCE(p->atomic_calls, p->atomic_calls + 1);
	if (p->fixed) {
		*out = p->answer;
		return;
	}
	/* Derived from CPUID, as the kernel's feature bits would be. */
	memset(out, 0, sizeof(*out));
	kp_cpuid(hw, 0, 0, &r0);
	if (r0.eax >= 0xa && !memcmp(&r0.ebx, "Genu", 4)) {
		kp_cpuid(hw, 0xa, 0, &r);
		if ((r.eax & 0xff) && ((r.eax >> 8) & 0xff)) {
			out->features |= KP_FEAT_ARCH_PERFMON;
			out->perf_version = r.eax & 0xff;
			out->perf_counters = (r.eax >> 8) & 0xff;
			out->perf_width = (r.eax >> 16) & 0xff;
		}
	}
	kp_cpuid(hw, 0x80000000, 0, &r);
	max_ext = r.eax;
	if (max_ext >= 0x80000001 && (!memcmp(&r0.ebx, "Auth", 4) ||
				      !memcmp(&r0.ebx, "Hygo", 4))) {
		kp_cpuid(hw, 0x80000001, 0, &r);
		if (r.ecx & BIT(23))
			out->features |= KP_FEAT_PERFCTR_CORE;
		out->perf_counters = 4;
		out->perf_width = 48;
		if (max_ext >= 0x80000022) {
			kp_cpuid(hw, 0x80000022, 0, &r);
			if (r.eax & BIT(0)) {
				out->features |= KP_FEAT_PERFMON_V2;
				out->perf_version = 2;
			}
		}
	}
	out->features = (out->features | p->feat_set) & ~p->feat_clr;
	out->perf_known = !(out->features & KP_FEAT_HYBRID);
	out->perf_pmu = out->perf_known && out->perf_counters && !p->no_pmu;
	if (!out->perf_pmu)
		out->perf_counters = 0;
}

unsigned int kp_fake_platform_calls(struct kp_fake *fake, unsigned int *atomic)
{
	struct kp_fake_platform *p = kp_fake_platform_of(fake);

	if (atomic)
		*atomic = READ_ONCE(p->atomic_calls);
	return READ_ONCE(p->calls);
}

void kp_fake_platform_set(struct kp_fake *fake, const struct kp_platform *a)
{
	struct kp_fake_platform *p = kp_fake_platform_of(fake);

	p->fixed = true;
	p->answer = *a;
}

void kp_fake_perf_no_pmu(struct kp_fake *fake)
{
	kp_fake_platform_of(fake)->no_pmu = true;
}

void kp_fake_feature(struct kp_fake *fake, u32 feature, bool on)
{
	struct kp_fake_platform *p = kp_fake_platform_of(fake);

	if (on) {
		p->feat_set |= feature;
		p->feat_clr &= ~feature;
	} else {
		p->feat_clr |= feature;
		p->feat_set &= ~feature;
	}
}

void kp_fake_cpuid_cpu(struct kp_fake *fake, unsigned int cpu, u32 leaf,
		       u32 subleaf, u32 eax, u32 ebx, u32 ecx, u32 edx)
{
	struct kp_fake_platform *p = kp_fake_platform_of(fake);
	struct kp_fake_cpu_cpuid *e = NULL;
	unsigned int i;

	for (i = 0; i < p->nr; i++)
		if (p->cpuid[i].cpu == cpu && p->cpuid[i].leaf == leaf &&
		    p->cpuid[i].subleaf == subleaf)
			e = &p->cpuid[i];
	if (!e) {
		KUNIT_ASSERT_LT_MSG(kp_fake_test(fake), p->nr,
				    (unsigned int)KP_FAKE_MAX_CPU_CPUID,
				    "fake per-CPU CPUID table full");
		e = &p->cpuid[p->nr++];
		e->cpu = cpu;
		e->leaf = leaf;
		e->subleaf = subleaf;
	}
	e->regs.eax = eax;
	e->regs.ebx = ebx;
	e->regs.ecx = ecx;
	e->regs.edx = edx;
}

void kp_fake_perf_watchdog(struct kp_fake *fake)
{
	struct kp_cpuid_regs r;

	kp_cpuid(kp_fake_hw(fake), 0, 0, &r);
	if (!memcmp(&r.ebx, "Genu", 4)) {
		/* Fixed counter 1 (unhalted cycles), OS, PMI. */
		kp_fake_msr_set(fake, KP_FAKE_ALL_CPUS,
				KP_FAKE_MSR_IA32_FIXED_CTR_CTRL, 0xb0);
		return;
	}
	/* Cycles (0x76) on the lowest counter, USR|OS|INT|EN. */
	kp_fake_msr_set(fake, KP_FAKE_ALL_CPUS, KP_FAKE_MSR_K7_EVNTSEL0,
			0x530076);
	kp_fake_msr_set(fake, KP_FAKE_ALL_CPUS, KP_FAKE_MSR_K7_PERFCTR0,
			0x0000fffff0001234ULL);
}

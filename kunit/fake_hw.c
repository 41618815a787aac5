// SPDX-License-Identifier: GPL-2.0
/*
 * fake_hw.c - the fake processor of fake_hw.h: the kp_hw ops, a CPUID
 * table and a per-CPU MSR file.  The write log is in fake_log.c, the
 * performance-monitoring model (counting, overflow, PMIs, NMIs) in
 * fake_pmu.c, whole processors in fake_cpus.c.  The rules for who touches
 * what are in fake_priv.h.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "fake_priv.h"

/* --- the ops ----------------------------------------------------------- */

static void kp_fake_op_cpuid(void *ctx, u32 leaf, u32 subleaf,
			     struct kp_cpuid_regs *regs)
{
	struct kp_fake *fake = ctx;
	const struct kp_fake_cpuid *any = NULL;
	unsigned int i;

	if (kp_fake_cpuid_percpu(fake, leaf, subleaf, regs))
		return;
	for (i = 0; i < fake->nr_cpuid; i++) {
		const struct kp_fake_cpuid *e = &fake->cpuid[i];

		if (e->leaf != leaf)
			continue;
		if (e->subleaf == subleaf) {
			*regs = e->regs;
			return;
		}
		if (e->subleaf == KP_FAKE_ANY_SUBLEAF)
			any = e;
	}
	if (any)
		*regs = any->regs;
	else
		memset(regs, 0, sizeof(*regs));
}

static int kp_fake_op_read_msr(void *ctx, u32 msr, u64 *val)
{
	struct kp_fake *fake = ctx;
	const struct kp_fake_msr *m;
	unsigned int cpu;
	int idx, ret = 0;

	cpu = get_cpu();
	idx = kp_fake_msr_index(fake, msr);
	m = idx >= 0 ? &fake->msrs[idx] : NULL;
	if (!m || (m->flags & KP_FAKE_FAULT_READ)) {
		*val = 0;
		ret = -EIO;
	} else if (m->flags & KP_FAKE_WRITE_ONLY) {
		*val = 0;
	} else {
		if (m->alias >= 0)
			idx = m->alias;
		*val = READ_ONCE(*kp_fake_val(fake, cpu, idx));
	}
	put_cpu();
	return ret;
}

static void kp_fake_store(struct kp_fake *fake, unsigned int cpu, int idx,
			  u64 val)
{
	const struct kp_fake_msr *m = &fake->msrs[idx];
	u64 *p;

	if (m->w1c >= 0) {
		p = kp_fake_val(fake, cpu, m->w1c);
		WRITE_ONCE(*p, READ_ONCE(*p) & ~val);
	}
	if (m->flags & (KP_FAKE_WRITE_ONLY | KP_FAKE_IGNORE_WRITES))
		return;
	if (m->flags & KP_FAKE_LEGACY32)
		val = (u64)sign_extend64(val, 31);
	if (m->alias >= 0)
		idx = m->alias;
	WRITE_ONCE(*kp_fake_val(fake, cpu, idx), val & fake->msrs[idx].mask);
}

static int kp_fake_op_write_msr(void *ctx, u32 msr, u64 val)
{
	struct kp_fake *fake = ctx;
	unsigned int cpu;
	int idx, ret = 0;

	cpu = get_cpu();
	idx = kp_fake_msr_index(fake, msr);
	if (idx < 0 || (fake->msrs[idx].flags & KP_FAKE_FAULT_WRITE) ||
	    (val & fake->msrs[idx].reserved))
		ret = -EIO;
	else
		kp_fake_store(fake, cpu, idx, val);
	kp_fake_log_write(fake, cpu, msr, val, ret);
	if (!ret)
		kp_fake_pmu_written(fake, cpu, idx);
	put_cpu();
	return ret;
}

static void kp_fake_op_lvtpc_nmi(void *ctx)
{
	struct kp_fake *fake = ctx;
	struct kp_fake_cpu *c = &fake->cpus[get_cpu()];

	/*
	 * The memory-mapped LVTPC (or the APIC driver's write) = APIC_DM_NMI:
	 * deliver as NMI, mask bit clear.  In x2APIC mode the memory-mapped
	 * interface is off: nothing changes (the LVTPC is MSR 0x834 then).
	 */
	if (fake->x2apic_lvtpc < 0) {
		WRITE_ONCE(c->lvtpc_calls, c->lvtpc_calls + 1);
		WRITE_ONCE(c->lvtpc_masked, false);
	}
	put_cpu();
}

static const struct kp_hw_ops kp_fake_ops = {
	.cpuid = kp_fake_op_cpuid,
	.read_msr = kp_fake_op_read_msr,
	.write_msr = kp_fake_op_write_msr,
	.lvtpc_nmi = kp_fake_op_lvtpc_nmi,
	.platform = kp_fake_op_platform,
};

/* --- creation ---------------------------------------------------------- */

struct kp_fake *kp_fake_new(struct kunit *test)
{
	struct kp_fake *fake;

	fake = kunit_kzalloc(test, sizeof(*fake), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fake);
	fake->vals = kunit_kcalloc(test, (size_t)nr_cpu_ids * KP_FAKE_MAX_MSRS,
				   sizeof(*fake->vals), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fake->vals);
	fake->cpus = kunit_kcalloc(test, nr_cpu_ids, sizeof(*fake->cpus),
				   GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fake->cpus);
	fake->log = kunit_kcalloc(test, KP_FAKE_LOG_LEN, sizeof(*fake->log),
				  GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fake->log);
	fake->platform = kp_fake_platform_new(test);
	fake->test = test;
	fake->hw.ops = &kp_fake_ops;
	fake->hw.ctx = fake;
	atomic_set(&fake->log_next, 0);
	fake->pmu.global_ctrl = -1;
	fake->pmu.status = -1;
	fake->pmu.debugctl = -1;
	fake->x2apic_lvtpc = -1;
	return fake;
}

const struct kp_hw *kp_fake_hw(struct kp_fake *fake)
{
	return &fake->hw;
}

struct kp_fake_platform *kp_fake_platform_of(struct kp_fake *fake)
{
	return fake->platform;
}

struct kunit *kp_fake_test(struct kp_fake *fake)
{
	return fake->test;
}

/* --- CPUID ------------------------------------------------------------- */

static struct kp_fake_cpuid *kp_fake_cpuid_entry(struct kp_fake *fake,
						 u32 leaf, u32 subleaf)
{
	unsigned int i;

	for (i = 0; i < fake->nr_cpuid; i++)
		if (fake->cpuid[i].leaf == leaf &&
		    fake->cpuid[i].subleaf == subleaf)
			return &fake->cpuid[i];
	return NULL;
}

void kp_fake_cpuid_set(struct kp_fake *fake, u32 leaf, u32 subleaf,
		       u32 eax, u32 ebx, u32 ecx, u32 edx)
{
	struct kp_fake_cpuid *e = kp_fake_cpuid_entry(fake, leaf, subleaf);

	if (!e) {
		KUNIT_ASSERT_LT_MSG(fake->test, fake->nr_cpuid,
				    (unsigned int)KP_FAKE_MAX_CPUID,
				    "fake CPUID table full");
		e = &fake->cpuid[fake->nr_cpuid++];
		e->leaf = leaf;
		e->subleaf = subleaf;
	}
	e->regs.eax = eax;
	e->regs.ebx = ebx;
	e->regs.ecx = ecx;
	e->regs.edx = edx;
}

struct kp_cpuid_regs *kp_fake_cpuid_find(struct kp_fake *fake, u32 leaf,
					 u32 subleaf)
{
	struct kp_fake_cpuid *e = kp_fake_cpuid_entry(fake, leaf, subleaf);

	if (!e) {
		KUNIT_FAIL(fake->test, "fake CPUID has no leaf %#x subleaf %#x",
			   leaf, subleaf);
		return &fake->scratch;
	}
	return &e->regs;
}

void kp_fake_vendor(struct kp_fake *fake, const char *vendor)
{
	struct kp_fake_cpuid *e = kp_fake_cpuid_entry(fake, 0, 0);
	char v[12] = { 0 };
	u32 ebx, edx, ecx;

	memcpy(v, vendor, min(strlen(vendor), sizeof(v)));
	memcpy(&ebx, v, 4);
	memcpy(&edx, v + 4, 4);
	memcpy(&ecx, v + 8, 4);
	kp_fake_cpuid_set(fake, 0, 0, e ? e->regs.eax : 0, ebx, ecx, edx);
}

void kp_fake_max_leaf(struct kp_fake *fake, u32 max_leaf)
{
	struct kp_fake_cpuid *e = kp_fake_cpuid_entry(fake, 0, 0);

	if (e)
		e->regs.eax = max_leaf;
	else
		kp_fake_cpuid_set(fake, 0, 0, max_leaf, 0, 0, 0);
}

void kp_fake_hypervisor(struct kp_fake *fake, bool present)
{
	struct kp_cpuid_regs *r = kp_fake_cpuid_find(fake, 1, 0);

	if (present)
		r->ecx |= KP_FAKE_CPUID1_ECX_HV;
	else
		r->ecx &= ~KP_FAKE_CPUID1_ECX_HV;
}

/* --- MSRs -------------------------------------------------------------- */

int kp_fake_msr_lookup(struct kp_fake *fake, u32 msr)
{
	int idx = kp_fake_msr_index(fake, msr);

	if (idx < 0)
		KUNIT_FAIL(fake->test, "fake MSR %#x is not defined", msr);
	return idx;
}

bool kp_fake_cpu_ok(struct kp_fake *fake, unsigned int cpu)
{
	if (cpu < nr_cpu_ids)
		return true;
	KUNIT_FAIL(fake->test, "CPU %u is not a possible CPU (nr_cpu_ids %u)",
		   cpu, nr_cpu_ids);
	return false;
}

void kp_fake_msr_define(struct kp_fake *fake, u32 msr, u64 init,
			unsigned int width, unsigned int flags)
{
	int idx = kp_fake_msr_index(fake, msr);
	struct kp_fake_msr *m;
	unsigned int i, cpu;

	if (idx < 0) {
		KUNIT_ASSERT_LT_MSG(fake->test, fake->nr_msrs,
				    (unsigned int)KP_FAKE_MAX_MSRS,
				    "fake MSR file full");
		idx = fake->nr_msrs++;
	}
	/* Links to this MSR from others would now be stale: drop them. */
	for (i = 0; i < fake->nr_msrs; i++) {
		if (fake->msrs[i].w1c == idx)
			fake->msrs[i].w1c = -1;
		if (fake->msrs[i].status == idx)
			fake->msrs[i].status = -1;
		if (fake->msrs[i].alias == idx)
			fake->msrs[i].alias = -1;
	}
	for (i = 0; i < fake->pmu.nr; i++)
		if (fake->pmu.sel[i] == idx || fake->pmu.ctr[i] == idx) {
			fake->pmu.sel[i] = -1;
			fake->pmu.ctr[i] = -1;
		}
	if (!width || width > 64)
		width = 64;
	m = &fake->msrs[idx];
	m->msr = msr;
	m->flags = flags;
	m->width = width;
	m->mask = GENMASK_ULL(width - 1, 0);
	m->reserved = 0;
	m->alias = -1;
	m->w1c = -1;
	m->status = -1;
	m->status_bit = 0;
	m->pmc = -1;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		*kp_fake_val(fake, cpu, idx) = init & m->mask;
}

bool kp_fake_msr_defined(struct kp_fake *fake, u32 msr)
{
	return kp_fake_msr_index(fake, msr) >= 0;
}

void kp_fake_msr_set_flags(struct kp_fake *fake, u32 msr, unsigned int flags)
{
	int idx = kp_fake_msr_lookup(fake, msr);

	if (idx >= 0)
		fake->msrs[idx].flags = flags;
}

void kp_fake_msr_w1c(struct kp_fake *fake, u32 msr, u32 target)
{
	int idx = kp_fake_msr_lookup(fake, msr);
	int t = kp_fake_msr_lookup(fake, target);

	if (idx >= 0 && t >= 0)
		fake->msrs[idx].w1c = t;
}

void kp_fake_msr_reserved(struct kp_fake *fake, u32 msr, u64 reserved)
{
	int idx = kp_fake_msr_lookup(fake, msr);

	if (idx >= 0)
		fake->msrs[idx].reserved = reserved;
}

void kp_fake_msr_alias(struct kp_fake *fake, u32 msr, u32 target)
{
	int idx = kp_fake_msr_lookup(fake, msr);
	int t = kp_fake_msr_lookup(fake, target);

	if (idx >= 0 && t >= 0 && idx != t)
		fake->msrs[idx].alias = t;
}

void kp_fake_msr_set(struct kp_fake *fake, int cpu, u32 msr, u64 val)
{
	int idx = kp_fake_msr_lookup(fake, msr);
	unsigned int c;

	if (idx < 0)
		return;
	if (fake->msrs[idx].alias >= 0)
		idx = fake->msrs[idx].alias;
	val &= fake->msrs[idx].mask;
	if (cpu == KP_FAKE_ALL_CPUS) {
		for (c = 0; c < nr_cpu_ids; c++)
			WRITE_ONCE(*kp_fake_val(fake, c, idx), val);
	} else if (kp_fake_cpu_ok(fake, cpu)) {
		WRITE_ONCE(*kp_fake_val(fake, cpu, idx), val);
	}
}

u64 kp_fake_msr_get(struct kp_fake *fake, unsigned int cpu, u32 msr)
{
	int idx = kp_fake_msr_lookup(fake, msr);

	if (idx < 0 || !kp_fake_cpu_ok(fake, cpu))
		return 0;
	if (fake->msrs[idx].alias >= 0)
		idx = fake->msrs[idx].alias;
	return READ_ONCE(*kp_fake_val(fake, cpu, idx));
}


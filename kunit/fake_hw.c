// SPDX-License-Identifier: GPL-2.0
/*
 * fake_hw.c - the fake processor of fake_hw.h: a CPUID table, a per-CPU
 * MSR file with a write log, and per-CPU LVTPC counts.  Whole processors
 * are assembled from these in fake_cpus.c.
 *
 * The ops at the top run wherever the code under test runs (IPIs, NMIs):
 * no locks, no allocation.  Each CPU touches only its own row of @vals and
 * its own @lvtpc slot; the log hands out slots with atomic_inc_return().
 * The definitions (@cpuid, @msrs) are written only by the setup helpers,
 * which run in the test's context while nothing else uses the fake.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "fake_hw.h"

#define KP_FAKE_CPUID1_ECX_HV	BIT(31)	/* hypervisor present */

/**
 * struct kp_fake_cpuid - one CPUID table entry.
 * @leaf:    EAX input.
 * @subleaf: ECX input, or KP_FAKE_ANY_SUBLEAF.
 * @regs:    the answer.
 */
struct kp_fake_cpuid {
	u32 leaf;
	u32 subleaf;
	struct kp_cpuid_regs regs;
};

/**
 * struct kp_fake_msr - the definition of one MSR (its values are per CPU).
 * @msr:        the MSR number.
 * @flags:      KP_FAKE_* behaviour.
 * @mask:       bits a store keeps (the width).
 * @width:      width in bits, 1..64.
 * @w1c:        index of the MSR whose bits a write clears, or -1.
 * @status:     index of the status MSR an overflow sets a bit in, or -1.
 * @status_bit: that bit.
 */
struct kp_fake_msr {
	u32 msr;
	unsigned int flags;
	u64 mask;
	unsigned int width;
	int w1c;
	int status;
	unsigned int status_bit;
};

/**
 * struct kp_fake - a fake processor; see fake_hw.h.
 * @test:     the owning test.
 * @hw:       the seam handed to the code under test (ctx = this).
 * @cpuid:    CPUID table.
 * @nr_cpuid: entries used in @cpuid.
 * @msrs:     MSR definitions.
 * @nr_msrs:  entries used in @msrs.
 * @vals:     MSR values, [cpu * KP_FAKE_MAX_MSRS + index], nr_cpu_ids rows;
 *	      row c is only accessed by CPU c (or by the test while idle).
 * @lvtpc:    lvtpc_nmi calls per CPU, nr_cpu_ids slots, each CPU its own.
 * @log_next: writes since the last clear; the next free log slot.
 * @log:      KP_FAKE_LOG_LEN entries.
 * @scratch:  returned by kp_fake_cpuid_find() when the entry is missing.
 * @platform: perf's verdict, feature bits, per-CPU CPUID (fake_platform.c).
 */
struct kp_fake {
	struct kunit *test;
	struct kp_hw hw;
	struct kp_fake_cpuid cpuid[KP_FAKE_MAX_CPUID];
	unsigned int nr_cpuid;
	struct kp_fake_msr msrs[KP_FAKE_MAX_MSRS];
	unsigned int nr_msrs;
	u64 *vals;
	unsigned int *lvtpc;
	atomic_t log_next;
	struct kp_fake_write *log;
	struct kp_cpuid_regs scratch;
	struct kp_fake_platform *platform;
};

static int kp_fake_msr_index(const struct kp_fake *fake, u32 msr)
{
	unsigned int i;

	for (i = 0; i < fake->nr_msrs; i++)
		if (fake->msrs[i].msr == msr)
			return i;
	return -1;
}

static u64 *kp_fake_val(struct kp_fake *fake, unsigned int cpu, int idx)
{
	return &fake->vals[cpu * KP_FAKE_MAX_MSRS + idx];
}

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
		*val = READ_ONCE(*kp_fake_val(fake, cpu, idx));
	}
	put_cpu();
	return ret;
}

static void kp_fake_log_write(struct kp_fake *fake, unsigned int cpu,
			      u32 msr, u64 val, int ret)
{
	int slot = atomic_inc_return(&fake->log_next) - 1;
	struct kp_fake_write *w;

	if (slot >= KP_FAKE_LOG_LEN)
		return;
	w = &fake->log[slot];
	w->cpu = cpu;
	w->msr = msr;
	w->val = val;
	w->ret = ret;
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
	WRITE_ONCE(*kp_fake_val(fake, cpu, idx), val & m->mask);
}

static int kp_fake_op_write_msr(void *ctx, u32 msr, u64 val)
{
	struct kp_fake *fake = ctx;
	unsigned int cpu;
	int idx, ret = 0;

	cpu = get_cpu();
	idx = kp_fake_msr_index(fake, msr);
	if (idx < 0 || (fake->msrs[idx].flags & KP_FAKE_FAULT_WRITE))
		ret = -EIO;
	else
		kp_fake_store(fake, cpu, idx, val);
	kp_fake_log_write(fake, cpu, msr, val, ret);
	put_cpu();
	return ret;
}

static void kp_fake_op_lvtpc_nmi(void *ctx)
{
	struct kp_fake *fake = ctx;
	unsigned int cpu = get_cpu();

	WRITE_ONCE(fake->lvtpc[cpu], READ_ONCE(fake->lvtpc[cpu]) + 1);
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
	fake->lvtpc = kunit_kcalloc(test, nr_cpu_ids, sizeof(*fake->lvtpc),
				    GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fake->lvtpc);
	fake->log = kunit_kcalloc(test, KP_FAKE_LOG_LEN, sizeof(*fake->log),
				  GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fake->log);
	fake->platform = kp_fake_platform_new(test);
	fake->test = test;
	fake->hw.ops = &kp_fake_ops;
	fake->hw.ctx = fake;
	atomic_set(&fake->log_next, 0);
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

static int kp_fake_msr_lookup(struct kp_fake *fake, u32 msr)
{
	int idx = kp_fake_msr_index(fake, msr);

	if (idx < 0)
		KUNIT_FAIL(fake->test, "fake MSR %#x is not defined", msr);
	return idx;
}

static bool kp_fake_cpu_ok(struct kp_fake *fake, unsigned int cpu)
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
	}
	if (!width || width > 64)
		width = 64;
	m = &fake->msrs[idx];
	m->msr = msr;
	m->flags = flags;
	m->width = width;
	m->mask = GENMASK_ULL(width - 1, 0);
	m->w1c = -1;
	m->status = -1;
	m->status_bit = 0;
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

void kp_fake_msr_set(struct kp_fake *fake, int cpu, u32 msr, u64 val)
{
	int idx = kp_fake_msr_lookup(fake, msr);
	unsigned int c;

	if (idx < 0)
		return;
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
	return READ_ONCE(*kp_fake_val(fake, cpu, idx));
}

void kp_fake_counter_status(struct kp_fake *fake, u32 counter,
			    u32 status_msr, unsigned int bit)
{
	int idx = kp_fake_msr_lookup(fake, counter);
	int s = kp_fake_msr_lookup(fake, status_msr);

	KUNIT_ASSERT_LT(fake->test, bit, 64U);
	if (idx < 0 || s < 0)
		return;
	fake->msrs[idx].status = s;
	fake->msrs[idx].status_bit = bit;
}

bool kp_fake_count(struct kp_fake *fake, unsigned int cpu, u32 counter,
		   u64 events)
{
	int idx = kp_fake_msr_lookup(fake, counter);
	const struct kp_fake_msr *m;
	u64 old, new, *p;
	bool wrapped;

	if (idx < 0 || !kp_fake_cpu_ok(fake, cpu))
		return false;
	m = &fake->msrs[idx];
	p = kp_fake_val(fake, cpu, idx);
	old = READ_ONCE(*p);
	new = (old + events) & m->mask;
	/* Wrapped past the maximum: at least mask + 1 - old events. */
	wrapped = events > m->mask - old;
	WRITE_ONCE(*p, new);
	if (wrapped && m->status >= 0) {
		p = kp_fake_val(fake, cpu, m->status);
		WRITE_ONCE(*p, READ_ONCE(*p) | BIT_ULL(m->status_bit));
	}
	return wrapped;
}

static bool kp_fake_is_w1c_target(struct kp_fake *fake, int idx)
{
	unsigned int i;

	for (i = 0; i < fake->nr_msrs; i++)
		if (fake->msrs[i].w1c == idx)
			return true;
	return false;
}

void kp_fake_seed(struct kp_fake *fake)
{
	unsigned int i, cpu;

	for (i = 0; i < fake->nr_msrs; i++) {
		const struct kp_fake_msr *m = &fake->msrs[i];

		if ((m->flags & KP_FAKE_WRITE_ONLY) ||
		    kp_fake_is_w1c_target(fake, i))
			continue;
		for (cpu = 0; cpu < nr_cpu_ids; cpu++)
			*kp_fake_val(fake, cpu, i) =
				(0x5eedULL << 32 | (u64)(cpu + 1) << 16 |
				 (i + 1)) & m->mask;
	}
}

u64 *kp_fake_snapshot(struct kp_fake *fake)
{
	size_t n = (size_t)nr_cpu_ids * KP_FAKE_MAX_MSRS;
	u64 *snap;

	snap = kunit_kmalloc_array(fake->test, n, sizeof(*snap), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(fake->test, snap);
	memcpy(snap, fake->vals, n * sizeof(*snap));
	return snap;
}

bool kp_fake_snapshot_equal(struct kp_fake *fake, const u64 *snap)
{
	unsigned int i, cpu;
	bool equal = true;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		for (i = 0; i < fake->nr_msrs; i++) {
			u64 then = snap[cpu * KP_FAKE_MAX_MSRS + i];
			u64 now = *kp_fake_val(fake, cpu, i);

			if (then == now)
				continue;
			kunit_err(fake->test,
				  "CPU %u MSR %#x: was %#llx, now %#llx\n",
				  cpu, fake->msrs[i].msr, then, now);
			equal = false;
		}
	}
	return equal;
}

/* --- LVTPC and the write log ------------------------------------------- */

unsigned int kp_fake_lvtpc_count(struct kp_fake *fake, unsigned int cpu)
{
	if (!kp_fake_cpu_ok(fake, cpu))
		return 0;
	return READ_ONCE(fake->lvtpc[cpu]);
}

void kp_fake_log_clear(struct kp_fake *fake)
{
	unsigned int cpu;

	atomic_set(&fake->log_next, 0);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		WRITE_ONCE(fake->lvtpc[cpu], 0);
}

unsigned int kp_fake_log_len(struct kp_fake *fake)
{
	return min_t(unsigned int, atomic_read(&fake->log_next),
		     KP_FAKE_LOG_LEN);
}

bool kp_fake_log_overflowed(struct kp_fake *fake)
{
	return atomic_read(&fake->log_next) > KP_FAKE_LOG_LEN;
}

const struct kp_fake_write *kp_fake_log_at(struct kp_fake *fake,
					   unsigned int i)
{
	if (i >= kp_fake_log_len(fake)) {
		KUNIT_FAIL(fake->test, "write log has %u entries, not %u",
			   kp_fake_log_len(fake), i + 1);
		return NULL;
	}
	return &fake->log[i];
}

unsigned int kp_fake_log_count_msr(struct kp_fake *fake, int cpu, u32 msr)
{
	unsigned int i, n = 0, len = kp_fake_log_len(fake);

	for (i = 0; i < len; i++)
		if (fake->log[i].msr == msr &&
		    (cpu == KP_FAKE_ALL_CPUS || fake->log[i].cpu == cpu))
			n++;
	return n;
}

void kp_fake_log_dump(struct kunit *test, struct kp_fake *fake)
{
	unsigned int i, len = kp_fake_log_len(fake);

	kunit_info(test, "MSR write log, %u entries%s:\n", len,
		   kp_fake_log_overflowed(fake) ? " (overflowed)" : "");
	for (i = 0; i < len; i++)
		kunit_info(test, "  %3u: cpu %u wrmsr %#x <- %#llx%s\n", i,
			   fake->log[i].cpu, fake->log[i].msr, fake->log[i].val,
			   fake->log[i].ret ? " (fault)" : "");
}

static bool kp_fake_cpu_writes_match(struct kp_fake *fake, unsigned int cpu,
				     const struct kp_fake_msrval *seq,
				     unsigned int n)
{
	unsigned int i, k = 0, len = kp_fake_log_len(fake);

	for (i = 0; i < len; i++) {
		const struct kp_fake_write *w = &fake->log[i];

		if (w->cpu != cpu)
			continue;
		if (k >= n || w->msr != seq[k].msr || w->val != seq[k].val)
			return false;
		k++;
	}
	return k == n;
}

bool kp_fake_writes_match(struct kunit *test, struct kp_fake *fake, int cpu,
			  const struct kp_fake_msrval *seq, unsigned int n)
{
	bool match = !kp_fake_log_overflowed(fake);
	unsigned int c, i;

	if (cpu == KP_FAKE_EACH_CPU) {
		for_each_online_cpu(c)
			match = match && kp_fake_cpu_writes_match(fake, c,
								  seq, n);
	} else {
		match = match && kp_fake_cpu_writes_match(fake, cpu, seq, n);
	}
	if (match)
		return true;
	kunit_info(test, "expected on CPU %d (-1: each online CPU):\n", cpu);
	for (i = 0; i < n; i++)
		kunit_info(test, "  wrmsr %#x <- %#llx\n", seq[i].msr,
			   seq[i].val);
	kp_fake_log_dump(test, fake);
	return false;
}

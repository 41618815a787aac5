// SPDX-License-Identifier: GPL-2.0
/*
 * fake_log.c - the fake processor's write log (every kp_wrmsr() through
 * the fake, in order), the LVTPC call counts, and the seed and snapshot
 * helpers of save/restore tests.  See fake_hw.h.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/irqflags.h>
#include <linux/string.h>

#include "fake_priv.h"

void kp_fake_log_write(struct kp_fake *fake, unsigned int cpu, u32 msr,
		       u64 val, int ret)
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
	w->irqs_off = irqs_disabled();
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

		if ((m->flags & KP_FAKE_WRITE_ONLY) || m->alias >= 0 ||
		    kp_fake_is_w1c_target(fake, i))
			continue;
		/* Only bits the register can hold: reserved ones stay 0. */
		for (cpu = 0; cpu < nr_cpu_ids; cpu++)
			*kp_fake_val(fake, cpu, i) =
				(0x5eedULL << 32 | (u64)(cpu + 1) << 16 |
				 (i + 1)) & m->mask & ~m->reserved;
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
	return READ_ONCE(fake->cpus[cpu].lvtpc_calls);
}

void kp_fake_log_clear(struct kp_fake *fake)
{
	unsigned int cpu;

	atomic_set(&fake->log_next, 0);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		WRITE_ONCE(fake->cpus[cpu].lvtpc_calls, 0);
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

// SPDX-License-Identifier: GPL-2.0
/*
 * profile_hit.c - the hit path (KeProfileInterrupt): given one interrupt
 * of a source, increment the bucket of every started profile it hits.
 *
 * The rule (SPEC 2.4): the profile is started, the source matches, the
 * CPU is in the profile's set, the task is the target's thread group (any
 * task for a system-wide profile) and, unless the creator could inspect
 * any task, still dumpable, the privilege mode is one the profile
 * counts, and base <= ip < base + size.  The bucket is
 * (ip - base) >> shift; its 32-bit counter is incremented atomically and
 * wraps.
 *
 * Context: NMI (counter sources) or hardirq (ProfileTime's hrtimer).  No
 * locks, no allocation: an RCU walk of the source's started profiles,
 * reads of immutable fields and atomics.  See profile.h for how stop
 * waits for this path.
 */
#include <linux/atomic.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/ptrace.h>
#include <linux/rculist.h>
#include <linux/sched/signal.h>
#include <linux/smp.h>

#include "compat.h"
#include "profile.h"

static bool kp_profile_mode_ok(const struct kp_profile *p, bool user)
{
	switch (p->mode) {
	case KPROFILE_MODE_USER:
		return user;
	case KPROFILE_MODE_KERNEL:
		return !user;
	default:
		return true;
	}
}

/* The counter of bucket @idx: pages are pinned, so in the direct map. */
static atomic_t *kp_profile_bucket(const struct kp_profile_buf *buf, u64 idx)
{
	u64 off = buf->offset + idx * sizeof(u32);

	return page_address(buf->pages[off >> PAGE_SHIFT]) +
	       (off & ~PAGE_MASK);
}

static void kp_profile_hit_one(struct kp_profile *p, const struct kp_sample *s)
{
	const struct kp_profile_buf *buf;

	if (!p->all_cpus && !cpumask_test_cpu(s->cpu, p->cpus))
		return;
	if (p->tgid && p->tgid != s->tgid)
		return;
	if (p->dumpable_only && !s->dumpable)
		return;
	if (!kp_profile_mode_ok(p, s->user)) {
		atomic64_inc(&p->wrong_mode);
		return;
	}
	if (s->ip - p->base >= p->size) {
		atomic64_inc(&p->outside);
		return;
	}
	buf = rcu_dereference(p->buf);
	if (!buf) {
		atomic64_inc(&p->unavailable);
		return;
	}
	atomic_inc(kp_profile_bucket(buf, (s->ip - p->base) >> p->shift));
	atomic64_inc(&p->hits);
}

/**
 * kp_profile_hit() - count one interrupt in every profile it hits.
 * @set: the profiles.
 * @s:   the interrupt.
 *
 * A profile whose CPU set or target does not match is not touched; one
 * whose task matched but whose mode, range or buffer did not counts the
 * miss in its statistics (wrong_mode, outside, unavailable).
 * Context: any, NMI included; no locks, no allocation.
 */
void kp_profile_hit(struct kp_profile_set *set, const struct kp_sample *s)
{
	struct kp_profile *p;

	if (unlikely(s->source >= KP_SOURCE_LIMIT))
		return;
	rcu_read_lock();
	list_for_each_entry_rcu(p, &set->started[s->source], node)
		kp_profile_hit_one(p, s);
	rcu_read_unlock();
}
EXPORT_SYMBOL_IF_KP_TEST(kp_profile_hit);
NOKPROBE_SYMBOL(kp_profile_hit);

/**
 * kp_profile_sample_regs() - count an interrupt of @source on this CPU,
 *	taken with registers @regs, in the current task.
 * @set:    the profiles.
 * @source: the source that fired.
 * @regs:   the interrupted registers: the ip and, from the code segment,
 *	    the mode (as perf's sampling takes them).
 *
 * Context: NMI or hardirq, on the CPU that was interrupted.
 */
void kp_profile_sample_regs(struct kp_profile_set *set, u32 source,
			    struct pt_regs *regs)
{
	struct mm_struct *mm = current->mm;
	struct kp_sample s = {
		.source = source,
		.cpu = smp_processor_id(),
		.tgid = task_tgid(current),
		.ip = instruction_pointer(regs),
		.user = user_mode(regs),
		.dumpable = !mm || kp_compat_dumpable(current, mm),
	};

	kp_profile_hit(set, &s);
}
EXPORT_SYMBOL_IF_KP_TEST(kp_profile_sample_regs);
NOKPROBE_SYMBOL(kp_profile_sample_regs);

// SPDX-License-Identifier: GPL-2.0
/*
 * profile_hit.c - the hit path (KeProfileInterrupt): given one interrupt
 * of a source, increment the bucket of every started profile it hits.
 *
 * The rule (docs/profiles.md, "The hit rule"): the profile is started, the source matches, the
 * CPU is in the profile's set, the task is the target's thread group (any
 * task for a system-wide profile) and not hidden by dumpability (a
 * set-user-ID exec, or a creator who may only see dumpable tasks: counted
 * as not_dumpable), the privilege mode is one the profile
 * counts, and base <= ip < base + size.  The bucket is
 * (ip - base) >> shift; its 32-bit counter is incremented atomically and
 * wraps.
 *
 * Context: NMI (counter sources) or hardirq (ProfileTime's hrtimer).  No
 * locks, no allocation: the source's RCU-published index snapshot
 * (profile_index.c) gives the system-wide profiles and, by binary search,
 * those of the interrupted process; profiles of other processes are not
 * visited.  Reads of immutable fields, an atomic increment of the bucket,
 * per-CPU statistics.  See profile.h for how stop keeps a buffer and its
 * profile alive until this path cannot see them.
 */
#include <linux/atomic.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/ptrace.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/smp.h>

#include "access.h"
#include "compat.h"
#include "profile.h"

/* The counter of bucket @idx: pages are pinned, so in the direct map. */
static atomic_t *kp_profile_bucket(const struct kp_profile_buf *buf, u64 idx)
{
	u64 off = buf->offset + idx * sizeof(u32);

	return page_address(buf->pages[off >> PAGE_SHIFT]) +
	       (off & ~PAGE_MASK);
}

/*
 * Whether @s, a sample of @p's target, is hidden from @p because the
 * target is not dumpable: after an exec that left it non-dumpable (the
 * exec hook's @exec_stopped; and, for a profile of oneself, any sample of
 * a non-dumpable address space other than the creator's, which also
 * covers the window between the exec and its hook), or at any time when
 * the creator may only see dumpable tasks.
 */
static bool kp_profile_hides(const struct kp_profile *p,
			     const struct kp_sample *s)
{
	if (READ_ONCE(p->exec_stopped))
		return true;
	if (s->dumpable)
		return false;
	return p->dumpable_only ||
	       (p->target == KPROFILE_TARGET_SELF && s->mm != p->mm);
}

static void kp_profile_hit_one(struct kp_profile *p, const struct kp_sample *s)
{
	const struct kp_profile_buf *buf;

	if (!p->all_cpus && !cpumask_test_cpu(s->cpu, p->cpus))
		return;
	if (p->tgid && p->tgid != s->tgid)
		return;
	if (kp_other_counter(s, p->mode))
		return;
	if (kp_profile_hides(p, s)) {
		this_cpu_inc(p->stat->not_dumpable);
		return;
	}
	if (!kp_mode_counts(p->mode, s->user)) {
		this_cpu_inc(p->stat->wrong_mode);
		return;
	}
	if (s->ip - p->base >= p->size) {
		this_cpu_inc(p->stat->outside);
		return;
	}
	buf = rcu_dereference(p->buf);
	if (!buf || READ_ONCE(p->buf_lost)) {
		this_cpu_inc(p->stat->unavailable);
		return;
	}
	atomic_inc(kp_profile_bucket(buf, (s->ip - p->base) >> p->shift));
	this_cpu_inc(p->stat->hits);
}

/**
 * kp_profile_hit() - count one interrupt in every profile it hits.
 * @set: the profiles.
 * @s:   the interrupt.
 *
 * A profile whose CPU set or target does not match is not touched (one of
 * another process is not even visited); one whose task matched but whose
 * mode, range or buffer did not counts the miss in its per-CPU statistics
 * (wrong_mode, outside, unavailable).
 * Context: any, NMI included; no locks, no allocation.
 *
 * Return: whether a started profile of the source is system-wide or of
 * the interrupted process (ProfileTime keeps ticking on this CPU).
 */
bool kp_profile_hit(struct kp_sampler *set, const struct kp_sample *s)
{
	const struct kp_profile_group *g = NULL;
	const struct kp_profile_index *idx;
	bool any = false;
	unsigned int i;

	if (unlikely(s->source >= KP_SOURCE_LIMIT))
		return false;
	rcu_read_lock();
	idx = rcu_dereference(set->index[s->source]);
	if (!idx)
		goto out;
	for (i = 0; i < idx->nr_system; i++)
		kp_profile_hit_one(idx->profiles[i], s);
	if (s->tgid)
		g = kp_profile_index_find(idx, s->tgid);
	if (g)
		for (i = g->first; i < g->first + g->nr; i++)
			kp_profile_hit_one(idx->profiles[i], s);
	any = idx->nr_system || g;
out:
	rcu_read_unlock();
	return any;
}
EXPORT_SYMBOL_IF_KP_TEST(kp_profile_hit);
NOKPROBE_SYMBOL(kp_profile_hit);

/**
 * kp_profile_time_wanted() - whether a started ProfileTime profile counts
 *	@task's process.
 * @set:  the sampler.
 * @task: the task that runs (or is switched in) here.
 *
 * Context: any, interrupts off included; no locks.
 *
 * Return: true when a started ProfileTime profile is system-wide or of
 * @task's process.
 */
bool kp_profile_time_wanted(struct kp_sampler *set, struct task_struct *task)
{
	const struct kp_profile_index *idx;
	bool ret;

	rcu_read_lock();
	idx = rcu_dereference(set->index[KPROFILE_SOURCE_TIME]);
	ret = idx && (idx->nr_system ||
		      kp_profile_index_find(idx, task_tgid(task)));
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_IF_KP_TEST(kp_profile_time_wanted);

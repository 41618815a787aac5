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
 * (profile_index.c) gives the classes of the system-wide profiles and,
 * by binary search, those of the interrupted process; profiles of other
 * processes are not visited.  A class's filters are tested once for all
 * its profiles, and the profiles whose range holds the ip are found by
 * address, so one of the process's profiles whose range misses costs
 * nothing.  Reads of immutable fields, an atomic increment of the
 * bucket, per-CPU counters (the class's, the counted profile's; the
 * statistics follow from them, profile_stats.c).  See profile.h for how
 * stop keeps a buffer and its profile alive until this path cannot see
 * them.
 */
#include <linux/atomic.h>
#include <linux/kprobes.h>
#include <asm/local64.h>
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
 * Whether @s, a sample of the class's target, is hidden from its
 * profiles because the target is not dumpable: after an exec that left
 * it non-dumpable (the exec hook's @exec_stopped; and, for a profile of
 * oneself, any sample of a non-dumpable address space other than the
 * creator's, which also covers the window between the exec and its
 * hook), or at any time when the creator may only see dumpable tasks.
 */
static bool kp_class_hides(const struct kp_profile_class *c,
			   const struct kp_sample *s)
{
	if (READ_ONCE(c->exec_stopped))
		return true;
	if (s->dumpable)
		return false;
	return c->dumpable_only || (c->self && s->mm != c->mm);
}

/* @p's range holds @s->ip: count it in its bucket, or as unavailable. */
static void kp_profile_count(struct kp_profile *p, const struct kp_sample *s)
{
	const struct kp_profile_buf *buf = rcu_dereference(p->buf);

	if (!buf || READ_ONCE(p->buf_lost)) {
		this_cpu_inc(p->stat->unavailable);
		return;
	}
	atomic_inc(kp_profile_bucket(buf, (s->ip - p->base) >> p->shift));
	this_cpu_inc(p->stat->hits);
}

/*
 * The largest entry below @j whose last address is >= @ip, from @c's
 * max-tree (leaves [@span, 2 * @span)): up from leaf @j to the first left
 * sibling that reaches @ip, then down to its rightmost leaf that does.
 * Return: the entry, or U32_MAX.
 */
static u32 kp_class_prev(const u64 *t, u32 span, u32 j, u64 ip)
{
	u32 v = span + j;

	for (;;) {
		while (!(v & 1))
			v >>= 1;
		if (v == 1)
			return U32_MAX;
		v--;
		if (t[v] >= ip)
			break;
	}
	while (v < span)
		v = t[2 * v + 1] >= ip ? 2 * v + 1 : 2 * v;
	return v - span;
}

/*
 * Count @s in every profile of class @c whose range holds the ip: a
 * binary search for the entries whose base <= ip, then, while the reach
 * of those left says one of them holds ip, the highest that does.
 */
static void kp_class_stab(const struct kp_profile_index *idx,
			  const struct kp_profile_class *c,
			  const struct kp_sample *s)
{
	const struct kp_profile_entry *e = idx->entries + c->first;
	u64 ip = s->ip;
	u32 lo = 0, hi = c->nr, j;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (e[mid].base <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo && e[lo - 1].reach >= ip) {
		j = lo - 1;
		if (e[j].last < ip) {
			/* an earlier, overlapping range reaches ip */
			j = kp_class_prev(idx->tree + c->tree, c->span, j, ip);
			if (WARN_ON_ONCE(j >= lo))
				return;
		}
		kp_profile_count(e[j].p, s);
		lo = j;
	}
}

/*
 * One class of the sample's group: its filters, counted once for all its
 * profiles (what passed, wrong_mode, not_dumpable), then the profiles
 * whose range holds the ip.  A ProfileTime tick that reaches the class
 * before its own interval has elapsed on this CPU is not a sample of it.
 */
static void kp_class_sample(const struct kp_profile_index *idx, u32 ci,
			    const struct kp_sample *s)
{
	const struct kp_profile_class *c = &idx->classes[ci];
	struct kp_profile_class_stat *st;

	if (c->cpus && !cpumask_test_cpu(s->cpu, c->cpus))
		return;
	if (kp_other_counter(s, c->mode))
		return;
	st = kp_profile_class_stat(idx, s->cpu, ci);
	if (!kp_rate_due(&st->credit, s->tick,
			 kp_rate_interval(idx->set, c->interval)))
		return;	/* a tick shorter than the class's interval */
	if (kp_class_hides(c, s)) {
		local64_inc(&st->not_dumpable);
		return;
	}
	if (!kp_mode_counts(c->mode, s->user)) {
		local64_inc(&st->wrong_mode);
		return;
	}
	local64_inc(&st->passed);
	smp_wmb();	/* passed, then hits (profile_stats.c) */
	kp_class_stab(idx, c, s);
}

static void kp_group_sample(const struct kp_profile_index *idx,
			    const struct kp_profile_group *g,
			    const struct kp_sample *s)
{
	u32 ci;

	for (ci = g->first; ci < g->first + g->nr; ci++)
		kp_class_sample(idx, ci, s);
}

/**
 * kp_profile_hit() - count one interrupt in every profile it hits.
 * @set: the profiles.
 * @s:   the interrupt.
 *
 * A profile whose CPU set or target does not match is not touched (one of
 * another process is not even visited); the misses of a profile whose
 * task matched but whose mode, range or buffer did not are counted for
 * its whole class (wrong_mode; passed, from which outside follows) or
 * for it (unavailable): see profile_stats.c.  The cost is one binary
 * search per class of the system-wide profiles and of the interrupted
 * process, plus the profiles counted, whatever the number of those whose
 * range misses.
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

	if (unlikely(s->source >= KP_SOURCE_LIMIT))
		return false;
	rcu_read_lock();
	idx = rcu_dereference(set->index[s->source]);
	if (!idx)
		goto out;
	kp_group_sample(idx, &idx->system, s);
	if (s->tgid)
		g = kp_profile_index_find(idx, s->tgid);
	if (g)
		kp_group_sample(idx, g, s);
	any = idx->system.nr || g;
out:
	rcu_read_unlock();
	return any;
}
EXPORT_SYMBOL_IF_KUNIT(kp_profile_hit);
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
	ret = idx && (idx->system.nr ||
		      kp_profile_index_find(idx, task_tgid(task)));
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(kp_profile_time_wanted);

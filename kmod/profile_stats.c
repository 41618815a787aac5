// SPDX-License-Identifier: GPL-2.0
/*
 * profile_stats.c - a profile's statistics (KPROFILE_IOC_PROFILE_STATS,
 * _EX; docs/profiles.md, "Statistics"), from the counters the hit path
 * keeps, and the end of an index snapshot, which folds its counters into
 * its profiles.
 *
 * The hit path counts each interrupt once per class of profiles it
 * concerns (profile_index.c), not once per profile: a class's per-CPU
 * counters say how many interrupts passed its filters (passed), failed
 * the mode (wrong_mode) or were hidden by dumpability (not_dumpable); a
 * profile's own per-CPU counters, how many of those that passed were in
 * its range and counted (hits) or found no buffer (unavailable).  Every
 * interrupt that passed is one of hits, unavailable or outside, so
 *
 *	outside = passed - hits - unavailable
 *
 * where passed, wrong_mode and not_dumpable are the sums over every
 * snapshot the profile was in: the snapshots that are gone, folded into
 * the profile's @folded, plus those still on the sampler's @unfolded list
 * (the published one, and replaced ones waiting for their grace period).
 * A snapshot is folded a grace period after it was replaced, when no
 * interrupt can count there any more; the fold and every read hold the
 * sampler's @fold_lock, so a read counts each snapshot once, folded or
 * not.  After a stop the statistics are final once that grace period is
 * over, as the buckets are (an interrupt in flight may still add one).
 *
 * Ordering: the hit path increments a class's passed before the hits or
 * unavailable of its profile (smp_wmb()); a read sums hits and
 * unavailable first, then (smp_rmb()) passed, so outside is never
 * negative even while the profile counts.
 */
#include <linux/cpumask.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "compat.h"
#include "profile.h"

/* Add class @ci's counters over every CPU to @sum; zero them if @zero. */
static void kp_class_sum(struct kp_profile_index *idx, u32 ci,
			 struct kp_profile_folded *sum, bool zero)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct kp_profile_class_stat *st =
			kp_profile_class_stat(idx, cpu, ci);

		sum->passed += local64_read(&st->passed);
		sum->wrong_mode += local64_read(&st->wrong_mode);
		sum->not_dumpable += local64_read(&st->not_dumpable);
		if (zero) {
			local64_set(&st->passed, 0);
			local64_set(&st->wrong_mode, 0);
			local64_set(&st->not_dumpable, 0);
		}
	}
}

/**
 * kp_profile_index_fold() - add a snapshot's class counters to its
 *	profiles' @folded, and zero them.
 * @idx: a snapshot no interrupt sees any more (a grace period after it
 *	 was unpublished).
 *
 * Context: process; the sampler's @fold_lock held.
 */
void kp_profile_index_fold(struct kp_profile_index *idx)
{
	u32 ci, i;

	lockdep_assert_held(&idx->set->fold_lock);
	for (ci = 0; ci < idx->nr_classes; ci++) {
		const struct kp_profile_class *c = &idx->classes[ci];
		struct kp_profile_folded sum = {};

		kp_class_sum(idx, ci, &sum, true);
		for (i = c->first; i < c->first + c->nr; i++) {
			struct kp_profile_folded *f = &idx->entries[i].p->folded;

			f->passed += sum.passed;
			f->wrong_mode += sum.wrong_mode;
			f->not_dumpable += sum.not_dumpable;
		}
	}
}

/**
 * kp_profile_index_free() - drop a snapshot's references on its profiles
 *	and free it.
 * @idx: a snapshot off the @unfolded list, that no interrupt sees.
 *
 * Context: process.
 */
void kp_profile_index_free(struct kp_profile_index *idx)
{
	u32 ci, i;

	for (ci = 0; ci < idx->nr_classes; ci++) {
		const struct kp_profile_class *c = &idx->classes[ci];

		for (i = c->first; i < c->first + c->nr; i++)
			kp_profile_put(idx->entries[i].p);
	}
	kvfree(idx->stat);
	kvfree(idx);
}

/* A grace period after the snapshot was replaced. */
static void kp_profile_index_fold_work(struct work_struct *work)
{
	struct kp_profile_index *idx = container_of(to_rcu_work(work),
						    struct kp_profile_index,
						    rwork);
	struct kp_sampler *set = idx->set;

	mutex_lock(&set->fold_lock);
	kp_profile_index_fold(idx);
	list_del_init(&idx->unfolded);
	mutex_unlock(&set->fold_lock);
	kp_profile_index_free(idx);
}

/**
 * kp_profile_index_retire() - a snapshot was replaced: fold and free it
 *	after a grace period (on the sampler's @release workqueue, which
 *	kp_sampler_exit() drains).
 * @idx: the unpublished snapshot.
 */
void kp_profile_index_retire(struct kp_profile_index *idx)
{
	INIT_RCU_WORK(&idx->rwork, kp_profile_index_fold_work);
	queue_rcu_work(idx->set->release, &idx->rwork);
}

/* Whether @c of @idx holds @p: its entries are sorted by base, pointer. */
static bool kp_class_has(const struct kp_profile_index *idx,
			 const struct kp_profile_class *c,
			 const struct kp_profile *p)
{
	const struct kp_profile_entry *e = idx->entries + c->first;
	u32 lo = 0, hi = c->nr;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (e[mid].p == p)
			return true;
		if (e[mid].base < p->base ||
		    (e[mid].base == p->base &&
		     (unsigned long)e[mid].p < (unsigned long)p))
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* @p's passed, wrong_mode and not_dumpable: folded, plus the unfolded. */
static void kp_profile_classes_read(struct kp_profile *p,
				    struct kp_profile_folded *sum)
{
	struct kp_sampler *set = p->set;
	struct kp_profile_index *idx;
	u32 ci;

	mutex_lock(&set->fold_lock);
	*sum = p->folded;
	list_for_each_entry(idx, &set->unfolded, unfolded) {
		const struct kp_profile_group *g = &idx->system;

		if (idx->source != p->source)
			continue;
		if (p->tgid)
			g = kp_profile_index_find(idx, p->tgid);
		for (ci = g ? g->first : 0; g && ci < g->first + g->nr; ci++)
			if (kp_class_has(idx, &idx->classes[ci], p)) {
				kp_class_sum(idx, ci, sum, false);
				break;
			}
	}
	mutex_unlock(&set->fold_lock);
}

/* Every statistic of @p, into @st and @not_dumpable. */
static void kp_profile_stats_read(struct kp_profile *p,
				  struct kprofile_profile_stats *st,
				  u64 *not_dumpable)
{
	struct kp_profile_folded sum;
	unsigned int cpu;
	u64 in;

	memset(st, 0, sizeof(*st));
	for_each_possible_cpu(cpu) {
		const struct kp_profile_stat *c = per_cpu_ptr(p->stat, cpu);

		st->hits += READ_ONCE(c->hits);
		st->unavailable += READ_ONCE(c->unavailable);
	}
	smp_rmb();	/* then passed: see the file comment */
	kp_profile_classes_read(p, &sum);
	in = st->hits + st->unavailable;
	st->outside = WARN_ON_ONCE(sum.passed < in) ? 0 : sum.passed - in;
	st->wrong_mode = sum.wrong_mode;
	*not_dumpable = sum.not_dumpable;
	st->started = READ_ONCE(p->started);
	st->source = p->source;
	st->interval = kp_source_interval(p->set->sources, p->source);
}

/**
 * kp_profile_get_stats() - KPROFILE_IOC_PROFILE_STATS.
 * @p:  the profile.
 * @st: filled in (reserved fields zeroed).
 *
 * Context: process; takes the sampler's @fold_lock.
 */
void kp_profile_get_stats(struct kp_profile *p,
			  struct kprofile_profile_stats *st)
{
	u64 not_dumpable;

	kp_profile_stats_read(p, st, &not_dumpable);
}
EXPORT_SYMBOL_IF_KUNIT(kp_profile_get_stats);

/**
 * kp_profile_get_stats_ex() - KPROFILE_IOC_PROFILE_STATS_EX.
 * @p:  the profile.
 * @st: filled in (reserved fields zeroed).
 *
 * Context: process; takes the sampler's @fold_lock.
 */
void kp_profile_get_stats_ex(struct kp_profile *p,
			     struct kprofile_profile_stats_ex *st)
{
	memset(st, 0, sizeof(*st));
	kp_profile_stats_read(p, &st->stats, &st->not_dumpable);
	if (READ_ONCE(p->exec_stopped))
		st->flags |= KPROFILE_PROFILE_EXEC_STOPPED;
	if (kp_profile_buf_lost(p))
		st->flags |= KPROFILE_PROFILE_BUFFER_LOST;
}
EXPORT_SYMBOL_IF_KUNIT(kp_profile_get_stats_ex);

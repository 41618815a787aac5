// SPDX-License-Identifier: GPL-2.0
/*
 * profile_index.c - the started profiles of each source, indexed for the
 * hit path: an immutable snapshot, rebuilt at every start and stop and
 * published with RCU.
 *
 * A snapshot (struct kp_profile_index) holds the source's started
 * profiles in one array: the system-wide ones first, then the profiles of
 * each thread group, grouped, with the groups sorted by their struct pid
 * pointer.  A sample visits the system-wide profiles and, found by binary
 * search on its task's thread-group pid, the profiles of that process:
 * profiles of other processes cost nothing, however many are started.
 *
 * Locking: a snapshot is written only before it is published
 * (rcu_assign_pointer() under the sampler's @lock) and never after; readers
 * (the hit path in NMI and hardirq context, the exec hook) use
 * rcu_dereference() under rcu_read_lock() or in NMI context, and take no
 * lock.  A replaced snapshot is freed after a grace period (kvfree_rcu()).
 */
#include <linux/kprobes.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "compat.h"
#include "profile.h"

/**
 * kp_profile_index_link() - put a profile on its source's @started list,
 *	which stays in the order of the @tgid pointers (NULL, system-wide,
 *	first), so a snapshot is a copy of the list: O(n) per start.
 * @set: the sampler.
 * @p:   a profile not on the list.
 *
 * Context: the sampler's @lock held.
 */
void kp_profile_index_link(struct kp_sampler *set, struct kp_profile *p)
{
	struct list_head *head = &set->started[p->source];
	struct kp_profile *q;

	lockdep_assert_held(&set->lock);
	list_for_each_entry(q, head, node)
		if ((unsigned long)q->tgid > (unsigned long)p->tgid) {
			list_add_tail(&p->node, &q->node);
			return;
		}
	list_add_tail(&p->node, head);
}

/* Fill @idx from @n profiles in @idx->profiles, in @tgid order. */
static void kp_index_fill(struct kp_profile_index *idx, unsigned int n)
{
	struct kp_profile_group *g = NULL;
	unsigned int i;

	idx->nr = n;
	idx->nr_system = 0;
	idx->nr_groups = 0;
	for (i = 0; i < n; i++) {
		const struct pid *tgid = idx->profiles[i]->tgid;

		if (!tgid) {
			idx->nr_system++;
			continue;
		}
		if (!g || g->tgid != tgid) {
			g = &idx->groups[idx->nr_groups++];
			g->tgid = tgid;
			g->first = i;
			g->nr = 0;
		}
		g->nr++;
	}
}

/**
 * kp_profile_index_find() - the profiles of one thread group in a
 *	snapshot.
 * @idx:  the snapshot.
 * @tgid: the thread group (not NULL).
 *
 * Context: any, NMI included; the caller holds the snapshot (RCU).
 *
 * Return: the group, or NULL when no profile of @tgid is started.
 */
const struct kp_profile_group *
kp_profile_index_find(const struct kp_profile_index *idx,
		      const struct pid *tgid)
{
	unsigned int lo = 0, hi = idx->nr_groups;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		const struct pid *g = idx->groups[mid].tgid;

		if (g == tgid)
			return &idx->groups[mid];
		if ((unsigned long)g < (unsigned long)tgid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KP_TEST(kp_profile_index_find);
NOKPROBE_SYMBOL(kp_profile_index_find);

/**
 * kp_profile_index_rebuild() - publish a new snapshot of the started
 *	profiles of @source (the sampler's @started list).
 * @set:    the sampler.
 * @source: the source.
 * @gfp:    allocation flags.
 *
 * The old snapshot is freed after a grace period.  With no profile
 * started, the snapshot is NULL.
 * Context: process; the sampler's @lock held.
 *
 * Return: 0, or -ENOMEM (the old snapshot stays published).
 */
int kp_profile_index_rebuild(struct kp_sampler *set, u32 source, gfp_t gfp)
{
	struct kp_profile_index *idx = NULL, *old;
	struct kp_profile *p;
	unsigned int n = 0;

	lockdep_assert_held(&set->lock);
	list_for_each_entry(p, &set->started[source], node)
		n++;
	if (n) {
		idx = kvmalloc(struct_size(idx, profiles, n) +
			       n * sizeof(struct kp_profile_group), gfp);
		if (!idx)
			return -ENOMEM;
		idx->groups = (struct kp_profile_group *)&idx->profiles[n];
		n = 0;
		list_for_each_entry(p, &set->started[source], node)
			idx->profiles[n++] = p;
		kp_index_fill(idx, n);
	}
	old = rcu_replace_pointer(set->index[source], idx,
				  lockdep_is_held(&set->lock));
	if (old)
		kvfree_rcu(old, rcu);
	return 0;
}

/**
 * kp_profile_index_remove() - unpublish @p from its source's snapshot,
 *	without failing.
 * @set: the sampler.
 * @p:   a started profile, already off the @started list.
 *
 * A new snapshot is published; if it cannot be allocated, the old one is
 * unpublished, a grace period waited for, and the old one compacted in
 * place and published again (interrupts of the source in that window
 * are not counted).
 * Context: process; the sampler's @lock held; may sleep.
 */
void kp_profile_index_remove(struct kp_sampler *set, struct kp_profile *p)
{
	struct kp_profile_index *idx;
	unsigned int i, n = 0;

	lockdep_assert_held(&set->lock);
	if (!kp_profile_index_rebuild(set, p->source,
				      GFP_KERNEL | __GFP_NOWARN))
		return;
	idx = rcu_replace_pointer(set->index[p->source], NULL,
				  lockdep_is_held(&set->lock));
	if (!idx)
		return;
	synchronize_rcu();
	for (i = 0; i < idx->nr; i++)
		if (idx->profiles[i] != p)
			idx->profiles[n++] = idx->profiles[i];
	if (!n) {
		kvfree(idx);
		return;
	}
	kp_index_fill(idx, n);
	rcu_assign_pointer(set->index[p->source], idx);
}

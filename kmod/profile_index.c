// SPDX-License-Identifier: GPL-2.0
/*
 * profile_index.c - the started profiles of each source, indexed for the
 * hit path: an immutable snapshot, rebuilt at every start and stop and
 * published with RCU, in which an interrupt finds the profiles it
 * concerns in O(log n) plus those it hits, however many of its own
 * process's profiles miss it.
 *
 * A snapshot (struct kp_profile_index) has three levels:
 *
 * - groups: the system-wide profiles apart, then one group per thread
 *   group, sorted by struct pid pointer (binary search).  An interrupt
 *   visits the system-wide group and its own process's: profiles of
 *   other processes cost it nothing.
 * - classes: within a group, the profiles with the same filters (the
 *   CPU set, the counter mode and privilege mode, the dumpability rules,
 *   whether the exec hook stopped them, their own ProfileTime interval:
 *   sampler_rate.c).  An interrupt passes a class's
 *   filters or fails them for all its profiles at once, so the class,
 *   not each profile, counts what the filters decided (per-CPU class
 *   counters: passed, wrong_mode, not_dumpable).  A process has one
 *   class or a few, whatever the number of its profiles.
 * - entries: a class's profiles sorted by base, each with the largest
 *   last address of it and those before it (@reach), and, when two of the
 *   class's ranges overlap, a max-tree of the last addresses.  A binary
 *   search gives the entries whose base <= ip; if the reach of the last
 *   of them is below ip nothing contains it (O(1)); otherwise the
 *   containing entries are found one by one downwards, the tree skipping
 *   those that end below ip (O(log n) each).  Only the profiles counted
 *   are touched: their buffer, bucket and own counters (hits,
 *   unavailable).
 *
 * So a profile's outside count is not written by the interrupt: it is
 * what passed its class's filters less its own hits and unavailable,
 * added up when read (profile_stats.c), and wrong_mode and not_dumpable
 * are its classes'.  A class's counters belong to its snapshot; when the
 * snapshot is replaced they are folded into each of its profiles after a
 * grace period (when no interrupt can count there any more), so a profile
 * adds up its folded counters and those of the snapshots still there.
 * The snapshot holds a reference on its profiles until then.
 *
 * The started list (the sampler's @started[source]) is kept in snapshot
 * order: by tgid pointer (system-wide first), filters, base, profile
 * pointer; so a snapshot is built from it in two O(n) walks, one to size
 * it and one to fill it.  The exec hook may set a profile's
 * @exec_stopped at any time: the walks read it once (@index_stopped), and
 * a rebuild that raced with the hook fixes its classes up after
 * publishing (profile_exec.c).
 *
 * Locking: a snapshot is written only before it is published
 * (rcu_assign_pointer() under the sampler's @lock) and never after, but
 * for its classes' @exec_stopped (the exec hook, WRITE_ONCE()) and its
 * counters (the hit path; folded under @fold_lock once no interrupt sees
 * it).  Readers (the hit path in NMI and hardirq context, the exec hook)
 * use rcu_dereference() under rcu_read_lock() or in NMI context, and take
 * no lock.
 */
#include <linux/cache.h>
#include <linux/kprobes.h>
#include <linux/log2.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "compat.h"
#include "profile.h"

/* The order of two profiles' filters; 0 when they share a class. */
static int kp_profile_filters_cmp(const struct kp_profile *a,
				  const struct kp_profile *b)
{
	u8 ma = kp_counter_mode(a->mode), mb = kp_counter_mode(b->mode);
	bool sa = a->target == KPROFILE_TARGET_SELF;
	bool sb = b->target == KPROFILE_TARGET_SELF;

	if (ma != mb)
		return ma < mb ? -1 : 1;
	if (a->interval != b->interval)
		return a->interval < b->interval ? -1 : 1;
	if (a->dumpable_only != b->dumpable_only)
		return a->dumpable_only ? 1 : -1;
	if (sa != sb)
		return sa ? 1 : -1;
	if (sa && a->mm != b->mm)
		return (unsigned long)a->mm < (unsigned long)b->mm ? -1 : 1;
	if (a->all_cpus != b->all_cpus)
		return a->all_cpus ? -1 : 1;
	if (a->all_cpus)
		return 0;
	return memcmp(cpumask_bits(a->cpus), cpumask_bits(b->cpus),
		      cpumask_size());
}

/* The same group and filters: one class (but for @exec_stopped). */
static bool kp_profile_same_run(const struct kp_profile *a,
				const struct kp_profile *b)
{
	return a->tgid == b->tgid && !kp_profile_filters_cmp(a, b);
}

/* The snapshot order: tgid, filters, base, pointer. */
static int kp_profile_order(const struct kp_profile *a,
			    const struct kp_profile *b)
{
	int c;

	if (a->tgid != b->tgid)
		return (unsigned long)a->tgid < (unsigned long)b->tgid ? -1 : 1;
	c = kp_profile_filters_cmp(a, b);
	if (c)
		return c;
	if (a->base != b->base)
		return a->base < b->base ? -1 : 1;
	if (a != b)
		return (unsigned long)a < (unsigned long)b ? -1 : 1;
	return 0;
}

/**
 * kp_profile_index_link() - put a profile on its source's @started list,
 *	which stays in snapshot order (tgid, system-wide first; filters;
 *	base; pointer): O(n) per start.
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
		if (kp_profile_order(q, p) > 0) {
			list_add_tail(&p->node, &q->node);
			return;
		}
	list_add_tail(&p->node, head);
}

/* What a walk of the started list counts, or where it fills next. */
struct kp_index_shape {
	u32 n;
	u32 groups;
	u32 classes;
	u32 tree;
};

/* Build the max-tree of @c's last addresses. */
static void kp_index_tree(struct kp_profile_index *idx,
			  const struct kp_profile_class *c)
{
	const struct kp_profile_entry *e = idx->entries + c->first;
	u64 *t = idx->tree + c->tree;
	u32 i;

	for (i = 0; i < c->span; i++)
		t[c->span + i] = i < c->nr ? e[i].last : 0;
	for (i = c->span - 1; i >= 1; i--)
		t[i] = max(t[2 * i], t[2 * i + 1]);
}

/* Set @c's entries' @reach; true when two of its ranges overlap. */
static bool kp_index_reach(struct kp_profile_index *idx,
			   const struct kp_profile_class *c)
{
	struct kp_profile_entry *e = idx->entries + c->first;
	bool overlap = false;
	u32 i;

	for (i = 0; i < c->nr; i++) {
		e[i].reach = e[i].last;
		if (!i)
			continue;
		if (e[i - 1].reach >= e[i].base)
			overlap = true;
		e[i].reach = max(e[i].reach, e[i - 1].reach);
	}
	return overlap;
}

/*
 * One class: the profiles of the run [@from, @to) whose @index_stopped is
 * @stopped, @nr of them.  Sizes it in @sh; fills it when @idx.
 */
static void kp_index_class(struct kp_profile_index *idx,
			   struct kp_index_shape *sh,
			   struct kp_profile *from, struct kp_profile *to,
			   bool stopped, u32 nr)
{
	struct kp_profile_class *c, scratch = { .first = sh->n, .nr = nr };
	u64 reach = 0;
	bool overlap = false;
	struct kp_profile *p;
	u32 i = 0;

	c = idx ? &idx->classes[sh->classes] : &scratch;
	*c = scratch;
	for (p = from; p != to; p = list_next_entry(p, node)) {
		u64 last = p->base + p->size - 1;

		if (p->index_stopped != stopped)
			continue;
		if (i && reach >= p->base)
			overlap = true;
		reach = i ? max(reach, last) : last;
		if (idx) {
			idx->entries[sh->n + i] = (struct kp_profile_entry){
				.base = p->base, .last = last, .p = p,
			};
			kp_profile_get(p);
		}
		i++;
	}
	if (overlap) {
		c->span = roundup_pow_of_two(nr);
		c->tree = sh->tree;
		sh->tree += 2 * c->span;
	}
	if (idx) {
		c->cpus = from->all_cpus ? NULL : from->cpus;
		c->self = from->target == KPROFILE_TARGET_SELF;
		c->mm = c->self ? from->mm : NULL;
		c->mode = kp_counter_mode(from->mode);
		c->dumpable_only = from->dumpable_only;
		c->exec_stopped = stopped;
		c->interval = from->interval;
		kp_index_reach(idx, c);
		if (c->span)
			kp_index_tree(idx, c);
	}
	sh->n += nr;
	sh->classes++;
}

/*
 * Walk the started list @head: size a snapshot in @sh (@idx NULL, which
 * also reads each profile's @exec_stopped once into @index_stopped), or
 * fill @idx, sized by such a walk.
 */
static void kp_index_walk(struct list_head *head, struct kp_index_shape *sh,
			  struct kp_profile_index *idx)
{
	struct kp_profile_group *g = idx ? &idx->system : NULL;
	const struct pid *tgid = NULL;
	struct kp_profile *from, *to;
	u32 nr[2];

	memset(sh, 0, sizeof(*sh));
	if (g)
		*g = (struct kp_profile_group){ .tgid = NULL };
	from = list_first_entry(head, struct kp_profile, node);
	while (&from->node != head) {
		nr[0] = 0;
		nr[1] = 0;
		for (to = from; &to->node != head && kp_profile_same_run(from, to);
		     to = list_next_entry(to, node)) {
			if (!idx)
				to->index_stopped = READ_ONCE(to->exec_stopped);
			nr[to->index_stopped]++;
		}
		if (from->tgid != tgid) {	/* system-wide first, then groups */
			tgid = from->tgid;
			g = idx ? &idx->groups[sh->groups] : NULL;
			if (g)
				*g = (struct kp_profile_group){
					.tgid = tgid, .first = sh->classes,
				};
			sh->groups++;
		}
		if (g)
			g->nr += !!nr[0] + !!nr[1];
		if (nr[0])
			kp_index_class(idx, sh, from, to, false, nr[0]);
		if (nr[1])
			kp_index_class(idx, sh, from, to, true, nr[1]);
		from = to;
	}
}

/* A snapshot the size of @sh, its counters zeroed; NULL without memory. */
static struct kp_profile_index *kp_index_alloc(struct kp_sampler *set,
					       u32 source,
					       const struct kp_index_shape *sh,
					       gfp_t gfp)
{
	size_t bytes = sizeof(struct kp_profile_index);
	struct kp_profile_index *idx;
	size_t entries, tree, classes;

	entries = bytes;
	bytes += sh->n * sizeof(struct kp_profile_entry);
	tree = bytes;
	bytes += sh->tree * sizeof(u64);
	classes = bytes;
	bytes += sh->classes * sizeof(struct kp_profile_class);
	idx = kvzalloc(bytes + sh->groups * sizeof(struct kp_profile_group),
		       gfp);
	if (!idx)
		return NULL;
	idx->stride = ALIGN(sh->classes * sizeof(struct kp_profile_class_stat),
			    SMP_CACHE_BYTES);
	idx->stat = kvzalloc(array_size(nr_cpu_ids, idx->stride), gfp);
	if (!idx->stat) {
		kvfree(idx);
		return NULL;
	}
	idx->set = set;
	idx->source = source;
	idx->bytes = bytes;
	idx->nr = sh->n;
	idx->nr_groups = sh->groups;
	idx->nr_classes = sh->classes;
	idx->entries = (void *)idx + entries;
	idx->tree = (void *)idx + tree;
	idx->classes = (void *)idx + classes;
	idx->groups = (void *)idx + bytes;
	INIT_LIST_HEAD(&idx->unfolded);
	return idx;
}

/**
 * kp_profile_index_find() - the classes of one thread group in a
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
	u32 lo = 0, hi = idx->nr_groups;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
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
EXPORT_SYMBOL_IF_KUNIT(kp_profile_index_find);
NOKPROBE_SYMBOL(kp_profile_index_find);

/* Publish @idx (may be NULL) for @source; the old snapshot is retired. */
static void kp_index_publish(struct kp_sampler *set, u32 source,
			     struct kp_profile_index *idx, int seq)
{
	struct kp_profile_index *old;

	if (idx) {
		mutex_lock(&set->fold_lock);
		list_add_tail(&idx->unfolded, &set->unfolded);
		mutex_unlock(&set->fold_lock);
	}
	old = rcu_replace_pointer(set->index[source], idx,
				  lockdep_is_held(&set->lock));
	if (old)
		kp_profile_index_retire(old);
	if (!idx)
		return;
	smp_mb();	/* the pointer, then the hook's count: profile_exec.c */
	if (atomic_read(&set->exec_seq) != seq)
		kp_profile_exec_fixup(idx);
}

/**
 * kp_profile_index_rebuild() - publish a new snapshot of the started
 *	profiles of @source (the sampler's @started list).
 * @set:    the sampler.
 * @source: the source.
 * @gfp:    allocation flags.
 *
 * The old snapshot's counters are folded into its profiles and it is
 * freed after a grace period.  With no profile started, the snapshot is
 * NULL.
 * Context: process; the sampler's @lock held.
 *
 * Return: 0, or -ENOMEM (the old snapshot stays published).
 */
int kp_profile_index_rebuild(struct kp_sampler *set, u32 source, gfp_t gfp)
{
	struct kp_profile_index *idx = NULL;
	struct list_head *head = &set->started[source];
	struct kp_index_shape sh;
	int seq;

	lockdep_assert_held(&set->lock);
	seq = atomic_read(&set->exec_seq);
	smp_rmb();	/* the hook's count, then the flags it wrote before */
	kp_index_walk(head, &sh, NULL);
	if (sh.n) {
		idx = kp_index_alloc(set, source, &sh, gfp);
		if (!idx)
			return -ENOMEM;
		kp_index_walk(head, &sh, idx);
	}
	kp_index_publish(set, source, idx, seq);
	return 0;
}

/* Take @p out of @idx's class in place; false when it is not there. */
static bool kp_index_drop(struct kp_profile_index *idx, struct kp_profile *p)
{
	struct kp_profile_class *c;
	struct kp_profile_entry *e;
	u32 ci, i;

	for (ci = 0; ci < idx->nr_classes; ci++) {
		c = &idx->classes[ci];
		e = idx->entries + c->first;
		for (i = 0; i < c->nr && e[i].p != p; i++)
			;
		if (i == c->nr)
			continue;
		memmove(&e[i], &e[i + 1], (c->nr - i - 1) * sizeof(*e));
		c->nr--;
		idx->nr--;
		kp_index_reach(idx, c);
		if (c->span)
			kp_index_tree(idx, c);
		return true;
	}
	return false;
}

/**
 * kp_profile_index_remove() - unpublish @p from its source's snapshot,
 *	without failing.
 * @set: the sampler.
 * @p:   a started profile, already off the @started list.
 *
 * A new snapshot is published; if it cannot be allocated, the old one is
 * unpublished, a grace period waited for, its counters folded, @p taken
 * out of it in place and it is published again (interrupts of the source
 * in that window are not counted, and an exec hook that runs then finds
 * no profile to stop).
 * Context: process; the sampler's @lock held; may sleep.
 */
void kp_profile_index_remove(struct kp_sampler *set, struct kp_profile *p)
{
	struct kp_profile_index *idx;
	bool dropped;
	int seq;

	lockdep_assert_held(&set->lock);
	if (!kp_profile_index_rebuild(set, p->source,
				      GFP_KERNEL | __GFP_NOWARN))
		return;
	idx = rcu_replace_pointer(set->index[p->source], NULL,
				  lockdep_is_held(&set->lock));
	if (!idx)
		return;
	synchronize_rcu();
	seq = atomic_read(&set->exec_seq);
	mutex_lock(&set->fold_lock);
	kp_profile_index_fold(idx);
	dropped = kp_index_drop(idx, p);
	if (!idx->nr)
		list_del_init(&idx->unfolded);
	mutex_unlock(&set->fold_lock);
	if (dropped)
		kp_profile_put(p);
	if (!idx->nr) {
		kp_profile_index_free(idx);
		return;
	}
	rcu_assign_pointer(set->index[p->source], idx);
	smp_mb();	/* as kp_index_publish() */
	if (atomic_read(&set->exec_seq) != seq)
		kp_profile_exec_fixup(idx);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile.h - profile objects (NtCreateProfile / NtCreateProfileEx,
 * NtStartProfile, NtStopProfile; docs/profiles.md): a histogram of one source's
 * interrupts over an address range, written live into the caller's
 * buffer of 32-bit buckets.
 *
 * Files
 * -----
 * profile.c	   the object: create, start, stop, statistics, its fd.
 * profile_check.c validation of a create request and the privilege rules.
 * profile_buf.c   the bucket buffer: pinning the caller's pages.
 * profile_hit.c   the hit path: which started profiles an interrupt hits.
 * profile_index.c the started profiles of a source, indexed by process,
 *		   filters and address.
 * profile_stats.c the statistics: a profile's own counters and its
 *		   classes', folded when a snapshot goes.
 * profile_exec.c  a set-user-ID exec stops the profiles of the process.
 *
 * Object model and locking
 * ------------------------
 * Profiles are one of the two consumers of a struct kp_sampler (sampler.h;
 * the other is sample streams, stream.h), which feeds them every
 * interrupt of a source (kp_sampler_sample() calls kp_profile_hit()).
 * The sampler's @lock (a mutex) serialises every start and stop of its
 * profiles: it protects each profile's @started, @buf (writers) and
 * @node, the sampler's lists @started and snapshots @index (writers),
 * and the ProfileTime user count.  The lock order after it is the
 * sampler's (sampler.h); the whole module's is in locking.h.
 *
 * The hit path (NMI and hrtimer context) takes no lock and allocates
 * nothing: it reads the source's RCU-published index snapshot
 * (profile_index.c), filters the classes of the system-wide profiles and
 * of the interrupted process (profiles that share their filters), finds
 * by address the profiles whose range holds the ip, reads their
 * immutable fields and RCU-published buffers, and increments atomics
 * (the buckets) and per-CPU counters (the statistics: a class's, and a
 * counted profile's own).  The sampler's @fold_lock protects each
 * profile's @folded and the @unfolded list (profile_stats.c); the exec
 * hook writes @exec_stopped flags without a lock (profile_exec.c).
 * A snapshot holds a reference on each of its profiles until its
 * counters are folded.  Stop unpublishes the buffer,
 * unlinks the profile and publishes a snapshot without it, and returns
 * at once: the buffer is unpinned by a work item queued after an RCU
 * grace period (NMI handlers and hrtimer callbacks are RCU readers),
 * which holds a reference on the profile (@refs) so that neither is
 * freed while an interrupt may still see them.  Stopping N profiles
 * thus waits for no grace period at all, and their releases share them.
 */
#ifndef _KPROFILE_PROFILE_H
#define _KPROFILE_PROFILE_H

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/list.h>
#include <asm/local64.h>
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/refcount.h>
#include <linux/workqueue.h>
#include <linux/rcupdate.h>
#include <linux/types.h>
#include <uapi/linux/kprofile.h>

#include "pmu.h"
#include "sampler.h"
#include "sources.h"

struct mm_struct;
struct page;
struct pid;
struct task_struct;

/* Smallest and largest bucket, as log2 of bytes (NtCreateProfile). */
#define KP_BUCKET_SHIFT_MIN	2
#define KP_BUCKET_SHIFT_MAX	31

/**
 * struct kp_profile_buf - the pinned bucket buffer of a started profile.
 * @pages:     the pages holding the buckets, in order.
 * @nr_pages:  entries in @pages.
 * @offset:    byte offset of bucket 0 in @pages[0].
 * @user:      @pages are pinned user pages (unpinned when released); false
 *	       for a kernel buffer a test provides.
 * @mm:	       the address space whose locked_vm the pages are charged to
 *	       (RLIMIT_MEMLOCK), when @user.
 * @lost:      the profile's flag the watch sets when the mapping of the
 *	       pages changes (profile_buf.c).
 * @watched:   @mni is registered.
 * @mni:       the watch on the range, when @watched.
 *
 * Immutable while published: the hit path reads it under RCU.
 */
struct kp_profile_buf {
	struct page **pages;
	unsigned int nr_pages;
	unsigned int offset;
	bool user;
	struct mm_struct *mm;
	bool *lost;
	bool watched;
	struct mmu_interval_notifier mni;
	struct rcu_work rwork;
	struct kp_profile *owner;
};

/**
 * struct kp_profile_entry - one started profile in its class of an index
 *	snapshot, by address.
 * @base:  first address of its range.
 * @last:  last address of its range (@base + @size - 1).
 * @reach: the largest @last of this entry and the class's entries before
 *	   it: no entry up to here contains an ip above it.
 * @p:	   the profile.
 */
struct kp_profile_entry {
	u64 base;
	u64 last;
	u64 reach;
	struct kp_profile *p;
};

/**
 * struct kp_profile_class - the started profiles of one thread group (or
 *	the system-wide ones) in a snapshot whose filters are the same, so
 *	an interrupt passes them or not all at once (profile_index.c).
 * @cpus:	  the CPU set, or NULL for every CPU.
 * @mm:		  for @self: the creator's address space (compared only).
 * @mode:	  kp_counter_mode() of the profiles' mode (BOTH is TABLE).
 * @dumpable_only: see struct kp_profile.
 * @self:	  KPROFILE_TARGET_SELF profiles (the @mm rule).
 * @exec_stopped: the profiles are @exec_stopped: set when the snapshot is
 *		  built, or later by the exec hook (WRITE_ONCE()); read by
 *		  the hit path.
 * @interval:	  the profiles' own ProfileTime interval, or 0: the
 *		  machine-wide one (sampler_rate.c).
 * @first:	  the first of its @nr entries in the snapshot's @entries,
 *		  sorted by @base (then by profile pointer).
 * @nr:		  its entries.
 * @tree:	  when two of its ranges overlap: the offset in the
 *		  snapshot's @tree of 2 * @span slots, a max-tree of the
 *		  entries' @last (leaves at [@span, 2 * @span)); else unused.
 * @span:	  the tree's leaves, a power of two >= @nr; 0: no tree (no
 *		  two ranges overlap).
 */
struct kp_profile_class {
	const struct cpumask *cpus;
	const struct mm_struct *mm;
	u8 mode;
	bool dumpable_only;
	bool self;
	bool exec_stopped;
	u32 interval;
	u32 first;
	u32 nr;
	u32 tree;
	u32 span;
};

/**
 * struct kp_profile_class_stat - what one class's filters passed on one
 *	CPU: what each of its profiles counts as wrong_mode, not_dumpable
 *	and (less its own hits and unavailable) outside.  local64_t: the
 *	CPU's NMI may interrupt its own hardirq's increment.
 * @passed:	  passed every filter but the range.
 * @wrong_mode:	  matched CPU and task, not the mode.
 * @not_dumpable: of the target, hidden by dumpability.
 * @credit:	  ProfileTime: the time ticked for the class on this CPU
 *		  since its last sample, in 100 ns units (kp_rate_due()).
 */
struct kp_profile_class_stat {
	local64_t passed;
	local64_t wrong_mode;
	local64_t not_dumpable;
	local64_t credit;
};

/**
 * struct kp_profile_group - the classes of one thread group in an index
 *	snapshot.
 * @tgid:  the thread group (NULL: the system-wide profiles).
 * @first: index of its first class in the snapshot's @classes.
 * @nr:	   its classes (consecutive).
 */
struct kp_profile_group {
	const struct pid *tgid;
	u32 first;
	u32 nr;
};

/**
 * struct kp_profile_index - an immutable snapshot of the started profiles
 *	of one source (profile_index.c), with the counters of its classes.
 * @rwork:     folds the counters into the profiles and frees the snapshot
 *	       a grace period after it was replaced (profile_stats.c).
 * @unfolded:  on the sampler's @unfolded list until then.
 * @set:       the sampler.
 * @source:    the source.
 * @bytes:     the size of the allocation.
 * @nr:	       profiles (entries).
 * @nr_groups: entries in @groups.
 * @nr_classes: entries in @classes.
 * @system:    the classes of the system-wide profiles.
 * @groups:    the thread groups, sorted by pid pointer (binary search).
 * @classes:   the classes; each group's are consecutive.
 * @entries:   the profiles; each class's are consecutive, by address.
 * @tree:      the max-trees of the classes that have one.
 * @stat:      per CPU (row @cpu * @stride bytes in), per class counters.
 * @stride:    bytes of one CPU's row of @stat (cache-line aligned).
 *
 * The snapshot holds a reference on each of its profiles (@refs) until
 * its counters are folded.
 */
struct kp_profile_index {
	struct rcu_work rwork;
	struct list_head unfolded;
	struct kp_sampler *set;
	u32 source;
	size_t bytes;
	u32 nr;
	u32 nr_groups;
	u32 nr_classes;
	struct kp_profile_group system;
	struct kp_profile_group *groups;
	struct kp_profile_class *classes;
	struct kp_profile_entry *entries;
	u64 *tree;
	void *stat;
	size_t stride;
};

/**
 * kp_profile_class_stat() - one class's counters on one CPU.
 * @idx: the snapshot.
 * @cpu: the CPU (< nr_cpu_ids).
 * @ci:	 the class.
 *
 * Return: the counters.
 */
static inline struct kp_profile_class_stat *
kp_profile_class_stat(const struct kp_profile_index *idx, unsigned int cpu,
		      u32 ci)
{
	return (struct kp_profile_class_stat *)(idx->stat + cpu * idx->stride) +
	       ci;
}

/**
 * struct kp_profile_stat - a profile's own counters on one CPU; written by
 *	that CPU's hit path only (this_cpu_inc(), NMI-safe on x86), summed
 *	when read.  The other statistics are its classes' (above).
 * @hits:	  see struct kp_profile.
 * @unavailable:  see struct kp_profile.
 */
struct kp_profile_stat {
	u64 hits;
	u64 unavailable;
};

/**
 * struct kp_profile_folded - the class counters of the snapshots a
 *	profile was in that are gone, added up (profile_stats.c);
 *	protected by the sampler's @fold_lock.
 * @passed:	  see struct kp_profile_class_stat.
 * @wrong_mode:	  see struct kp_profile_class_stat.
 * @not_dumpable: see struct kp_profile_class_stat.
 */
struct kp_profile_folded {
	u64 passed;
	u64 wrong_mode;
	u64 not_dumpable;
};

/**
 * struct kp_profile - one profile object.
 * @set:	 the sampler it belongs to.
 * @source:	 the KPROFILE_SOURCE.
 * @target:	 enum kprofile_target.
 * @mode:	 enum kprofile_mode; TABLE counts both modes.
 * @base:	 first address of the range.
 * @size:	 bytes in the range.
 * @shift:	 log2 of the bucket size.
 * @nr_buckets:	 ceil(@size / 2^@shift).
 * @ubuf:	 the caller's buffer (user address).
 * @tgid:	 the profiled process's thread-group pid (a reference), or
 *		 NULL for KPROFILE_TARGET_SYSTEM.
 * @dumpable_only: count only tasks that are dumpable: the creator had no
 *		 capability to inspect a task that turned non-dumpable (a
 *		 set-user-ID exec, prctl(PR_SET_DUMPABLE)).
 * @exec_stopped: the target executed a program that left it non-dumpable
 *		 (set-user-ID, set-group-ID, file capabilities) while the
 *		 profile was started: it counts the target no more, as perf
 *		 tears its task events down at such an exec.  Set once, by
 *		 the exec hook (profile_exec.c); the hit path reads its
 *		 class's copy (struct kp_profile_class).
 * @index_stopped: @exec_stopped as the last snapshot build read it
 *		 (profile_index.c; under the sampler's @lock).
 * @all_cpus:	 the CPU set was empty: every CPU.
 * @cpus:	 otherwise, the CPUs.
 * @mm:		 the address space of @ubuf (a reference: mmgrab()), or NULL
 *		 for a profile a test creates.
 * @refs:	 the fd's reference, plus one per buffer release pending.
 * @interval:	 its own ProfileTime interval (100 ns units), or 0: it
 *		 follows the machine-wide one.  Written only while stopped
 *		 (kp_profile_set_interval()), under the sampler's @lock; part
 *		 of its class's filters.
 * @started:	 between start and stop; protected by the sampler's @lock.
 * @node:	 on the sampler's @started[@source] list while started.
 * @buf:	 the pinned buffer while started (RCU; written under @lock).
 * @buf_lost:	 the buffer's mapping changed since the last start: counts
 *		 would be invisible (profile_buf.c); set by the watch, read
 *		 by the hit path, cleared at start.
 * @stat:	 per-CPU counters of the interrupts counted in a bucket
 *		 (hits) and of those in range while the buffer was not
 *		 there, a stop racing with them or @buf_lost (unavailable).
 * @folded:	 the counters of its classes in snapshots that are gone:
 *		 interrupts whose task matched but mode did not
 *		 (wrong_mode); of the target not counted because it was not
 *		 dumpable, see @dumpable_only, @exec_stopped (not_dumpable);
 *		 that passed every filter but the range (passed: outside is
 *		 passed - hits - unavailable).  profile_stats.c.
 *
 * Everything above @refs is immutable after creation.
 */
struct kp_profile {
	struct kp_sampler *set;
	u32 source;
	u32 target;
	enum kprofile_mode mode;
	u64 base;
	u64 size;
	u32 shift;
	u64 nr_buckets;
	unsigned long ubuf;
	struct pid *tgid;
	bool dumpable_only;
	bool exec_stopped;
	bool index_stopped;
	bool all_cpus;
	cpumask_var_t cpus;
	struct mm_struct *mm;

	refcount_t refs;
	u32 interval;
	bool started;
	struct list_head node;
	struct kp_profile_buf __rcu *buf;
	bool buf_lost;

	struct kp_profile_stat __percpu *stat;
	struct kp_profile_folded folded;
};

struct kp_profile *kp_profile_new(struct kp_sampler *set,
				  const struct kprofile_create_profile *req,
				  struct pid *tgid, const struct cpumask *cpus);
void kp_profile_free(struct kp_profile *p);
void kp_profile_get(struct kp_profile *p);
void kp_profile_put(struct kp_profile *p);
int kp_profile_start_buf(struct kp_profile *p, struct kp_profile_buf *buf,
			 char *reason, size_t len);
int kp_profile_start(struct kp_profile *p, char *reason, size_t len);
int kp_profile_stop(struct kp_profile *p);
void kp_profile_get_stats(struct kp_profile *p,
			  struct kprofile_profile_stats *st);
void kp_profile_get_stats_ex(struct kp_profile *p,
			     struct kprofile_profile_stats_ex *st);
bool kp_profile_buf_lost(struct kp_profile *p);

/* profile_check.c */
int kp_profile_check(const struct kp_sources *sources,
		     const struct kprofile_create_profile *req,
		     u64 *nr_buckets);
bool kp_profile_kernel_range(const struct kprofile_create_profile *req);
int kp_profile_check_access(const struct kprofile_create_profile *req,
			    struct pid **tgid);
int kp_profile_check_buffer(const struct kprofile_create_profile *req,
			    u64 nr_buckets);

/* profile_buf.c */
struct kp_profile_buf *kp_profile_buf_pin(struct mm_struct *mm,
					  unsigned long ubuf, u64 nr_buckets,
					  bool *lost);
void kp_profile_buf_release(struct kp_profile_buf *buf);

/* profile_index.c */
const struct kp_profile_group *
kp_profile_index_find(const struct kp_profile_index *idx,
		      const struct pid *tgid);
void kp_profile_index_link(struct kp_sampler *set, struct kp_profile *p);
int kp_profile_index_rebuild(struct kp_sampler *set, u32 source, gfp_t gfp);
void kp_profile_index_remove(struct kp_sampler *set, struct kp_profile *p);

/* profile_stats.c */
void kp_profile_index_retire(struct kp_profile_index *idx);
void kp_profile_index_fold(struct kp_profile_index *idx);
void kp_profile_index_free(struct kp_profile_index *idx);

/* profile_hit.c */
bool kp_profile_hit(struct kp_sampler *set, const struct kp_sample *s);
bool kp_profile_time_wanted(struct kp_sampler *set, struct task_struct *task);

/* profile_exec.c */
int kp_profile_exec_init(struct kp_sampler *set);
void kp_profile_exec_exit(struct kp_sampler *set);
void kp_profile_exec(struct kp_sampler *set, struct task_struct *task);
void kp_profile_exec_fixup(struct kp_profile_index *idx);

#endif /* _KPROFILE_PROFILE_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * profile_exec.c - an exec that leaves a process non-dumpable stops its
 * profiles.
 *
 * Linux tears a task's perf events down when it executes a program that
 * leaves it non-dumpable: a set-user-ID or set-group-ID program, or one
 * with file capabilities (begin_new_exec(): "Disable monitoring for
 * regular users when executing setuid binaries", perf_event_exit_task()).
 * kprofile does the same for the profiles of a process (its own, and
 * profiles of it by pid): the sched_process_exec tracepoint runs after
 * begin_new_exec() decided the dumpability, and marks every started
 * profile of the process @exec_stopped.  The hit path then counts the
 * process's interrupts as not_dumpable, and the statistics say
 * EXEC_STOPPED.  Counts taken before the exec stay in the buckets.
 *
 * The hook (sched_hooks.h) finds the process's profiles in the
 * published index snapshots under RCU and only sets flags: the profiles'
 * (which the statistics report) and their classes' (which the hit path
 * reads, profile_index.c).  Between the new program's first instruction and the hook,
 * a profile of oneself is covered by the hit path's own rule (a
 * non-dumpable address space other than the creator's is not counted).
 */
#include <linux/binfmts.h>
#include <linux/rculist.h>
#include <linux/sched.h>

#include "access.h"
#include "compat.h"
#include "kprofile.h"
#include "profile.h"
#include "sched_hooks.h"

/* The exec hook is registered (the module's sampler only). */
static bool kp_exec_hooked;

static void kp_profile_on_exec(void *data, struct task_struct *task,
			       pid_t old_pid, struct linux_binprm *bprm)
{
	if (!kp_task_dumpable(task))
		kp_profile_exec(data, task);
}

/* Mark @g's classes of @idx and their profiles @exec_stopped. */
static void kp_profile_exec_group(struct kp_profile_index *idx,
				  const struct kp_profile_group *g)
{
	u32 ci, i;

	for (ci = g->first; ci < g->first + g->nr; ci++) {
		struct kp_profile_class *c = &idx->classes[ci];

		for (i = c->first; i < c->first + c->nr; i++)
			WRITE_ONCE(idx->entries[i].p->exec_stopped, true);
		WRITE_ONCE(c->exec_stopped, true);
	}
}

/**
 * kp_profile_exec() - @task executed a program that left it non-dumpable:
 *	stop counting it in every started profile of its process.
 * @set:  the profiles.
 * @task: the task (current, in the exec hook).
 *
 * Marks the profiles of the process and their classes in each source's
 * published snapshot, then bumps the sampler's @exec_seq and looks again:
 * a rebuild that published a snapshot meanwhile either sees the count
 * move (and fixes its classes up, kp_profile_exec_fixup()) or was
 * published before the look, which marks it too (both sides order their
 * write before their read with a full barrier).
 * Context: any but NMI; no locks taken.
 */
void kp_profile_exec(struct kp_sampler *set, struct task_struct *task)
{
	struct pid *tgid = task_tgid(task);
	struct kp_profile_index *idx, *seen;
	const struct kp_profile_group *g;
	unsigned int i;

	rcu_read_lock();
	for (i = 0; i < KP_SOURCE_LIMIT; i++) {
		seen = NULL;
		for (;;) {
			idx = rcu_dereference(set->index[i]);
			if (!idx || idx == seen)
				break;
			seen = idx;
			g = kp_profile_index_find(idx, tgid);
			if (g)
				kp_profile_exec_group(idx, g);
			atomic_inc_return(&set->exec_seq); /* full barrier */
		}
	}
	rcu_read_unlock();
}
EXPORT_SYMBOL_IF_KUNIT(kp_profile_exec);

/**
 * kp_profile_exec_fixup() - a just published snapshot raced with the
 *	exec hook: mark whole every class of it of which a profile is
 *	@exec_stopped.
 * @idx: the snapshot.
 *
 * The build read each profile's flag once and split the classes by it;
 * a hook that ran meanwhile marked the profiles in the previous snapshot,
 * which may be part of a class of this one.  Its process executed while
 * its profiles were being started: the class counts as stopped, all of
 * it.
 * Context: process; the sampler's @lock held.
 */
void kp_profile_exec_fixup(struct kp_profile_index *idx)
{
	u32 ci, i;

	lockdep_assert_held(&idx->set->lock);
	for (ci = 0; ci < idx->nr_classes; ci++) {
		struct kp_profile_class *c = &idx->classes[ci];
		bool any = false;

		for (i = c->first; i < c->first + c->nr; i++)
			any |= READ_ONCE(idx->entries[i].p->exec_stopped);
		if (!any || c->exec_stopped)
			continue;
		for (i = c->first; i < c->first + c->nr; i++)
			WRITE_ONCE(idx->entries[i].p->exec_stopped, true);
		WRITE_ONCE(c->exec_stopped, true);
	}
}

/**
 * kp_profile_exec_init() - hook exec for @set.
 * @set: the module's profiles.
 *
 * Without the tracepoint (CONFIG_TRACEPOINTS off) the module still loads:
 * the hit path's own rule still hides a non-dumpable program from a
 * profile of oneself.
 *
 * Return: 0, or an error of kp_sched_hook_register().
 */
int kp_profile_exec_init(struct kp_sampler *set)
{
	int ret;

	if (!kp_sched_hook_found(KP_SCHED_EXEC)) {
		pr_warn(KP_NAME ": no sched_process_exec tracepoint: profiles of a process that executes a set-user-ID program are not marked EXEC_STOPPED\n");
		return 0;
	}
	ret = kp_sched_hook_register(KP_SCHED_EXEC, kp_profile_on_exec, set);
	kp_exec_hooked = !ret;
	return ret;
}

/**
 * kp_profile_exec_exit() - unhook exec.
 * @set: as given to kp_profile_exec_init().
 *
 * Context: process; waits until no hook runs.
 */
void kp_profile_exec_exit(struct kp_sampler *set)
{
	if (!kp_exec_hooked)
		return;
	kp_sched_hook_unregister(KP_SCHED_EXEC, kp_profile_on_exec, set);
	kp_sched_hooks_sync();
	kp_exec_hooked = false;
}

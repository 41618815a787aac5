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
 * The hook (sched_hooks.h) walks the started lists under RCU and only
 * sets flags.  Between the new program's first instruction and the hook,
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

/**
 * kp_profile_exec() - @task executed a program that left it non-dumpable:
 *	stop counting it in every started profile of its process.
 * @set:  the profiles.
 * @task: the task (current, in the exec hook).
 *
 * Context: any but NMI; no locks taken.
 */
void kp_profile_exec(struct kp_sampler *set, struct task_struct *task)
{
	struct pid *tgid = task_tgid(task);
	const struct kp_profile_group *g;
	const struct kp_profile_index *idx;
	unsigned int i, j;

	rcu_read_lock();
	for (i = 0; i < KP_SOURCE_LIMIT; i++) {
		idx = rcu_dereference(set->index[i]);
		g = idx ? kp_profile_index_find(idx, tgid) : NULL;
		if (!g)
			continue;
		for (j = g->first; j < g->first + g->nr; j++)
			WRITE_ONCE(idx->profiles[j]->exec_stopped, true);
	}
	rcu_read_unlock();
}
EXPORT_SYMBOL_IF_KP_TEST(kp_profile_exec);

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

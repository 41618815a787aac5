/* SPDX-License-Identifier: GPL-2.0 */
/*
 * access.h - may the caller inspect another process?  The kernel's own
 * rule, ptrace_may_access(task, PTRACE_MODE_READ_REALCREDS), as
 * perf_event_open() applies it, for profiles and thread profiling; and
 * what kernel.perf_event_paranoid lets an unprivileged caller do.
 */
#ifndef _KPROFILE_ACCESS_H
#define _KPROFILE_ACCESS_H

#include <linux/mm_types.h>
#include <linux/sched.h>
#include <linux/types.h>

#include "compat.h"

/**
 * kp_task_dumpable() - whether @task is dumpable, as ptrace sees it.
 * @task: a task, locked (task_lock()) or current.
 *
 * A task with an mm is dumpable when its mm is SUID_DUMP_USER; a task
 * without one (a kernel thread, or a task past exit_mm()) only as its
 * user_dumpable flag says (task_still_dumpable() in kernel/ptrace.c).
 * How dumpability is read depends on the kernel (compat.h).
 * Context: any, NMI included.
 *
 * Return: true when dumpable.
 */
static inline bool kp_task_dumpable(struct task_struct *task)
{
	struct mm_struct *mm = READ_ONCE(task->mm);

	if (mm)
		return kp_compat_dumpable(task, mm);
	return kp_compat_dumpable_nomm(task);
}

int kp_access_init(void);
void kp_access_exit(void);
int kp_access_thread_creds(struct task_struct *t);
int kp_may_access_task(struct task_struct *task);
int kp_perf_event_paranoid(void);
int kp_perf_allowed(bool kernel_mode);

#endif /* _KPROFILE_ACCESS_H */

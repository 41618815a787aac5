/* SPDX-License-Identifier: GPL-2.0 */
/*
 * access.h - may the caller inspect another process?  The kernel's own
 * rule, ptrace_may_access(task, PTRACE_MODE_READ_REALCREDS), as
 * perf_event_open() applies it, for profiles, streams and thread
 * profiling; what kernel.perf_event_paranoid lets an unprivileged caller
 * do; and the privilege rules of a new profile or stream built on them.
 */
#ifndef _KPROFILE_ACCESS_H
#define _KPROFILE_ACCESS_H

#include <linux/mm_types.h>
#include <linux/sched.h>
#include <linux/types.h>

#include "compat.h"

struct pid;

/**
 * struct kp_access_request - what a new profile or stream would see, for
 *	kp_access_check().
 * @target:	  enum kprofile_target.
 * @pid:	  with KPROFILE_TARGET_PID, the process (in the caller's pid
 *		  namespace).
 * @kernel_mode:  it counts kernel mode (a mode other than
 *		  KPROFILE_MODE_USER).
 * @kernel_range: its address range reaches kernel addresses.
 * @counter:	  it arms a counter source, not only ProfileTime.
 */
struct kp_access_request {
	u32 target;
	pid_t pid;
	bool kernel_mode;
	bool kernel_range;
	bool counter;
};

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
int kp_access_check(const struct kp_access_request *ar, struct pid **tgid);
bool kp_access_dumpable_only(u32 target, const struct pid *tgid);

#endif /* _KPROFILE_ACCESS_H */

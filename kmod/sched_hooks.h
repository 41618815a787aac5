/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched_hooks.h - the scheduler hooks: the sched_switch,
 * sched_process_fork, sched_process_exec and sched_process_exit
 * tracepoints, found once at load (sched_hooks.c), and the one way the
 * module's consumers put probes on them and take them off.
 *
 * Consumers
 * ---------
 *   sched_switch	ProfileTime's timers follow profiled tasks
 *			(sampler_timer.c); thread profiling charges them
 *			(thread_fd.c).
 *   sched_process_fork	streams follow children (stream_follow.c); thread
 *			profiling with INHERIT (thread_fd.c).
 *   sched_process_exec	a set-user-ID exec stops profiles
 *			(profile_exec.c); streams' EXEC records
 *			(stream_follow.c); thread profiling (thread_fd.c).
 *   sched_process_exit	streams' EXIT records (stream_follow.c); thread
 *			profiling (thread_fd.c).
 *
 * Probes
 * ------
 * A probe's prototype is the tracepoint's, with the consumer's data
 * first.  Two changed across the kernels the module builds for, so
 * compat.h declares them: KP_SCHED_SWITCH_PROBE(fn) and
 * KP_SCHED_EXIT_PROBE(fn) (with KP_SCHED_EXIT_GROUP_DEAD()).  The other
 * two are
 *
 *   void fn(void *data, struct task_struct *parent,
 *	     struct task_struct *child);		(fork)
 *   void fn(void *data, struct task_struct *task, pid_t old_pid,
 *	     struct linux_binprm *bprm);		(exec)
 *
 * Probe contexts
 * --------------
 * sched_switch runs inside __schedule() with interrupts off.  fork runs
 * in the parent, exec and exit in the task itself, in process context;
 * until 6.19 the tracepoint code ran every probe with preemption off (an
 * RCU read side), but since 7.0 these three run preemptible (compat.h).
 * So a probe that needs an RCU read side (a walk of an RCU list) or one
 * CPU (a ring, a per-CPU charge) takes rcu_read_lock() or
 * preempt_disable() itself, which on older kernels nests harmlessly in
 * the tracepoint's own.  In every probe: no sleeping lock, no sleeping,
 * no allocation that may sleep (PREEMPT_RT forbids allocating with
 * preemption off at all).
 *
 * Locking
 * -------
 * kp_sched_hook_register() and kp_sched_hook_unregister() take the
 * tracepoint code's mutexes (tracepoints_mutex, and inside it the CPU
 * hotplug lock for the static calls): never call them under
 * cpus_read_lock() or a lock taken after it (locking.h, "tracepoint
 * mutexes").  After an unregister, kp_sched_hooks_sync() waits until no
 * probe of it runs any more.  The tracepoints are found before any
 * consumer starts and never change after: no lock.
 */
#ifndef _KPROFILE_SCHED_HOOKS_H
#define _KPROFILE_SCHED_HOOKS_H

#include <linux/types.h>

/**
 * enum kp_sched_hook - a scheduler tracepoint.
 * @KP_SCHED_SWITCH: sched_switch.
 * @KP_SCHED_FORK:   sched_process_fork.
 * @KP_SCHED_EXEC:   sched_process_exec.
 * @KP_SCHED_EXIT:   sched_process_exit.
 * @KP_SCHED_HOOKS:  the number of hooks.
 */
enum kp_sched_hook {
	KP_SCHED_SWITCH,
	KP_SCHED_FORK,
	KP_SCHED_EXEC,
	KP_SCHED_EXIT,
	KP_SCHED_HOOKS,
};

/**
 * struct kp_sched_probe - one probe of a consumer's set of probes.
 * @hook:  the tracepoint.
 * @probe: the function, with the tracepoint's prototype (see above).
 */
struct kp_sched_probe {
	enum kp_sched_hook hook;
	void *probe;
};

void kp_sched_hooks_init(void);
bool kp_sched_hook_found(enum kp_sched_hook hook);
int kp_sched_hook_register(enum kp_sched_hook hook, void *probe, void *data);
void kp_sched_hook_unregister(enum kp_sched_hook hook, void *probe,
			      void *data);
void kp_sched_hooks_sync(void);
int kp_sched_hooks_register(const struct kp_sched_probe *probes,
			    unsigned int nr, void *data);
void kp_sched_hooks_unregister(const struct kp_sched_probe *probes,
			       unsigned int nr, void *data);

#endif /* _KPROFILE_SCHED_HOOKS_H */

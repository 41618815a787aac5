/* SPDX-License-Identifier: GPL-2.0 */
/*
 * thread.h - thread profiling: the machine-wide hardware-counter
 * configuration (KeSetHardwareCounterConfiguration) and the one client that
 * counts, per thread, context switches, TSC cycles run and the configured
 * counters (EnableThreadProfiling / ReadThreadProfilingData).
 *
 * Object model
 * ------------
 * struct kp_threads (one per machine, in struct kp_device) holds the
 * configuration and the active client.  The configuration owns its
 * counters: a set claims them from the hardware layer as counting counters
 * (kp_pmu_claim_counting()) and they stay claimed until the next set.
 * A client (struct kp_thread_client, behind the fd
 * KPROFILE_IOC_THREAD_ENABLE returns) copies the configuration it reads at
 * enable time and tracks struct kp_thread_task entries, one per profiled
 * thread, found by task pointer in an RCU hash table.
 *
 * Accounting
 * ----------
 * At each context switch (the sched_switch tracepoint) the entry of the
 * task switched out is charged: the TSC delta since it was switched in and
 * each counter's value, which kp_thread_switch_in() zeroed and started on
 * this CPU and kp_thread_switch_out() stops and reads.  So counters and
 * cycles only advance while a profiled thread runs.  A thread created by a
 * profiled one (sched_process_fork) joins with KPROFILE_THREAD_INHERIT; a
 * thread that exits (sched_process_exit) is charged up to then, leaves the
 * hash table and stays listed as exited until the client is closed.  A
 * thread that executes a program leaving it non-dumpable (set-user-ID)
 * leaves the same way, listed as exec-stopped: as perf, kprofile does not
 * count privileged programs for an unprivileged client.
 *
 * Locking
 * -------
 * kp_threads.lock (mutex) protects the configuration and the client
 * pointer: set, query, enable and release take it.  kp_thread_client.lock
 * (raw spinlock: taken in tracepoint context with preemption off) protects
 * the client's hash table and list writers, @nr and @lost; the list and
 * read ioctls walk @all under it in batches (the list only grows, and
 * entries are freed only with the client), re-enabling interrupts between
 * batches; readers of the hash table in the switch hook use RCU (the
 * tracepoint runs with preemption disabled) and take no lock.  An entry's
 * counts are written only on the CPU its thread runs on, in the hooks
 * (one writer, with WRITE_ONCE()); readers take READ_ONCE() snapshots.
 * Order: kp_threads.lock, then cpus_read_lock() and kp_pmu.lock (inside
 * the hardware layer, when a configuration claims or releases its
 * counters); kp_thread_client.lock is a leaf (the whole order:
 * locking.h).  The hooks never allocate (the fork hook takes an entry
 * from a reserve filled in process context, thread_reserve.c: tracepoint
 * probes run with preemption off, where PREEMPT_RT forbids allocation)
 * and never sleep.
 */
#ifndef _KPROFILE_THREAD_H
#define _KPROFILE_THREAD_H

#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <uapi/linux/kprofile.h>

struct kp_pmu;
struct pid_namespace;
struct task_struct;

/* Threads one client tracks at most; later ones are counted as lost. */
#define KP_THREAD_MAX		32768
#define KP_THREAD_HASH_BITS	8
/* Entries kept ready for threads that join from the fork hook. */
#define KP_THREAD_RESERVE	64

/**
 * struct kp_thread_task - one profiled thread.
 * @hnode:   in kp_thread_client.tasks while the thread lives (RCU).
 * @node:    in kp_thread_client.all, in the order threads joined.
 * @task:    the thread, compared by address only; NULL once it exited.
 * @tid:     its thread id in the client's pid namespace.
 * @tgid:    its process id there.
 * @comm:    its command name, updated when it exits.
 * @running: switched in (counters started on its CPU, @in_tsc valid).
 * @exited:  it passed sched_process_exit.
 * @exec_stopped: it executed a program that left it non-dumpable and
 *	     counts no more (thread_fd.c's exec hook).
 * @wait_exec: KPROFILE_THREAD_START_ON_EXEC: its counts restart from zero
 *	     at its next exec (written under kp_thread_client.lock).
 * @in_tsc:  TSC when it was last switched in.
 * @switches: times switched in while profiled.
 * @cycles:  TSC cycles it ran while profiled.
 * @hw:      accumulated value of each configuration entry's counter.
 */
struct kp_thread_task {
	struct hlist_node hnode;
	struct list_head node;
	struct task_struct *task;
	pid_t tid;
	pid_t tgid;
	char comm[16];
	bool running;
	bool exited;
	bool exec_stopped;
	bool wait_exec;
	u64 in_tsc;
	u64 switches;
	u64 cycles;
	u64 hw[KPROFILE_MAX_COUNTERS];
};

/**
 * struct kp_thread_client - the thread-profiling client (one at a time).
 * @threads:  the machine's state.
 * @pmu:      its hardware layer.
 * @lock:     protects writers of @tasks and @all, @nr, @lost.
 * @tasks:    live entries by task pointer (RCU readers in the hooks).
 * @all:      every entry, live and exited, in join order.
 * @nr:       entries on @all.
 * @lost:     threads that could not join (allocation, KP_THREAD_MAX).
 * @exec_stopped: some entry is exec_stopped; written under @lock.
 * @flags:    KPROFILE_THREAD_* from the enable request.
 * @count:    configuration entries at enable time (hw_counter_count).
 * @nr_idx:   entries of @idx in use.
 * @idx:      counters to run: (configuration entry, counter index) pairs.
 * @valid:    counter values are real (a PMU exists).
 * @reason:   why they are not.
 * @ns:       pid namespace ids are reported in (the enabler's).
 * @hooked:   the tracepoint probes are registered.
 * @spare:    zeroed entries for the fork hook (thread_reserve.c), on
 *	      their @node; protected by @lock.
 * @nr_spare: entries on @spare; protected by @lock.
 * @refill:   refills @spare in process context.
 */
struct kp_thread_client {
	struct kp_threads *threads;
	struct kp_pmu *pmu;
	raw_spinlock_t lock;
	DECLARE_HASHTABLE(tasks, KP_THREAD_HASH_BITS);
	struct list_head all;
	unsigned int nr;
	unsigned int lost;
	bool exec_stopped;
	u32 flags;
	u32 count;
	unsigned int nr_idx;
	struct {
		u32 entry;
		u32 counter;
	} idx[KPROFILE_MAX_COUNTERS];
	bool valid;
	char reason[KPROFILE_REASON_LEN];
	struct pid_namespace *ns;
	bool hooked;
	struct list_head spare;
	unsigned int nr_spare;
	struct work_struct refill;
};

/**
 * struct kp_threads - thread profiling on one machine.
 * @pmu:    the hardware layer (may have no profile interface).
 * @clock:  the cycle clock: the TSC (rdtsc_ordered()), or a test's.
 * @lock:   protects everything below.
 * @count:  configuration entries.
 * @config: the configuration; @config[i].index is the counter entry i
 *	    holds (claimed as a counting counter).
 * @client: the active client, or NULL.
 * @client_pid: the process that enabled it (a reference), for messages:
 *	    they give its id in the pid namespace of whoever reads them.
 */
struct kp_threads {
	struct kp_pmu *pmu;
	u64 (*clock)(void);
	struct mutex lock;	/* protects the fields below */
	u32 count;
	struct kprofile_hw_counter config[KPROFILE_MAX_COUNTERS];
	struct kp_thread_client *client;
	struct pid *client_pid;
};

/* thread_config.c */
void kp_threads_init(struct kp_threads *t, struct kp_pmu *pmu);
void kp_threads_exit(struct kp_threads *t);
int kp_hwconfig_set(struct kp_threads *t, struct kprofile_hw_config *cfg,
		    char *reason, size_t len);
void kp_hwconfig_query(struct kp_threads *t, struct kprofile_hw_config *cfg);

/* thread.c: clients, entries and the accounting core. */
struct kp_thread_client *kp_thread_client_new(struct kp_threads *t,
					      u32 flags, u32 counter_mask,
					      char *reason, size_t len);
void kp_thread_client_free(struct kp_thread_client *c);
struct kp_thread_task *kp_thread_find(struct kp_thread_client *c,
				      struct task_struct *task);
struct kp_thread_task *kp_thread_join(struct kp_thread_client *c,
				      struct task_struct *task, gfp_t gfp);
void kp_thread_switch_in(struct kp_thread_client *c, struct kp_thread_task *e,
			 u64 tsc);
void kp_thread_switch_out(struct kp_thread_client *c,
			  struct kp_thread_task *e, u64 tsc);
void kp_thread_wait_exec(struct kp_thread_client *c, struct kp_thread_task *e);
void kp_thread_exec_started(struct kp_thread_client *c,
			    struct task_struct *task, u64 tsc);
void kp_thread_exited(struct kp_thread_client *c, struct task_struct *task,
		      u64 tsc);
void kp_thread_exec_stopped(struct kp_thread_client *c,
			    struct task_struct *task, u64 tsc);
void kp_thread_stop_all_cpus(struct kp_thread_client *c);
void kp_thread_read(struct kp_thread_client *c,
		    struct kprofile_thread_data *d);
u32 kp_thread_list(struct kp_thread_client *c,
		   struct kprofile_thread_entry *out, u32 room);

void kp_thread_start_current(struct kp_thread_client *c,
			     struct kp_thread_task *e);

/* thread_reserve.c: entries for the fork hook, allocated ahead. */
void kp_thread_reserve_init(struct kp_thread_client *c);
void kp_thread_reserve_fill(struct kp_thread_client *c);
struct kp_thread_task *kp_thread_reserve_take(struct kp_thread_client *c);
void kp_thread_reserve_put(struct kp_thread_client *c,
			   struct kp_thread_task *e);
void kp_thread_reserve_free(struct kp_thread_client *c);

#endif /* _KPROFILE_THREAD_H */

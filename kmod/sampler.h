/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sampler.h - the sampling engine: the interrupts of one machine's
 * sources (the hardware layer's counter overflows, ProfileTime's timers)
 * and the two consumers each interrupt goes to, side by side: profiles
 * (profile.h: the buckets of NtCreateProfile) and sample streams
 * (stream.h: records in per-CPU rings).  Neither consumer calls the
 * other; both are started and stopped under the sampler's lock and share
 * its sources, its hardware layer and its timers.
 *
 * Files
 * -----
 * sampler.c	   the sampler: init and exit, the overflow consumer, the
 *		   fan-out of one interrupt to both consumers
 *		   (kp_sampler_sample()), the module's instance and its CPU
 *		   hotplug state.
 * sampler_timer.c ProfileTime: a per-CPU hrtimer that runs where a
 *		   profiled or followed task runs.  It hands each expiry to
 *		   the sampler's @time_sample, as the hardware layer hands
 *		   each overflow to its consumers: it calls nothing in
 *		   sampler.c.
 * sampler_rate.c  ProfileTime intervals of a profile's or stream's own:
 *		   their ioctl, the timers' tick, each consumer's credit.
 *
 * Object model and locking
 * ------------------------
 * A struct kp_sampler samples one machine: the module has one over
 * kp_dev's hardware layer (kp_sampler_module()), a KUnit suite builds its
 * own over a fake one.  @lock (a mutex) serialises every start and stop
 * of its profiles and streams: what it protects of each is listed in
 * profile.h and stream.h; of the sampler itself, @started, @index
 * (writers), the ProfileTime user count's changes and @time_hooked.
 * Lock order: @lock, then the tracepoint mutexes (sched_hooks.h: the
 * ProfileTime sched_switch probe and the streams' probes are registered
 * under @lock, outside cpus_read_lock() and @tlock); @lock, then
 * cpus_read_lock(), then the timers' @tlock or the hardware layer's lock.
 * The whole module's order is in locking.h.
 *
 * The interrupt paths (NMI: the overflow consumer; hardirq: the timers'
 * expiry) take no lock and allocate nothing: kp_sampler_sample() reads
 * the interrupted context once and hands the same struct kp_sample to
 * both consumers, whose paths read RCU-published snapshots and lists.
 */
#ifndef _KPROFILE_SAMPLER_H
#define _KPROFILE_SAMPLER_H

#include <linux/atomic.h>
#include <asm/local64.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <uapi/linux/kprofile.h>

#include "pmu.h"
#include "sources.h"
#include "stream.h"

struct kp_device;
struct kp_profile_index;
struct mm_struct;
struct pid;
struct pt_regs;
struct task_struct;

/**
 * struct kp_sample - one interrupt, as the consumers (the profiles' hit
 *	path, the streams' sample path) see it.
 * @source: the source that fired.
 * @cpu:    the CPU it fired on.
 * @tgid:   the interrupted task's thread-group pid (task_tgid()).
 * @ip:     the interrupted instruction pointer.
 * @user:   the interrupted context was user mode.
 * @dumpable: the task is dumpable (kp_task_dumpable()).
 * @mm:     its address space (compared only), NULL for a kernel thread.
 * @counter_mode: 1 + the mode the overflowing counter counts in
 *	    (kp_pmu_delivering()), or 0 (a timer, a test): profiles and
 *	    streams of another counter mode do not take it.
 * @tick:   a ProfileTime expiry: the length of the period it closes, in
 *	    100 ns units, which each consumer adds to its credit
 *	    (sampler_rate.c); 0 otherwise (always sampled).
 */
struct kp_sample {
	u32 source;
	unsigned int cpu;
	const struct pid *tgid;
	const struct mm_struct *mm;
	unsigned long ip;
	bool user;
	bool dumpable;
	u8 counter_mode;
	u32 tick;
};

/**
 * kp_counter_mode() - the mode a counter source is armed in for a profile
 *	or stream of privilege mode @mode.
 * @mode: enum kprofile_mode.
 *
 * One mode counts only in that mode, as perf's :u and :k: its sampling
 * period is spent in that mode alone (counting both, the period also
 * spans the other mode, and a user profile's hits come too often by the
 * kernel's share, the PMI handler's own instructions among them).  Both,
 * and the table's, share the table's counter.
 *
 * Return: KPROFILE_MODE_USER, KPROFILE_MODE_KERNEL or KPROFILE_MODE_TABLE.
 */
static inline enum kprofile_mode kp_counter_mode(enum kprofile_mode mode)
{
	if (mode == KPROFILE_MODE_USER || mode == KPROFILE_MODE_KERNEL)
		return mode;
	return KPROFILE_MODE_TABLE;
}

/**
 * kp_other_counter() - @s is the overflow of a counter that a profile or
 *	stream of mode @mode did not arm (the same source in another mode).
 * @s:    the interrupt.
 * @mode: the profile's or stream's enum kprofile_mode.
 *
 * Context: any, NMI included.
 *
 * Return: true when it must not be counted there.
 */
static inline bool kp_other_counter(const struct kp_sample *s,
				    enum kprofile_mode mode)
{
	return s->counter_mode &&
	       s->counter_mode != 1 + kp_counter_mode(mode);
}

/**
 * kp_mode_counts() - whether an interrupt in user (@user) or kernel mode
 *	counts for a profile or stream of privilege mode @mode.
 * @mode: enum kprofile_mode; TABLE and BOTH count both.
 * @user: the interrupted context was user mode.
 *
 * Context: any, NMI included.
 *
 * Return: true when it counts.
 */
static inline bool kp_mode_counts(enum kprofile_mode mode, bool user)
{
	switch (mode) {
	case KPROFILE_MODE_USER:
		return user;
	case KPROFILE_MODE_KERNEL:
		return !user;
	default:
		return true;
	}
}

/**
 * struct kp_stimer_cpu - ProfileTime on one CPU.
 * @timer:    the pinned hrtimer.
 * @set:      its sampler.
 * @running:  @timer is started.
 * @offline:  the CPU is going or gone offline: @timer is not started.
 * @expiries: expiries of @timer on this CPU since the sampler was made (a
 *	      debug count: which CPUs ProfileTime interrupted).
 * @left:     what was left of the period when a switch stopped @timer; the
 *	      next start runs only that, so profiled run time between
 *	      switches adds up to whole periods (0: start a whole period).
 * @tick:     the length of the period @timer runs now, in 100 ns units
 *	      (kp_rate_tick() when it was armed).
 *
 * Written only on the CPU itself with interrupts off (sampler_timer.c).
 */
struct kp_stimer_cpu {
	struct hrtimer timer;
	struct kp_sampler *set;
	bool running;
	bool offline;
	u64 expiries;
	ktime_t left;
	u32 tick;
};

/**
 * struct kp_sampler - the sampling engine of one machine.
 * @sources:  the source model (intervals read lock-free).
 * @pmu:      the hardware layer counter sources are armed on.
 * @lock:     serialises start and stop; see the file comment.
 * @started:  the profiles' started profiles, per source, in the order of
 *	      their @tgid pointers, system-wide first (only under @lock).
 * @index:    the profiles' hit path's snapshot of @started, per source
 *	      (RCU; replaced under @lock; profile_index.c).
 * @fold_lock: protects @unfolded and the profiles' @folded counters
 *	      (profile_stats.c); taken after @lock.
 * @unfolded: the profiles' snapshots whose class counters are not folded
 *	      into their profiles yet: the published ones and those
 *	      waiting for a grace period.
 * @exec_seq: bumped by the exec hook after it marked profiles
 *	      @exec_stopped; a rebuild that sees it move re-reads the flags
 *	      (profile_exec.c).
 * @release:  runs the deferred buffer releases of a profile's stop and
 *	      the folds of replaced snapshots.
 * @consumer: receives the hardware layer's overflows (NMI).
 * @tlock:    protects @time_users; taken after cpus_read_lock(), as the
 *	      CPU hotplug callbacks run.
 * @time_users: started ProfileTime profiles and streams' ProfileTime
 *	      sources; the timers run while > 0.
 * @time_hooked: the sched_switch probe is registered: the timers run
 *	      only where ProfileTime counts the current task (written
 *	      under @lock).
 * @time_own_min: the shortest own interval of the started ProfileTime
 *	      profiles and streams, 0 when none has one; @time_machine: one
 *	      of them follows the machine-wide interval.  Written under
 *	      @lock (kp_rate_update()), read by the timers.
 * @timers:   per-CPU ProfileTime timers.
 * @time_sample: what a timer expiry with interrupted registers calls
 *	      (hardirq), with the length of the period it closes (100 ns
 *	      units): kp_sampler_tick(), set by kp_sampler_init().
 * @no_regs:  timer expiries without interrupted registers (not counted).
 * @streams:  the sampler's sample streams (stream.h).
 */
struct kp_sampler {
	const struct kp_sources *sources;
	struct kp_pmu *pmu;
	struct mutex lock;	/* start and stop; see above */
	struct list_head started[KP_SOURCE_LIMIT];
	struct kp_profile_index __rcu *index[KP_SOURCE_LIMIT];
	struct mutex fold_lock;	/* @unfolded, profiles' @folded */
	struct list_head unfolded;
	atomic_t exec_seq;
	struct workqueue_struct *release;
	struct kp_overflow_consumer consumer;
	struct mutex tlock;	/* @time_users */
	unsigned int time_users;
	bool time_hooked;
	u32 time_own_min;
	bool time_machine;
	struct kp_stimer_cpu __percpu *timers;
	bool (*time_sample)(struct kp_sampler *set, struct pt_regs *regs,
			    u32 tick);
	atomic64_t no_regs;
	struct kp_stream_set streams;
};

/* sampler.c */
int kp_sampler_init(struct kp_sampler *set, const struct kp_sources *sources,
		    struct kp_pmu *pmu);
void kp_sampler_exit(struct kp_sampler *set);
bool kp_sampler_sample(struct kp_sampler *set, u32 source,
		       struct pt_regs *regs);
bool kp_sampler_tick(struct kp_sampler *set, struct pt_regs *regs, u32 tick);
struct kp_sampler *kp_sampler_module(void);
int kp_sampler_module_init(struct kp_device *dev);
void kp_sampler_module_exit(struct kp_device *dev);

/* sampler_timer.c */
int kp_stimer_init(struct kp_sampler *set);
void kp_stimer_exit(struct kp_sampler *set);
void kp_stimer_get(struct kp_sampler *set);
void kp_stimer_put(struct kp_sampler *set);
void kp_stimer_update(struct kp_sampler *set);
bool kp_stimer_wanted(struct kp_sampler *set, struct task_struct *task);
void kp_stimer_cpu_online(struct kp_sampler *set);
void kp_stimer_cpu_offline(struct kp_sampler *set);
enum hrtimer_restart kp_stimer_fn(struct hrtimer *timer);
void kp_stimer_switch_this_cpu(struct kp_sampler *set, bool on);

/* sampler_rate.c */
struct kp_profile;
struct kprofile_interval;
u32 kp_rate_interval(const struct kp_sampler *set, u32 own);
bool kp_rate_due(local64_t *credit, u32 tick, u32 interval);
u32 kp_rate_tick(const struct kp_sampler *set);
void kp_rate_update(struct kp_sampler *set);
int kp_profile_set_interval(struct kp_profile *p, struct kprofile_interval *iv);
int kp_stream_set_interval(struct kp_stream *st, struct kprofile_interval *iv);

#endif /* _KPROFILE_SAMPLER_H */

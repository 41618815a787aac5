// SPDX-License-Identifier: GPL-2.0
/*
 * sampler_timer.c - ProfileTime, the sampler's timer source: a pinned
 * per-CPU hrtimer that runs on a CPU only while it can count something
 * there.
 *
 * Each expiry samples the interrupted registers (get_irq_regs(), as
 * perf's cpu-clock event does) into the sampler (its @time_sample,
 * kp_sampler_tick(): the profiles' hit path and the streams' sample path,
 * with the length of the period it closes), then re-arms the timer with the shortest
 * interval a started profile or stream wants as it is now, in 100 ns
 * units (kp_rate_tick(): the machine-wide interval, or a shorter one of
 * a profile's or stream's own; each is then sampled at its own interval,
 * sampler_rate.c): an interval change (KPROFILE_IOC_SET_INTERVAL)
 * applies from the next period.
 *
 * Where it runs: while a system-wide ProfileTime profile or stream is
 * started, on every online CPU; otherwise only on a CPU whose current
 * task's process has a started ProfileTime profile (the TIME index
 * snapshot, profile_index.c) or is followed by a started ProfileTime
 * stream, as perf's per-task cpu-clock: the timer asks both consumers
 * (kp_profile_time_wanted(), kp_stream_time_wanted()).  A sched_switch
 * probe, registered while any ProfileTime profile or stream is started,
 * starts the timer when such a task is switched in and cancels it when
 * the next task is not one; an expiry that finds its CPU running nothing
 * to count stops too.  After every change of the TIME snapshot each CPU
 * re-decides (kp_stimer_update(), an IPI).  Without the sched_switch
 * tracepoint the timers run on every CPU, as before.
 *
 * Locking: the sampler's @tlock protects @time_users; it is taken after
 * cpus_read_lock() (start, stop) or inside the CPU hotplug callbacks,
 * which hold the hotplug lock, so the set of CPUs cannot change under it.
 * The probe is registered and unregistered (@time_hooked written) under
 * the sampler's @lock alone, which start and stop hold: the tracepoint
 * code takes the hotplug lock inside its own mutex.  A CPU's @running and
 * its timer are touched only on that CPU with interrupts off (the expiry,
 * the sched_switch probe, IPIs of on_each_cpu(), the hotplug callbacks
 * with interrupts disabled), so they need no lock; the expiry and the
 * probe take none and allocate nothing.
 */
#include <linux/cpu.h>
#include <linux/hrtimer.h>
#include <linux/irqflags.h>
#include <linux/ktime.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <asm/irq_regs.h>

#include "compat.h"
#include "kprofile.h"
#include "profile.h"
#include "sampler.h"
#include "sched_hooks.h"
#include "stream.h"

/* ProfileTime's interval is in 100 ns units. */
static ktime_t kp_stimer_period(u32 tick)
{
	return ns_to_ktime((u64)tick * 100);
}

/**
 * kp_stimer_wanted() - whether ProfileTime can count @task on this CPU.
 * @set:  the sampler.
 * @task: the task that runs (or is switched in) here.
 *
 * Context: any, interrupts off included; no locks.
 *
 * Return: true while a system-wide ProfileTime profile (or stream) is
 * started, or a profile of @task's process (or a stream following it);
 * always true without the sched_switch probe.
 */
bool kp_stimer_wanted(struct kp_sampler *set, struct task_struct *task)
{
	if (!READ_ONCE(set->time_hooked))
		return true;
	return kp_profile_time_wanted(set, task) ||
	       kp_stream_time_wanted(set, task);
}
EXPORT_SYMBOL_IF_KUNIT(kp_stimer_wanted);

/**
 * kp_stimer_fn() - a ProfileTime expiry: sample, then re-arm one period
 *	ahead with the interval as it is now, or stop when this CPU runs
 *	nothing ProfileTime counts.
 * @timer: a CPU's timer (struct kp_stimer_cpu).
 *
 * Context: hardirq (the hrtimer interrupt), where get_irq_regs() are the
 * interrupted registers; without them (a test calling this directly) the
 * expiry is only counted in the sampler's @no_regs.
 *
 * Return: HRTIMER_RESTART, or HRTIMER_NORESTART when stopping.
 */
enum hrtimer_restart kp_stimer_fn(struct hrtimer *timer)
{
	struct kp_stimer_cpu *tc = container_of(timer, struct kp_stimer_cpu,
						timer);
	struct pt_regs *regs = get_irq_regs();
	bool wanted;

	tc->expiries++;
	if (regs) {
		/* The hit path looked the current process up already. */
		wanted = tc->set->time_sample(tc->set, regs, tc->tick) ||
			 !READ_ONCE(tc->set->time_hooked);
	} else {
		atomic64_inc(&tc->set->no_regs);
		wanted = kp_stimer_wanted(tc->set, current);
	}
	if (!wanted) {
		tc->running = false;
		return HRTIMER_NORESTART;
	}
	tc->tick = kp_rate_tick(tc->set);
	hrtimer_forward_now(timer, kp_stimer_period(tc->tick));
	return HRTIMER_RESTART;
}
EXPORT_SYMBOL_IF_KUNIT(kp_stimer_fn);

/*
 * This CPU's timer on or off; on the CPU, interrupts off.  A timer stopped
 * at a switch keeps what was left of its period and the next start runs
 * only that (perf's cpu-clock keeps its period_left the same way): with a
 * whole period at every start, a target that sleeps more often than the
 * period lost the part before each sleep (0.88 of the expected samples
 * at 1 kHz in make bench).
 */
static void kp_stimer_set_this_cpu(struct kp_sampler *set, bool on)
{
	struct kp_stimer_cpu *tc = this_cpu_ptr(set->timers);
	ktime_t period, left;

	lockdep_assert_irqs_disabled();
	if (on && !tc->running && !tc->offline) {
		tc->tick = kp_rate_tick(set);
		period = kp_stimer_period(tc->tick);
		left = tc->left;
		tc->left = 0;
		if (left <= 0 || left > period)
			left = period;
		tc->running = true;
		hrtimer_start(&tc->timer, left, HRTIMER_MODE_REL_PINNED_HARD);
	} else if (!on && tc->running) {
		/*
		 * Not running here: interrupts are off on its only CPU, so
		 * its expiry time is stable.
		 */
		left = ktime_sub(hrtimer_get_expires(&tc->timer), ktime_get());
		if (hrtimer_try_to_cancel(&tc->timer) == 1)
			tc->left = left > 0 ? left : 0;
		tc->running = false;
	}
}

/**
 * kp_stimer_switch_this_cpu() - what the sched_switch probe does to this
 *	CPU's timer: start it (with what is left of the period) or stop it.
 * @set: the sampler.
 * @on:  start, or stop.
 *
 * For tests.  Context: on the CPU, interrupts off.
 */
void kp_stimer_switch_this_cpu(struct kp_sampler *set, bool on)
{
	kp_stimer_set_this_cpu(set, on);
}
EXPORT_SYMBOL_IF_KUNIT(kp_stimer_switch_this_cpu);

/* IPI: re-decide with the current task. */
static void kp_stimer_update_this_cpu(void *info)
{
	struct kp_sampler *set = info;

	bool on = READ_ONCE(set->time_users) && kp_stimer_wanted(set, current);

	kp_stimer_set_this_cpu(set, on);
}

/* IPI: stop this CPU's timer; a later start begins a whole period. */
static void kp_stimer_stop_this_cpu(void *info)
{
	struct kp_sampler *set = info;

	kp_stimer_set_this_cpu(set, false);
	this_cpu_ptr(set->timers)->left = 0;
}

static KP_SCHED_SWITCH_PROBE(kp_stimer_on_switch)
{
	struct kp_sampler *set = data;

	if (!READ_ONCE(set->time_users))
		return;
	kp_stimer_set_this_cpu(set, kp_stimer_wanted(set, next));
}

/*
 * The first ProfileTime start: hook context switches.  Under the sampler's
 * @lock only: registering takes the tracepoint mutexes, then the CPU
 * hotplug lock (static calls), which is taken before @tlock.
 */
static void kp_stimer_hook(struct kp_sampler *set)
{
	lockdep_assert_held(&set->lock);
	if (kp_sched_hook_register(KP_SCHED_SWITCH, kp_stimer_on_switch, set))
		return;	/* every CPU, as without the probe */
	WRITE_ONCE(set->time_hooked, true);
}

/* The last ProfileTime stop: unhook; as kp_stimer_hook().  Sleeps. */
static void kp_stimer_unhook(struct kp_sampler *set)
{
	lockdep_assert_held(&set->lock);
	if (!set->time_hooked)
		return;
	kp_sched_hook_unregister(KP_SCHED_SWITCH, kp_stimer_on_switch, set);
	kp_sched_hooks_sync();
	WRITE_ONCE(set->time_hooked, false);
}

/**
 * kp_stimer_init() - set up a sampler's ProfileTime timers (not started).
 * @set: the sampler; @set->sources is set.
 *
 * Return: 0 or -ENOMEM.
 */
int kp_stimer_init(struct kp_sampler *set)
{
	unsigned int cpu;

	mutex_init(&set->tlock);
	set->time_users = 0;
	set->time_hooked = false;
	atomic64_set(&set->no_regs, 0);
	set->timers = alloc_percpu(struct kp_stimer_cpu);
	if (!set->timers) {
		mutex_destroy(&set->tlock);
		return -ENOMEM;
	}
	for_each_possible_cpu(cpu) {
		struct kp_stimer_cpu *tc = per_cpu_ptr(set->timers, cpu);

		tc->set = set;
		tc->running = false;
		tc->expiries = 0;
		hrtimer_setup(&tc->timer, kp_stimer_fn, CLOCK_MONOTONIC,
			      HRTIMER_MODE_REL_PINNED_HARD);
	}
	return 0;
}

/**
 * kp_stimer_exit() - free a sampler's timers.
 * @set: the sampler; no ProfileTime profile is started.
 */
void kp_stimer_exit(struct kp_sampler *set)
{
	WARN_ON_ONCE(set->time_users);
	free_percpu(set->timers);
	set->timers = NULL;
	mutex_destroy(&set->tlock);
}

/**
 * kp_stimer_get() - one more started ProfileTime profile; the first
 *	hooks context switches (the timers start with kp_stimer_update()).
 * @set: the sampler.
 *
 * Context: process; the sampler's @lock held; takes cpus_read_lock() and
 * @set->tlock.
 */
void kp_stimer_get(struct kp_sampler *set)
{
	bool first;

	lockdep_assert_held(&set->lock);
	cpus_read_lock();
	mutex_lock(&set->tlock);
	first = !set->time_users++;
	mutex_unlock(&set->tlock);
	cpus_read_unlock();
	if (first)
		kp_stimer_hook(set);
}
EXPORT_SYMBOL_IF_KUNIT(kp_stimer_get);

/**
 * kp_stimer_update() - every online CPU re-decides whether its timer
 *	runs: after the TIME index snapshot changed.
 * @set: the sampler.
 *
 * Context: process; takes cpus_read_lock() and @set->tlock.
 */
void kp_stimer_update(struct kp_sampler *set)
{
	cpus_read_lock();
	mutex_lock(&set->tlock);
	if (set->time_users)
		on_each_cpu(kp_stimer_update_this_cpu, set, 1);
	mutex_unlock(&set->tlock);
	cpus_read_unlock();
}
EXPORT_SYMBOL_IF_KUNIT(kp_stimer_update);

/**
 * kp_stimer_put() - one started ProfileTime profile fewer; the last
 *	unhooks context switches and stops the timer everywhere.
 * @set: the sampler.
 *
 * On return from the last put no timer of @set runs or will run.
 * Context: process; the sampler's @lock held; sleeps.
 */
void kp_stimer_put(struct kp_sampler *set)
{
	bool last;

	lockdep_assert_held(&set->lock);
	cpus_read_lock();
	mutex_lock(&set->tlock);
	last = !WARN_ON_ONCE(!set->time_users) && !--set->time_users;
	mutex_unlock(&set->tlock);
	cpus_read_unlock();
	if (!last)
		return;
	kp_stimer_unhook(set);	/* the probe starts no timer now */
	cpus_read_lock();
	mutex_lock(&set->tlock);
	if (!set->time_users)
		on_each_cpu(kp_stimer_stop_this_cpu, set, 1);
	mutex_unlock(&set->tlock);
	cpus_read_unlock();
}
EXPORT_SYMBOL_IF_KUNIT(kp_stimer_put);

/**
 * kp_stimer_cpu_online() - CPU hotplug: start this CPU's timer if
 *	ProfileTime counts what runs here.
 * @set: the sampler.
 *
 * Context: the CPU's hotplug thread (bound to it), hotplug lock held.
 */
void kp_stimer_cpu_online(struct kp_sampler *set)
{
	mutex_lock(&set->tlock);
	local_irq_disable();
	this_cpu_ptr(set->timers)->offline = false;
	kp_stimer_update_this_cpu(set);
	local_irq_enable();
	mutex_unlock(&set->tlock);
}

/**
 * kp_stimer_cpu_offline() - CPU hotplug: stop this CPU's timer.
 * @set: the sampler.
 *
 * Context: the CPU's hotplug thread (bound to it), hotplug lock held.
 */
void kp_stimer_cpu_offline(struct kp_sampler *set)
{
	struct kp_stimer_cpu *tc;

	mutex_lock(&set->tlock);
	tc = raw_cpu_ptr(set->timers);
	local_irq_disable();
	tc->offline = true;	/* the sched_switch probe starts it no more */
	tc->running = false;
	local_irq_enable();
	hrtimer_cancel(&tc->timer);
	mutex_unlock(&set->tlock);
}

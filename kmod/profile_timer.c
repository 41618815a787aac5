// SPDX-License-Identifier: GPL-2.0
/*
 * profile_timer.c - ProfileTime: a pinned hrtimer on every online CPU,
 * running while at least one ProfileTime profile is started.
 *
 * Each expiry samples the interrupted registers (get_irq_regs(), as
 * perf's cpu-clock event does) into the hit path, then re-arms the timer
 * with the source's interval as it is now, in 100 ns units: an interval
 * change (KPROFILE_IOC_SET_INTERVAL) applies from the next period.
 *
 * Locking: the set's @tlock protects @time_users and every CPU's
 * @running; it is taken after cpus_read_lock() (start, stop) or inside the
 * CPU hotplug callbacks, which hold the hotplug lock, so the set of CPUs
 * cannot change under it.  The callback itself takes nothing.
 */
#include <linux/cpu.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/smp.h>
#include <asm/irq_regs.h>

#include "compat.h"
#include "profile.h"

/* ProfileTime's interval is in 100 ns units. */
static ktime_t kp_ptimer_period(struct kp_profile_set *set)
{
	u32 interval = kp_source_interval(set->sources, KPROFILE_SOURCE_TIME);

	return ns_to_ktime((u64)interval * 100);
}

/**
 * kp_ptimer_fn() - a ProfileTime expiry: sample, then re-arm one period
 *	ahead with the interval as it is now.
 * @timer: a CPU's timer (struct kp_ptimer_cpu).
 *
 * Context: hardirq (the hrtimer interrupt), where get_irq_regs() are the
 * interrupted registers; without them (a test calling this directly) the
 * expiry is only counted in the set's @no_regs.
 *
 * Return: HRTIMER_RESTART.
 */
enum hrtimer_restart kp_ptimer_fn(struct hrtimer *timer)
{
	struct kp_ptimer_cpu *tc = container_of(timer, struct kp_ptimer_cpu,
						timer);
	struct pt_regs *regs = get_irq_regs();

	if (regs)
		kp_profile_sample_regs(tc->set, KPROFILE_SOURCE_TIME, regs);
	else
		atomic64_inc(&tc->set->no_regs);
	hrtimer_forward_now(timer, kp_ptimer_period(tc->set));
	return HRTIMER_RESTART;
}
EXPORT_SYMBOL_IF_KP_TEST(kp_ptimer_fn);

/* On the CPU concerned, with interrupts off or bound to it. */
static void kp_ptimer_start_this_cpu(void *info)
{
	struct kp_profile_set *set = info;
	struct kp_ptimer_cpu *tc = this_cpu_ptr(set->timers);

	if (tc->running)
		return;
	tc->running = true;
	hrtimer_start(&tc->timer, kp_ptimer_period(set),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/**
 * kp_ptimer_init() - set up a set's ProfileTime timers (not started).
 * @set: the set; @set->sources is set.
 *
 * Return: 0 or -ENOMEM.
 */
int kp_ptimer_init(struct kp_profile_set *set)
{
	unsigned int cpu;

	mutex_init(&set->tlock);
	set->time_users = 0;
	atomic64_set(&set->no_regs, 0);
	set->timers = alloc_percpu(struct kp_ptimer_cpu);
	if (!set->timers)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct kp_ptimer_cpu *tc = per_cpu_ptr(set->timers, cpu);

		tc->set = set;
		tc->running = false;
		kp_compat_hrtimer_setup(&tc->timer, kp_ptimer_fn,
					CLOCK_MONOTONIC,
					HRTIMER_MODE_REL_PINNED_HARD);
	}
	return 0;
}

/**
 * kp_ptimer_exit() - free a set's timers.
 * @set: the set; no ProfileTime profile is started.
 */
void kp_ptimer_exit(struct kp_profile_set *set)
{
	WARN_ON_ONCE(set->time_users);
	free_percpu(set->timers);
	set->timers = NULL;
	mutex_destroy(&set->tlock);
}

/**
 * kp_ptimer_get() - one more started ProfileTime profile; the first
 *	starts the timer on every online CPU.
 * @set: the set.
 *
 * Context: process; takes cpus_read_lock() and @set->tlock.
 */
void kp_ptimer_get(struct kp_profile_set *set)
{
	cpus_read_lock();
	mutex_lock(&set->tlock);
	if (!set->time_users++)
		on_each_cpu(kp_ptimer_start_this_cpu, set, 1);
	mutex_unlock(&set->tlock);
	cpus_read_unlock();
}
EXPORT_SYMBOL_IF_KP_TEST(kp_ptimer_get);

/**
 * kp_ptimer_put() - one started ProfileTime profile fewer; the last stops
 *	the timer everywhere.
 * @set: the set.
 *
 * On return no timer of @set runs or will run (hrtimer_cancel() waits
 * for a running callback, which would re-arm).
 * Context: process; sleeps.
 */
void kp_ptimer_put(struct kp_profile_set *set)
{
	unsigned int cpu;

	cpus_read_lock();
	mutex_lock(&set->tlock);
	if (WARN_ON_ONCE(!set->time_users))
		goto out;
	if (--set->time_users)
		goto out;
	for_each_possible_cpu(cpu) {
		struct kp_ptimer_cpu *tc = per_cpu_ptr(set->timers, cpu);

		if (!tc->running)
			continue;
		hrtimer_cancel(&tc->timer);
		tc->running = false;
	}
out:
	mutex_unlock(&set->tlock);
	cpus_read_unlock();
}
EXPORT_SYMBOL_IF_KP_TEST(kp_ptimer_put);

/**
 * kp_ptimer_cpu_online() - CPU hotplug: start this CPU's timer if
 *	ProfileTime is running.
 * @set: the set.
 *
 * Context: the CPU's hotplug thread (bound to it), hotplug lock held.
 */
void kp_ptimer_cpu_online(struct kp_profile_set *set)
{
	mutex_lock(&set->tlock);
	if (set->time_users) {
		preempt_disable();
		kp_ptimer_start_this_cpu(set);
		preempt_enable();
	}
	mutex_unlock(&set->tlock);
}

/**
 * kp_ptimer_cpu_offline() - CPU hotplug: stop this CPU's timer.
 * @set: the set.
 *
 * Context: the CPU's hotplug thread (bound to it), hotplug lock held.
 */
void kp_ptimer_cpu_offline(struct kp_profile_set *set)
{
	struct kp_ptimer_cpu *tc;

	mutex_lock(&set->tlock);
	tc = raw_cpu_ptr(set->timers);
	if (tc->running) {
		hrtimer_cancel(&tc->timer);
		tc->running = false;
	}
	mutex_unlock(&set->tlock);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * sampler_rate.c - ProfileTime intervals of one's own: a stopped profile
 * or stream may carry its own ProfileTime interval
 * (KPROFILE_IOC_SET_INTERVAL on its fd), which its owner sets without
 * CAP_PERFMON, as perf gives every user a sampling rate of their own
 * events.  The machine-wide interval (NtSetIntervalProfile on
 * /dev/kprofile) stays privileged and is what a profile or stream
 * without an interval of its own follows.
 *
 * One timer, several rates: each CPU's ProfileTime hrtimer ticks at the
 * shortest interval a started ProfileTime profile or stream wants
 * (kp_rate_tick(): the shortest own interval, or the machine-wide one
 * while a started profile or stream follows it and it is shorter), and
 * each tick carries its length (struct kp_sample @tick).  At each tick a
 * consumer that the tick concerns (a class of profiles whose filters it
 * reaches, a stream that follows the interrupted process) adds the
 * tick's length to its credit on this CPU and is sampled only when the
 * credit reaches its interval, which it then gives back
 * (kp_rate_due()): so it is sampled once per interval of the time it was
 * ticked, whatever the tick.  A class's credit is per snapshot (struct
 * kp_profile_class_stat): a rebuild of the ProfileTime snapshot (a start
 * or stop) begins its classes' credit at zero.  The interval of each
 * class is part of its filters (profile_index.c): profiles of different
 * intervals are in different classes, so the hit path stays flat.
 *
 * Locking: a profile's or stream's @interval is written only while it is
 * stopped, under the sampler's @lock (and a stream's @op_lock before
 * it); the sampler's @time_own_min and @time_machine are recomputed
 * under @lock after every ProfileTime start and stop
 * (kp_rate_update()) and read lock-free by the timers (READ_ONCE()).
 * The credits are per-CPU, written only by their CPU's ProfileTime
 * expiry (hardirq): no lock, no allocation.
 */
#include <linux/kprobes.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/sched.h>

#include "compat.h"
#include "kprofile.h"
#include "profile.h"
#include "sampler.h"
#include "stream.h"

/**
 * kp_rate_interval() - the ProfileTime interval a profile or stream runs
 *	at.
 * @set: the sampler.
 * @own: its own interval, or 0 (it follows the machine-wide one).
 *
 * Context: any, NMI included; no locks.
 *
 * Return: the interval, in 100 ns units.
 */
u32 kp_rate_interval(const struct kp_sampler *set, u32 own)
{
	return own ?: kp_source_interval(set->sources, KPROFILE_SOURCE_TIME);
}
EXPORT_SYMBOL_IF_KUNIT(kp_rate_interval);
NOKPROBE_SYMBOL(kp_rate_interval);

/**
 * kp_rate_due() - one ProfileTime tick for a consumer: whether it is
 *	sampled.
 * @credit:   the consumer's credit on this CPU, in 100 ns units.
 * @tick:     the length of the tick, in 100 ns units; 0 for anything but
 *	      a timer tick (a counter's overflow, a test): always sampled.
 * @interval: the consumer's interval (kp_rate_interval()).
 *
 * The tick's length is added to @credit; when it reaches @interval, one
 * interval is taken off and the consumer is sampled.  A tick at least as
 * long as the interval always samples (the timer runs at the shortest
 * interval wanted, so that happens only while a change of interval is
 * taking effect); a credit left at or above the interval after a sample
 * (the interval just shrank) starts again from zero, so no burst follows.
 *
 * Context: the CPU's ProfileTime expiry (hardirq) or a test with
 * interrupts off; @credit is this CPU's; no locks.
 *
 * Return: true when the consumer is sampled at this tick.
 */
bool kp_rate_due(local64_t *credit, u32 tick, u32 interval)
{
	u64 c;

	if (!tick || tick >= interval)
		return true;
	c = local64_read(credit) + tick;
	if (c < interval) {
		local64_set(credit, c);
		return false;
	}
	c -= interval;
	local64_set(credit, c < interval ? c : 0);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(kp_rate_due);
NOKPROBE_SYMBOL(kp_rate_due);

/**
 * kp_rate_tick() - the interval the ProfileTime timers tick at now: the
 *	shortest one a started profile or stream wants.
 * @set: the sampler.
 *
 * Context: any; no locks (the timers' expiry and start).
 *
 * Return: the interval, in 100 ns units.
 */
u32 kp_rate_tick(const struct kp_sampler *set)
{
	u32 machine = kp_source_interval(set->sources, KPROFILE_SOURCE_TIME);
	u32 own = READ_ONCE(set->time_own_min);

	if (!own || (READ_ONCE(set->time_machine) && machine < own))
		return machine;
	return own;
}
EXPORT_SYMBOL_IF_KUNIT(kp_rate_tick);

/**
 * kp_rate_update() - recompute the shortest own interval of the started
 *	ProfileTime profiles and streams, and whether one of them follows
 *	the machine-wide interval.
 * @set: the sampler.
 *
 * After every start and stop of a ProfileTime profile or stream; the
 * timers take it at their next expiry.
 * Context: process; the sampler's @lock held.
 */
void kp_rate_update(struct kp_sampler *set)
{
	bool machine = false;
	struct kp_profile *p;
	struct kp_stream *st;
	u32 own = 0;

	lockdep_assert_held(&set->lock);
	list_for_each_entry(p, &set->started[KPROFILE_SOURCE_TIME], node) {
		if (!p->interval)
			machine = true;
		else if (!own || p->interval < own)
			own = p->interval;
	}
	list_for_each_entry(st, &set->streams.list, node) {
		if (!st->has_time)
			continue;
		if (!st->interval)
			machine = true;
		else if (!own || st->interval < own)
			own = st->interval;
	}
	WRITE_ONCE(set->time_own_min, own);
	WRITE_ONCE(set->time_machine, machine);
}
EXPORT_SYMBOL_IF_KUNIT(kp_rate_update);

/*
 * Check an own-interval request: ProfileTime only (a counter source's
 * interval is the machine-wide one, KPROFILE_IOC_SET_INTERVAL on
 * /dev/kprofile), not 0, clamped to ProfileTime's range.
 */
static int kp_rate_check(u32 source, bool has_time, u32 *interval)
{
	if (source != KPROFILE_SOURCE_TIME || !has_time)
		return -EOPNOTSUPP;
	if (!*interval)
		return -EINVAL;
	*interval = clamp(*interval, (u32)KP_TIME_INTERVAL_MIN,
			  (u32)KP_TIME_INTERVAL_MAX);
	return 0;
}

/**
 * kp_profile_set_interval() - KPROFILE_IOC_SET_INTERVAL on a profile fd:
 *	the profile's own ProfileTime interval.
 * @p:  a ProfileTime profile, stopped.
 * @iv: @source must be KPROFILE_SOURCE_TIME; @interval in 100 ns units,
 *	out: the interval used (clamped to ProfileTime's range).
 *
 * Needs no capability: the profile is the caller's.  It applies from the
 * next start; the machine-wide interval does not change.
 * Context: process, in the creator's address space; takes the sampler's
 * @lock.
 *
 * Return: 0, -EOPNOTSUPP (not ProfileTime), -EINVAL (0), -EBUSY
 * (started), -EXDEV (another address space than the creator's).
 */
int kp_profile_set_interval(struct kp_profile *p, struct kprofile_interval *iv)
{
	int ret;

	ret = kp_rate_check(iv->source, p->source == KPROFILE_SOURCE_TIME,
			    &iv->interval);
	if (ret)
		return ret;
	if (p->mm != current->mm)
		return -EXDEV;
	mutex_lock(&p->set->lock);
	if (p->started)
		ret = -EBUSY;
	else
		p->interval = iv->interval;
	mutex_unlock(&p->set->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(kp_profile_set_interval);

/**
 * kp_stream_set_interval() - KPROFILE_IOC_SET_INTERVAL on a stream fd:
 *	the stream's own ProfileTime interval.
 * @st: a stream with ProfileTime among its sources, stopped.
 * @iv: as kp_profile_set_interval().
 *
 * Its counter sources keep the machine-wide intervals.
 * Context: process, in the creator's address space; takes the stream's
 * @op_lock and the sampler's @lock.
 *
 * Return: as kp_profile_set_interval().
 */
int kp_stream_set_interval(struct kp_stream *st, struct kprofile_interval *iv)
{
	int ret;

	ret = kp_rate_check(iv->source, st->has_time, &iv->interval);
	if (ret)
		return ret;
	if (st->mm != current->mm)
		return -EXDEV;
	mutex_lock(&st->op_lock);
	mutex_lock(&st->set->lock);
	if (st->started)
		ret = -EBUSY;
	else
		st->interval = iv->interval;
	mutex_unlock(&st->set->lock);
	mutex_unlock(&st->op_lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(kp_stream_set_interval);

// SPDX-License-Identifier: GPL-2.0
/*
 * sampler.c - the sampling engine (sampler.h): a sampler's init and exit,
 * the overflow consumer it registers with the hardware layer, the fan-out
 * of one interrupt to profiles and sample streams, and the module's
 * instance with its CPU hotplug state for the ProfileTime timers.
 *
 * Every interrupt of a source, a counter's overflow (NMI, through the
 * hardware layer's consumer list) or a ProfileTime expiry (hardirq,
 * sampler_timer.c), comes to kp_sampler_sample(): it reads the
 * interrupted context once into a struct kp_sample and gives it to the
 * profiles (kp_profile_hit(), the buckets) and to the sample streams
 * (kp_stream_sample(), the rings), in that order.  Neither consumer
 * knows the other.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/smp.h>
#include <linux/workqueue.h>

#include "access.h"
#include "compat.h"
#include "kprofile.h"
#include "profile.h"
#include "sampler.h"
#include "stream.h"

/* The module's sampler, over kp_dev's hardware layer. */
static struct kp_sampler kp_sampler;

/* One interrupt, a ProfileTime tick of length @tick or not (0). */
static bool kp_sampler_fan_out(struct kp_sampler *set, u32 source,
			       struct pt_regs *regs, u32 tick)
{
	struct kp_sample s = {
		.source = source,
		.cpu = smp_processor_id(),
		.tgid = task_tgid(current),
		.mm = current->mm,
		.ip = instruction_pointer(regs),
		.user = user_mode(regs),
		.dumpable = kp_task_dumpable(current),
		.counter_mode = source == KPROFILE_SOURCE_TIME ? 0 :
				kp_pmu_delivering(set->pmu),
		.tick = tick,
	};
	bool profiled = kp_profile_hit(set, &s);
	bool streamed = kp_stream_sample(set, &s, regs);

	return profiled || streamed;
}

NOKPROBE_SYMBOL(kp_sampler_fan_out);

/**
 * kp_sampler_sample() - an interrupt of @source on this CPU, taken with
 *	registers @regs in the current task: give it to the profiles and
 *	to the sample streams.
 * @set:    the sampler.
 * @source: the source that fired.
 * @regs:   the interrupted registers: the ip and, from the code segment,
 *	    the mode (as perf's sampling takes them).
 *
 * Every profile and stream it concerns is sampled (no tick: see
 * kp_sampler_tick()).
 * Context: NMI or hardirq, on the CPU that was interrupted; no locks, no
 * allocation.
 *
 * Return: whether a started profile of the source is system-wide or of
 * the interrupted process (kp_profile_hit()), or a started stream of the
 * source samples that process (kp_stream_sample()): ProfileTime keeps
 * ticking on this CPU.
 */
bool kp_sampler_sample(struct kp_sampler *set, u32 source,
		       struct pt_regs *regs)
{
	return kp_sampler_fan_out(set, source, regs, 0);
}
EXPORT_SYMBOL_IF_KUNIT(kp_sampler_sample);
NOKPROBE_SYMBOL(kp_sampler_sample);

/**
 * kp_sampler_tick() - a ProfileTime expiry on this CPU that closes a
 *	period of @tick: each profile class and stream it concerns adds it
 *	to its credit and is sampled when its own interval has elapsed
 *	(sampler_rate.c).
 * @set:  the sampler.
 * @regs: the interrupted registers.
 * @tick: the period's length, in 100 ns units (not 0).
 *
 * Context: hardirq (the timer's expiry) or a test with interrupts off,
 * on the CPU; no locks, no allocation.
 *
 * Return: as kp_sampler_sample() for ProfileTime.
 */
bool kp_sampler_tick(struct kp_sampler *set, struct pt_regs *regs, u32 tick)
{
	return kp_sampler_fan_out(set, KPROFILE_SOURCE_TIME, regs, tick);
}
EXPORT_SYMBOL_IF_KUNIT(kp_sampler_tick);
NOKPROBE_SYMBOL(kp_sampler_tick);

static void kp_sampler_overflow(struct kp_overflow_consumer *c, u32 source,
				struct pt_regs *regs)
{
	struct kp_sampler *set = container_of(c, struct kp_sampler, consumer);

	kp_sampler_sample(set, source, regs);
}

/**
 * kp_sampler_init() - set up the sampler of one machine.
 * @set:     the sampler.
 * @sources: the source model; must outlive @set.
 * @pmu:     the hardware layer; must outlive @set.  The sampler becomes
 *	     one of its overflow consumers.
 *
 * Return: 0 or -ENOMEM.
 */
int kp_sampler_init(struct kp_sampler *set, const struct kp_sources *sources,
		    struct kp_pmu *pmu)
{
	unsigned int i;
	int ret;

	memset(set, 0, sizeof(*set));
	set->sources = sources;
	set->pmu = pmu;
	mutex_init(&set->lock);
	mutex_init(&set->fold_lock);
	INIT_LIST_HEAD(&set->unfolded);
	for (i = 0; i < KP_SOURCE_LIMIT; i++)
		INIT_LIST_HEAD(&set->started[i]);
	set->time_sample = kp_sampler_tick;
	set->release = alloc_workqueue("kprofile_release", WQ_UNBOUND, 0);
	if (!set->release) {
		ret = -ENOMEM;
		goto err_lock;
	}
	ret = kp_stimer_init(set);
	if (ret)
		goto err_wq;
	kp_stream_set_init(set);
	set->consumer.overflow = kp_sampler_overflow;
	kp_pmu_add_consumer(pmu, &set->consumer);
	return 0;

err_wq:
	destroy_workqueue(set->release);
err_lock:
	mutex_destroy(&set->fold_lock);
	mutex_destroy(&set->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(kp_sampler_init);

/**
 * kp_sampler_exit() - take a sampler down.
 * @set: a sampler with no profile or stream left.
 *
 * Waits for the buffer releases a profile's stop deferred (profile.h).
 * Context: process; sleeps (an RCU grace period).
 */
void kp_sampler_exit(struct kp_sampler *set)
{
	kp_stream_set_exit(set);
	kp_pmu_remove_consumer(set->pmu, &set->consumer);
	rcu_barrier();	/* queue_rcu_work()'s callbacks have queued */
	destroy_workqueue(set->release);	/* and the works have run */
	kp_stimer_exit(set);
	WARN_ON_ONCE(!list_empty(&set->unfolded));
	mutex_destroy(&set->fold_lock);
	mutex_destroy(&set->lock);
}
EXPORT_SYMBOL_IF_KUNIT(kp_sampler_exit);

/**
 * kp_sampler_module() - the module's sampler, where the profiles and the
 *	streams of /dev/kprofile live.
 *
 * Return: the sampler.
 */
struct kp_sampler *kp_sampler_module(void)
{
	return &kp_sampler;
}

static enum cpuhp_state kp_sampler_hp_state;

static int kp_sampler_cpu_online(unsigned int cpu)
{
	kp_stimer_cpu_online(&kp_sampler);
	return 0;
}

static int kp_sampler_cpu_offline(unsigned int cpu)
{
	kp_stimer_cpu_offline(&kp_sampler);
	return 0;
}

/**
 * kp_sampler_module_init() - set up the module's sampler.
 * @dev: the device; its hardware layer is up (kp_pmu_init()).
 *
 * Return: 0 or a negative errno; on failure nothing is left registered.
 */
int kp_sampler_module_init(struct kp_device *dev)
{
	int ret;

	ret = kp_sampler_init(&kp_sampler, &dev->sources, &dev->pmu);
	if (ret)
		return ret;
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "kprofile/time:online",
				kp_sampler_cpu_online, kp_sampler_cpu_offline);
	if (ret < 0)
		goto err_set;
	kp_sampler_hp_state = ret;
	ret = kp_profile_exec_init(&kp_sampler);
	if (ret)
		goto err_hp;
	return 0;

err_hp:
	cpuhp_remove_state(kp_sampler_hp_state);
err_set:
	kp_sampler_exit(&kp_sampler);
	return ret;
}

/**
 * kp_sampler_module_exit() - take the module's sampler down.
 * @dev: the device; no profile or stream fd is open (each holds a module
 *	 reference).
 */
void kp_sampler_module_exit(struct kp_device *dev)
{
	kp_profile_exec_exit(&kp_sampler);
	cpuhp_remove_state(kp_sampler_hp_state);
	kp_sampler_exit(&kp_sampler);
}

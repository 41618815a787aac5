// SPDX-License-Identifier: GPL-2.0
/*
 * profile_time_test.c - KUnit suite "kprofile_profile_time": ProfileTime
 * on real per-CPU hrtimers.  A system-wide profile of the kernel image
 * gets hits from the interrupted registers (the timers interrupt the
 * kernel: this test, idle CPUs) and every hit is in its bucket; the
 * timers run while at least one ProfileTime profile is started and are
 * gone, on every CPU, after the last stops; nothing counts after stop; an
 * interval change applies from the next period; a process's profile
 * interrupts only the CPUs its threads run on.
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/sched.h>

#include "../kmod/sched_hooks.h"
#include "profile_fixture.h"
#include "sources_fixture.h"

#define TIME	KPROFILE_SOURCE_TIME
/* The kernel image and modules: the top 2 GiB, one bucket of 2^31. */
#define KBASE	0xffffffff80000000ULL
#define KSIZE	0x7fffffffULL

static unsigned int timers_running(struct kp_prof_fix *f)
{
	unsigned int cpu, n = 0;

	for_each_possible_cpu(cpu) {
		struct kp_stimer_cpu *tc = per_cpu_ptr(f->set.timers, cpu);

		n += tc->running || hrtimer_active(&tc->timer);
	}
	return n;
}

/* Wait (up to 20 s, sleeping so that idle CPUs are sampled too). */
static void wait_hits(struct kp_profile *p, u64 want)
{
	unsigned long end = jiffies + 20 * HZ;

	while (kp_prof_stat(p, "hits") < want && time_before(jiffies, end))
		msleep(20);
}

static void kp_time_samples_kernel(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	struct kp_profile *p;
	u64 hits;
	u32 *b;

	p = kp_prof_new(f, TIME, KPROFILE_TARGET_SYSTEM, KPROFILE_MODE_KERNEL,
			KBASE, KSIZE, 31, NULL);
	KUNIT_EXPECT_EQ(test, timers_running(f), 0U);
	b = kp_prof_start(f, p);
	KUNIT_EXPECT_EQ(test, timers_running(f), num_online_cpus());
	wait_hits(p, 20);
	KUNIT_EXPECT_EQ(test, kp_profile_stop(p), 0);
	KUNIT_EXPECT_EQ(test, timers_running(f), 0U);

	hits = kp_prof_stat(p, "hits");
	KUNIT_EXPECT_GE(test, hits, 20ULL);
	KUNIT_EXPECT_EQ(test, (u64)b[0], hits);
	/* Stopped: no timer, no more hits. */
	msleep(50);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(p, "hits"), hits);
	KUNIT_EXPECT_EQ(test, (u64)b[0], hits);
}

/* The timers are shared: they run until the last ProfileTime stops. */
static void kp_time_refcount(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	struct kp_profile *a, *b;
	u64 hits;

	a = kp_prof_new(f, TIME, KPROFILE_TARGET_SYSTEM, KPROFILE_MODE_BOTH,
			KBASE, KSIZE, 31, NULL);
	b = kp_prof_new(f, TIME, KPROFILE_TARGET_SYSTEM, KPROFILE_MODE_BOTH,
			KBASE, KSIZE, 31, NULL);
	kp_prof_start(f, a);
	kp_prof_start(f, b);
	KUNIT_EXPECT_EQ(test, f->set.time_users, 2U);
	KUNIT_EXPECT_EQ(test, kp_profile_stop(a), 0);
	KUNIT_EXPECT_EQ(test, f->set.time_users, 1U);
	KUNIT_EXPECT_EQ(test, timers_running(f), num_online_cpus());
	hits = kp_prof_stat(b, "hits");
	wait_hits(b, hits + 5);
	KUNIT_EXPECT_GE(test, kp_prof_stat(b, "hits"), hits + 5);
	KUNIT_EXPECT_EQ(test, kp_profile_stop(b), 0);
	KUNIT_EXPECT_EQ(test, f->set.time_users, 0U);
	KUNIT_EXPECT_EQ(test, timers_running(f), 0U);
}

/*
 * Each expiry re-arms one period ahead with the interval as it is then:
 * a change applies from the next period.  The expiry is called directly
 * on a stopped timer whose expiry is "now": the next one must be a whole
 * number of the new periods later (a multiple of 1.2345 ms at least the
 * timer resolution, the tick on a kernel without high-resolution mode),
 * which the old (100 ms) never is.  Without interrupted registers nothing
 * is sampled.
 */
static void kp_time_interval_next_period(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	struct kp_stimer_cpu *tc = raw_cpu_ptr(f->set.timers);
	u32 old = KP_TEST_TIME_MAX, new;
	enum hrtimer_restart ret;
	s64 delta;
	ktime_t t0;

	/* A multiple of 1.2345 ms no shorter than the timer resolution. */
	new = 12345 * DIV_ROUND_UP(hrtimer_resolution, 1234500);
	KUNIT_ASSERT_LE(test, new, KP_TEST_TIME_MAX);
	KUNIT_ASSERT_NE(test, KP_TEST_TIME_MAX % new, 0U);

	kp_pmu_fix_interval(f->pmu, TIME, old);
	KUNIT_ASSERT_FALSE(test, hrtimer_active(&tc->timer));
	kp_pmu_fix_interval(f->pmu, TIME, new);
	/* As the hrtimer runs it: interrupts off, on this CPU's timer. */
	local_irq_disable();
	tc = this_cpu_ptr(f->set.timers);
	t0 = ktime_get();
	hrtimer_set_expires(&tc->timer, t0);
	/* As the hrtimer core calls it: hardirq, interrupts off. */
	local_irq_disable();
	ret = kp_stimer_fn(&tc->timer);
	local_irq_enable();
	KUNIT_EXPECT_EQ(test, ret, HRTIMER_RESTART);
	delta = ktime_to_ns(ktime_sub(hrtimer_get_expires(&tc->timer), t0));
	KUNIT_EXPECT_GT(test, delta, 0LL);
	KUNIT_EXPECT_EQ(test, delta % (new * 100LL), 0LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&f->set.no_regs), 1LL);
}

/*
 * A timer stopped at a context switch resumes with what was left of its
 * period (perf's period_left), so a task's run time between switches adds
 * up to whole periods; with a whole period at every start, a target that
 * slept more often than the period lost the part before each sleep.  At
 * the 100 ms maximum: run at least 20 ms of the clock, switch out (what
 * is left is kept: at most 80 ms) and back in (the timer expires after
 * what was kept, not after a whole period).  Every bound is read off the
 * clock around the switch, so a slow or loaded host only widens them; a
 * try in which the host stalled the guest for a whole period (the timer
 * expired) is repeated.
 */
static void kp_time_period_carries_over(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	const ktime_t period = ns_to_ktime((s64)KP_TEST_TIME_MAX * 100);
	ktime_t t_on, t_on1, t_out0, t_out1, t_in0, t_in1, kept, expires;
	struct kp_stimer_cpu *tc;
	unsigned long flags;
	unsigned int try;
	u64 fired;

	kp_pmu_fix_interval(f->pmu, TIME, KP_TEST_TIME_MAX);
	for (try = 0; try < 5; try++) {
		/*
		 * On one CPU; each switch as the sched_switch probe runs it,
		 * with interrupts off; between them interrupts on, so that
		 * the clock advances even where it is jiffies.
		 */
		preempt_disable();
		tc = this_cpu_ptr(f->set.timers);
		fired = tc->expiries;
		local_irq_save(flags);
		t_on = ktime_get();
		kp_stimer_switch_this_cpu(&f->set, true);
		t_on1 = ktime_get();
		local_irq_restore(flags);
		while (ktime_before(ktime_get(), ktime_add_ms(t_on, 20)))
			cpu_relax();
		local_irq_save(flags);
		t_out0 = ktime_get();
		kp_stimer_switch_this_cpu(&f->set, false);
		t_out1 = ktime_get();
		kept = tc->left;
		t_in0 = ktime_get();
		kp_stimer_switch_this_cpu(&f->set, true);
		t_in1 = ktime_get();
		expires = hrtimer_get_expires(&tc->timer);
		kp_stimer_switch_this_cpu(&f->set, false);
		tc->left = 0;
		local_irq_restore(flags);
		fired = tc->expiries - fired;
		preempt_enable();
		if (!fired && ktime_before(t_out1, ktime_add(t_on, period)))
			break;
	}
	if (try == 5)
		kunit_skip(test, "the host stalled this CPU for a whole period in 5 tries");
	/* Kept: the period less at least the 20 ms run, and not yet spent. */
	KUNIT_EXPECT_GT(test, ktime_to_ns(kept), 0LL);
	KUNIT_EXPECT_LE(test, ktime_to_ns(kept),
			ktime_to_ns(ktime_sub(ktime_add(t_on1, period), t_out0)));
	KUNIT_EXPECT_GE(test, ktime_to_ns(kept),
			ktime_to_ns(ktime_sub(ktime_add(t_on, period), t_out1)));
	/* Resumed with what was kept: a whole period would be 20 ms later. */
	KUNIT_EXPECT_GE(test, ktime_to_ns(expires), ktime_to_ns(ktime_add(t_in0, kept)));
	KUNIT_EXPECT_LE(test, ktime_to_ns(expires), ktime_to_ns(ktime_add(t_in1, kept)));
}

static u64 expiries(struct kp_prof_fix *f, unsigned int cpu)
{
	return READ_ONCE(per_cpu_ptr(f->set.timers, cpu)->expiries);
}

/*
 * A process's ProfileTime profile interrupts only the CPUs its threads
 * run on, as perf's per-task cpu-clock: with the test's one-thread
 * process pinned to CPU 0, CPU 1 takes no expiry while the profile runs
 * (it took one every period on every CPU before).  A system-wide profile
 * still interrupts CPU 1.
 */
static void kp_time_only_where_target_runs(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	/*
	 * Each phase waits for its events, not for a time: the deadlines only
	 * bound a failure.  Under TCG on a loaded host the guest's clock runs
	 * on while its vCPUs get little of the host (9 hits in 20 s seen).
	 */
	unsigned long end = jiffies + 120 * HZ;
	struct kp_profile *p, *sys;
	cpumask_var_t old;
	u64 e0, e1;

	if (!cpu_online(0) || !cpu_online(1))
		kunit_skip(test, "needs CPUs 0 and 1 online");
	if (!kp_sched_hook_found(KP_SCHED_SWITCH))
		kunit_skip(test, "no sched_switch tracepoint: every CPU ticks");
	KUNIT_ASSERT_TRUE(test, alloc_cpumask_var(&old, GFP_KERNEL));
	cpumask_copy(old, current->cpus_ptr);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(0)), 0);

	p = kp_prof_new(f, TIME, KPROFILE_TARGET_SELF, KPROFILE_MODE_BOTH,
			KBASE, KSIZE, 31, NULL);
	e0 = expiries(f, 0);
	e1 = expiries(f, 1);
	kp_prof_start(f, p);
	KUNIT_EXPECT_TRUE(test, f->set.time_hooked);
	/* Run (the timer samples this thread), and sleep (it stops). */
	while (kp_prof_stat(p, "hits") < 20 && time_before(jiffies, end)) {
		mdelay(5);
		msleep(20);
	}
	KUNIT_EXPECT_EQ(test, kp_profile_stop(p), 0);
	KUNIT_EXPECT_GE(test, kp_prof_stat(p, "hits"), 20ULL);
	KUNIT_EXPECT_GT(test, expiries(f, 0), e0);
	KUNIT_EXPECT_EQ(test, expiries(f, 1), e1);

	sys = kp_prof_new(f, TIME, KPROFILE_TARGET_SYSTEM, KPROFILE_MODE_BOTH,
			  KBASE, KSIZE, 31, NULL);
	kp_prof_start(f, sys);
	end = jiffies + 120 * HZ;
	while (expiries(f, 1) == e1 && time_before(jiffies, end))
		msleep(20);
	KUNIT_EXPECT_GT(test, expiries(f, 1), e1);
	KUNIT_EXPECT_EQ(test, kp_profile_stop(sys), 0);

	set_cpus_allowed_ptr(current, old);
	free_cpumask_var(old);
}

static struct kunit_case kp_profile_time_cases[] = {
	KUNIT_CASE(kp_time_samples_kernel),
	KUNIT_CASE(kp_time_refcount),
	KUNIT_CASE(kp_time_interval_next_period),
	KUNIT_CASE(kp_time_period_carries_over),
	KUNIT_CASE(kp_time_only_where_target_runs),
	{}
};

static struct kunit_suite kp_profile_time_suite = {
	.name = "kprofile_profile_time",
	.exit = kp_prof_fix_exit,
	.test_cases = kp_profile_time_cases,
};

kunit_test_suite(kp_profile_time_suite);

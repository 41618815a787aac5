// SPDX-License-Identifier: GPL-2.0
/*
 * profile_time_test.c - KUnit suite "kprofile_profile_time": ProfileTime
 * on real per-CPU hrtimers.  A system-wide profile of the kernel image
 * gets hits from the interrupted registers (the timers interrupt the
 * kernel: this test, idle CPUs) and every hit is in its bucket; the
 * timers run while at least one ProfileTime profile is started and are
 * gone, on every CPU, after the last stops; nothing counts after stop.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>

#include "profile_fixture.h"

#define TIME	KPROFILE_SOURCE_TIME
/* The kernel image and modules: the top 2 GiB, one bucket of 2^31. */
#define KBASE	0xffffffff80000000ULL
#define KSIZE	0x7fffffffULL

static unsigned int timers_running(struct kp_prof_fix *f)
{
	unsigned int cpu, n = 0;

	for_each_possible_cpu(cpu) {
		struct kp_ptimer_cpu *tc = per_cpu_ptr(f->set.timers, cpu);

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

static struct kunit_case kp_profile_time_cases[] = {
	KUNIT_CASE(kp_time_samples_kernel),
	KUNIT_CASE(kp_time_refcount),
	{}
};

static struct kunit_suite kp_profile_time_suite = {
	.name = "kprofile_profile_time",
	.exit = kp_prof_fix_exit,
	.test_cases = kp_profile_time_cases,
};

kunit_test_suite(kp_profile_time_suite);

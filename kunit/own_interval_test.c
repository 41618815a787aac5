// SPDX-License-Identifier: GPL-2.0
/*
 * own_interval_test.c - KUnit suite "kprofile_own_interval": ProfileTime
 * intervals of a profile's or stream's own (sampler_rate.c).  The credit
 * samples a consumer once per interval of the time ticked for it,
 * whatever the tick; its setter accepts only a stopped ProfileTime
 * profile or stream, rejects 0, clamps, and leaves the machine-wide
 * interval alone; the timers tick at the shortest interval wanted; the
 * interval is part of a class's filters, and two profiles of one process
 * with different intervals, ticked on one CPU, each get their own rate.
 *
 * The profiles whose hits are counted belong to a kernel thread of the
 * test that sleeps throughout, so the real ProfileTime timers (which run
 * only where a profiled task runs) never tick for them: every tick they
 * see is one the test feeds.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/irqflags.h>
#include <linux/kthread.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>

#include "profile_fixture.h"
#include "stream_fixture.h"

#define TIME	KPROFILE_SOURCE_TIME
#define BASE	0x400000UL
#define SIZE	0x1000UL

/* A kernel thread that sleeps until the test ends: a process to profile. */
struct sleeper {
	struct completion done;
	struct task_struct *task;
};

static int sleeper_fn(void *data)
{
	struct sleeper *s = data;

	wait_for_completion(&s->done);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/* The test's sleeper, stopped by the suite's exit (tests run in turn). */
static struct sleeper *kp_own_sleeper;

static struct pid *sleeper_tgid(struct kunit *test)
{
	struct sleeper *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	struct task_struct *t;

	KUNIT_ASSERT_NOT_NULL(test, s);
	init_completion(&s->done);
	t = kthread_run(sleeper_fn, s, "kp_own_sleeper");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	get_task_struct(t);
	s->task = t;
	kp_own_sleeper = s;
	return task_tgid(t);
}

/* Suite exit: the profiles, then the sleeper. */
static void kp_own_exit(struct kunit *test)
{
	struct sleeper *s = kp_own_sleeper;

	kp_prof_fix_exit(test);
	kp_own_sleeper = NULL;
	if (!s)
		return;
	complete(&s->done);
	kthread_stop(s->task);
	put_task_struct(s->task);
}

/* A stopped user-mode ProfileTime profile of @tgid, with interval @own. */
static struct kp_profile *new_of(struct kp_prof_fix *f, struct pid *tgid,
				 u32 own)
{
	struct kprofile_interval iv = { .source = TIME, .interval = own };
	struct kp_profile *p = kp_prof_new(f, TIME, KPROFILE_TARGET_SELF,
					   KPROFILE_MODE_USER, BASE, SIZE, 12,
					   NULL);

	put_pid(p->tgid);
	p->tgid = get_pid(tgid);
	if (own)
		KUNIT_ASSERT_EQ(f->test, kp_profile_set_interval(p, &iv), 0);
	return p;
}

/* @n ticks of @tick (100 ns units) of @tgid on @cpu, in user mode. */
static void feed(struct kp_prof_fix *f, const struct pid *tgid,
		 unsigned int cpu, u32 tick, unsigned int n)
{
	struct kp_sample s = {
		.source = TIME, .cpu = cpu, .tgid = tgid, .ip = BASE,
		.user = true, .dumpable = true, .tick = tick,
	};

	while (n--)
		kp_profile_hit(&f->set, &s);
}

static void kp_own_credit(struct kunit *test)
{
	local64_t credit;
	unsigned int i, due = 0;

	local64_set(&credit, 0);
	/* Ticks of 2 for an interval of 5: 2 samples every 5 ticks. */
	for (i = 0; i < 50; i++)
		due += kp_rate_due(&credit, 2, 5);
	KUNIT_EXPECT_EQ(test, due, 20U);
	/* Not a tick (a counter's overflow): always. */
	KUNIT_EXPECT_TRUE(test, kp_rate_due(&credit, 0, 5));
	/* A tick as long as the interval, or longer: always. */
	KUNIT_EXPECT_TRUE(test, kp_rate_due(&credit, 5, 5));
	KUNIT_EXPECT_TRUE(test, kp_rate_due(&credit, 9, 5));
	/* A credit left above a smaller interval starts again: no burst. */
	local64_set(&credit, 90);
	KUNIT_EXPECT_TRUE(test, kp_rate_due(&credit, 2, 10));
	KUNIT_EXPECT_EQ(test, local64_read(&credit), 0LL);
	KUNIT_EXPECT_FALSE(test, kp_rate_due(&credit, 2, 10));
}

static void kp_own_set_rules(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	struct kprofile_interval iv = { .source = TIME, .interval = 1 };
	u32 machine = kp_source_interval(f->set.sources, TIME);
	struct kp_profile *p, *c;

	p = kp_prof_new(f, TIME, KPROFILE_TARGET_SELF, KPROFILE_MODE_USER,
			BASE, SIZE, 12, NULL);
	/* Clamped to ProfileTime's range, and said. */
	KUNIT_EXPECT_EQ(test, kp_profile_set_interval(p, &iv), 0);
	KUNIT_EXPECT_EQ(test, iv.interval, (u32)KPROFILE_TIME_INTERVAL_MIN);
	iv.interval = U32_MAX;
	KUNIT_EXPECT_EQ(test, kp_profile_set_interval(p, &iv), 0);
	KUNIT_EXPECT_EQ(test, iv.interval, (u32)KPROFILE_TIME_INTERVAL_MAX);
	KUNIT_EXPECT_EQ(test, p->interval, (u32)KPROFILE_TIME_INTERVAL_MAX);
	/* 0 is no interval. */
	iv.interval = 0;
	KUNIT_EXPECT_EQ(test, kp_profile_set_interval(p, &iv), -EINVAL);
	/* Only ProfileTime's: a counter source's is machine-wide. */
	iv = (struct kprofile_interval){ .source = KP_PROF_COUNTER,
					 .interval = 5000 };
	KUNIT_EXPECT_EQ(test, kp_profile_set_interval(p, &iv), -EOPNOTSUPP);
	c = kp_prof_new(f, KP_PROF_COUNTER, KPROFILE_TARGET_SELF,
			KPROFILE_MODE_USER, BASE, SIZE, 12, NULL);
	iv.source = TIME;
	KUNIT_EXPECT_EQ(test, kp_profile_set_interval(c, &iv), -EOPNOTSUPP);
	/* Only while stopped. */
	kp_prof_start(f, p);
	iv.interval = 5000;
	KUNIT_EXPECT_EQ(test, kp_profile_set_interval(p, &iv), -EBUSY);
	KUNIT_EXPECT_EQ(test, p->interval, (u32)KPROFILE_TIME_INTERVAL_MAX);
	KUNIT_EXPECT_EQ(test, kp_profile_stop(p), 0);
	KUNIT_EXPECT_EQ(test, kp_profile_set_interval(p, &iv), 0);
	KUNIT_EXPECT_EQ(test, p->interval, 5000U);
	/* The machine-wide interval never moved. */
	KUNIT_EXPECT_EQ(test, kp_source_interval(f->set.sources, TIME),
			machine);
}

/* The timers tick at the shortest interval a started consumer wants. */
static void kp_own_tick(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	struct pid *tgid = sleeper_tgid(test);
	u32 machine = kp_source_interval(f->set.sources, TIME);
	struct kp_profile *fast, *slow, *plain;

	fast = new_of(f, tgid, machine / 4);
	slow = new_of(f, tgid, machine * 4);
	plain = new_of(f, tgid, 0);
	KUNIT_EXPECT_EQ(test, kp_rate_tick(&f->set), machine);
	kp_prof_start(f, slow);
	KUNIT_EXPECT_EQ(test, kp_rate_tick(&f->set), machine * 4);
	kp_prof_start(f, plain);
	KUNIT_EXPECT_EQ(test, kp_rate_tick(&f->set), machine);
	kp_prof_start(f, fast);
	KUNIT_EXPECT_EQ(test, kp_rate_tick(&f->set), machine / 4);
	KUNIT_EXPECT_EQ(test, kp_profile_stop(fast), 0);
	KUNIT_EXPECT_EQ(test, kp_rate_tick(&f->set), machine);
	KUNIT_EXPECT_EQ(test, kp_profile_stop(plain), 0);
	KUNIT_EXPECT_EQ(test, kp_rate_tick(&f->set), machine * 4);
	KUNIT_EXPECT_EQ(test, kp_profile_stop(slow), 0);
	KUNIT_EXPECT_EQ(test, kp_rate_tick(&f->set), machine);
}

/* The classes of @tgid in the published ProfileTime snapshot. */
static u32 classes_of(struct kp_prof_fix *f, const struct pid *tgid)
{
	const struct kp_profile_group *g;
	const struct kp_profile_index *idx;
	u32 n = 0;

	rcu_read_lock();
	idx = rcu_dereference(f->set.index[TIME]);
	g = idx ? kp_profile_index_find(idx, tgid) : NULL;
	if (g)
		n = g->nr;
	rcu_read_unlock();
	return n;
}

static void kp_own_class_key(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	struct pid *tgid = sleeper_tgid(test);
	struct kp_profile *a, *b, *c, *d;

	a = new_of(f, tgid, 2500);
	b = new_of(f, tgid, 2500);
	c = new_of(f, tgid, 0);
	d = new_of(f, tgid, 0);
	kp_prof_start(f, a);
	kp_prof_start(f, b);
	KUNIT_EXPECT_EQ(test, classes_of(f, tgid), 1U);
	kp_prof_start(f, c);
	KUNIT_EXPECT_EQ(test, classes_of(f, tgid), 2U);
	kp_prof_start(f, d);
	KUNIT_EXPECT_EQ(test, classes_of(f, tgid), 2U);
}

/* Two profiles of one process on one CPU, each at its own rate. */
static void kp_own_two_rates(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	struct pid *tgid = sleeper_tgid(test);
	u32 machine = kp_source_interval(f->set.sources, TIME);
	struct kp_profile *fast, *plain, *odd;
	u32 *bf, *bp, *bo, tick;

	fast = new_of(f, tgid, machine / 4);
	plain = new_of(f, tgid, 0);
	odd = new_of(f, tgid, machine * 3 / 4);
	bf = kp_prof_start(f, fast);
	bp = kp_prof_start(f, plain);
	bo = kp_prof_start(f, odd);
	tick = kp_rate_tick(&f->set);
	KUNIT_ASSERT_EQ(test, tick, machine / 4);

	feed(f, tgid, 0, tick, 40);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(fast, "hits"), 40ULL);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(plain, "hits"), 10ULL);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(odd, "hits"), 13ULL);
	KUNIT_EXPECT_EQ(test, bf[0], 40U);
	KUNIT_EXPECT_EQ(test, bp[0], 10U);
	KUNIT_EXPECT_EQ(test, bo[0], 13U);
	/* Not due is not a miss: no outside, no wrong_mode. */
	KUNIT_EXPECT_EQ(test, kp_prof_stat(plain, "outside"), 0ULL);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(plain, "wrong_mode"), 0ULL);

	/*
	 * Each CPU has its own credit: 3 ticks on CPU 0 and 3 on CPU 1 are
	 * not a whole interval of the plain profile on either.
	 */
	if (nr_cpu_ids > 1) {
		feed(f, tgid, 0, tick, 3);
		feed(f, tgid, 1, tick, 3);
		KUNIT_EXPECT_EQ(test, kp_prof_stat(plain, "hits"), 10ULL);
		KUNIT_EXPECT_EQ(test, kp_prof_stat(fast, "hits"), 46ULL);
	}
}

/* A stream's own interval: its samples on this CPU follow its rate. */
static void kp_own_stream(struct kunit *test)
{
	struct kp_str_fix *f = kp_str_fix_new(test);
	struct kprofile_interval iv = { .source = TIME };
	u32 machine = kp_source_interval(&f->prof->pmu->sources, TIME);
	u32 src = TIME, counter = KP_PROF_COUNTER;
	struct kp_stream_ring *ring;
	struct kp_stream *st, *cst;
	unsigned long flags;
	struct kp_sample s;
	unsigned int i;
	u64 before, after;

	st = kp_str_new(f, KPROFILE_TARGET_SELF, 0, KPROFILE_MODE_BOTH, &src,
			1, 0, 0);
	cst = kp_str_new(f, KPROFILE_TARGET_SELF, 0, KPROFILE_MODE_BOTH,
			 &counter, 1, 0, 0);
	iv.interval = machine * 4;
	KUNIT_EXPECT_EQ(test, kp_stream_set_interval(cst, &iv), -EOPNOTSUPP);
	iv.interval = 0;
	KUNIT_EXPECT_EQ(test, kp_stream_set_interval(st, &iv), -EINVAL);
	iv.interval = machine * 4;
	KUNIT_EXPECT_EQ(test, kp_stream_set_interval(st, &iv), 0);
	kp_str_start(f, st);
	KUNIT_EXPECT_EQ(test, kp_stream_set_interval(st, &iv), -EBUSY);
	KUNIT_EXPECT_EQ(test, kp_rate_tick(&f->prof->set), machine * 4);

	/* Interrupts off: no real tick of this CPU in between. */
	local_irq_save(flags);
	ring = this_cpu_ptr(st->rings);
	local64_set(&ring->credit, 0);
	before = local64_read(&ring->samples);
	s = (struct kp_sample){
		.source = TIME, .cpu = smp_processor_id(),
		.tgid = task_tgid(current), .ip = BASE, .user = true,
		.dumpable = true, .tick = machine,
	};
	for (i = 0; i < 20; i++)
		kp_stream_sample_task(&f->prof->set, &s, current, NULL);
	after = local64_read(&ring->samples);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, after - before, 5ULL);
	KUNIT_EXPECT_EQ(test, kp_stream_stop(st), 0);
	KUNIT_EXPECT_EQ(test, kp_rate_tick(&f->prof->set), machine);
}

static struct kunit_case kp_own_interval_cases[] = {
	KUNIT_CASE(kp_own_credit),
	KUNIT_CASE(kp_own_set_rules),
	KUNIT_CASE(kp_own_tick),
	KUNIT_CASE(kp_own_class_key),
	KUNIT_CASE(kp_own_two_rates),
	{}
};

static struct kunit_suite kp_own_interval_suite = {
	.name = "kprofile_own_interval",
	.exit = kp_own_exit,
	.test_cases = kp_own_interval_cases,
};

static struct kunit_case kp_own_interval_stream_cases[] = {
	KUNIT_CASE(kp_own_stream),
	{}
};

static struct kunit_suite kp_own_interval_stream_suite = {
	.name = "kprofile_own_interval_stream",
	.exit = kp_str_fix_exit,
	.test_cases = kp_own_interval_stream_cases,
};

kunit_test_suites(&kp_own_interval_suite, &kp_own_interval_stream_suite);

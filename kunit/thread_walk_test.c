// SPDX-License-Identifier: GPL-2.0
/*
 * thread_walk_test.c - KUnit suite "kprofile_thread_walk": the thread
 * list and read walks (kp_thread_list(), kp_thread_read()) cover up to
 * KP_THREAD_MAX (32768) entries under the client's raw spinlock, with
 * interrupts off.  They must let interrupts
 * and the scheduler in at least every 64 entries (thread.c's
 * KP_THREAD_BATCH), and still account for every entry.
 *
 * How a dropped lock is seen: the walk reads the fake cycle clock once
 * per entry, with the lock held (the entries are the test's own task,
 * "running", so kp_thread_snapshot() adds the running slice).  Each read
 * asks for a reschedule of this task (TIF_NEED_RESCHED and the per-CPU
 * preempt flag, as resched_curr() does); when the next read finds the
 * request gone, the scheduler ran in between, which it cannot while the
 * raw spinlock is held.  So the longest run of reads that find it still
 * set is the most entries walked with the lock held in one go.  Before
 * the batching, a 300-entry walk was one run of 300.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/list.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "thread_fixture.h"

/* Entries walked: more than four batches of 64. */
#define KP_WALK_ENTRIES		300
/* thread.c's KP_THREAD_BATCH: entries walked with the lock held at most. */
#define KP_WALK_BATCH		64
/* What the fake clock says; each entry's running slice is this long. */
#define KP_WALK_NOW		1000

static struct {
	unsigned int reads;	/* clock reads, one per entry */
	unsigned int drops;	/* reads that found the request served */
	unsigned int run;	/* reads since the last such */
	unsigned int max_run;	/* the longest run */
} kp_walk;

static u64 kp_walk_clock(void)
{
	if (kp_walk.reads++ && !test_tsk_need_resched(current)) {
		kp_walk.drops++;
		kp_walk.run = 0;
	}
	if (++kp_walk.run > kp_walk.max_run)
		kp_walk.max_run = kp_walk.run;
	set_tsk_need_resched(current);
	set_preempt_need_resched();
	return KP_WALK_NOW;
}

/* A client with @n entries for the current task, all "running" since 0. */
static struct kp_thread_client *kp_walk_client(struct kunit *test,
					       unsigned int n)
{
	struct kp_pmu_fix *pmu = kp_pmu_fix_amd(test, 0x17, false);
	char reason[KPROFILE_REASON_LEN] = "";
	struct kp_thread_client *c;
	struct kp_thread_fix *fix;
	struct kp_thread_task *e;
	unsigned long flags;
	unsigned int i;

	fix = kp_thread_fix_new(test, pmu);
	fix->threads.clock = kp_walk_clock;
	c = kp_thread_client_new(&fix->threads, 0, 0, reason, sizeof(reason));
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(c), "%s", reason);
	for (i = 0; i < n; i++) {
		/* Freed with the client (kp_thread_client_free(): kfree()). */
		e = kzalloc(sizeof(*e), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, e);
		e->task = current;
		e->tid = i + 1;
		e->tgid = 1;
		e->running = true;
		raw_spin_lock_irqsave(&c->lock, flags);
		list_add_tail(&e->node, &c->all);
		c->nr++;
		raw_spin_unlock_irqrestore(&c->lock, flags);
	}
	memset(&kp_walk, 0, sizeof(kp_walk));
	return c;
}

static void kp_walk_expect_batches(struct kunit *test, unsigned int n)
{
	KUNIT_EXPECT_EQ(test, kp_walk.reads, n);
	KUNIT_EXPECT_LE_MSG(test, kp_walk.max_run, KP_WALK_BATCH,
			    "%u entries walked with the lock held in one go",
			    kp_walk.max_run);
	KUNIT_EXPECT_GE(test, kp_walk.drops, (n - 1) / KP_WALK_BATCH);
}

/* ReadThreadProfilingData: every entry counted, the lock let go. */
static void kp_walk_read(struct kunit *test)
{
	struct kp_thread_client *c = kp_walk_client(test, KP_WALK_ENTRIES);
	struct kprofile_thread_data *d;

	d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d);
	kp_thread_read(c, d);
	kp_walk_expect_batches(test, KP_WALK_ENTRIES);
	KUNIT_EXPECT_EQ(test, d->threads, (u64)KP_WALK_ENTRIES);
	KUNIT_EXPECT_EQ(test, d->cycle_time,
			(u64)KP_WALK_ENTRIES * KP_WALK_NOW);
}

/* The per-thread list: all entries in join order, the lock let go. */
static void kp_walk_list(struct kunit *test)
{
	struct kp_thread_client *c = kp_walk_client(test, KP_WALK_ENTRIES);
	struct kprofile_thread_entry *out;
	unsigned int i, bad = 0;

	out = kunit_kcalloc(test, KP_WALK_ENTRIES, sizeof(*out), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_EXPECT_EQ(test, kp_thread_list(c, out, KP_WALK_ENTRIES),
			(u32)KP_WALK_ENTRIES);
	kp_walk_expect_batches(test, KP_WALK_ENTRIES);
	for (i = 0; i < KP_WALK_ENTRIES; i++)
		if (out[i].tid != i + 1 || out[i].cycle_time != KP_WALK_NOW)
			bad++;
	KUNIT_EXPECT_EQ_MSG(test, bad, 0U, "first: tid %d, cycles %llu",
			    out[0].tid, (unsigned long long)out[0].cycle_time);
}

/* A short room still walks (and counts) every entry, in batches. */
static void kp_walk_list_short_room(struct kunit *test)
{
	struct kp_thread_client *c = kp_walk_client(test, KP_WALK_ENTRIES);
	struct kprofile_thread_entry *out;

	out = kunit_kcalloc(test, 10, sizeof(*out), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_EXPECT_EQ(test, kp_thread_list(c, out, 10), (u32)KP_WALK_ENTRIES);
	/* Only the entries written are read. */
	KUNIT_EXPECT_EQ(test, kp_walk.reads, 10U);
	KUNIT_EXPECT_EQ(test, out[9].tid, 10);
}

static struct kunit_case kp_walk_cases[] = {
	KUNIT_CASE(kp_walk_read),
	KUNIT_CASE(kp_walk_list),
	KUNIT_CASE(kp_walk_list_short_room),
	{}
};

static struct kunit_suite kp_walk_suite = {
	.name = "kprofile_thread_walk",
	.exit = kp_thread_fix_exit,
	.test_cases = kp_walk_cases,
};

kunit_test_suite(kp_walk_suite);

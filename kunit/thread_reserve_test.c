// SPDX-License-Identifier: GPL-2.0
/*
 * thread_reserve_test.c - KUnit suite "kprofile_thread_reserve": a thread
 * that joins from the fork hook (atomic context, preemption off) takes a
 * preallocated entry and never allocates, so the hook is valid on
 * PREEMPT_RT (docs/hardware.md F17).
 *
 * The joins are made with preemption off, as the tracepoint runs them;
 * the refill work is queued on this CPU and cannot run until preemption
 * is enabled again, so the reserve's size is exactly what the hook gets.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/workqueue.h>

#include "thread_fixture.h"

static struct kp_thread_client *inherit_client(struct kunit *test)
{
	struct kp_pmu_fix *pmu = kp_pmu_fix_intel(test, 2, 4, 48);
	struct kp_thread_fix *fix = kp_thread_fix_new(test, pmu);
	char reason[KPROFILE_REASON_LEN] = "";
	struct kp_thread_client *c;

	c = kp_thread_client_new(&fix->threads, KPROFILE_THREAD_INHERIT, 0,
				 reason, sizeof(reason));
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(c), "%s", reason);
	return c;
}

/* The hook's joins are served from the reserve, and only from it. */
static void kp_thread_fork_join_never_allocates(struct kunit *test)
{
	struct kp_thread_client *c = inherit_client(test);
	struct kp_thread_task *e[KP_THREAD_RESERVE + 1];
	unsigned int i;

	preempt_disable();
	for (i = 0; i < ARRAY_SIZE(e); i++)
		e[i] = kp_thread_join(c, current, GFP_ATOMIC);
	preempt_enable();
	for (i = 0; i < KP_THREAD_RESERVE; i++)
		KUNIT_EXPECT_NOT_NULL_MSG(test, e[i], "join %u", i);
	/* One more than the reserve: lost, not allocated in the hook. */
	KUNIT_EXPECT_NULL(test, e[KP_THREAD_RESERVE]);
	KUNIT_EXPECT_EQ(test, c->lost, 1U);
	KUNIT_EXPECT_EQ(test, c->nr, (unsigned int)KP_THREAD_RESERVE);
}

/* Process context refills the reserve; the hook can join again. */
static void kp_thread_reserve_refills(struct kunit *test)
{
	struct kp_thread_client *c = inherit_client(test);
	unsigned int i;

	KUNIT_EXPECT_EQ(test, c->nr_spare, (unsigned int)KP_THREAD_RESERVE);
	preempt_disable();
	for (i = 0; i < KP_THREAD_RESERVE; i++)
		kp_thread_join(c, current, GFP_ATOMIC);
	preempt_enable();
	flush_work(&c->refill);
	KUNIT_EXPECT_EQ(test, c->nr_spare, (unsigned int)KP_THREAD_RESERVE);
	preempt_disable();
	KUNIT_EXPECT_NOT_NULL(test, kp_thread_join(c, current, GFP_ATOMIC));
	preempt_enable();
	KUNIT_EXPECT_EQ(test, c->lost, 0U);
}

/* A client without INHERIT has no fork hook and keeps no reserve. */
static void kp_thread_no_inherit_no_reserve(struct kunit *test)
{
	struct kp_pmu_fix *pmu = kp_pmu_fix_intel(test, 2, 4, 48);
	struct kp_thread_fix *fix = kp_thread_fix_new(test, pmu);
	char reason[KPROFILE_REASON_LEN] = "";
	struct kp_thread_client *c;

	c = kp_thread_client_new(&fix->threads, 0, 0, reason, sizeof(reason));
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(c), "%s", reason);
	KUNIT_EXPECT_EQ(test, c->nr_spare, 0U);
	/* Process-context joins still allocate. */
	KUNIT_EXPECT_NOT_NULL(test, kp_thread_join(c, current, GFP_KERNEL));
}

static struct kunit_case kp_thread_reserve_cases[] = {
	KUNIT_CASE(kp_thread_fork_join_never_allocates),
	KUNIT_CASE(kp_thread_reserve_refills),
	KUNIT_CASE(kp_thread_no_inherit_no_reserve),
	{}
};

static struct kunit_suite kp_thread_reserve_suite = {
	.name = "kprofile_thread_reserve",
	.exit = kp_thread_fix_exit,
	.test_cases = kp_thread_reserve_cases,
};

kunit_test_suite(kp_thread_reserve_suite);

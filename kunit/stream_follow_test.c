// SPDX-License-Identifier: GPL-2.0
/*
 * stream_follow_test.c - KUnit suite "kprofile_stream_follow": the
 * followed-process table and the task records of streams
 * (stream_follow.c).
 *
 * The table: insert, lookup, remove, removal of what is not there, a
 * removed slot reused, and a full table (bounded probing) refusing the
 * rest while every entry it took stays found.  The probes' work, called
 * directly with real tasks (a kernel thread as the "child"): a fork of a
 * followed process follows the child with INHERIT and writes FORK (pid,
 * tid, parent, command name), without INHERIT does neither, and a
 * system-wide stream writes FORK for any process; a fork that finds the
 * table full is counted as untracked; the exit of a process's last
 * thread writes EXIT and ends following it, another thread's does
 * nothing; an exec writes EXEC, and stops following when it left the
 * process non-dumpable (EXEC_STOPPED).  poll() on the stream reports
 * EPOLLIN after an EXIT (once), not after a FORK alone.
 */
#include <kunit/test.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/pid.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../kmod/access.h"
#include "stream_fixture.h"

#define SRC	KP_PROF_COUNTER

static const u32 src_counter[] = { SRC };

static struct pid **table_new(struct kunit *test)
{
	struct pid **t = kunit_kcalloc(test, KP_FOLLOW_SLOTS, sizeof(*t),
				       GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	return t;
}

static void kp_follow_basic(struct kunit *test)
{
	struct pid **t = table_new(test);
	u64 *keys = kunit_kcalloc(test, 4, sizeof(*keys), GFP_KERNEL);
	struct pid *a = (struct pid *)&keys[0], *b = (struct pid *)&keys[1];

	KUNIT_ASSERT_NOT_NULL(test, keys);
	KUNIT_EXPECT_FALSE(test, kp_follow_find(t, a));
	KUNIT_EXPECT_FALSE(test, kp_follow_del(t, a));
	KUNIT_EXPECT_TRUE(test, kp_follow_add(t, a));
	KUNIT_EXPECT_TRUE(test, kp_follow_find(t, a));
	KUNIT_EXPECT_FALSE(test, kp_follow_find(t, b));
	KUNIT_EXPECT_TRUE(test, kp_follow_add(t, b));
	KUNIT_EXPECT_TRUE(test, kp_follow_find(t, b));
	KUNIT_EXPECT_TRUE(test, kp_follow_del(t, a));
	KUNIT_EXPECT_FALSE(test, kp_follow_del(t, a));
	KUNIT_EXPECT_FALSE(test, kp_follow_find(t, a));
	KUNIT_EXPECT_TRUE(test, kp_follow_find(t, b));
	KUNIT_EXPECT_FALSE(test, kp_follow_find(t, KP_FOLLOW_TOMBSTONE));
	KUNIT_EXPECT_TRUE(test, kp_follow_add(t, a));
	KUNIT_EXPECT_TRUE(test, kp_follow_find(t, a));
}

/*
 * Distinct keys until the table refuses them: at most KP_FOLLOW_SLOTS
 * taken; those taken are found, the others not; removed, their slots
 * serve new keys.
 */
static void kp_follow_full(struct kunit *test)
{
	unsigned int n = KP_FOLLOW_SLOTS + 256, i, taken = 0, found = 0;
	struct pid **t = table_new(test);
	u64 *keys = kunit_kcalloc(test, n, sizeof(*keys), GFP_KERNEL);
	bool *in = kunit_kcalloc(test, n, sizeof(*in), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, keys);
	KUNIT_ASSERT_NOT_NULL(test, in);
	for (i = 0; i < n; i++) {
		in[i] = kp_follow_add(t, (struct pid *)&keys[i]);
		taken += in[i];
	}
	KUNIT_EXPECT_LE(test, taken, (unsigned int)KP_FOLLOW_SLOTS);
	KUNIT_EXPECT_GE(test, taken, (unsigned int)KP_FOLLOW_SLOTS / 2);
	for (i = 0; i < n; i++)
		found += kp_follow_find(t, (struct pid *)&keys[i]) == in[i];
	KUNIT_EXPECT_EQ(test, found, n);
	for (i = found = 0; i < n; i++)
		found += kp_follow_del(t, (struct pid *)&keys[i]) == in[i];
	KUNIT_EXPECT_EQ(test, found, n);
	for (i = found = 0; i < n; i++)
		found += kp_follow_find(t, (struct pid *)&keys[i]);
	KUNIT_EXPECT_EQ(test, found, 0U);
	/* Tombstones everywhere: the first 1024 keys fit again. */
	for (i = found = 0; i < 1024; i++)
		found += kp_follow_add(t, (struct pid *)&keys[i]);
	KUNIT_EXPECT_EQ(test, found, 1024U);
	for (i = found = 0; i < 1024; i++)
		found += kp_follow_find(t, (struct pid *)&keys[i]);
	KUNIT_EXPECT_EQ(test, found, 1024U);
}

static int kp_follow_idle(void *arg)
{
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ);
	return 0;
}

/* A process that never runs our code: a kernel thread, not yet woken. */
static struct task_struct *child_new(struct kunit *test)
{
	struct task_struct *c = kthread_create(kp_follow_idle, NULL,
					       "kp-follow-child");

	KUNIT_ASSERT_FALSE(test, IS_ERR(c));
	KUNIT_ASSERT_TRUE(test, thread_group_leader(c));
	get_task_struct(c);
	return c;
}

static void child_end(struct task_struct *c)
{
	kthread_stop(c);
	put_task_struct(c);
}

/* The task records of @st about @pid, of @type. */
static unsigned int count(struct kp_stream *st, u32 type, pid_t pid,
			  const struct kprofile_record_task **last)
{
	struct kp_str_read *rd = kzalloc(sizeof(*rd), GFP_KERNEL);
	const struct kprofile_record_task *r;
	unsigned int i, n = 0;

	if (WARN_ON(!rd))
		return 0;
	kp_str_read_all(st, rd);
	for (i = 0; i < min_t(unsigned int, rd->nr, ARRAY_SIZE(rd->recs));
	     i++) {
		r = (const void *)rd->recs[i];
		if (r->header.type != type || r->pid != pid)
			continue;
		n++;
		if (last)
			*last = r;
	}
	kfree(rd);
	return n;
}

static void kp_follow_fork_exit(struct kunit *test)
{
	struct kp_str_fix *f = kp_str_fix_new(test);
	struct kp_sampler *set = &f->prof->set;
	struct kp_stream *inh = kp_str_new(f, KPROFILE_TARGET_SELF,
					   KPROFILE_STREAM_INHERIT,
					   KPROFILE_MODE_BOTH, src_counter, 1,
					   0, 0);
	struct kp_stream *one = kp_str_new(f, KPROFILE_TARGET_SELF, 0,
					   KPROFILE_MODE_BOTH, src_counter, 1,
					   0, 0);
	struct kp_stream *sys = kp_str_new(f, KPROFILE_TARGET_SYSTEM, 0,
					   KPROFILE_MODE_BOTH, src_counter, 1,
					   0, 0);
	struct task_struct *c = child_new(test);
	const struct kprofile_record_task *r = NULL;
	struct pid *ctgid = task_tgid(c);

	kp_str_start(f, inh);
	kp_str_start(f, one);
	kp_str_start(f, sys);
	kp_stream_fork(set, current, c);
	KUNIT_EXPECT_TRUE(test, kp_stream_follows(inh, ctgid));
	KUNIT_EXPECT_FALSE(test, kp_stream_follows(one, ctgid));
	KUNIT_EXPECT_TRUE(test, kp_str_feed(f, SRC, ctgid, NULL, 0x1000, true,
					    true));
	KUNIT_EXPECT_EQ(test, count(inh, KPROFILE_RECORD_FORK, c->pid, &r), 1U);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->header.size, (u32)sizeof(*r));
	KUNIT_EXPECT_EQ(test, r->tid, c->pid);
	KUNIT_EXPECT_EQ(test, r->ppid, task_tgid_nr(current));
	KUNIT_EXPECT_STREQ(test, r->comm, "kp-follow-child");
	KUNIT_EXPECT_EQ(test, r->reserved[0] | r->reserved[1], 0U);
	KUNIT_EXPECT_EQ(test, count(one, KPROFILE_RECORD_FORK, c->pid, NULL),
			0U);
	KUNIT_EXPECT_EQ(test, count(sys, KPROFILE_RECORD_FORK, c->pid, NULL),
			1U);
	/* The child's sample went to the streams that take it. */
	KUNIT_EXPECT_EQ(test, kp_str_info(inh).samples, 1ULL);
	KUNIT_EXPECT_EQ(test, kp_str_info(one).samples, 0ULL);

	/* Not its last thread: nothing. */
	kp_stream_exit(set, c, false);
	KUNIT_EXPECT_TRUE(test, kp_stream_follows(inh, ctgid));
	kp_stream_exit(set, c, true);
	KUNIT_EXPECT_FALSE(test, kp_stream_follows(inh, ctgid));
	KUNIT_EXPECT_EQ(test, count(inh, KPROFILE_RECORD_EXIT, c->pid, &r), 1U);
	KUNIT_EXPECT_EQ(test, r->tid, c->pid);
	KUNIT_EXPECT_EQ(test, r->ppid, 0);
	KUNIT_EXPECT_EQ(test, count(sys, KPROFILE_RECORD_EXIT, c->pid, NULL),
			1U);
	KUNIT_EXPECT_EQ(test, count(one, KPROFILE_RECORD_EXIT, c->pid, NULL),
			0U);
	/* A second "last thread" (pre-6.16 kernels may see two): no record. */
	kp_stream_exit(set, c, true);
	KUNIT_EXPECT_EQ(test, count(inh, KPROFILE_RECORD_EXIT, c->pid, NULL),
			0U);
	KUNIT_EXPECT_EQ(test, kp_str_info(inh).untracked, 0ULL);
	child_end(c);
}

/* A fork whose child does not fit: untracked, no FORK, not followed. */
static void kp_follow_untracked(struct kunit *test)
{
	struct kp_str_fix *f = kp_str_fix_new(test);
	struct kp_stream *st = kp_str_new(f, KPROFILE_TARGET_SELF,
					  KPROFILE_STREAM_INHERIT,
					  KPROFILE_MODE_BOTH, src_counter, 1,
					  0, 0);
	struct task_struct *c = child_new(test);
	unsigned int i;

	kp_str_start(f, st);
	/* Fill every free slot with keys no task has. */
	for (i = 0; i < KP_FOLLOW_SLOTS; i++)
		if (!st->follow[i])
			st->follow[i] = (struct pid *)(0x1000UL + 8 * i);
	kp_stream_fork(&f->prof->set, current, c);
	KUNIT_EXPECT_FALSE(test, kp_stream_follows(st, task_tgid(c)));
	KUNIT_EXPECT_EQ(test, kp_str_info(st).untracked, 1ULL);
	KUNIT_EXPECT_EQ(test, count(st, KPROFILE_RECORD_FORK, c->pid, NULL),
			0U);
	KUNIT_EXPECT_EQ(test, kp_stream_stop(st), 0);
	for (i = 0; i < KP_FOLLOW_SLOTS; i++)
		if ((unsigned long)st->follow[i] - 0x1000UL < 8 * KP_FOLLOW_SLOTS)
			st->follow[i] = NULL;
	KUNIT_EXPECT_TRUE(test, kp_stream_follows(st, task_tgid(current)));
	child_end(c);
}

/*
 * An exec writes EXEC with the command name; one that left the process
 * non-dumpable ends following it (EXEC_STOPPED).  This thread's own
 * dumpability decides which; both are checked against it.
 */
static void kp_follow_exec(struct kunit *test)
{
	struct kp_str_fix *f = kp_str_fix_new(test);
	struct kp_stream *st = kp_str_new(f, KPROFILE_TARGET_SELF, 0,
					  KPROFILE_MODE_BOTH, src_counter, 1,
					  0, 0);
	struct kp_stream *sys = kp_str_new(f, KPROFILE_TARGET_SYSTEM, 0,
					   KPROFILE_MODE_BOTH, src_counter, 1,
					   0, 0);
	const struct kprofile_record_task *r = NULL;
	bool dumpable = kp_task_dumpable(current);
	struct task_struct *c = child_new(test);

	kp_str_start(f, st);
	kp_str_start(f, sys);
	kp_stream_exec(&f->prof->set, c);	/* not followed */
	KUNIT_EXPECT_EQ(test, count(st, KPROFILE_RECORD_EXEC, c->pid, NULL),
			0U);
	KUNIT_EXPECT_EQ(test, count(sys, KPROFILE_RECORD_EXEC, c->pid, NULL),
			1U);
	kp_stream_exec(&f->prof->set, current);
	KUNIT_EXPECT_EQ(test, count(st, KPROFILE_RECORD_EXEC,
				    task_tgid_nr(current), &r), 1U);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_STREQ(test, r->comm, current->comm);
	KUNIT_EXPECT_EQ(test, r->tid, task_pid_nr(current));
	KUNIT_EXPECT_EQ(test, kp_stream_follows(st, task_tgid(current)),
			dumpable);
	KUNIT_EXPECT_EQ(test, kp_str_info(st).flags,
			KPROFILE_STREAM_INFO_POLL |
			(dumpable ? 0U : KPROFILE_PROFILE_EXEC_STOPPED));
	KUNIT_EXPECT_EQ(test, kp_str_info(sys).flags, KPROFILE_STREAM_INFO_POLL);
	kunit_info(test, "this thread is %sdumpable", dumpable ? "" : "not ");
	child_end(c);
}

/* What poll() on the stream fd reports. */
static unsigned int poll_of(struct kp_stream *st)
{
	struct file file = { .private_data = st };

	kp_stream_wake_sync(st);	/* the queued wake-up has run */
	return (__force unsigned int)kp_stream_poll(&file, NULL);
}

/*
 * poll() sleeps until a record the reader acts on: an EXEC or an EXIT
 * wakes it (once: the next poll() sleeps again), a FORK alone does not.
 */
static void kp_follow_poll(struct kunit *test)
{
	struct kp_str_fix *f = kp_str_fix_new(test);
	struct kp_sampler *set = &f->prof->set;
	struct kp_stream *st = kp_str_new(f, KPROFILE_TARGET_SELF,
					  KPROFILE_STREAM_INHERIT,
					  KPROFILE_MODE_BOTH, src_counter, 1,
					  0, 0);
	struct task_struct *c = child_new(test);

	KUNIT_EXPECT_EQ(test, poll_of(st), 0U);
	kp_str_start(f, st);
	KUNIT_EXPECT_EQ(test, poll_of(st), 0U);
	kp_stream_fork(set, current, c);
	KUNIT_EXPECT_EQ(test, count(st, KPROFILE_RECORD_FORK, c->pid, NULL),
			1U);
	KUNIT_EXPECT_EQ(test, poll_of(st), 0U);
	kp_stream_exit(set, c, true);
	KUNIT_EXPECT_EQ(test, poll_of(st),
			(__force unsigned int)(EPOLLIN | EPOLLRDNORM));
	KUNIT_EXPECT_EQ(test, poll_of(st), 0U);
	KUNIT_EXPECT_TRUE(test, kp_str_info(st).flags &
			  KPROFILE_STREAM_INFO_POLL);
	child_end(c);
}

static struct kunit_case kp_stream_follow_cases[] = {
	KUNIT_CASE(kp_follow_basic),
	KUNIT_CASE(kp_follow_full),
	KUNIT_CASE(kp_follow_fork_exit),
	KUNIT_CASE(kp_follow_untracked),
	KUNIT_CASE(kp_follow_exec),
	KUNIT_CASE(kp_follow_poll),
	{}
};

static struct kunit_suite kp_stream_follow_suite = {
	.name = "kprofile_stream_follow",
	.test_cases = kp_stream_follow_cases,
	.exit = kp_str_fix_exit,
};

kunit_test_suite(kp_stream_follow_suite);

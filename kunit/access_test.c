// SPDX-License-Identifier: GPL-2.0
/*
 * access_test.c - KUnit suite "kprofile_access": the dumpability rule of
 * kp_access_thread_creds() for a task without an mm, on its own.
 * ptrace's task_still_dumpable() judges such a task (a kernel thread, or
 * a task past exit_mm()) by task->user_dumpable since 7.1 and the stable
 * backports (by its exec state since 7.2), and only CAP_SYS_PTRACE in the
 * initial user namespace overrides it; before, the module counted it as
 * dumpable.
 *
 * The target is a kernel thread the test starts: no mm, and the
 * credentials of the KUnit thread (uid 0, every capability permitted).
 * The caller keeps those ids and its permitted set, so the id rule and
 * commoncap's subset rule pass, and drops CAP_SYS_PTRACE from its
 * effective set: only the mm-less rule can decide.  Where the kernel has
 * task->user_dumpable, the test flips it on the sleeping thread and the
 * verdict must follow.
 */
#include <kunit/test.h>
#include <linux/capability.h>
#include <linux/completion.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/task.h>

#include "../kmod/access.h"

/* The target: tells it started, then sleeps until kthread_stop(). */
static int kp_mmless_fn(void *arg)
{
	complete(arg);
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

/* kp_access_thread_creds(@t) with CAP_SYS_PTRACE out of the effective set. */
static int kp_creds_without_ptrace(struct kunit *test, struct task_struct *t)
{
	const struct cred *old;
	struct cred *c;
	int ret;

	c = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, c);
	cap_lower(c->cap_effective, CAP_SYS_PTRACE);
	old = override_creds(c);
	ret = kp_access_thread_creds(t);
	revert_creds(old);
	put_cred(c);
	return ret;
}

static void kp_access_mmless_rule(struct kunit *test)
{
	DECLARE_COMPLETION_ONSTACK(started);
	struct task_struct *t;
	int want;

	t = kthread_run(kp_mmless_fn, &started, "kp-mmless");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	get_task_struct(t);
	wait_for_completion(&started);
	KUNIT_EXPECT_NULL(test, READ_ONCE(t->mm));
	KUNIT_EXPECT_TRUE(test, uid_eq(task_uid(t), current_uid()));

#if defined(KP_HAVE_EXEC_STATE_H)
	/* 7.2: the thread's exec state says; it is shared, so not flipped. */
	want = kp_compat_dumpable_nomm(t) ? 0 : -EACCES;
	KUNIT_EXPECT_EQ(test, kp_creds_without_ptrace(test, t), want);
#elif defined(KP_HAVE_USER_DUMPABLE)
	/* A kernel thread never had an mm: not user-dumpable. */
	KUNIT_EXPECT_FALSE(test, t->user_dumpable);
	KUNIT_EXPECT_EQ(test, kp_creds_without_ptrace(test, t), -EACCES);
	/*
	 * As if it had left a dumpable mm behind.  It sleeps: nothing else
	 * writes its flags word meanwhile (exit_mm() writes it for current).
	 */
	task_lock(t);
	t->user_dumpable = 1;
	task_unlock(t);
	KUNIT_EXPECT_EQ(test, kp_creds_without_ptrace(test, t), 0);
	task_lock(t);
	t->user_dumpable = 0;
	task_unlock(t);
	want = -EACCES;
#else
	/* Before task->user_dumpable the kernel counted it as dumpable. */
	want = 0;
	KUNIT_EXPECT_EQ(test, kp_creds_without_ptrace(test, t), want);
#endif
	/* CAP_SYS_PTRACE (the KUnit thread's own) overrides the rule. */
	KUNIT_EXPECT_EQ(test, kp_access_thread_creds(t), 0);
	kunit_info(test, "mm-less, not CAP_SYS_PTRACE: %d", want);

	kthread_stop(t);
	put_task_struct(t);
}

static struct kunit_case kp_access_cases[] = {
	KUNIT_CASE(kp_access_mmless_rule),
	{}
};

static struct kunit_suite kp_access_suite = {
	.name = "kprofile_access",
	.test_cases = kp_access_cases,
};

kunit_test_suite(kp_access_suite);

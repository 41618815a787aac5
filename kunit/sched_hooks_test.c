// SPDX-License-Identifier: GPL-2.0
/*
 * sched_hooks_test.c - KUnit suite "kprofile_sched_hooks": the one place
 * the module's probes go on the scheduler tracepoints (sched_hooks.c).
 * A set of probes goes on together and comes off together: a
 * sched_switch probe of the set runs while it is registered and not after
 * kp_sched_hooks_unregister() returns; a set naming a tracepoint the
 * kernel lacks registers nothing.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/binfmts.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/sched.h>

#include "../kmod/compat.h"
#include "../kmod/sched_hooks.h"

static KP_SCHED_SWITCH_PROBE(kp_test_on_switch)
{
	atomic_inc(data);
}

static void kp_test_on_exec(void *data, struct task_struct *task,
			    pid_t old_pid, struct linux_binprm *bprm)
{
}

static const struct kp_sched_probe kp_test_probes[] = {
	{ KP_SCHED_SWITCH, kp_test_on_switch },
	{ KP_SCHED_EXEC, kp_test_on_exec },
};

/* A set's switch probe runs while registered, and not after. */
static void kp_sched_hooks_set(struct kunit *test)
{
	unsigned long end = jiffies + 20 * HZ;
	atomic_t switches = ATOMIC_INIT(0);
	int seen;

	if (!kp_sched_hook_found(KP_SCHED_SWITCH) ||
	    !kp_sched_hook_found(KP_SCHED_EXEC))
		kunit_skip(test, "no sched_switch or sched_process_exec tracepoint");
	KUNIT_ASSERT_EQ(test,
			kp_sched_hooks_register(kp_test_probes,
						ARRAY_SIZE(kp_test_probes),
						&switches), 0);
	/* Sleeping switches this CPU away from the test and back. */
	while (!atomic_read(&switches) && time_before(jiffies, end))
		usleep_range(1000, 2000);
	kp_sched_hooks_unregister(kp_test_probes, ARRAY_SIZE(kp_test_probes),
				  &switches);
	seen = atomic_read(&switches);
	KUNIT_EXPECT_GT(test, seen, 0);
	msleep(20);
	KUNIT_EXPECT_EQ(test, atomic_read(&switches), seen);
}

/* A tracepoint the kernel lacks: nothing is registered. */
static void kp_sched_hooks_missing(struct kunit *test)
{
	static const struct kp_sched_probe missing[] = {
		{ KP_SCHED_SWITCH, kp_test_on_switch },
		{ KP_SCHED_HOOKS, kp_test_on_exec },	/* no such hook */
	};
	atomic_t switches = ATOMIC_INIT(0);

	KUNIT_EXPECT_FALSE(test, kp_sched_hook_found(KP_SCHED_HOOKS));
	KUNIT_EXPECT_EQ(test, kp_sched_hook_register(KP_SCHED_HOOKS,
						     kp_test_on_exec, NULL),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, kp_sched_hooks_register(missing,
						      ARRAY_SIZE(missing),
						      &switches),
			-EOPNOTSUPP);
	msleep(20);
	KUNIT_EXPECT_EQ(test, atomic_read(&switches), 0);
}

static struct kunit_case kp_sched_hooks_cases[] = {
	KUNIT_CASE(kp_sched_hooks_set),
	KUNIT_CASE(kp_sched_hooks_missing),
	{}
};

static struct kunit_suite kp_sched_hooks_suite = {
	.name = "kprofile_sched_hooks",
	.test_cases = kp_sched_hooks_cases,
};

kunit_test_suite(kp_sched_hooks_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * profile_check_test.c - KUnit suite "kprofile_profile_check": every
 * validation case of KPROFILE_IOC_CREATE_PROFILE returns its documented
 * errno (profile_check.c), and the privilege rules: one's own process
 * always, another process with ptrace-read access, system-wide and
 * kernel ranges only with CAP_PERFMON or CAP_SYS_ADMIN.  Privileges are
 * dropped by overriding the test thread's credentials.
 */
#include <kunit/test.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>

#include "../kmod/access.h"
#include "profile_fixture.h"
#include "sources_fixture.h"

#define TIME	KPROFILE_SOURCE_TIME
#define ISSUES	KPROFILE_SOURCE_TOTAL_ISSUES
#define UBASE	0x400000ULL
#define KBASE	0xffffffff81000000ULL

/* A valid ProfileTime request of this process: 0x1000 bytes, 128-byte. */
static void good(struct kprofile_create_profile *r)
{
	kp_prof_req(r, TIME, KPROFILE_TARGET_SELF, KPROFILE_MODE_USER, UBASE,
		    0x1000, 7);
}

static int check(struct kunit *test, const struct kprofile_create_profile *r)
{
	struct kp_sources *s = kp_test_emon_model(test, 7, 0);
	u64 n = 0;

	return kp_profile_check(s, r, &n);
}

static void kp_check_valid(struct kunit *test)
{
	struct kp_sources *s = kp_test_emon_model(test, 7, 0);
	struct kprofile_create_profile r;
	u64 n = 0;

	good(&r);
	KUNIT_EXPECT_EQ(test, kp_profile_check(s, &r, &n), 0);
	KUNIT_EXPECT_EQ(test, n, 32ULL);
	r.source = ISSUES;
	KUNIT_EXPECT_EQ(test, kp_profile_check(s, &r, &n), 0);
	r.target = KPROFILE_TARGET_PID;
	r.pid = 1;
	KUNIT_EXPECT_EQ(test, kp_profile_check(s, &r, &n), 0);
}

static void kp_check_bucket_shift(struct kunit *test)
{
	struct kprofile_create_profile r;

	good(&r);
	r.bucket_shift = 1;
	KUNIT_EXPECT_EQ(test, check(test, &r), -EINVAL);
	r.bucket_shift = 32;
	KUNIT_EXPECT_EQ(test, check(test, &r), -EINVAL);
	r.bucket_shift = 0;
	KUNIT_EXPECT_EQ(test, check(test, &r), -EINVAL);
	kp_prof_req(&r, TIME, 0, KPROFILE_MODE_BOTH, UBASE, 0x1000, 2);
	KUNIT_EXPECT_EQ(test, check(test, &r), 0);
	kp_prof_req(&r, TIME, 0, KPROFILE_MODE_BOTH, UBASE, 0x1000, 31);
	KUNIT_EXPECT_EQ(test, check(test, &r), 0);
}

static void kp_check_zero_and_alignment(struct kunit *test)
{
	struct kprofile_create_profile r;

	good(&r);
	r.buffer_size = 0;
	KUNIT_EXPECT_EQ(test, check(test, &r), -EINVAL);
	good(&r);
	r.size = 0;
	KUNIT_EXPECT_EQ(test, check(test, &r), -EINVAL);
	good(&r);
	r.buffer += 2;
	KUNIT_EXPECT_EQ(test, check(test, &r), -EINVAL);
	r.buffer += 1;
	KUNIT_EXPECT_EQ(test, check(test, &r), -EINVAL);
	r.buffer += 1;
	KUNIT_EXPECT_EQ(test, check(test, &r), 0);
}

static void kp_check_shape(struct kunit *test)
{
	struct kprofile_create_profile r;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(r.reserved); i++) {
		good(&r);
		r.reserved[i] = 1;
		KUNIT_EXPECT_EQ_MSG(test, check(test, &r), -EINVAL,
				    "reserved[%u]", i);
	}
	good(&r);
	r.flags = 1;
	KUNIT_EXPECT_EQ(test, check(test, &r), -EINVAL);
	good(&r);
	r.target = KPROFILE_TARGET_SYSTEM + 1;
	KUNIT_EXPECT_EQ(test, check(test, &r), -EINVAL);
	good(&r);
	r.mode = KPROFILE_MODE_BOTH + 1;
	KUNIT_EXPECT_EQ(test, check(test, &r), -EINVAL);
	good(&r);
	r.pid = 1;		/* a pid without KPROFILE_TARGET_PID */
	KUNIT_EXPECT_EQ(test, check(test, &r), -EINVAL);
	good(&r);
	r.target = KPROFILE_TARGET_PID;
	KUNIT_EXPECT_EQ(test, check(test, &r), -EINVAL);	/* pid 0 */
	r.pid = -1;
	KUNIT_EXPECT_EQ(test, check(test, &r), -EINVAL);
	good(&r);
	r.cpus = 0x20000;	/* a CPU set pointer without a size */
	KUNIT_EXPECT_EQ(test, check(test, &r), -EINVAL);
	good(&r);
	r.cpus_size = 8;	/* and the reverse */
	KUNIT_EXPECT_EQ(test, check(test, &r), -EINVAL);
}

static void kp_check_source(struct kunit *test)
{
	struct kp_sources *none = kp_test_none_model(test);
	struct kprofile_create_profile r;
	u64 n;

	good(&r);
	r.source = KP_SOURCE_LIMIT;
	KUNIT_EXPECT_EQ(test, check(test, &r), -EINVAL);
	r.source = 0xff;
	KUNIT_EXPECT_EQ(test, check(test, &r), -EINVAL);
	r.source = KPROFILE_SOURCE_MAXIMUM;
	KUNIT_EXPECT_EQ(test, check(test, &r), -EOPNOTSUPP);
	r.source = ISSUES;	/* no profile interface: only ProfileTime */
	KUNIT_EXPECT_EQ(test, kp_profile_check(none, &r, &n), -EOPNOTSUPP);
	r.source = TIME;
	KUNIT_EXPECT_EQ(test, kp_profile_check(none, &r, &n), 0);
}

/* ceil(size / 2^shift) * 4 bytes: exactly enough passes, 1 less fails. */
static void kp_check_buffer_size(struct kunit *test)
{
	struct kprofile_create_profile r;

	kp_prof_req(&r, TIME, 0, KPROFILE_MODE_BOTH, UBASE, 0x1001, 12);
	KUNIT_EXPECT_EQ(test, r.buffer_size, 8ULL);
	KUNIT_EXPECT_EQ(test, check(test, &r), 0);
	r.buffer_size = 7;
	KUNIT_EXPECT_EQ(test, check(test, &r), -ENOSPC);
	r.buffer_size = 4;
	KUNIT_EXPECT_EQ(test, check(test, &r), -ENOSPC);
	r.buffer_size = 1ULL << 40;	/* more than enough is fine */
	KUNIT_EXPECT_EQ(test, check(test, &r), 0);
	/* 2^62 buckets of 4 bytes: no buffer is that large. */
	kp_prof_req(&r, TIME, 0, KPROFILE_MODE_BOTH, 0, ~0ULL, 2);
	r.buffer_size = ~0ULL;
	KUNIT_EXPECT_EQ(test, check(test, &r), -ENOSPC);
}

static void kp_check_wrap(struct kunit *test)
{
	struct kprofile_create_profile r;

	kp_prof_req(&r, TIME, 0, KPROFILE_MODE_BOTH, ~0ULL - 0xfff, 0x2000, 7);
	KUNIT_EXPECT_EQ(test, check(test, &r), -EOVERFLOW);
	/* Ending exactly at 2^64 wraps too... */
	kp_prof_req(&r, TIME, 0, KPROFILE_MODE_BOTH, ~0ULL - 0xfff, 0x1000, 7);
	KUNIT_EXPECT_EQ(test, check(test, &r), -EOVERFLOW);
	/* ...the last byte of the address space is the limit. */
	kp_prof_req(&r, TIME, 0, KPROFILE_MODE_BOTH, ~0ULL - 0xfff, 0xfff, 7);
	KUNIT_EXPECT_EQ(test, check(test, &r), 0);
}

static void kp_check_kernel_range(struct kunit *test)
{
	struct kprofile_create_profile r;

	good(&r);
	KUNIT_EXPECT_FALSE(test, kp_profile_kernel_range(&r));
	/* The whole user half (4- and 5-level paging) is a user range. */
	r.base = 0;
	r.size = 1ULL << 47;
	KUNIT_EXPECT_FALSE(test, kp_profile_kernel_range(&r));
	r.size = 1ULL << 56;
	KUNIT_EXPECT_FALSE(test, kp_profile_kernel_range(&r));
	r.size = 1ULL << 63;	/* up to the last non-canonical byte */
	KUNIT_EXPECT_FALSE(test, kp_profile_kernel_range(&r));
	r.size++;		/* one byte of the kernel half */
	KUNIT_EXPECT_TRUE(test, kp_profile_kernel_range(&r));
	r.base = KBASE;
	r.size = 0x1000;
	KUNIT_EXPECT_TRUE(test, kp_profile_kernel_range(&r));
	r.base = 0;
	r.size = ~0ULL;
	KUNIT_EXPECT_TRUE(test, kp_profile_kernel_range(&r));
}

/* Run with credentials of @uid, without any capability. */
static const struct cred *drop(struct kunit *test, uid_t uid)
{
	struct cred *c = prepare_creds();

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->uid = KUIDT_INIT(uid);
	c->euid = c->uid;
	c->suid = c->uid;
	c->fsuid = c->uid;
	c->gid = KGIDT_INIT(uid);
	c->egid = c->gid;
	c->sgid = c->gid;
	c->fsgid = c->gid;
	cap_clear(c->cap_effective);
	cap_clear(c->cap_permitted);
	cap_clear(c->cap_inheritable);
	cap_clear(c->cap_ambient);
	return override_creds(c);
}

static void undrop(const struct cred *old)
{
	const struct cred *c = current_cred();

	revert_creds(old);
	put_cred(c);
}

static void kp_check_privileged(struct kunit *test)
{
	struct kprofile_create_profile r;
	struct pid *tgid;

	/* A KUnit thread has every capability. */
	kp_prof_req(&r, TIME, KPROFILE_TARGET_SYSTEM, KPROFILE_MODE_BOTH,
		    KBASE, 0x1000, 7);
	KUNIT_EXPECT_EQ(test, kp_profile_check_access(&r, &tgid), 0);
	KUNIT_EXPECT_NULL(test, tgid);
	r.target = KPROFILE_TARGET_SELF;
	KUNIT_EXPECT_EQ(test, kp_profile_check_access(&r, &tgid), 0);
	KUNIT_EXPECT_PTR_EQ(test, tgid, task_tgid(current));
	put_pid(tgid);
}

static void kp_check_unprivileged(struct kunit *test)
{
	const struct cred *old = drop(test, 0);
	struct kprofile_create_profile r;
	struct pid *tgid = NULL;

	good(&r);
	KUNIT_EXPECT_EQ(test, kp_profile_check_access(&r, &tgid), 0);
	KUNIT_EXPECT_PTR_EQ(test, tgid, task_tgid(current));
	put_pid(tgid);
	r.target = KPROFILE_TARGET_SYSTEM;
	KUNIT_EXPECT_EQ(test, kp_profile_check_access(&r, &tgid), -EPERM);
	KUNIT_EXPECT_NULL(test, tgid);
	good(&r);
	r.base = KBASE;
	KUNIT_EXPECT_EQ(test, kp_profile_check_access(&r, &tgid), -EPERM);
	/* A kernel range of another process needs the capability too. */
	r.target = KPROFILE_TARGET_PID;
	r.pid = task_pid_nr(current);
	KUNIT_EXPECT_EQ(test, kp_profile_check_access(&r, &tgid), -EPERM);
	/* A counter source is armed on every CPU: machine-wide. */
	good(&r);
	r.source = ISSUES;
	KUNIT_EXPECT_EQ(test, kp_profile_check_access(&r, &tgid), -EPERM);
	/* kernel.perf_event_paranoid > 1: user mode only. */
	good(&r);
	r.mode = KPROFILE_MODE_BOTH;
	KUNIT_EXPECT_EQ(test, kp_profile_check_access(&r, &tgid),
			kp_perf_event_paranoid() > 1 ? -EACCES : 0);
	if (tgid)
		put_pid(tgid);
	undrop(old);
}

/*
 * The credential part of ptrace's rule for one thread: the ids, the
 * capability subset, and the user namespace.
 */
static void kp_check_thread_creds(struct kunit *test)
{
	struct pid *pid = find_get_pid(2);
	struct task_struct *kthreadd = get_pid_task(pid, PIDTYPE_PID);
	const struct cred *old;
	struct cred *c;

	put_pid(pid);
	KUNIT_ASSERT_NOT_NULL(test, kthreadd);
	/* Root with every capability. */
	KUNIT_EXPECT_EQ(test, kp_access_thread_creds(kthreadd), 0);
	/* Root with all but CAP_NET_RAW: not a superset of kthreadd's. */
	c = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, c);
	cap_lower(c->cap_permitted, CAP_NET_RAW);
	cap_lower(c->cap_effective, CAP_SYS_PTRACE);
	old = override_creds(c);
	KUNIT_EXPECT_EQ(test, kp_access_thread_creds(kthreadd), -EACCES);
	revert_creds(old);
	put_cred(c);
	/* Another uid: refused whatever the capabilities but CAP_SYS_PTRACE. */
	old = drop(test, 1000);
	KUNIT_EXPECT_EQ(test, kp_access_thread_creds(kthreadd), -EACCES);
	undrop(old);
	put_task_struct(kthreadd);
}

static void kp_check_other_process(struct kunit *test)
{
	struct kprofile_create_profile r;
	struct pid *tgid = NULL;
	const struct cred *old;

	good(&r);
	r.target = KPROFILE_TARGET_PID;
	/* Itself, by pid: allowed even without capabilities. */
	old = drop(test, 1000);
	r.pid = task_pid_nr(current);
	KUNIT_EXPECT_EQ(test, kp_profile_check_access(&r, &tgid), 0);
	KUNIT_EXPECT_PTR_EQ(test, tgid, task_tgid(current));
	put_pid(tgid);
	/* kthreadd (pid 2, root): another uid and no CAP_SYS_PTRACE. */
	r.pid = 2;
	KUNIT_EXPECT_EQ(test, kp_profile_check_access(&r, &tgid), -EACCES);
	KUNIT_EXPECT_NULL(test, tgid);
	r.pid = INT_MAX;
	KUNIT_EXPECT_EQ(test, kp_profile_check_access(&r, &tgid), -ESRCH);
	undrop(old);

	/*
	 * Same uid (root), no capability at all: refused, kthreadd holds
	 * capabilities the caller lacks (commoncap's subset rule), and has
	 * no mm and is not user-dumpable.
	 */
	old = drop(test, 0);
	r.pid = 2;
	KUNIT_EXPECT_EQ(test, kp_profile_check_access(&r, &tgid), -EACCES);
	KUNIT_EXPECT_NULL(test, tgid);
	undrop(old);
	/* With CAP_SYS_PTRACE (the KUnit thread's own): allowed. */
	KUNIT_EXPECT_EQ(test, kp_profile_check_access(&r, &tgid), 0);
	put_pid(tgid);
}

static struct kunit_case kp_profile_check_cases[] = {
	KUNIT_CASE(kp_check_valid),
	KUNIT_CASE(kp_check_bucket_shift),
	KUNIT_CASE(kp_check_zero_and_alignment),
	KUNIT_CASE(kp_check_shape),
	KUNIT_CASE(kp_check_source),
	KUNIT_CASE(kp_check_buffer_size),
	KUNIT_CASE(kp_check_wrap),
	KUNIT_CASE(kp_check_kernel_range),
	KUNIT_CASE(kp_check_privileged),
	KUNIT_CASE(kp_check_unprivileged),
	KUNIT_CASE(kp_check_other_process),
	KUNIT_CASE(kp_check_thread_creds),
	{}
};

static struct kunit_suite kp_profile_check_suite = {
	.name = "kprofile_profile_check",
	.test_cases = kp_profile_check_cases,
};

kunit_test_suite(kp_profile_check_suite);

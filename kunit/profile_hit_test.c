// SPDX-License-Identifier: GPL-2.0
/*
 * profile_hit_test.c - KUnit suite "kprofile_profile_hit": the hit rule
 * (docs/profiles.md, "The hit rule") on profiles whose buckets are kernel memory.  Bucket math
 * at both ends of the range and in the top bucket (also across pages),
 * the 32-bit wrap, overlapping profiles each getting the hit, and the
 * filters: source, CPU set, target thread group, dumpability, user/kernel
 * mode, and started.  The statistics account for every interrupt that matched.
 */
#include <kunit/test.h>
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/cred.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>

#include "../kmod/access.h"
#include "profile_fixture.h"

#define SRC	KP_PROF_COUNTER
#define BASE	0x400000UL

static const struct pid *self(void)
{
	return task_tgid(current);
}

/* First and last byte of the range, and one past each end. */
static void kp_hit_range_ends(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	struct kp_profile *p = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF,
					   KPROFILE_MODE_BOTH, BASE, 0x1000, 7,
					   NULL);
	u32 *b = kp_prof_start(f, p);

	KUNIT_EXPECT_EQ(test, p->nr_buckets, 32ULL);
	kp_prof_hit(f, SRC, 0, self(), BASE, true);
	kp_prof_hit(f, SRC, 0, self(), BASE + 0x7f, true);
	kp_prof_hit(f, SRC, 0, self(), BASE + 0x80, true);
	kp_prof_hit(f, SRC, 0, self(), BASE + 0xfff, true);
	KUNIT_EXPECT_EQ(test, b[0], 2U);
	KUNIT_EXPECT_EQ(test, b[1], 1U);
	KUNIT_EXPECT_EQ(test, b[31], 1U);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(p, "hits"), 4ULL);

	kp_prof_hit(f, SRC, 0, self(), BASE - 1, true);
	kp_prof_hit(f, SRC, 0, self(), BASE + 0x1000, true);
	kp_prof_hit(f, SRC, 0, self(), 0, true);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(p, "outside"), 3ULL);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(p, "hits"), 4ULL);
	KUNIT_EXPECT_EQ(test, b[0] + b[1] + b[31], 4U);
}

/* A partial last bucket: ceil(size / bucket) buckets, the top one hit. */
static void kp_hit_partial_top_bucket(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	struct kp_profile *p = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF,
					   KPROFILE_MODE_BOTH, BASE, 0x1001,
					   12, NULL);
	u32 *b = kp_prof_start(f, p);

	KUNIT_EXPECT_EQ(test, p->nr_buckets, 2ULL);
	kp_prof_hit(f, SRC, 0, self(), BASE + 0x1000, false);
	kp_prof_hit(f, SRC, 0, self(), BASE + 0x1001, false);
	KUNIT_EXPECT_EQ(test, b[1], 1U);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(p, "outside"), 1ULL);
}

/*
 * Buckets that span several pages, starting mid-page: the top bucket is
 * found in the last page, and its neighbours are untouched.
 */
static void kp_hit_top_bucket_across_pages(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	u64 size = 3000ULL << 4;	/* 3000 buckets of 16 bytes: 12000 B */
	struct kp_profile *p = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF,
					   KPROFILE_MODE_BOTH, BASE, size, 4,
					   NULL);
	u32 *b = kp_prof_start_at(f, p, PAGE_SIZE - 8);

	kp_prof_hit(f, SRC, 0, self(), BASE + size - 1, true);
	kp_prof_hit(f, SRC, 0, self(), BASE + (2ULL << 4), true);
	kp_prof_hit(f, SRC, 0, self(), BASE + (1ULL << 4), true);
	KUNIT_EXPECT_EQ(test, b[2999], 1U);
	KUNIT_EXPECT_EQ(test, b[2998], 0U);
	KUNIT_EXPECT_EQ(test, b[1], 1U);	/* last of the first page */
	KUNIT_EXPECT_EQ(test, b[2], 1U);	/* first of the second */
	KUNIT_EXPECT_EQ(test, b[0], 0U);
}

/* The largest buckets (2^31) up to the very top of the address space. */
static void kp_hit_top_of_address_space(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	struct kp_profile *p = kp_prof_new(f, SRC, KPROFILE_TARGET_SYSTEM,
					   KPROFILE_MODE_BOTH,
					   0xffffffff00000000ULL, 0xffffffffULL,
					   31, NULL);
	u32 *b = kp_prof_start(f, p);

	KUNIT_EXPECT_EQ(test, p->nr_buckets, 2ULL);
	kp_prof_hit(f, SRC, 1, NULL, 0xfffffffffffffffeUL, false);
	kp_prof_hit(f, SRC, 1, NULL, 0xffffffff7fffffffUL, false);
	kp_prof_hit(f, SRC, 1, NULL, 0xffffffffffffffffUL, false);
	KUNIT_EXPECT_EQ(test, b[1], 1U);
	KUNIT_EXPECT_EQ(test, b[0], 1U);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(p, "outside"), 1ULL);
}

/* A counter at 0xffffffff wraps to 0 (and the hit still counts). */
static void kp_hit_wraps(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	struct kp_profile *p = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF,
					   KPROFILE_MODE_BOTH, BASE, 0x100, 7,
					   NULL);
	u32 *b = kp_prof_start(f, p);

	b[1] = 0xfffffffeU;
	kp_prof_hit(f, SRC, 0, self(), BASE + 0x80, true);
	KUNIT_EXPECT_EQ(test, b[1], 0xffffffffU);
	kp_prof_hit(f, SRC, 0, self(), BASE + 0xff, true);
	KUNIT_EXPECT_EQ(test, b[1], 0U);
	KUNIT_EXPECT_EQ(test, b[0], 0U);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(p, "hits"), 2ULL);
}

/*
 * Overlapping profiles of one source each count every hit, in their own
 * bucket size; a profile of another source counts none of them.
 */
static void kp_hit_overlapping(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	struct kp_profile *a = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF,
					   KPROFILE_MODE_BOTH, BASE, 0x1000, 7,
					   NULL);
	struct kp_profile *b = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF,
					   KPROFILE_MODE_BOTH, BASE + 0x800,
					   0x1000, 2, NULL);
	struct kp_profile *c = kp_prof_new(f, SRC, KPROFILE_TARGET_SYSTEM,
					   KPROFILE_MODE_BOTH, 0, BASE + 0x1000,
					   31, NULL);
	struct kp_profile *o = kp_prof_new(f, KPROFILE_SOURCE_TOTAL_ISSUES,
					   KPROFILE_TARGET_SELF,
					   KPROFILE_MODE_BOTH, BASE, 0x1000, 7,
					   NULL);
	u32 *ba = kp_prof_start(f, a), *bb = kp_prof_start(f, b);
	u32 *bc = kp_prof_start(f, c), *bo = kp_prof_start(f, o);

	kp_prof_hit(f, SRC, 0, self(), BASE + 0x900, true);
	kp_prof_hit(f, SRC, 0, self(), BASE + 0x904, true);
	KUNIT_EXPECT_EQ(test, ba[0x900 >> 7], 2U);
	KUNIT_EXPECT_EQ(test, bb[0x100 >> 2], 1U);
	KUNIT_EXPECT_EQ(test, bb[0x104 >> 2], 1U);
	KUNIT_EXPECT_EQ(test, bc[0], 2U);
	KUNIT_EXPECT_EQ(test, bo[0x900 >> 7], 0U);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(a, "hits"), 2ULL);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(b, "hits"), 2ULL);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(c, "hits"), 2ULL);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(o, "hits") +
			kp_prof_stat(o, "outside"), 0ULL);
}

/* User-only and kernel-only profiles; BOTH and TABLE count both. */
static void kp_hit_mode(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	static const enum kprofile_mode modes[] = {
		KPROFILE_MODE_USER, KPROFILE_MODE_KERNEL, KPROFILE_MODE_BOTH,
		KPROFILE_MODE_TABLE,
	};
	struct kp_profile *p[4];
	u32 *b[4];
	int i;

	for (i = 0; i < 4; i++) {
		p[i] = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF, modes[i],
				   BASE, 0x100, 7, NULL);
		b[i] = kp_prof_start(f, p[i]);
	}
	kp_prof_hit(f, SRC, 0, self(), BASE, true);
	kp_prof_hit(f, SRC, 0, self(), BASE + 0x80, false);
	KUNIT_EXPECT_EQ(test, b[0][0], 1U);
	KUNIT_EXPECT_EQ(test, b[0][1], 0U);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(p[0], "wrong_mode"), 1ULL);
	KUNIT_EXPECT_EQ(test, b[1][0], 0U);
	KUNIT_EXPECT_EQ(test, b[1][1], 1U);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(p[1], "wrong_mode"), 1ULL);
	for (i = 2; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, b[i][0] + b[i][1], 2U);
		KUNIT_EXPECT_EQ(test, kp_prof_stat(p[i], "wrong_mode"), 0ULL);
	}
}

/* A CPU set: other CPUs' interrupts are not this profile's at all. */
static void kp_hit_cpu_set(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	struct kp_profile *one, *all;
	unsigned int other = nr_cpu_ids > 1 ? 1 : 0;
	u32 *b1, *ball;

	one = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF, KPROFILE_MODE_BOTH,
			  BASE, 0x100, 7, cpumask_of(0));
	all = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF, KPROFILE_MODE_BOTH,
			  BASE, 0x100, 7, NULL);
	b1 = kp_prof_start(f, one);
	ball = kp_prof_start(f, all);
	kp_prof_hit(f, SRC, 0, self(), BASE, true);
	if (other)
		kp_prof_hit(f, SRC, other, self(), BASE, true);
	KUNIT_EXPECT_EQ(test, b1[0], 1U);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(one, "hits") +
			kp_prof_stat(one, "outside"), 1ULL);
	KUNIT_EXPECT_EQ(test, ball[0], 1U + !!other);
	KUNIT_EXPECT_FALSE(test, one->all_cpus);
	KUNIT_EXPECT_TRUE(test, all->all_cpus);
}

/*
 * The target: the test's own thread group matches, another does not (and
 * is not even counted as outside); a system-wide profile takes every task.
 */
static void kp_hit_target(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	struct kp_profile *mine, *sys;
	struct pid *init = find_get_pid(1);
	u32 *bm, *bs;

	KUNIT_ASSERT_NOT_NULL(test, init);
	KUNIT_ASSERT_PTR_NE(test, (const struct pid *)init, self());
	mine = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF, KPROFILE_MODE_BOTH,
			   BASE, 0x100, 7, NULL);
	sys = kp_prof_new(f, SRC, KPROFILE_TARGET_SYSTEM, KPROFILE_MODE_BOTH,
			  BASE, 0x100, 7, NULL);
	bm = kp_prof_start(f, mine);
	bs = kp_prof_start(f, sys);
	kp_prof_hit(f, SRC, 0, init, BASE, true);
	kp_prof_hit(f, SRC, 0, init, BASE + 0x1000, true);
	kp_prof_hit(f, SRC, 0, self(), BASE, true);
	put_pid(init);
	KUNIT_EXPECT_EQ(test, bm[0], 1U);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(mine, "outside"), 0ULL);
	KUNIT_EXPECT_EQ(test, bs[0], 2U);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(sys, "outside"), 1ULL);
}

/*
 * Only started profiles count; counts stay after stop; a hit while the
 * buffer is withdrawn (stop racing with it) counts as unavailable.
 */
static void kp_hit_started_only(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	struct kp_profile *p = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF,
					   KPROFILE_MODE_BOTH, BASE, 0x100, 7,
					   NULL);
	struct kp_profile_buf *buf;
	u32 *b;

	kp_prof_hit(f, SRC, 0, self(), BASE, true);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(p, "hits"), 0ULL);
	b = kp_prof_start(f, p);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(p, "started"), 1ULL);
	kp_prof_hit(f, SRC, 0, self(), BASE, true);

	/* What stop does first: withdraw the buffer from the hit path. */
	mutex_lock(&f->set.lock);
	buf = rcu_dereference_protected(p->buf, true);
	RCU_INIT_POINTER(p->buf, NULL);
	mutex_unlock(&f->set.lock);
	kp_prof_hit(f, SRC, 0, self(), BASE, true);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(p, "unavailable"), 1ULL);
	mutex_lock(&f->set.lock);
	rcu_assign_pointer(p->buf, buf);
	mutex_unlock(&f->set.lock);

	KUNIT_EXPECT_EQ(test, kp_profile_stop(p), 0);
	KUNIT_EXPECT_EQ(test, kp_profile_stop(p), -EALREADY);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(p, "started"), 0ULL);
	kp_prof_hit(f, SRC, 0, self(), BASE, true);
	KUNIT_EXPECT_EQ(test, b[0], 1U);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(p, "hits"), 1ULL);
}

/*
 * A profile whose creator could not inspect every task ignores the target
 * once it is no longer dumpable (a set-user-ID exec); others count it.
 */
static void kp_hit_dumpable(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	struct kp_profile *weak, *strong;
	struct kp_sample s = {
		.source = SRC, .cpu = 0, .tgid = self(), .ip = BASE,
		.user = true, .dumpable = false,
	};
	u32 *bw, *bs;

	weak = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF, KPROFILE_MODE_BOTH,
			   BASE, 0x100, 7, NULL);
	strong = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF, KPROFILE_MODE_BOTH,
			     BASE, 0x100, 7, NULL);
	weak->dumpable_only = true;
	bw = kp_prof_start(f, weak);
	bs = kp_prof_start(f, strong);
	kp_profile_hit(&f->set, &s);
	KUNIT_EXPECT_EQ(test, bw[0], 0U);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(weak, "hits") +
			kp_prof_stat(weak, "outside"), 0ULL);
	KUNIT_EXPECT_EQ(test, bs[0], 1U);
	s.dumpable = true;
	kp_profile_hit(&f->set, &s);
	KUNIT_EXPECT_EQ(test, bw[0], 1U);
	KUNIT_EXPECT_EQ(test, bs[0], 2U);
}

/*
 * Which profiles need a dumpable target: those of another process whose
 * creator has none of the capabilities to inspect any process.
 */
static void kp_hit_dumpable_rule(struct kunit *test)
{
	struct kprofile_create_profile req;
	const struct cred *old;
	struct cred *c;

	struct pid *init_tgid = find_get_pid(1);

	kp_prof_req(&req, SRC, KPROFILE_TARGET_PID, KPROFILE_MODE_BOTH, BASE,
		    0x100, 7);
	req.pid = 1;
	KUNIT_EXPECT_FALSE(test,
			   kp_access_dumpable_only(req.target, init_tgid));
	c = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, c);
	cap_clear(c->cap_effective);
	old = override_creds(c);
	KUNIT_EXPECT_TRUE(test, kp_access_dumpable_only(req.target, init_tgid));
	/* Its own pid: a process may always profile itself. */
	req.pid = task_tgid_vnr(current);
	KUNIT_EXPECT_FALSE(test, kp_access_dumpable_only(req.target, self()));
	req.target = KPROFILE_TARGET_SELF;
	req.pid = 0;
	KUNIT_EXPECT_FALSE(test, kp_access_dumpable_only(req.target, self()));
	revert_creds(old);
	put_cred(c);
	put_pid(init_tgid);
}

/*
 * An exec that leaves the process non-dumpable (set-user-ID) stops its
 * profiles for good: later interrupts are not_dumpable, the statistics
 * say EXEC_STOPPED; profiles of other processes are not touched.
 */
static void kp_hit_exec_stops(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	struct pid *init_tgid = find_get_pid(1);
	struct kp_profile *mine, *other;
	u32 *bm, *bo;

	mine = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF, KPROFILE_MODE_BOTH,
			   BASE, 0x100, 7, NULL);
	other = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF, KPROFILE_MODE_BOTH,
			    BASE, 0x100, 7, NULL);
	/* Pretend @other profiles init. */
	put_pid(other->tgid);
	other->tgid = init_tgid;
	bm = kp_prof_start(f, mine);
	bo = kp_prof_start(f, other);
	kp_prof_hit(f, SRC, 0, self(), BASE, true);
	KUNIT_EXPECT_EQ(test, bm[0], 1U);
	kp_profile_exec(&f->set, current);
	kp_prof_hit(f, SRC, 0, self(), BASE, true);
	kp_prof_hit(f, SRC, 0, init_tgid, BASE, true);
	KUNIT_EXPECT_EQ(test, bm[0], 1U);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(mine, "hits"), 1ULL);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(mine, "not_dumpable"), 1ULL);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(mine, "flags"),
			(u64)KPROFILE_PROFILE_EXEC_STOPPED);
	KUNIT_EXPECT_EQ(test, bo[0], 1U);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(other, "flags"), 0ULL);
}

/*
 * A profile of oneself does not count a non-dumpable address space other
 * than its creator's (a set-user-ID program before the exec hook ran),
 * but does count its own address space when it turned non-dumpable.
 */
static void kp_hit_self_other_mm(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	static const int other_mm;
	struct kp_profile *p;
	struct kp_sample s = {
		.source = SRC, .cpu = 0, .tgid = self(), .ip = BASE,
		.user = true, .dumpable = false,
	};
	u32 *b;

	p = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF, KPROFILE_MODE_BOTH,
			BASE, 0x100, 7, NULL);
	b = kp_prof_start(f, p);
	s.mm = p->mm;
	kp_profile_hit(&f->set, &s);
	KUNIT_EXPECT_EQ(test, b[0], 1U);
	s.mm = (const struct mm_struct *)&other_mm;
	kp_profile_hit(&f->set, &s);
	KUNIT_EXPECT_EQ(test, b[0], 1U);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(p, "not_dumpable"), 1ULL);
	s.dumpable = true;
	kp_profile_hit(&f->set, &s);
	KUNIT_EXPECT_EQ(test, b[0], 2U);
}

static struct kunit_case kp_profile_hit_cases[] = {
	KUNIT_CASE(kp_hit_range_ends),
	KUNIT_CASE(kp_hit_partial_top_bucket),
	KUNIT_CASE(kp_hit_top_bucket_across_pages),
	KUNIT_CASE(kp_hit_top_of_address_space),
	KUNIT_CASE(kp_hit_wraps),
	KUNIT_CASE(kp_hit_overlapping),
	KUNIT_CASE(kp_hit_mode),
	KUNIT_CASE(kp_hit_cpu_set),
	KUNIT_CASE(kp_hit_target),
	KUNIT_CASE(kp_hit_started_only),
	KUNIT_CASE(kp_hit_dumpable),
	KUNIT_CASE(kp_hit_dumpable_rule),
	KUNIT_CASE(kp_hit_exec_stops),
	KUNIT_CASE(kp_hit_self_other_mm),
	{}
};

static struct kunit_suite kp_profile_hit_suite = {
	.name = "kprofile_profile_hit",
	.exit = kp_prof_fix_exit,
	.test_cases = kp_profile_hit_cases,
};

kunit_test_suite(kp_profile_hit_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * profile_index_test.c - KUnit suite "kprofile_profile_index": the hit
 * path's index of started profiles (profile_index.c).  With many
 * profiles of other processes, a system-wide one and overlapping ranges
 * of one's own, an interrupt counts in exactly the profiles it did before
 * the index (its process's and the system-wide ones, with the same
 * statistics) and touches no other process's; the snapshot is grouped
 * and sorted; stop takes a profile out of it and defers the buffer's
 * release past a grace period; profiles started, stopped and freed while
 * another CPU runs the hit path keep bucket sums equal to their hits (the
 * debug kernel's KASAN sees any use after free).
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/workqueue.h>

#include "profile_fixture.h"

#define SRC	KP_PROF_COUNTER
#define BASE	0x400000UL
#define OTHERS	32
#define PER	8	/* profiles per other process */

static const struct pid *self(void)
{
	return task_tgid(current);
}

/* Up to @max thread groups other than the test's (kernel threads too). */
static unsigned int other_tgids(struct pid **out, unsigned int max)
{
	struct task_struct *t;
	unsigned int n = 0;

	rcu_read_lock();
	for_each_process(t) {
		if (n == max)
			break;
		if (task_tgid(t) != self())
			out[n++] = get_pid(task_tgid(t));
	}
	rcu_read_unlock();
	return n;
}

/* A profile of @tgid (a reference the profile takes over). */
static struct kp_profile *new_of(struct kp_prof_fix *f, struct pid *tgid,
				 u64 base, u64 size, u32 shift)
{
	struct kp_profile *p = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF,
					   KPROFILE_MODE_BOTH, base, size,
					   shift, NULL);

	put_pid(p->tgid);
	p->tgid = tgid;
	return p;
}

static u64 misses(struct kp_profile *p)
{
	return kp_prof_stat(p, "outside") + kp_prof_stat(p, "wrong_mode") +
	       kp_prof_stat(p, "unavailable") +
	       kp_prof_stat(p, "not_dumpable");
}

static void kp_index_other_processes(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	struct kp_profile *(*others)[PER], *mine[2], *sys;
	const struct kp_profile_index *idx;
	u32 *(*bo)[PER], *bm0, *bm1, *bs;
	unsigned int n, i, j, total = 0;
	struct pid **tg;

	tg = kunit_kcalloc(test, OTHERS, sizeof(*tg), GFP_KERNEL);
	others = kunit_kcalloc(test, OTHERS, sizeof(*others), GFP_KERNEL);
	bo = kunit_kcalloc(test, OTHERS, sizeof(*bo), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, tg && others && bo);
	n = other_tgids(tg, OTHERS);
	KUNIT_ASSERT_GE(test, n, 2U);
	for (i = 0; i < n; i++)
		for (j = 0; j < PER; j++) {
			others[i][j] = new_of(f, get_pid(tg[i]),
					      BASE + j * 0x1000, 0x1000, 7);
			bo[i][j] = kp_prof_start(f, others[i][j]);
		}
	/* Overlapping ranges of one's own, and a system-wide profile. */
	mine[0] = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF, KPROFILE_MODE_BOTH,
			      BASE, 0x1000, 7, NULL);
	mine[1] = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF, KPROFILE_MODE_USER,
			      BASE + 0x800, 0x1000, 2, NULL);
	sys = kp_prof_new(f, SRC, KPROFILE_TARGET_SYSTEM, KPROFILE_MODE_BOTH,
			  0, BASE + 0x100000, 31, NULL);
	bm0 = kp_prof_start(f, mine[0]);
	bm1 = kp_prof_start(f, mine[1]);
	bs = kp_prof_start(f, sys);

	/*
	 * The snapshot: system-wide classes first, groups sorted, each
	 * group's classes consecutive: one class per process of the others
	 * (the same filters), two of one's own (BOTH and USER differ).
	 */
	rcu_read_lock();
	idx = rcu_dereference(f->set.index[SRC]);
	KUNIT_ASSERT_NOT_NULL(test, idx);
	KUNIT_EXPECT_EQ(test, idx->nr, n * PER + 3);
	KUNIT_EXPECT_EQ(test, idx->system.nr, 1U);
	KUNIT_EXPECT_EQ(test, idx->nr_groups, n + 1);
	KUNIT_EXPECT_EQ(test, idx->nr_classes, n + 3);
	for (i = 0; i < idx->nr_groups; i++) {
		const struct kp_profile_group *g = &idx->groups[i];
		u32 ci;

		if (i)
			KUNIT_EXPECT_LT(test, (unsigned long)g[-1].tgid,
					(unsigned long)g->tgid);
		KUNIT_EXPECT_EQ(test, g->nr, g->tgid == self() ? 2U : 1U);
		for (ci = g->first; ci < g->first + g->nr; ci++) {
			const struct kp_profile_class *c = &idx->classes[ci];

			for (j = c->first; j < c->first + c->nr; j++)
				KUNIT_EXPECT_PTR_EQ(test,
						    idx->entries[j].p->tgid,
						    g->tgid);
			total += c->nr;
		}
	}
	KUNIT_EXPECT_EQ(test, total + idx->classes[0].nr, idx->nr);
	rcu_read_unlock();

	/* One's own interrupt: both overlapping profiles and sys. */
	kp_prof_hit(f, SRC, 0, self(), BASE + 0x900, true);
	KUNIT_EXPECT_EQ(test, bm0[0x900 >> 7], 1U);
	KUNIT_EXPECT_EQ(test, bm1[0x100 >> 2], 1U);
	KUNIT_EXPECT_EQ(test, bs[0], 1U);
	/* In kernel mode: mine[1] counts it as wrong_mode, as before. */
	kp_prof_hit(f, SRC, 0, self(), BASE + 0x900, false);
	KUNIT_EXPECT_EQ(test, bm0[0x900 >> 7], 2U);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(mine[1], "wrong_mode"), 1ULL);
	for (i = 0; i < n; i++)
		for (j = 0; j < PER; j++)
			KUNIT_EXPECT_EQ(test, kp_prof_stat(others[i][j], "hits") +
					misses(others[i][j]), 0ULL);

	/* Another process's: its profile 3 hits, its 7 others are outside. */
	kp_prof_hit(f, SRC, 1, tg[1], BASE + 3 * 0x1000 + 0x10, true);
	KUNIT_EXPECT_EQ(test, bo[1][3][0], 1U);
	for (j = 0; j < PER; j++) {
		KUNIT_EXPECT_EQ(test, kp_prof_stat(others[1][j], "hits"),
				j == 3 ? 1ULL : 0ULL);
		KUNIT_EXPECT_EQ(test, kp_prof_stat(others[1][j], "outside"),
				j == 3 ? 0ULL : 1ULL);
		KUNIT_EXPECT_EQ(test, misses(others[0][j]), 0ULL);
	}
	KUNIT_EXPECT_EQ(test, bs[0], 3U);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(mine[0], "hits"), 2ULL);
	KUNIT_EXPECT_EQ(test, misses(mine[0]), 0ULL);
	for (i = 0; i < n; i++)
		put_pid(tg[i]);
}

/*
 * Stop publishes a snapshot without the profile at once and releases
 * the buffer only after a grace period, holding the profile meanwhile;
 * the last stop of a source leaves no snapshot.
 */
static void kp_index_stop(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	struct kp_profile *p[3];
	unsigned int i;
	u32 *b[3];

	for (i = 0; i < 3; i++) {
		p[i] = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF,
				   KPROFILE_MODE_BOTH, BASE, 0x100, 8, NULL);
		b[i] = kp_prof_start(f, p[i]);
	}
	KUNIT_EXPECT_EQ(test, kp_profile_stop(p[1]), 0);
	/* The fd's, the buffer release's, the unfolded snapshots' */
	KUNIT_EXPECT_GE(test, refcount_read(&p[1]->refs), 3U);
	kp_prof_hit(f, SRC, 0, self(), BASE, true);
	KUNIT_EXPECT_EQ(test, b[0][0] + b[2][0], 2U);
	KUNIT_EXPECT_EQ(test, b[1][0], 0U);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(p[1], "unavailable"), 0ULL);
	rcu_read_lock();
	KUNIT_EXPECT_EQ(test, rcu_dereference(f->set.index[SRC])->nr, 2U);
	rcu_read_unlock();
	rcu_barrier();
	flush_workqueue(f->set.release);
	KUNIT_EXPECT_EQ(test, refcount_read(&p[1]->refs), 1U);
	KUNIT_EXPECT_EQ(test, kp_profile_stop(p[0]), 0);
	KUNIT_EXPECT_EQ(test, kp_profile_stop(p[2]), 0);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(f->set.index[SRC]));
	KUNIT_EXPECT_EQ(test, kp_profile_stop(p[2]), -EALREADY);
}

struct hammer {
	struct kp_prof_fix *f;
	const struct pid *tgid;
	unsigned long n;
};

static int hammer_fn(void *data)
{
	struct hammer *h = data;
	struct kp_sample s = {
		.source = SRC, .tgid = h->tgid, .ip = BASE, .user = true,
		.dumpable = true,
	};

	while (!kthread_should_stop()) {
		s.cpu = raw_smp_processor_id();
		kp_profile_hit(&h->f->set, &s);
		WRITE_ONCE(h->n, h->n + 1);
		if (!(h->n & 63))
			cond_resched();
	}
	return 0;
}

#define ROUNDS	100
#define KEPT	4

/*
 * Start, stop and free while another CPU runs the hit path: every hit a
 * profile counted is in one of its buffers (sum of buckets == hits), and
 * nothing is used after it is freed (KASAN, on the debug kernel).
 */
static void kp_index_start_stop_while_hitting(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	struct hammer h = { .f = f, .tgid = self() };
	u32 *(*bufs)[ROUNDS];
	struct kp_profile *p[KEPT];
	struct task_struct *t;
	unsigned int r, i;
	u64 sum;

	bufs = kunit_kcalloc(test, KEPT, sizeof(*bufs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, bufs);
	for (i = 0; i < KEPT; i++)
		p[i] = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF,
				   KPROFILE_MODE_BOTH, BASE, 0x100, 8, NULL);
	t = kthread_create(hammer_fn, &h, "kp_hammer");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	if (num_online_cpus() > 1)
		kthread_bind(t, cpumask_last(cpu_online_mask));
	wake_up_process(t);
	/* Hitting before the first start (the counters are read racily). */
	for (r = 0; r < 500 && !READ_ONCE(h.n); r++)
		msleep(20);
	KUNIT_EXPECT_GT(test, READ_ONCE(h.n), 0UL);
	for (r = 0; r < ROUNDS; r++) {
		struct kprofile_create_profile req;
		struct kp_profile *tmp;

		for (i = 0; i < KEPT; i++)
			bufs[i][r] = kp_prof_start(f, p[i]);
		/* One more, freed (not only stopped) at once. */
		kp_prof_req(&req, SRC, KPROFILE_TARGET_SELF,
			    KPROFILE_MODE_BOTH, BASE, 0x100, 8);
		tmp = kp_profile_new(&f->set, &req, get_pid(task_tgid(current)),
				     NULL);
		KUNIT_ASSERT_NOT_NULL(test, tmp);
		kp_prof_start(f, tmp);
		usleep_range(50, 100);
		kp_profile_free(tmp);
		for (i = 0; i < KEPT; i++)
			KUNIT_EXPECT_EQ(test, kp_profile_stop(p[i]), 0);
	}
	kthread_stop(t);
	rcu_barrier();
	for (i = 0; i < KEPT; i++) {
		sum = 0;
		for (r = 0; r < ROUNDS; r++)
			sum += bufs[i][r][0];
		KUNIT_EXPECT_EQ(test, sum, kp_prof_stat(p[i], "hits"));
	}
}

static struct kunit_case kp_profile_index_cases[] = {
	KUNIT_CASE(kp_index_other_processes),
	KUNIT_CASE(kp_index_stop),
	KUNIT_CASE(kp_index_start_stop_while_hitting),
	{}
};

static struct kunit_suite kp_profile_index_suite = {
	.name = "kprofile_profile_index",
	.exit = kp_prof_fix_exit,
	.test_cases = kp_profile_index_cases,
};

kunit_test_suite(kp_profile_index_suite);

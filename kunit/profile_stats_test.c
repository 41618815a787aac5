// SPDX-License-Identifier: GPL-2.0
/*
 * profile_stats_test.c - KUnit suite "kprofile_profile_stats": the hit
 * path that visits only the profiles whose range holds the ip (classes of
 * profiles with the same filters, indexed by address: profile_index.c)
 * keeps every statistic of every profile what the rule gives one profile
 * at a time (docs/profiles.md, "The hit rule", "Statistics").
 *
 * A model applies that rule to each profile for each interrupt; random
 * profiles (overlapping, nested and identical ranges, ranges at the top
 * of the address space; other processes', system-wide; every mode, CPU
 * sets, dumpability rules) take random interrupts while they are started
 * and stopped in turns, a buffer is withdrawn and the process executes a
 * set-user-ID program; the buckets and hits, outside, unavailable,
 * wrong_mode and not_dumpable must be the model's while running, after
 * stop and once the snapshots are folded.  And a process's hundreds of
 * profiles make one class, whose interrupts touch only the profile hit.
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/workqueue.h>

#include "profile_fixture.h"

#define SRC	KP_PROF_COUNTER
#define LOW	0x400000ULL
#define TOP	(0ULL - 0x10000)	/* ranges up to 2^64 - 2 */
#define NPROF	64
#define NBUCK	64

static const struct pid *self(void)
{
	return task_tgid(current);
}

/* What the rule says one profile counted, and its current buffer's. */
struct model {
	struct kp_profile *p;
	u32 *b;
	u32 want[NBUCK];
	bool started;
	bool stopped_by_exec;
	u64 hits, outside, unavailable, wrong_mode, not_dumpable;
};

struct world {
	struct kp_prof_fix *f;
	struct model m[NPROF];
	struct pid *init;
	u64 rnd;
	unsigned int ncpu;
	struct kp_profile *withdrawn;
};

static u64 next(struct world *w)
{
	w->rnd ^= w->rnd << 13;
	w->rnd ^= w->rnd >> 7;
	w->rnd ^= w->rnd << 17;
	return w->rnd;
}

static u64 pick(struct world *w, u64 n)
{
	return next(w) % n;
}

static const int kp_dummy_mm;

/* The hit rule, for one profile. */
static void model_sample(struct world *w, struct model *m,
			 const struct kp_sample *s)
{
	const struct kp_profile *p = m->p;
	bool hidden;

	if (!m->started)
		return;
	if (!p->all_cpus && !cpumask_test_cpu(s->cpu, p->cpus))
		return;
	if (p->tgid && p->tgid != s->tgid)
		return;
	if (kp_other_counter(s, p->mode))
		return;
	hidden = m->stopped_by_exec ||
		 (!s->dumpable && (p->dumpable_only ||
				   (p->target == KPROFILE_TARGET_SELF &&
				    s->mm != p->mm)));
	if (hidden) {
		m->not_dumpable++;
		return;
	}
	if (!kp_mode_counts(p->mode, s->user)) {
		m->wrong_mode++;
		return;
	}
	if (s->ip - p->base >= p->size) {
		m->outside++;
		return;
	}
	if (p == w->withdrawn) {
		m->unavailable++;
		return;
	}
	m->hits++;
	m->want[(s->ip - p->base) >> p->shift]++;
}

static void check(struct kunit *test, struct world *w, const char *when)
{
	unsigned int i, k;

	for (i = 0; i < NPROF; i++) {
		struct model *m = &w->m[i];

		KUNIT_EXPECT_EQ_MSG(test, kp_prof_stat(m->p, "hits"), m->hits,
				    "%s: profile %u", when, i);
		KUNIT_EXPECT_EQ_MSG(test, kp_prof_stat(m->p, "outside"),
				    m->outside, "%s: profile %u", when, i);
		KUNIT_EXPECT_EQ_MSG(test, kp_prof_stat(m->p, "unavailable"),
				    m->unavailable, "%s: profile %u", when, i);
		KUNIT_EXPECT_EQ_MSG(test, kp_prof_stat(m->p, "wrong_mode"),
				    m->wrong_mode, "%s: profile %u", when, i);
		KUNIT_EXPECT_EQ_MSG(test, kp_prof_stat(m->p, "not_dumpable"),
				    m->not_dumpable, "%s: profile %u", when, i);
		KUNIT_EXPECT_EQ_MSG(test, kp_prof_stat(m->p, "started"),
				    (u64)m->started, "%s: profile %u", when, i);
		KUNIT_EXPECT_EQ_MSG(test,
				    !!(kp_prof_stat(m->p, "flags") &
				       KPROFILE_PROFILE_EXEC_STOPPED),
				    m->stopped_by_exec, "%s: profile %u", when,
				    i);
		if (!m->b)
			continue;
		for (k = 0; k < m->p->nr_buckets; k++)
			KUNIT_EXPECT_EQ_MSG(test, m->b[k], m->want[k],
					    "%s: profile %u bucket %u", when,
					    i, k);
	}
}

/* A range: near one of a few anchors low or at the top, many overlap. */
static void pick_range(struct world *w, u64 *base, u64 *size)
{
	static const u64 sizes[] = { 1, 0x10, 0x100, 0x300, 0x1000, 0x4000 };

	*base = (pick(w, 4) ? LOW : TOP) + pick(w, 16) * 0x100 + pick(w, 3);
	*size = sizes[pick(w, ARRAY_SIZE(sizes))] + pick(w, 2) * 0x80;
}

static void new_profile(struct kunit *test, struct world *w, unsigned int i)
{
	static const enum kprofile_mode modes[] = {
		KPROFILE_MODE_USER, KPROFILE_MODE_KERNEL, KPROFILE_MODE_BOTH,
		KPROFILE_MODE_TABLE,
	};
	u32 target = pick(w, 3) ? KPROFILE_TARGET_SELF : KPROFILE_TARGET_SYSTEM;
	const struct cpumask *cpus = NULL;
	struct kp_profile *p;
	u64 base, size;
	u32 shift;

	pick_range(w, &base, &size);
	shift = clamp_t(u32, fls64(size - 1) - 5, 2, 31);
	if (w->ncpu > 1 && !pick(w, 4))
		cpus = cpumask_of(pick(w, 2));
	p = kp_prof_new(w->f, SRC, target, modes[pick(w, 4)], base, size,
			shift, cpus);
	KUNIT_ASSERT_LE(test, p->nr_buckets, (u64)NBUCK);
	if (target == KPROFILE_TARGET_SELF && !pick(w, 4)) {
		/* a profile of another process (init) */
		put_pid(p->tgid);
		p->tgid = get_pid(w->init);
	}
	p->dumpable_only = !pick(w, 5);
	w->m[i].p = p;
}

static void start(struct world *w, struct model *m)
{
	m->b = kp_prof_start(w->f, m->p);
	memset(m->want, 0, sizeof(m->want));
	m->started = true;
}

static void stop(struct kunit *test, struct model *m)
{
	KUNIT_EXPECT_EQ(test, kp_profile_stop(m->p), 0);
	m->started = false;
}

/* One interrupt of the test's process, init or a kernel address. */
static void sample(struct world *w)
{
	struct kp_sample s = {
		.source = SRC,
		.cpu = pick(w, w->ncpu),
		.user = pick(w, 2),
		.dumpable = pick(w, 4),
		.mm = pick(w, 4) ? NULL : (const void *)&kp_dummy_mm,
		.counter_mode = pick(w, 3) ? 0 : 1 + pick(w, 3),
	};
	unsigned int i;
	u64 base, size;

	switch (pick(w, 4)) {
	case 0:
		s.tgid = w->init;
		break;
	case 1:
		s.tgid = NULL;
		break;
	default:
		s.tgid = self();
	}
	pick_range(w, &base, &size);
	switch (pick(w, 4)) {
	case 0:
		s.ip = base - pick(w, 2);	/* just below */
		break;
	case 1:
		s.ip = base + size - pick(w, 2);	/* last, one past */
		break;
	default:
		s.ip = base + pick(w, size + 0x100);
	}
	for (i = 0; i < NPROF; i++)
		model_sample(w, &w->m[i], &s);
	kp_profile_hit(&w->f->set, &s);
}

static void samples(struct world *w, unsigned int n)
{
	while (n--)
		sample(w);
}

/* Withdraw @p's buffer as stop does first (a hit racing with a stop). */
static struct kp_profile_buf *withdraw(struct world *w, struct kp_profile *p)
{
	struct kp_profile_buf *buf;

	mutex_lock(&w->f->set.lock);
	buf = rcu_dereference_protected(p->buf, true);
	RCU_INIT_POINTER(p->buf, NULL);
	mutex_unlock(&w->f->set.lock);
	w->withdrawn = p;
	return buf;
}

static void give_back(struct world *w, struct kp_profile *p,
		      struct kp_profile_buf *buf)
{
	mutex_lock(&w->f->set.lock);
	rcu_assign_pointer(p->buf, buf);
	mutex_unlock(&w->f->set.lock);
	w->withdrawn = NULL;
}

static void kp_stats_model(struct kunit *test)
{
	struct world *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct kp_profile_buf *buf;
	unsigned int i, round;

	KUNIT_ASSERT_NOT_NULL(test, w);
	w->f = kp_prof_fix_new(test);
	w->init = find_get_pid(1);
	KUNIT_ASSERT_NOT_NULL(test, w->init);
	w->rnd = 0x9e3779b97f4a7c15ULL;
	w->ncpu = min(nr_cpu_ids, 2U);
	for (i = 0; i < NPROF; i++)
		new_profile(test, w, i);
	for (i = 0; i < NPROF; i += 2)
		start(w, &w->m[i]);
	samples(w, 3000);
	check(test, w, "running");

	/* Start and stop interleaved with interrupts. */
	for (round = 0; round < 20; round++) {
		struct model *m = &w->m[pick(w, NPROF)];

		if (m->started)
			stop(test, m);
		else
			start(w, m);
		samples(w, 150);
	}
	check(test, w, "interleaved");

	/* A hit racing with a stop: unavailable. */
	for (i = 0; i < NPROF && !w->m[i].started; i++)
		;
	KUNIT_ASSERT_LT(test, i, (unsigned int)NPROF);
	buf = withdraw(w, w->m[i].p);
	samples(w, 1500);
	give_back(w, w->m[i].p, buf);
	check(test, w, "withdrawn");

	/* The process executes a set-user-ID program. */
	kp_profile_exec(&w->f->set, current);
	for (i = 0; i < NPROF; i++)
		if (w->m[i].started && w->m[i].p->tgid == self())
			w->m[i].stopped_by_exec = true;
	samples(w, 1500);
	check(test, w, "exec");
	/* One started after the exec counts again. */
	for (i = 0; i < NPROF; i++)
		if (!w->m[i].started && w->m[i].p->tgid == self() &&
		    !w->m[i].stopped_by_exec)
			break;
	if (i < NPROF) {
		start(w, &w->m[i]);
		samples(w, 1500);
		check(test, w, "started after exec");
	}

	for (i = 0; i < NPROF; i++)
		if (w->m[i].started)
			stop(test, &w->m[i]);
	samples(w, 200);
	check(test, w, "stopped");
	rcu_barrier();
	flush_workqueue(w->f->set.release);
	check(test, w, "folded");
	for (i = 0; i < NPROF; i++)
		KUNIT_EXPECT_EQ(test, refcount_read(&w->m[i].p->refs), 1U);
	put_pid(w->init);
}

/*
 * Nested ranges, a disjoint one inside the outermost, identical twins:
 * an interrupt in the innermost counts in every range around it, one in
 * the disjoint range in it and the outermost two only.
 */
static void kp_stats_nested(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	struct kp_profile *p[8];
	u32 *b[8];
	unsigned int i;

	for (i = 0; i < 6; i++)
		p[i] = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF,
				   KPROFILE_MODE_BOTH, LOW + i * 0x100,
				   0x1000 - 2 * i * 0x100, 12, NULL);
	p[6] = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF, KPROFILE_MODE_BOTH,
			   LOW + 0x10, 0x20, 12, NULL);
	p[7] = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF, KPROFILE_MODE_BOTH,
			   LOW + 0x500, 0x600, 12, NULL);	/* twin of 5 */
	for (i = 0; i < 8; i++)
		b[i] = kp_prof_start(f, p[i]);
	kp_prof_hit(f, SRC, 0, self(), LOW + 0x7ff, true);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ_MSG(test, b[i][0], i == 6 ? 0U : 1U, "%u", i);
	kp_prof_hit(f, SRC, 0, self(), LOW + 0x18, true);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ_MSG(test, kp_prof_stat(p[i], "hits"),
				    i ? 1ULL : 2ULL, "%u", i);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ_MSG(test, kp_prof_stat(p[i], "outside"),
				    i ? 1ULL : 0ULL, "%u", i);
}

#define MANY	300

/*
 * Hundreds of one's own profiles whose ranges miss, and one that hits,
 * make one class: the snapshot has a class, the interrupt counts once in
 * it, and every other profile sees it as outside.
 */
static void kp_stats_many_one_class(struct kunit *test)
{
	struct kp_prof_fix *f = kp_prof_fix_new(test);
	const struct kp_profile_index *idx;
	struct kp_profile *hit, **miss;
	u32 *b;
	unsigned int i;

	miss = kunit_kcalloc(test, MANY, sizeof(*miss), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, miss);

	hit = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF, KPROFILE_MODE_USER,
			  LOW, 0x1000, 4, NULL);
	b = kp_prof_start(f, hit);
	for (i = 0; i < MANY - 1; i++) {
		miss[i] = kp_prof_new(f, SRC, KPROFILE_TARGET_SELF,
				      KPROFILE_MODE_USER,
				      0x10000000ULL + i * 0x2000, 0x1000, 4,
				      NULL);
		kp_prof_start(f, miss[i]);
	}
	rcu_read_lock();
	idx = rcu_dereference(f->set.index[SRC]);
	KUNIT_ASSERT_NOT_NULL(test, idx);
	KUNIT_EXPECT_EQ(test, idx->nr, (u32)MANY);
	KUNIT_EXPECT_EQ(test, idx->nr_classes, 1U);
	KUNIT_EXPECT_EQ(test, idx->classes[0].span, 0U);	/* no overlap */
	rcu_read_unlock();
	for (i = 0; i < 10; i++)
		kp_prof_hit(f, SRC, 0, self(), LOW + 0x10 * i, true);
	kp_prof_hit(f, SRC, 0, self(), 0x10000000ULL + 5 * 0x2000, true);
	kp_prof_hit(f, SRC, 0, self(), LOW, false);
	KUNIT_EXPECT_EQ(test, b[1], 1U);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(hit, "hits"), 10ULL);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(hit, "outside"), 1ULL);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(hit, "wrong_mode"), 1ULL);
	for (i = 0; i < MANY - 1; i++) {
		KUNIT_EXPECT_EQ(test, kp_prof_stat(miss[i], "hits"),
				i == 5 ? 1ULL : 0ULL);
		KUNIT_EXPECT_EQ(test, kp_prof_stat(miss[i], "outside"),
				i == 5 ? 10ULL : 11ULL);
		KUNIT_EXPECT_EQ(test, kp_prof_stat(miss[i], "wrong_mode"),
				1ULL);
	}
	/* Stopped: final, and again once folded. */
	for (i = 0; i < MANY - 1; i += 2)
		KUNIT_EXPECT_EQ(test, kp_profile_stop(miss[i]), 0);
	kp_prof_hit(f, SRC, 0, self(), LOW, true);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(miss[2], "outside"), 11ULL);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(miss[3], "outside"), 12ULL);
	rcu_barrier();
	flush_workqueue(f->set.release);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(miss[2], "outside"), 11ULL);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(miss[3], "outside"), 12ULL);
	KUNIT_EXPECT_EQ(test, kp_prof_stat(hit, "hits"), 11ULL);
}

static struct kunit_case kp_profile_stats_cases[] = {
	KUNIT_CASE(kp_stats_model),
	KUNIT_CASE(kp_stats_nested),
	KUNIT_CASE(kp_stats_many_one_class),
	{}
};

static struct kunit_suite kp_profile_stats_suite = {
	.name = "kprofile_profile_stats",
	.exit = kp_prof_fix_exit,
	.test_cases = kp_profile_stats_cases,
};

kunit_test_suite(kp_profile_stats_suite);

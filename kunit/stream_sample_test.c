// SPDX-License-Identifier: GPL-2.0
/*
 * stream_sample_test.c - KUnit suite "kprofile_stream_sample": the sample
 * path of streams (stream_sample.c) on a sampler over a fake Intel
 * machine, and the create checks (stream.c).
 *
 * Samples fed through kp_stream_sample_task() land as records with the
 * task's pid and tid, the source, the ip and the user flag; a stream
 * without the source, of another process, or stopped gets nothing; the
 * mode filter; dumpability (not_dumpable); a system-wide stream takes
 * every process.  Real ProfileTime samples of this kernel thread carry
 * kernel call stacks from the unwinder (this test function's frame
 * below the spinning one's), are cut at max_frames (TRUNCATED), and keep
 * the timer running for a followed process only.  STREAM_INFO sums the
 * rings.  Every create error of the header, in order, and the privilege
 * rules with dropped credentials.
 */
#include <kunit/test.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/delay.h>
#include <linux/kallsyms.h>
#include <linux/ktime.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/string.h>

#include "../kmod/access.h"
#include "sources_fixture.h"
#include "stream_fixture.h"

#define SRC	KP_PROF_COUNTER
#define TIME	KPROFILE_SOURCE_TIME
#define IP	0x401234UL

static const u32 src_counter[] = { SRC };
static const u32 src_time[] = { TIME };

static const struct pid *self(void)
{
	return task_tgid(current);
}

static const struct kprofile_record_sample *
sample_at(struct kunit *test, const struct kp_str_read *rd, unsigned int i)
{
	KUNIT_ASSERT_LT(test, i, rd->nr);
	KUNIT_ASSERT_EQ(test, rd->recs[i]->type, (u32)KPROFILE_RECORD_SAMPLE);
	return (const void *)rd->recs[i];
}

static void kp_sample_fields(struct kunit *test)
{
	struct kp_str_fix *f = kp_str_fix_new(test);
	struct kp_stream *st = kp_str_new(f, KPROFILE_TARGET_SELF, 0,
					  KPROFILE_MODE_BOTH, src_counter, 1,
					  0, 0);
	const struct kprofile_record_sample *r;
	struct kp_str_read rd;
	u64 before = ktime_get_mono_fast_ns();

	kp_str_start(f, st);
	KUNIT_EXPECT_TRUE(test, kp_str_feed(f, SRC, self(), NULL, IP, true,
					    true));
	KUNIT_EXPECT_TRUE(test, kp_str_feed(f, SRC, self(), NULL, IP + 8,
					    false, true));
	kp_str_read_all(st, &rd);
	KUNIT_ASSERT_EQ(test, rd.nr, 2U);
	r = sample_at(test, &rd, 0);
	KUNIT_EXPECT_EQ(test, r->header.size, (u32)sizeof(*r));
	KUNIT_EXPECT_EQ(test, r->pid, task_tgid_nr(current));
	KUNIT_EXPECT_EQ(test, r->tid, task_pid_nr(current));
	KUNIT_EXPECT_EQ(test, r->source, (u32)SRC);
	KUNIT_EXPECT_EQ(test, r->ip, (u64)IP);
	KUNIT_EXPECT_EQ(test, r->flags, KPROFILE_SAMPLE_USER);
	KUNIT_EXPECT_EQ(test, r->nr_kernel + r->nr_user, 0);
	KUNIT_EXPECT_GE(test, r->time, before);
	KUNIT_EXPECT_LE(test, r->time, ktime_get_mono_fast_ns());
	KUNIT_EXPECT_TRUE(test, cpu_possible(r->cpu));
	r = sample_at(test, &rd, 1);
	KUNIT_EXPECT_EQ(test, r->flags, 0U);
	KUNIT_EXPECT_EQ(test, r->ip, (u64)IP + 8);
	KUNIT_EXPECT_EQ(test, kp_str_info(st).samples, 2ULL);
	KUNIT_EXPECT_EQ(test, kp_str_info(st).started, 1U);
}

/* Another source, another process, a stopped stream: nothing at all. */
static void kp_sample_filters(struct kunit *test)
{
	struct kp_str_fix *f = kp_str_fix_new(test);
	struct kp_stream *st = kp_str_new(f, KPROFILE_TARGET_SELF, 0,
					  KPROFILE_MODE_BOTH, src_counter, 1,
					  0, 0);
	struct pid *init = find_get_pid(1);
	struct kp_str_read rd;

	KUNIT_ASSERT_NOT_NULL(test, init);
	KUNIT_EXPECT_FALSE(test, kp_str_feed(f, SRC, self(), NULL, IP, true,
					     true));	/* not started */
	kp_str_start(f, st);
	KUNIT_EXPECT_FALSE(test, kp_str_feed(f, KPROFILE_SOURCE_TOTAL_ISSUES,
					     self(), NULL, IP, true, true));
	KUNIT_EXPECT_FALSE(test, kp_str_feed(f, SRC, init, NULL, IP, true,
					     true));
	KUNIT_EXPECT_FALSE(test, kp_str_feed(f, SRC, NULL, NULL, IP, false,
					     true));
	KUNIT_EXPECT_FALSE(test, kp_str_feed(f, KP_SOURCE_LIMIT, self(), NULL,
					     IP, true, true));
	KUNIT_EXPECT_EQ(test, kp_stream_stop(st), 0);
	KUNIT_EXPECT_EQ(test, kp_stream_stop(st), -EALREADY);
	KUNIT_EXPECT_FALSE(test, kp_str_feed(f, SRC, self(), NULL, IP, true,
					     true));
	kp_str_read_all(st, &rd);
	KUNIT_EXPECT_EQ(test, rd.nr, 0U);
	KUNIT_EXPECT_EQ(test, kp_str_info(st).samples, 0ULL);
	KUNIT_EXPECT_EQ(test, kp_str_info(st).started, 0U);
	/* Started again, it records again. */
	kp_str_start(f, st);
	KUNIT_EXPECT_EQ(test, kp_stream_start(st, NULL, 0), -EBUSY);
	KUNIT_EXPECT_TRUE(test, kp_str_feed(f, SRC, self(), NULL, IP, true,
					    true));
	kp_str_read_all(st, &rd);
	KUNIT_EXPECT_EQ(test, rd.nr, 1U);
	put_pid(init);
}

/* USER records user-mode samples only, KERNEL kernel-mode ones only. */
static void kp_sample_mode(struct kunit *test)
{
	struct kp_str_fix *f = kp_str_fix_new(test);
	struct kp_stream *u = kp_str_new(f, KPROFILE_TARGET_SELF, 0,
					 KPROFILE_MODE_USER, src_counter, 1,
					 0, 0);
	struct kp_stream *k = kp_str_new(f, KPROFILE_TARGET_SELF, 0,
					 KPROFILE_MODE_KERNEL, src_counter, 1,
					 0, 0);
	struct kp_stream *t = kp_str_new(f, KPROFILE_TARGET_SELF, 0,
					 KPROFILE_MODE_TABLE, src_counter, 1,
					 0, 0);
	struct kp_str_read rd;

	kp_str_start(f, u);
	kp_str_start(f, k);
	kp_str_start(f, t);
	/* The process is followed either way: ProfileTime would tick. */
	KUNIT_EXPECT_TRUE(test, kp_str_feed(f, SRC, self(), NULL, IP, false,
					    true));
	KUNIT_EXPECT_TRUE(test, kp_str_feed(f, SRC, self(), NULL, IP, true,
					    true));
	KUNIT_EXPECT_TRUE(test, kp_str_feed(f, SRC, self(), NULL, IP, true,
					    true));
	kp_str_read_all(u, &rd);
	KUNIT_ASSERT_EQ(test, rd.nr, 2U);
	KUNIT_EXPECT_EQ(test, sample_at(test, &rd, 0)->flags,
			KPROFILE_SAMPLE_USER);
	kp_str_read_all(k, &rd);
	KUNIT_ASSERT_EQ(test, rd.nr, 1U);
	KUNIT_EXPECT_EQ(test, sample_at(test, &rd, 0)->flags, 0U);
	kp_str_read_all(t, &rd);
	KUNIT_EXPECT_EQ(test, rd.nr, 3U);
}

/*
 * Dumpability, as profiles: a creator who may see only dumpable tasks
 * skips a non-dumpable one (not_dumpable); so does a stream of oneself
 * for a non-dumpable address space other than its creator's; a
 * system-wide stream records it.
 */
static void kp_sample_not_dumpable(struct kunit *test)
{
	struct kp_str_fix *f = kp_str_fix_new(test);
	struct kp_stream *weak = kp_str_new(f, KPROFILE_TARGET_SELF, 0,
					    KPROFILE_MODE_BOTH, src_counter,
					    1, 0, 0);
	struct kp_stream *mine = kp_str_new(f, KPROFILE_TARGET_SELF, 0,
					    KPROFILE_MODE_BOTH, src_counter,
					    1, 0, 0);
	struct kp_stream *sys = kp_str_new(f, KPROFILE_TARGET_SYSTEM, 0,
					   KPROFILE_MODE_BOTH, src_counter,
					   1, 0, 0);
	const struct mm_struct *other = (const void *)0x1000;
	struct kp_str_read rd;

	weak->dumpable_only = true;
	kp_str_start(f, weak);
	kp_str_start(f, mine);
	kp_str_start(f, sys);
	KUNIT_EXPECT_TRUE(test, kp_str_feed(f, SRC, self(), mine->mm, IP,
					    true, false));
	KUNIT_EXPECT_TRUE(test, kp_str_feed(f, SRC, self(), other, IP, true,
					    false));
	KUNIT_EXPECT_TRUE(test, kp_str_feed(f, SRC, self(), other, IP, true,
					    true));
	kp_str_read_all(weak, &rd);
	KUNIT_EXPECT_EQ(test, rd.nr, 1U);
	KUNIT_EXPECT_EQ(test, kp_str_info(weak).not_dumpable, 2ULL);
	kp_str_read_all(mine, &rd);
	KUNIT_EXPECT_EQ(test, rd.nr, 2U);
	KUNIT_EXPECT_EQ(test, kp_str_info(mine).not_dumpable, 1ULL);
	kp_str_read_all(sys, &rd);
	KUNIT_EXPECT_EQ(test, rd.nr, 3U);
	KUNIT_EXPECT_EQ(test, kp_str_info(sys).not_dumpable, 0ULL);
}

/* A system-wide stream takes every process, and kernel threads' NULL. */
static void kp_sample_system(struct kunit *test)
{
	struct kp_str_fix *f = kp_str_fix_new(test);
	struct kp_stream *st = kp_str_new(f, KPROFILE_TARGET_SYSTEM, 0,
					  KPROFILE_MODE_BOTH, src_counter, 1,
					  0, 0);
	struct pid *init = find_get_pid(1);
	struct kp_str_read rd;

	KUNIT_ASSERT_NOT_NULL(test, init);
	kp_str_start(f, st);
	KUNIT_EXPECT_TRUE(test, kp_str_feed(f, SRC, init, NULL, IP, true,
					    true));
	KUNIT_EXPECT_TRUE(test, kp_str_feed(f, SRC, NULL, NULL, IP, false,
					    true));
	kp_str_read_all(st, &rd);
	KUNIT_EXPECT_EQ(test, rd.nr, 2U);
	put_pid(init);
}

/* A ring of one page fills up: the rest is lost, and counted. */
static void kp_sample_lost(struct kunit *test)
{
	struct kp_str_fix *f = kp_str_fix_new(test);
	struct kp_stream *st = kp_str_new(f, KPROFILE_TARGET_SELF, 0,
					  KPROFILE_MODE_BOTH, src_counter, 1,
					  0, 1);
	struct kprofile_stream_info info;
	unsigned int i, fit = PAGE_SIZE / sizeof(struct kprofile_record_sample);

	kp_str_start(f, st);
	for (i = 0; i < fit + 10; i++)
		kp_str_feed(f, SRC, self(), NULL, IP, true, true);
	info = kp_str_info(st);
	/* The test may move between CPUs: each ring fills on its own. */
	KUNIT_EXPECT_EQ(test, info.samples + info.lost, (u64)fit + 10);
	KUNIT_EXPECT_GE(test, info.lost, 1ULL);
	KUNIT_EXPECT_EQ(test, info.nr_rings, nr_cpu_ids);
	KUNIT_EXPECT_EQ(test, info.ring_pages, 1U);
	KUNIT_EXPECT_EQ(test, info.page_size, (u32)PAGE_SIZE);
}

/* Spin in the kernel, where ProfileTime interrupts this thread. */
static noinline __noclone void kp_sample_spin(u64 ns)
{
	u64 end = ktime_get_ns() + ns;

	while (ktime_get_ns() < end)
		cpu_relax();
}

static bool frame_is(u64 addr, const char *name)
{
	char sym[KSYM_SYMBOL_LEN];

	sprint_symbol_no_offset(sym, addr);
	/* "name", "name [module]", or a compiler's "name.part.0". */
	return !strncmp(sym, name, strlen(name)) &&
	       (!sym[strlen(name)] || sym[strlen(name)] == ' ' ||
		sym[strlen(name)] == '.');
}

/*
 * Real ProfileTime samples of this kernel thread, two streams: kernel
 * frames from the unwinder, innermost first, with this function below
 * kp_sample_spin(); and at most two frames, TRUNCATED.
 */
static void kp_sample_kernel_callchain(struct kunit *test)
{
	struct kp_str_fix *f = kp_str_fix_new(test);
	struct kp_stream *st = kp_str_new(f, KPROFILE_TARGET_SELF,
					  KPROFILE_STREAM_CALLCHAIN,
					  KPROFILE_MODE_BOTH, src_time, 1,
					  16, 0);
	struct kp_stream *two = kp_str_new(f, KPROFILE_TARGET_SELF,
					   KPROFILE_STREAM_CALLCHAIN,
					   KPROFILE_MODE_BOTH, src_time, 1,
					   2, 0);
	const struct kprofile_record_sample *r;
	struct kp_str_read *rd = kunit_kzalloc(test, sizeof(*rd), GFP_KERNEL);
	unsigned int i, j, found = 0, ok = 0, n;

	KUNIT_ASSERT_NOT_NULL(test, rd);
	kp_str_start(f, st);
	kp_str_start(f, two);
	KUNIT_EXPECT_TRUE(test, kp_stimer_wanted(&f->prof->set, current));
	KUNIT_EXPECT_TRUE(test, kp_stream_time_wanted(&f->prof->set, current));
	KUNIT_EXPECT_FALSE(test, kp_stream_time_wanted(&f->prof->set,
						       &init_task));
	for (i = 0; i < 20 && kp_str_info(st).samples < 20; i++)
		kp_sample_spin(50 * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, kp_stream_stop(st), 0);
	KUNIT_EXPECT_EQ(test, kp_stream_stop(two), 0);
	KUNIT_EXPECT_FALSE(test, kp_stream_time_wanted(&f->prof->set,
						       current));

	kp_str_read_all(st, rd);
	KUNIT_EXPECT_EQ(test, rd->bad, 0U);
	KUNIT_ASSERT_GE(test, rd->nr, 10U);
	n = min_t(unsigned int, rd->nr, ARRAY_SIZE(rd->recs));
	for (i = 0; i < n; i++) {
		r = sample_at(test, rd, i);
		ok += !(r->flags & KPROFILE_SAMPLE_USER) && !r->nr_user &&
		      r->nr_kernel >= 2 && r->frames[0] == r->ip &&
		      r->header.size == struct_size(r, frames, r->nr_kernel) &&
		      r->pid == task_tgid_nr(current) &&
		      r->source == TIME;
		for (j = 0; j + 1 < r->nr_kernel; j++) {
			if (frame_is(r->frames[j], "kp_sample_spin") &&
			    frame_is(r->frames[j + 1],
				     "kp_sample_kernel_callchain")) {
				found++;
				break;
			}
		}
	}
	KUNIT_EXPECT_EQ(test, ok, n);
	KUNIT_EXPECT_GE(test, found * 2, n);	/* most are in the spin */
	if (found * 2 < n || ok < n) {
		r = sample_at(test, rd, 0);
		for (j = 0; j < r->nr_kernel; j++)
			kunit_info(test, "first sample, frame %u: %pS", j,
				   (void *)(unsigned long)r->frames[j]);
	}

	kp_str_read_all(two, rd);
	KUNIT_ASSERT_GE(test, rd->nr, 10U);
	n = min_t(unsigned int, rd->nr, ARRAY_SIZE(rd->recs));
	for (i = ok = 0; i < n; i++) {
		r = sample_at(test, rd, i);
		ok += r->nr_kernel == 2 && !r->nr_user &&
		      (r->flags & KPROFILE_SAMPLE_TRUNCATED);
	}
	KUNIT_EXPECT_EQ(test, ok, n);
}

static void kp_sample_check(struct kunit *test)
{
	struct kp_sources *emon = kp_test_emon_model(test, 7, 0);
	struct kp_sources *none = kp_test_none_model(test);
	struct kprofile_create_stream r;
	u32 s[3];

#define GOOD() (memset(&r, 0, sizeof(r)), r.nr_sources = 1)
	GOOD();
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), 0);
	GOOD(); r.reserved[5] = 1;
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), -EINVAL);
	GOOD(); r.flags = 1U << 3;
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), -EINVAL);
	GOOD(); r.target = 3;
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), -EINVAL);
	GOOD(); r.mode = 4;
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), -EINVAL);
	GOOD(); r.pid = 1;
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), -EINVAL);
	GOOD(); r.target = KPROFILE_TARGET_PID;
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), -EINVAL);
	r.pid = -1;
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), -EINVAL);
	r.pid = 1;
	r.flags = KPROFILE_STREAM_INHERIT;
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), 0);
	GOOD(); r.target = KPROFILE_TARGET_SYSTEM;
	r.flags = KPROFILE_STREAM_INHERIT;
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), -EINVAL);
	GOOD(); r.nr_sources = 0;
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), -EINVAL);
	r.nr_sources = KPROFILE_STREAM_MAX_SOURCES + 1;
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), -EINVAL);
	r.nr_sources = KPROFILE_STREAM_MAX_SOURCES;
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), 0);
	GOOD(); r.max_frames = 128;	/* ignored without CALLCHAIN */
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), 0);
	r.flags = KPROFILE_STREAM_CALLCHAIN;
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), -EINVAL);
	r.max_frames = KPROFILE_STREAM_MAX_FRAMES;
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), 0);
	GOOD(); r.ring_pages = 3;
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), -EINVAL);
	r.ring_pages = 2 * KPROFILE_STREAM_MAX_PAGES;
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), -EINVAL);
	r.ring_pages = KPROFILE_STREAM_MAX_PAGES;
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), 0);
#undef GOOD

	s[0] = TIME;
	s[1] = KPROFILE_SOURCE_TOTAL_ISSUES;
	KUNIT_EXPECT_EQ(test, kp_stream_check_sources(emon, s, 2), 0);
	s[1] = 0xff;
	KUNIT_EXPECT_EQ(test, kp_stream_check_sources(emon, s, 2), -EINVAL);
	s[1] = TIME;
	KUNIT_EXPECT_EQ(test, kp_stream_check_sources(emon, s, 2), -EINVAL);
	s[1] = KPROFILE_SOURCE_MAXIMUM;
	KUNIT_EXPECT_EQ(test, kp_stream_check_sources(emon, s, 2),
			-EOPNOTSUPP);
	s[2] = KP_SOURCE_LIMIT;	/* unknown after unsupported: EINVAL first */
	KUNIT_EXPECT_EQ(test, kp_stream_check_sources(emon, s, 3), -EINVAL);
	s[1] = KPROFILE_SOURCE_TOTAL_ISSUES;
	KUNIT_EXPECT_EQ(test, kp_stream_check_sources(none, s, 2),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, kp_stream_check_sources(none, s, 1), 0);
}

/* Run without any capability (uid 0 kept: only capabilities matter). */
static const struct cred *drop_caps(struct kunit *test)
{
	struct cred *c = prepare_creds();

	KUNIT_ASSERT_NOT_NULL(test, c);
	cap_clear(c->cap_effective);
	return override_creds(c);
}

static void undrop(const struct cred *old)
{
	const struct cred *c = current_cred();

	revert_creds(old);
	put_cred(c);
}

static void kp_sample_access(struct kunit *test)
{
	struct kprofile_create_stream r = { .nr_sources = 1 };
	u32 counter[2] = { TIME, KPROFILE_SOURCE_TOTAL_ISSUES };
	const struct cred *old;
	struct pid *tgid;

	/* A KUnit thread has every capability. */
	r.mode = KPROFILE_MODE_BOTH;
	KUNIT_EXPECT_EQ(test, kp_stream_check_access(&r, src_time, &tgid), 0);
	KUNIT_EXPECT_PTR_EQ(test, tgid, task_tgid(current));
	put_pid(tgid);
	r.target = KPROFILE_TARGET_SYSTEM;
	KUNIT_EXPECT_EQ(test, kp_stream_check_access(&r, src_time, &tgid), 0);
	KUNIT_EXPECT_NULL(test, tgid);

	old = drop_caps(test);
	r.target = KPROFILE_TARGET_SELF;
	r.mode = KPROFILE_MODE_BOTH;	/* kernel samples */
	KUNIT_EXPECT_EQ(test, kp_stream_check_access(&r, src_time, &tgid),
			-EPERM);
	r.mode = KPROFILE_MODE_TABLE;
	KUNIT_EXPECT_EQ(test, kp_stream_check_access(&r, src_time, &tgid),
			-EPERM);
	r.mode = KPROFILE_MODE_USER;
	KUNIT_EXPECT_EQ(test, kp_stream_check_access(&r, src_time, &tgid),
			kp_perf_event_paranoid() > 2 ? -EACCES : 0);
	if (tgid)
		put_pid(tgid);
	/* A counter source anywhere in the list: machine-wide. */
	r.nr_sources = 2;
	KUNIT_EXPECT_EQ(test, kp_stream_check_access(&r, counter, &tgid),
			-EPERM);
	r.nr_sources = 1;
	r.target = KPROFILE_TARGET_SYSTEM;
	KUNIT_EXPECT_EQ(test, kp_stream_check_access(&r, src_time, &tgid),
			-EPERM);
	undrop(old);
}

static struct kunit_case kp_stream_sample_cases[] = {
	KUNIT_CASE(kp_sample_fields),
	KUNIT_CASE(kp_sample_filters),
	KUNIT_CASE(kp_sample_mode),
	KUNIT_CASE(kp_sample_not_dumpable),
	KUNIT_CASE(kp_sample_system),
	KUNIT_CASE(kp_sample_lost),
	KUNIT_CASE(kp_sample_kernel_callchain),
	KUNIT_CASE(kp_sample_check),
	KUNIT_CASE(kp_sample_access),
	{}
};

static struct kunit_suite kp_stream_sample_suite = {
	.name = "kprofile_stream_sample",
	.test_cases = kp_stream_sample_cases,
	.exit = kp_str_fix_exit,
};

kunit_test_suite(kp_stream_sample_suite);

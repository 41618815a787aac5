// SPDX-License-Identifier: GPL-2.0
/*
 * profile_fixture.c - see profile_fixture.h.
 */
#include <linux/mm.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "profile_fixture.h"

/**
 * kp_prof_fix_new() - a sampler over a fake Intel machine.
 * @test: the test; test->priv becomes the fixture.
 *
 * Return: the fixture (the test is aborted on failure).
 */
struct kp_prof_fix *kp_prof_fix_new(struct kunit *test)
{
	return kp_prof_fix_on(test, kp_pmu_fix_intel(test, 3, 4, 48));
}

/**
 * kp_prof_fix_on() - a sampler over a given hardware-layer fixture.
 * @test: the test; test->priv becomes the profile fixture.
 * @pmu:  a fixture from kp_pmu_fix_intel() or kp_pmu_fix_amd().
 *
 * Return: the fixture (the test is aborted on failure).
 */
struct kp_prof_fix *kp_prof_fix_on(struct kunit *test, struct kp_pmu_fix *pmu)
{
	struct kp_prof_fix *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->test = test;
	f->pmu = pmu;
	KUNIT_ASSERT_EQ(test, kp_sampler_init(&f->set, &f->pmu->sources,
					      &f->pmu->pmu), 0);
	test->priv = f;
	return f;
}

/**
 * kp_prof_fix_exit() - suite exit: free the profiles, the sampler, the layer.
 * @test: the test.
 */
void kp_prof_fix_exit(struct kunit *test)
{
	struct kp_prof_fix *f = test->priv;
	unsigned int i;

	if (!f)
		return;
	for (i = 0; i < f->nr; i++)
		kp_profile_free(f->profiles[i]);
	KUNIT_EXPECT_EQ(test, f->set.time_users, 0U);
	kp_sampler_exit(&f->set);
	test->priv = f->pmu;
	kp_pmu_fix_exit(test);
}

/**
 * kp_prof_req() - fill a create request.
 * @req:    the request (zeroed first).
 * @source: the source.
 * @target: enum kprofile_target.
 * @mode:   enum kprofile_mode.
 * @base:   first address.
 * @size:   bytes.
 * @shift:  log2 of the bucket size.
 *
 * The buffer is a plausible aligned user address of exactly the size
 * needed; profiles of the fixture never touch it.
 */
void kp_prof_req(struct kprofile_create_profile *req, u32 source, u32 target,
		 enum kprofile_mode mode, u64 base, u64 size, u32 shift)
{
	u64 n = (size >> shift) + !!(size & (BIT_ULL(shift) - 1));

	memset(req, 0, sizeof(*req));
	req->source = source;
	req->target = target;
	req->mode = mode;
	req->base = base;
	req->size = size;
	req->bucket_shift = shift;
	req->buffer = 0x10000;
	req->buffer_size = n * sizeof(u32);
}

/**
 * kp_prof_new() - a stopped profile, freed at exit.
 * @f:      the fixture.
 * @source: the source.
 * @target: KPROFILE_TARGET_SELF (the test's thread group) or
 *	    KPROFILE_TARGET_SYSTEM.
 * @mode:   enum kprofile_mode.
 * @base:   first address.
 * @size:   bytes.
 * @shift:  log2 of the bucket size.
 * @cpus:   CPU set, or NULL for all.
 *
 * Return: the profile.
 */
struct kp_profile *kp_prof_new(struct kp_prof_fix *f, u32 source, u32 target,
			       enum kprofile_mode mode, u64 base, u64 size,
			       u32 shift, const struct cpumask *cpus)
{
	struct kprofile_create_profile req;
	struct kp_profile *p;
	struct pid *tgid = NULL;

	KUNIT_ASSERT_LT(f->test, f->nr, (unsigned int)KP_PROF_FIX_MAX);
	kp_prof_req(&req, source, target, mode, base, size, shift);
	if (target == KPROFILE_TARGET_SELF)
		tgid = get_pid(task_tgid(current));
	p = kp_profile_new(&f->set, &req, tgid, cpus);
	KUNIT_ASSERT_NOT_NULL(f->test, p);
	f->profiles[f->nr++] = p;
	return p;
}

/**
 * kp_prof_start_at() - start a profile on a zeroed kernel buffer whose
 *	bucket 0 is @offset bytes into its first page.
 * @f:      the fixture.
 * @p:      a stopped profile.
 * @offset: 4-byte aligned, < PAGE_SIZE.
 *
 * Return: bucket 0 (the test is aborted when start fails).
 */
u32 *kp_prof_start_at(struct kp_prof_fix *f, struct kp_profile *p,
		      unsigned int offset)
{
	struct kunit *test = f->test;
	size_t bytes = offset + p->nr_buckets * sizeof(u32);
	unsigned int i, nr = DIV_ROUND_UP(bytes, PAGE_SIZE);
	struct kp_profile_buf *buf;
	char reason[KPROFILE_REASON_LEN];
	void *mem;

	/* kmalloc of whole pages is page aligned and in the direct map. */
	mem = kunit_kzalloc(test, nr * PAGE_SIZE, GFP_KERNEL);
	buf = kunit_kzalloc(test, sizeof(*buf), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mem);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_TRUE(test, PAGE_ALIGNED(mem));
	buf->pages = kunit_kcalloc(test, nr, sizeof(*buf->pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf->pages);
	for (i = 0; i < nr; i++)
		buf->pages[i] = virt_to_page(mem + i * PAGE_SIZE);
	buf->nr_pages = nr;
	buf->offset = offset;
	KUNIT_ASSERT_EQ_MSG(test, kp_profile_start_buf(p, buf, reason,
						       sizeof(reason)), 0,
			    "start: %s", reason);
	return mem + offset;
}

/**
 * kp_prof_start() - kp_prof_start_at() with bucket 0 at the page start.
 * @f: the fixture.
 * @p: a stopped profile.
 *
 * Return: bucket 0.
 */
u32 *kp_prof_start(struct kp_prof_fix *f, struct kp_profile *p)
{
	return kp_prof_start_at(f, p, 0);
}

/**
 * kp_prof_hit() - one interrupt of a dumpable task through the hit path.
 * @f:      the fixture.
 * @source: the source that fired.
 * @cpu:    its CPU.
 * @tgid:   the interrupted thread group.
 * @ip:     the interrupted ip.
 * @user:   user mode.
 */
void kp_prof_hit(struct kp_prof_fix *f, u32 source, unsigned int cpu,
		 const struct pid *tgid, unsigned long ip, bool user)
{
	struct kp_sample s = {
		.source = source, .cpu = cpu, .tgid = tgid, .ip = ip,
		.user = user, .dumpable = true,
	};

	kp_profile_hit(&f->set, &s);
}

/**
 * kp_prof_stat() - one statistic of a profile.
 * @p:     the profile.
 * @which: "hits", "outside", "unavailable", "wrong_mode", "not_dumpable",
 *	   "flags" (KPROFILE_PROFILE_*) or "started".
 *
 * Return: its value.
 */
u64 kp_prof_stat(struct kp_profile *p, const char *which)
{
	struct kprofile_profile_stats_ex stx;
	struct kprofile_profile_stats st;

	kp_profile_get_stats_ex(p, &stx);
	if (!strcmp(which, "not_dumpable"))
		return stx.not_dumpable;
	if (!strcmp(which, "flags"))
		return stx.flags;
	kp_profile_get_stats(p, &st);
	if (!strcmp(which, "hits"))
		return st.hits;
	if (!strcmp(which, "outside"))
		return st.outside;
	if (!strcmp(which, "unavailable"))
		return st.unavailable;
	if (!strcmp(which, "wrong_mode"))
		return st.wrong_mode;
	return st.started;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * stream_fixture.c - see stream_fixture.h.
 */
#include <linux/err.h>
#include <linux/irqflags.h>
#include <linux/mm.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "stream_fixture.h"

/**
 * kp_str_fix_new() - streams on a sampler over a fake Intel machine.
 * @test: the test; test->priv becomes the stream fixture.
 *
 * Return: the fixture (the test is aborted on failure).
 */
struct kp_str_fix *kp_str_fix_new(struct kunit *test)
{
	struct kp_str_fix *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->prof = kp_prof_fix_new(test);
	test->priv = f;
	return f;
}

/**
 * kp_str_fix_exit() - suite exit: free the streams, then the profile
 *	fixture.
 * @test: the test.
 */
void kp_str_fix_exit(struct kunit *test)
{
	struct kp_str_fix *f = test->priv;
	unsigned int i;

	if (!f)
		return;
	for (i = 0; i < f->nr; i++)
		kp_stream_free(f->streams[i]);
	test->priv = f->prof;
	kp_prof_fix_exit(test);
}

/**
 * kp_str_new() - a stopped stream on the fixture's set, freed at exit.
 * @f:		the fixture.
 * @target:	KPROFILE_TARGET_SELF (the test's thread group) or
 *		KPROFILE_TARGET_SYSTEM.
 * @flags:	KPROFILE_STREAM_*.
 * @mode:	enum kprofile_mode.
 * @src:	the sources.
 * @nr:		entries at @src.
 * @max_frames:	with CALLCHAIN, 0 for the default.
 * @ring_pages:	data pages per ring, 0 for the default.
 *
 * The request passes kp_stream_check() and kp_stream_check_sources().
 *
 * Return: the stream (the test is aborted on failure).
 */
struct kp_stream *kp_str_new(struct kp_str_fix *f, u32 target, u32 flags,
			     enum kprofile_mode mode, const u32 *src, u32 nr,
			     u32 max_frames, u32 ring_pages)
{
	struct kunit *test = f->prof->test;
	struct kprofile_create_stream req = {
		.target = target, .flags = flags, .mode = mode,
		.nr_sources = nr, .max_frames = max_frames,
		.ring_pages = ring_pages,
	};
	struct pid *tgid = NULL;
	struct kp_stream *st;

	KUNIT_ASSERT_LT(test, f->nr, (unsigned int)KP_STR_FIX_MAX);
	KUNIT_ASSERT_EQ(test, kp_stream_check(&req), 0);
	KUNIT_ASSERT_EQ(test, kp_stream_check_sources(&f->prof->pmu->sources,
						      src, nr), 0);
	if (target == KPROFILE_TARGET_SELF)
		tgid = get_pid(task_tgid(current));
	st = kp_stream_new(&f->prof->set, &req, src, tgid);
	KUNIT_ASSERT_FALSE(test, IS_ERR(st));
	f->streams[f->nr++] = st;
	return st;
}

/**
 * kp_str_start() - start a stream; the test is aborted when it fails.
 * @f:  the fixture.
 * @st: a stopped stream.
 */
void kp_str_start(struct kp_str_fix *f, struct kp_stream *st)
{
	char reason[KPROFILE_REASON_LEN];

	KUNIT_ASSERT_EQ_MSG(f->prof->test, kp_stream_start(st, reason,
							   sizeof(reason)),
			    0, "start: %s", reason);
}

/**
 * kp_str_read_page() - read a ring as its reader does: the records from
 *	data_tail to data_head (load-acquire), then data_tail = what was
 *	read (store-release).
 * @page: the ring's header page; its data area follows it.
 * @out:  the records (at most 64 are kept; the rest are read and
 *	  counted in @out->nr only).
 */
void kp_str_read_page(struct kprofile_stream_page *page,
		      struct kp_str_read *out)
{
	const u8 *data = (const u8 *)page + page->data_offset;
	u64 size = page->data_size, head, tail, off;
	const struct kprofile_record_header *h;

	memset(out, 0, sizeof(*out));
	/* The records below data_head are written (the writer's release). */
	head = smp_load_acquire(&page->data_head);
	tail = READ_ONCE(page->data_tail);
	while (tail < head) {
		off = tail & (size - 1);
		h = (const void *)(data + off);
		if (h->size < sizeof(*h) || h->size % 8 || off + h->size > size ||
		    tail + h->size > head) {
			out->bad++;
			tail = head;
			break;
		}
		if (h->type == KPROFILE_RECORD_PAD) {
			out->pads++;
		} else {
			if (out->nr < ARRAY_SIZE(out->recs))
				out->recs[out->nr] = h;
			out->nr++;
		}
		tail += h->size;
	}
	/* Done reading before the writer may reuse the space. */
	smp_store_release(&page->data_tail, tail);
}

/**
 * kp_str_read() - read the ring of one CPU of a stream.
 * @st:  the stream.
 * @cpu: a possible CPU.
 * @out: as kp_str_read_page().
 */
void kp_str_read(struct kp_stream *st, unsigned int cpu,
		 struct kp_str_read *out)
{
	kp_str_read_page(per_cpu_ptr(st->rings, cpu)->page, out);
}

/**
 * kp_str_info() - a stream's STREAM_INFO.
 * @st: the stream.
 *
 * Return: the statistics.
 */
struct kprofile_stream_info kp_str_info(struct kp_stream *st)
{
	struct kprofile_stream_info info;

	kp_stream_get_info(st, &info);
	return info;
}

/**
 * kp_str_read_all() - read the rings of every possible CPU of a stream.
 * @st:  the stream.
 * @out: as kp_str_read_page(), the records of all rings, CPU by CPU.
 */
void kp_str_read_all(struct kp_stream *st, struct kp_str_read *out)
{
	struct kp_str_read *one = kzalloc(sizeof(*one), GFP_KERNEL);
	unsigned int cpu, i;

	memset(out, 0, sizeof(*out));
	if (WARN_ON(!one))
		return;
	for_each_possible_cpu(cpu) {
		kp_str_read(st, cpu, one);
		for (i = 0; i < one->nr; i++) {
			if (out->nr < ARRAY_SIZE(out->recs) &&
			    i < ARRAY_SIZE(one->recs))
				out->recs[out->nr] = one->recs[i];
			out->nr++;
		}
		out->pads += one->pads;
		out->bad += one->bad;
	}
	kfree(one);
}

/**
 * kp_str_feed() - one interrupt of the current task through the streams'
 *	sample path, without registers (no call stack), interrupts off.
 * @f:	      the fixture.
 * @source:   the source that fired.
 * @tgid:     the interrupted process.
 * @mm:	      its address space (compared only).
 * @ip:	      the interrupted ip.
 * @user:     user mode.
 * @dumpable: the task is dumpable.
 *
 * Return: what kp_stream_sample_task() returned.
 */
bool kp_str_feed(struct kp_str_fix *f, u32 source, const struct pid *tgid,
		 const struct mm_struct *mm, unsigned long ip, bool user,
		 bool dumpable)
{
	struct kp_sample s = {
		.source = source, .tgid = tgid, .mm = mm, .ip = ip,
		.user = user, .dumpable = dumpable,
	};
	unsigned long flags;
	bool ret;

	local_irq_save(flags);
	s.cpu = smp_processor_id();
	ret = kp_stream_sample_task(&f->prof->set, &s, current, NULL);
	local_irq_restore(flags);
	return ret;
}

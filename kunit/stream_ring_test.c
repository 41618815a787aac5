// SPDX-License-Identifier: GPL-2.0
/*
 * stream_ring_test.c - KUnit suite "kprofile_stream_ring": one ring of a
 * sample stream (stream_ring.c) against a reader that follows the
 * protocol of kprofile_stream.h.  Records round-trip; one that would
 * cross the end is preceded by a PAD; a full ring drops (and counts)
 * records and overwrites nothing, data_head never passing data_tail +
 * size; garbage in data_tail only loses records, never writes outside the
 * data area; a writer nested in another's reservation is published only
 * with the outer one, both intact; and a reader kthread draining the
 * ring while a writer kthread and an hrtimer nested in it (same CPU)
 * write sequence-numbered records gets every record not counted lost, in
 * order, none torn; the reader is to be woken at each quarter of the
 * data area written.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "../kmod/compat.h"
#include "../kmod/stream.h"
#include "stream_fixture.h"

#define GUARD	0xa5

/* A ring of @pages data pages in kernel memory, with a guard page after. */
struct ring_fix {
	u8 *mem;
	unsigned int pages;
	struct kp_stream_ring r;
};

static struct ring_fix *ring_new(struct kunit *test, unsigned int pages)
{
	struct ring_fix *rf = kunit_kzalloc(test, sizeof(*rf), GFP_KERNEL);
	size_t bytes = roundup_pow_of_two((pages + 2) * PAGE_SIZE);

	KUNIT_ASSERT_NOT_NULL(test, rf);
	rf->mem = kunit_kzalloc(test, bytes, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rf->mem);
	rf->pages = pages;
	memset(rf->mem + (pages + 1) * PAGE_SIZE, GUARD,
	       bytes - (pages + 1) * PAGE_SIZE);
	kp_ring_init(&rf->r, rf->mem, 3, pages);
	return rf;
}

static struct kprofile_stream_page *page_of(struct ring_fix *rf)
{
	return (struct kprofile_stream_page *)rf->mem;
}

/* The guard after the data area, and the header page past its struct. */
static bool intact(struct ring_fix *rf)
{
	size_t bytes = roundup_pow_of_two((rf->pages + 2) * PAGE_SIZE);
	const struct kprofile_stream_page *pg = page_of(rf);
	size_t i;

	for (i = (rf->pages + 1) * PAGE_SIZE; i < bytes; i++)
		if (rf->mem[i] != GUARD)
			return false;
	for (i = sizeof(*pg); i < PAGE_SIZE; i++)
		if (rf->mem[i])
			return false;
	return pg->data_offset == PAGE_SIZE && pg->cpu == 3 &&
	       pg->data_size == (u64)rf->pages * PAGE_SIZE && !pg->reserved0;
}

/* A record of @size bytes whose body words all hold @seq; NULL if lost. */
static void *put(struct kp_stream_ring *r, u32 type, u32 size, u64 seq)
{
	u64 *w = kp_ring_begin(r, type, size);
	unsigned int i;

	if (!w)
		return NULL;
	for (i = 1; i < size / 8; i++)
		w[i] = seq;
	kp_ring_end(r, type);
	return w;
}

/* Whether @h is a record of @size bytes whose body words all hold @seq. */
static bool holds(const struct kprofile_record_header *h, u32 size, u64 seq)
{
	const u64 *w = (const u64 *)h;
	unsigned int i;

	if (h->size != size)
		return false;
	for (i = 1; i < size / 8; i++)
		if (w[i] != seq)
			return false;
	return true;
}

static void kp_ring_round_trip(struct kunit *test)
{
	struct ring_fix *rf = ring_new(test, 1);
	struct kprofile_stream_page *pg = page_of(rf);
	struct kp_str_read rd;

	KUNIT_EXPECT_TRUE(test, intact(rf));
	KUNIT_EXPECT_EQ(test, pg->data_head, 0ULL);
	KUNIT_ASSERT_NOT_NULL(test, put(&rf->r, KPROFILE_RECORD_SAMPLE, 72, 7));
	KUNIT_ASSERT_NOT_NULL(test, put(&rf->r, KPROFILE_RECORD_FORK, 56, 8));
	KUNIT_EXPECT_EQ(test, pg->data_head, 128ULL);
	KUNIT_EXPECT_EQ(test, pg->records, 2ULL);
	KUNIT_EXPECT_EQ(test, pg->lost, 0ULL);
	KUNIT_EXPECT_EQ(test, local64_read(&rf->r.samples), 1L);

	kp_str_read_page(pg, &rd);
	KUNIT_ASSERT_EQ(test, rd.nr, 2U);
	KUNIT_EXPECT_EQ(test, rd.bad + rd.pads, 0U);
	KUNIT_EXPECT_EQ(test, rd.recs[0]->type, (u32)KPROFILE_RECORD_SAMPLE);
	KUNIT_EXPECT_TRUE(test, holds(rd.recs[0], 72, 7));
	KUNIT_EXPECT_EQ(test, rd.recs[1]->type, (u32)KPROFILE_RECORD_FORK);
	KUNIT_EXPECT_TRUE(test, holds(rd.recs[1], 56, 8));
	KUNIT_EXPECT_EQ(test, pg->data_tail, 128ULL);
	kp_str_read_page(pg, &rd);
	KUNIT_EXPECT_EQ(test, rd.nr, 0U);
	KUNIT_EXPECT_TRUE(test, intact(rf));
}

/*
 * 1000-byte records in a 4096-byte area: four fit; once read, the fifth
 * would cross the end, so a 96-byte PAD fills it and the record starts
 * the area again.  A record that ends exactly at the end needs no pad.
 */
static void kp_ring_wrap_pad(struct kunit *test)
{
	struct ring_fix *rf = ring_new(test, 1);
	struct kprofile_stream_page *pg = page_of(rf);
	const struct kprofile_record_header *h;
	struct kp_str_read rd;
	unsigned int i;

	for (i = 0; i < 4; i++)
		KUNIT_ASSERT_NOT_NULL(test, put(&rf->r, KPROFILE_RECORD_SAMPLE,
						1000, i));
	kp_str_read_page(pg, &rd);
	KUNIT_EXPECT_EQ(test, rd.nr, 4U);
	KUNIT_ASSERT_NOT_NULL(test, put(&rf->r, KPROFILE_RECORD_SAMPLE, 1000,
					4));
	KUNIT_EXPECT_EQ(test, pg->data_head, 4000ULL + 96 + 1000);
	h = (const void *)(rf->mem + PAGE_SIZE + 4000);
	KUNIT_EXPECT_EQ(test, h->type, (u32)KPROFILE_RECORD_PAD);
	KUNIT_EXPECT_EQ(test, h->size, 96U);
	h = (const void *)(rf->mem + PAGE_SIZE);
	KUNIT_EXPECT_TRUE(test, holds(h, 1000, 4));
	KUNIT_EXPECT_EQ(test, pg->records, 5ULL);	/* pads not counted */
	kp_str_read_page(pg, &rd);
	KUNIT_EXPECT_EQ(test, rd.pads, 1U);
	KUNIT_ASSERT_EQ(test, rd.nr, 1U);
	KUNIT_EXPECT_TRUE(test, holds(rd.recs[0], 1000, 4));

	/* 5096 + 3000 = 8096: the next 96 bytes end exactly at the end. */
	KUNIT_ASSERT_NOT_NULL(test, put(&rf->r, KPROFILE_RECORD_SAMPLE, 3000,
					5));
	KUNIT_ASSERT_NOT_NULL(test, put(&rf->r, KPROFILE_RECORD_SAMPLE, 96, 6));
	KUNIT_EXPECT_EQ(test, pg->data_head, 8192ULL);
	kp_str_read_page(pg, &rd);
	KUNIT_EXPECT_EQ(test, rd.pads, 0U);
	KUNIT_EXPECT_EQ(test, rd.nr, 2U);
	KUNIT_EXPECT_TRUE(test, intact(rf));
}

/* A full ring drops records, counts them, and overwrites nothing. */
static void kp_ring_full(struct kunit *test)
{
	struct ring_fix *rf = ring_new(test, 1);
	struct kprofile_stream_page *pg = page_of(rf);
	struct kp_str_read rd;
	unsigned int i, ok = 0;

	for (i = 0; i < 20; i++) {
		ok += !!put(&rf->r, KPROFILE_RECORD_SAMPLE, 1000, i);
		KUNIT_EXPECT_LE(test, pg->data_head,
				pg->data_tail + pg->data_size);
	}
	KUNIT_EXPECT_EQ(test, ok, 4U);
	KUNIT_EXPECT_EQ(test, pg->lost, 16ULL);
	KUNIT_EXPECT_EQ(test, local64_read(&rf->r.lost), 16L);
	KUNIT_EXPECT_EQ(test, pg->records, 4ULL);
	KUNIT_EXPECT_EQ(test, pg->data_head, 4000ULL);

	/* Read two: room for a pad and one more, the other two intact. */
	smp_store_release(&pg->data_tail, 2000);
	KUNIT_EXPECT_NOT_NULL(test, put(&rf->r, KPROFILE_RECORD_SAMPLE, 1000,
					20));
	/* 5096 - 2000 + 1000 = 4096: exactly full, then nothing fits. */
	KUNIT_EXPECT_NOT_NULL(test, put(&rf->r, KPROFILE_RECORD_SAMPLE, 1000,
					21));
	KUNIT_EXPECT_EQ(test, pg->data_head, pg->data_tail + pg->data_size);
	KUNIT_EXPECT_NULL(test, put(&rf->r, KPROFILE_RECORD_SAMPLE, 8, 22));
	KUNIT_EXPECT_EQ(test, pg->lost, 17ULL);
	KUNIT_EXPECT_LE(test, pg->data_head, pg->data_tail + pg->data_size);
	kp_str_read_page(pg, &rd);
	KUNIT_ASSERT_EQ(test, rd.nr, 4U);
	KUNIT_EXPECT_EQ(test, rd.pads, 1U);
	KUNIT_EXPECT_TRUE(test, holds(rd.recs[0], 1000, 2));
	KUNIT_EXPECT_TRUE(test, holds(rd.recs[1], 1000, 3));
	KUNIT_EXPECT_TRUE(test, holds(rd.recs[2], 1000, 20));
	KUNIT_EXPECT_TRUE(test, holds(rd.recs[3], 1000, 21));
	KUNIT_EXPECT_TRUE(test, intact(rf));
}

/*
 * data_tail is the reader's to write: ahead of data_head, far behind it,
 * misaligned or random, it can only make records be dropped; every write
 * stays in the data area and data_head stays 8-byte aligned.
 */
static void kp_ring_garbage_tail(struct kunit *test)
{
	struct ring_fix *rf = ring_new(test, 2);
	struct kprofile_stream_page *pg = page_of(rf);
	u64 head, lost;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, put(&rf->r, KPROFILE_RECORD_SAMPLE, 64, 0));
	head = pg->data_head;
	WRITE_ONCE(pg->data_tail, head + 8);		/* ahead */
	KUNIT_EXPECT_NULL(test, put(&rf->r, KPROFILE_RECORD_SAMPLE, 64, 1));
	WRITE_ONCE(pg->data_tail, head - 2 * 8192 - 8);	/* too far behind */
	KUNIT_EXPECT_NULL(test, put(&rf->r, KPROFILE_RECORD_SAMPLE, 64, 2));
	WRITE_ONCE(pg->data_tail, 0xdeadbeefdeadbeefULL);
	KUNIT_EXPECT_NULL(test, put(&rf->r, KPROFILE_RECORD_SAMPLE, 64, 3));
	KUNIT_EXPECT_EQ(test, pg->data_head, head);
	KUNIT_EXPECT_EQ(test, pg->lost, 3ULL);
	WRITE_ONCE(pg->data_tail, head - 3);		/* misaligned */
	KUNIT_EXPECT_NOT_NULL(test, put(&rf->r, KPROFILE_RECORD_SAMPLE, 64, 4));

	lost = pg->lost;
	for (i = 0; i < 2000; i++) {
		WRITE_ONCE(pg->data_tail, i & 1 ? get_random_u64() :
			   pg->data_head - (get_random_u32() & 0x3fff));
		if (!put(&rf->r, KPROFILE_RECORD_SAMPLE,
			 8 * (1 + (get_random_u32() & 127)), i))
			lost++;
		KUNIT_ASSERT_EQ(test, pg->data_head % 8, 0ULL);
	}
	KUNIT_EXPECT_EQ(test, pg->lost, lost);
	KUNIT_EXPECT_EQ(test, local_read(&rf->r.nest), 0L);
	KUNIT_EXPECT_TRUE(test, intact(rf));
}

/*
 * A writer interrupted inside its reservation (A) by another (B): B is
 * reserved after A, committed first, and published only when A commits.
 */
static void kp_ring_nested(struct kunit *test)
{
	struct ring_fix *rf = ring_new(test, 1);
	struct kprofile_stream_page *pg = page_of(rf);
	u64 *a, *b;
	struct kp_str_read rd;

	a = kp_ring_begin(&rf->r, KPROFILE_RECORD_SAMPLE, 64);
	KUNIT_ASSERT_NOT_NULL(test, a);
	a[1] = 0xa;
	b = kp_ring_begin(&rf->r, KPROFILE_RECORD_EXIT, 56);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_PTR_EQ(test, (u8 *)b, (u8 *)a + 64);
	memset(&b[1], 0xb, 48);
	kp_ring_end(&rf->r, KPROFILE_RECORD_EXIT);
	KUNIT_EXPECT_EQ(test, pg->data_head, 0ULL);	/* A not done yet */
	KUNIT_EXPECT_EQ(test, local_read(&rf->r.nest), 1L);
	memset(&a[1], 0xa, 56);
	kp_ring_end(&rf->r, KPROFILE_RECORD_SAMPLE);
	KUNIT_EXPECT_EQ(test, pg->data_head, 120ULL);
	KUNIT_EXPECT_EQ(test, local_read(&rf->r.nest), 0L);
	KUNIT_EXPECT_EQ(test, pg->records, 2ULL);

	kp_str_read_page(pg, &rd);
	KUNIT_ASSERT_EQ(test, rd.nr, 2U);
	KUNIT_EXPECT_TRUE(test, holds(rd.recs[0], 64, 0x0a0a0a0a0a0a0a0aULL));
	KUNIT_EXPECT_TRUE(test, holds(rd.recs[1], 56, 0x0b0b0b0b0b0b0b0bULL));
	KUNIT_EXPECT_EQ(test, rd.recs[1]->type, (u32)KPROFILE_RECORD_EXIT);
}

/* A nested writer that finds the ring full leaves it as a commit would. */
static void kp_ring_nested_lost(struct kunit *test)
{
	struct ring_fix *rf = ring_new(test, 1);
	struct kprofile_stream_page *pg = page_of(rf);
	u64 *a;

	a = kp_ring_begin(&rf->r, KPROFILE_RECORD_SAMPLE, 4000);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_NULL(test, kp_ring_begin(&rf->r, KPROFILE_RECORD_SAMPLE,
					      200));
	KUNIT_EXPECT_EQ(test, local_read(&rf->r.nest), 1L);
	KUNIT_EXPECT_EQ(test, pg->lost, 1ULL);
	KUNIT_EXPECT_EQ(test, pg->data_head, 0ULL);
	kp_ring_end(&rf->r, KPROFILE_RECORD_SAMPLE);
	KUNIT_EXPECT_EQ(test, pg->data_head, 4000ULL);
	KUNIT_EXPECT_EQ(test, local_read(&rf->r.nest), 0L);
}

/* The concurrent case: a writer kthread, an hrtimer nested in it, a reader. */
#define WRITES		20000
#define TIMER_NS	50000

struct conc {
	struct ring_fix *rf;
	struct hrtimer timer;
	struct completion written;
	bool writing;		/* the writer runs: the timer re-arms */
	bool done;		/* the writer finished */
	u64 timer_writes;	/* the timer's attempts */
	u64 nested;		/* of which inside the writer's reservation */
	u64 got_w, got_t;	/* records read, by writer */
	u64 next_w, next_t;	/* the next sequence number expected */
	u64 disorder, torn;
};

static enum hrtimer_restart conc_timer(struct hrtimer *t)
{
	struct conc *c = container_of(t, struct conc, timer);

	c->nested += local_read(&c->rf->r.nest) > 0;
	put(&c->rf->r, KPROFILE_RECORD_EXIT, 56, c->timer_writes++);
	if (!READ_ONCE(c->writing))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(TIMER_NS));
	return HRTIMER_RESTART;
}

static int conc_writer(void *arg)
{
	struct conc *c = arg;
	u64 i;

	/* Pinned to this CPU, as the ring's writers are. */
	hrtimer_start(&c->timer, ns_to_ktime(TIMER_NS),
		      HRTIMER_MODE_REL_PINNED_HARD);
	for (i = 0; i < WRITES; i++) {
		u32 size = 8 * (2 + i % 7);
		u64 *w;
		unsigned int j;

		preempt_disable();
		w = kp_ring_begin(&c->rf->r, KPROFILE_RECORD_SAMPLE, size);
		if (w) {
			for (j = 1; j < size / 8; j++)
				w[j] = i;
			/* Now and then slowly: the timer lands inside. */
			if (!(i % 8))
				udelay(8);
			kp_ring_end(&c->rf->r, KPROFILE_RECORD_SAMPLE);
		}
		preempt_enable();
		/*
		 * Bursts of about twice the ring, then a pause for the reader
		 * (one host thread may run every vCPU): records are both
		 * read and lost.
		 */
		if (i % 256 == 255)
			usleep_range(50, 100);
	}
	WRITE_ONCE(c->writing, false);
	hrtimer_cancel(&c->timer);
	/* Every record committed before done is seen. */
	smp_store_release(&c->done, true);
	complete(&c->written);
	return 0;
}

static void conc_check(struct conc *c, const struct kprofile_record_header *h)
{
	const u64 *w = (const u64 *)h;
	u64 seq = w[1];

	if (h->type == KPROFILE_RECORD_EXIT) {
		if (!holds(h, 56, seq))
			c->torn++;
		c->disorder += seq < c->next_t;
		c->next_t = seq + 1;
		c->got_t++;
		return;
	}
	if (h->type != KPROFILE_RECORD_SAMPLE || !holds(h, 8 * (2 + seq % 7),
							seq))
		c->torn++;
	c->disorder += seq < c->next_w;
	c->next_w = seq + 1;
	c->got_w++;
}

static void kp_ring_concurrent(struct kunit *test)
{
	struct conc *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct kprofile_stream_page *pg;
	const struct kprofile_record_header *h;
	struct task_struct *w;
	u64 head, tail, off, size;
	unsigned long end = jiffies + 120 * HZ;
	unsigned int cpu;
	bool done;

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->rf = ring_new(test, 1);
	pg = page_of(c->rf);
	size = pg->data_size;
	init_completion(&c->written);
	hrtimer_setup(&c->timer, conc_timer, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL_PINNED_HARD);
	c->writing = true;
	w = kthread_create(conc_writer, c, "kp-ring-writer");
	KUNIT_ASSERT_FALSE(test, IS_ERR(w));
	/* One CPU writes a ring: the writer and its timer, on another CPU. */
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	kthread_bind(w, cpu < nr_cpu_ids ? cpu : raw_smp_processor_id());
	wake_up_process(w);

	/* The reader: this thread, until the writer is done and all read. */
	do {
		/* done, then head: the last records are read after done. */
		done = smp_load_acquire(&c->done);
		/* The records below data_head are written. */
		head = smp_load_acquire(&pg->data_head);
		tail = pg->data_tail;
		while (tail < head) {
			off = tail & (size - 1);
			h = (const void *)((u8 *)pg + pg->data_offset + off);
			if (h->size < 8 || h->size % 8 || off + h->size > size) {
				c->torn++;
				tail = head;
				break;
			}
			if (h->type != KPROFILE_RECORD_PAD)
				conc_check(c, h);
			tail += h->size;
		}
		/* Done reading before the writer may reuse the space. */
		smp_store_release(&pg->data_tail, tail);
		if (!done)
			usleep_range(20, 100);
	} while (!done && time_before(jiffies, end));
	/* The writer uses @c: wait for it whatever happened. */
	wait_for_completion(&c->written);
	KUNIT_EXPECT_TRUE(test, done);

	KUNIT_EXPECT_EQ(test, c->torn, 0ULL);
	KUNIT_EXPECT_EQ(test, c->disorder, 0ULL);
	KUNIT_EXPECT_EQ(test, c->got_w + c->got_t + pg->lost,
			WRITES + c->timer_writes);
	KUNIT_EXPECT_EQ(test, pg->records, c->got_w + c->got_t);
	KUNIT_EXPECT_GT(test, c->got_w, 0ULL);
	KUNIT_EXPECT_GT(test, c->got_t, 0ULL);
	KUNIT_EXPECT_GT(test, pg->lost, 0ULL);
	KUNIT_EXPECT_EQ(test, local_read(&c->rf->r.nest), 0L);
	KUNIT_EXPECT_TRUE(test, intact(c->rf));
	kunit_info(test, "writer %llu read, timer %llu of %llu read (%llu nested), %llu lost",
		   c->got_w, c->got_t, c->timer_writes, c->nested, pg->lost);
}

/*
 * The reader is woken each time another quarter of the data area has been
 * written: kp_ring_end() says so once per crossing, whatever the reader
 * consumed meanwhile, and a lost record wakes no one.
 */
static void kp_ring_watermark(struct kunit *test)
{
	struct ring_fix *rf = ring_new(test, 1);
	struct kprofile_stream_page *pg = page_of(rf);
	unsigned int i, wakes = 0, at[4] = {};
	u64 *w;

	/* 64-byte records: the 16th ends at 1024, a quarter of 4096. */
	for (i = 1; i <= 48; i++) {
		w = kp_ring_begin(&rf->r, KPROFILE_RECORD_SAMPLE, 64);
		KUNIT_ASSERT_NOT_NULL(test, w);
		if (kp_ring_end(&rf->r, KPROFILE_RECORD_SAMPLE)) {
			KUNIT_ASSERT_LT(test, wakes, 4U);
			at[wakes++] = i;
		}
		if (i == 20)	/* the reader consumed some: same watermarks */
			smp_store_release(&pg->data_tail, pg->data_head);
	}
	KUNIT_EXPECT_EQ(test, wakes, 3U);
	KUNIT_EXPECT_EQ(test, at[0], 16U);
	KUNIT_EXPECT_EQ(test, at[1], 32U);
	KUNIT_EXPECT_EQ(test, at[2], 48U);

	/* Full: the record is lost, and says nothing to wake for. */
	smp_store_release(&pg->data_tail, pg->data_head - 4096 + 64);
	KUNIT_EXPECT_NULL(test, kp_ring_begin(&rf->r, KPROFILE_RECORD_SAMPLE,
					      128));
	KUNIT_EXPECT_EQ(test, pg->lost, 1ULL);
	KUNIT_EXPECT_TRUE(test, intact(rf));
}

static struct kunit_case kp_stream_ring_cases[] = {
	KUNIT_CASE(kp_ring_watermark),
	KUNIT_CASE(kp_ring_round_trip),
	KUNIT_CASE(kp_ring_wrap_pad),
	KUNIT_CASE(kp_ring_full),
	KUNIT_CASE(kp_ring_garbage_tail),
	KUNIT_CASE(kp_ring_nested),
	KUNIT_CASE(kp_ring_nested_lost),
	KUNIT_CASE(kp_ring_concurrent),
	{}
};

static struct kunit_suite kp_stream_ring_suite = {
	.name = "kprofile_stream_ring",
	.test_cases = kp_stream_ring_cases,
};

kunit_test_suite(kp_stream_ring_suite);

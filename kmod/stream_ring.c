// SPDX-License-Identifier: GPL-2.0
/*
 * stream_ring.c - one ring of a sample stream: a header page (struct
 * kprofile_stream_page) and a power-of-two data area the reader maps, and
 * the writer's side of the protocol in kprofile_stream.h.
 *
 * Writers are the ring's own CPU only, but they nest: a probe in process
 * context (preemption off) can be interrupted by the ProfileTime hrtimer,
 * and both by a counter's NMI.  The scheme is perf's
 * (kernel/events/ring_buffer.c):
 *
 * - kp_ring_begin() counts the writer in @nest, then reserves its bytes
 *   by a local64_cmpxchg() loop on @head, checking the space against the
 *   reader's data_tail (load-acquire).  A record that would cross the end
 *   of the data area is preceded by a KPROFILE_RECORD_PAD record filling
 *   the rest, reserved with it: records never wrap.  When the record (and
 *   its pad) does not fit, nothing is reserved, @lost counts it, and the
 *   writer leaves as a commit would.
 * - kp_ring_end() counts the record, and publishes: a nested writer only
 *   leaves @nest (the writer it interrupted publishes its bytes too); the
 *   outermost stores data_head = @head (store-release, after every byte
 *   below it was written), clears @nest, and publishes again if a writer
 *   that interrupted it meanwhile reserved more
 *   (perf_output_put_handle()).
 *
 * data_tail is the reader's: any value it stores can only make records
 * be dropped, never written outside the data area, since every offset is
 * taken modulo the area's size and a value implying more than the whole
 * area in use means "full".  The counters @lost and @records are mirrored
 * into the header page; a writer re-reads its counter after mirroring it
 * so that a nested writer's newer value is never left overwritten by an
 * older one.
 *
 * Context: kp_ring_begin()..kp_ring_end() run on the ring's CPU with
 * preemption (or interrupts) off, or on a ring only the caller writes (a
 * test); no locks, no allocation: NMI-safe.
 */
#include <linux/compiler.h>
#include <linux/kprobes.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <asm/barrier.h>

#include "compat.h"
#include "stream.h"

/**
 * kp_ring_init() - set up a ring over its pages.
 * @r:		the module's side, overwritten.
 * @base:	the header page, followed by @data_pages data pages
 *		(zeroed memory).
 * @cpu:	the CPU it belongs to (told to the reader).
 * @data_pages:	a power of two.
 */
void kp_ring_init(struct kp_stream_ring *r, void *base, u32 cpu,
		  u32 data_pages)
{
	struct kprofile_stream_page *page = base;

	r->page = page;
	r->data = (u8 *)base + PAGE_SIZE;
	r->size = (u64)data_pages << PAGE_SHIFT;
	local64_set(&r->head, 0);
	local_set(&r->nest, 0);
	local64_set(&r->lost, 0);
	local64_set(&r->records, 0);
	local64_set(&r->samples, 0);
	local64_set(&r->not_dumpable, 0);
	local64_set(&r->wake_at, r->size / KP_RING_WAKE_PARTS);
	local64_set(&r->stack_short, 0);
	WARN_ON_ONCE(!is_power_of_2(data_pages));

	memset(page, 0, sizeof(*page));
	page->data_offset = PAGE_SIZE;
	page->data_size = r->size;
	page->cpu = cpu;
}
EXPORT_SYMBOL_IF_KUNIT(kp_ring_init);

/* Copy a counter into the header page; the newest value wins (nesting). */
static void kp_ring_mirror(local64_t *v, __u64 *out)
{
	u64 x;

	do {
		x = local64_read(v);
		WRITE_ONCE(*out, x);
		barrier();
	} while (x != (u64)local64_read(v));
}

NOKPROBE_SYMBOL(kp_ring_mirror);

/* Leave the ring; the outermost writer publishes @head. */
static void kp_ring_publish(struct kp_stream_ring *r)
{
	u64 head;

	if (local_read(&r->nest) > 1) {
		local_dec(&r->nest);
		return;
	}
again:
	/* Read @head after @nest was raised: see perf_output_put_handle(). */
	barrier();
	head = local64_read(&r->head);
	/* Every byte below @head is written: pairs with the reader's acquire. */
	smp_store_release(&r->page->data_head, head);
	/* Publish before leaving: a later writer must not be overwritten. */
	barrier();
	local_set(&r->nest, 0);
	barrier();
	/* A writer that interrupted us after our read published too late. */
	if (unlikely(head != (u64)local64_read(&r->head))) {
		local_inc(&r->nest);
		goto again;
	}
}

NOKPROBE_SYMBOL(kp_ring_publish);

/**
 * kp_ring_begin() - reserve a record and write its header.
 * @r:	  the ring.
 * @type: enum kprofile_record_type (not PAD).
 * @size: bytes in the record, header included; a multiple of 8, at most
 *	  the data area's size (records are at most 1,064 bytes, and
 *	  a USER_STACK sample its stack bytes more: kp_ustack_check()).
 *
 * On success the caller fills the record's body and calls kp_ring_end();
 * it must not sleep in between.  On failure the record is counted as
 * lost and the caller does nothing more.
 * Context: see the file comment.
 *
 * Return: the record (its header written), or NULL when the ring is full.
 */
void *kp_ring_begin(struct kp_stream_ring *r, u32 type, u32 size)
{
	struct kprofile_record_header *h;
	u64 head, tail, used, off, pad;

	local_inc(&r->nest);
	do {
		/* Data stores below stay after this load (the reader's D). */
		tail = smp_load_acquire(&r->page->data_tail);
		head = local64_read(&r->head);
		off = head & (r->size - 1);
		pad = off + size > r->size ? r->size - off : 0;
		used = head - tail;
		if (unlikely(used > r->size || pad + size > r->size - used))
			goto lost;
	} while (local64_cmpxchg(&r->head, head, head + pad + size) != head);

	if (pad) {
		h = (struct kprofile_record_header *)(r->data + off);
		h->type = KPROFILE_RECORD_PAD;
		h->size = pad;
	}
	h = (struct kprofile_record_header *)(r->data +
					       ((head + pad) & (r->size - 1)));
	h->type = type;
	h->size = size;
	return h;

lost:
	local64_inc(&r->lost);
	kp_ring_mirror(&r->lost, &r->page->lost);
	kp_ring_publish(r);
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(kp_ring_begin);
NOKPROBE_SYMBOL(kp_ring_begin);

/**
 * kp_ring_end() - commit the record kp_ring_begin() returned.
 * @r:	  the ring.
 * @type: its type (KPROFILE_RECORD_SAMPLE ones count as samples too).
 *
 * The reader is to be woken each time another 1/KP_RING_WAKE_PARTS of
 * the data area has been written (the watermark, @wake_at): of the
 * writers that see @head past it, the one that moves it on says so.
 * Context: as kp_ring_begin().
 *
 * Return: true when the caller should wake the reader (kp_stream_wake()).
 */
bool kp_ring_end(struct kp_stream_ring *r, u32 type)
{
	u64 at, head;

	local64_inc(&r->records);
	if (type == KPROFILE_RECORD_SAMPLE)
		local64_inc(&r->samples);
	kp_ring_mirror(&r->records, &r->page->records);
	kp_ring_publish(r);
	at = local64_read(&r->wake_at);
	head = local64_read(&r->head);
	if (likely(head < at))
		return false;
	return local64_cmpxchg(&r->wake_at, at,
			       head + r->size / KP_RING_WAKE_PARTS) == at;
}
EXPORT_SYMBOL_IF_KUNIT(kp_ring_end);
NOKPROBE_SYMBOL(kp_ring_end);

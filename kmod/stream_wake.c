// SPDX-License-Identifier: GPL-2.0
/*
 * stream_wake.c - poll() on a stream fd: the reader sleeps until there is
 * something to read, as perf's reader does on its ring buffer.
 *
 * It is woken when a ring has had another quarter of its data area
 * written since its last wake-up (the watermark, kp_ring_end(): perf's
 * wakeup_watermark), and at every EXEC and EXIT record, which the reader
 * acts on (reading the new program's mappings; the end of the target).
 * The writers run in any context, NMI included, where wake_up() cannot
 * be called: they queue an irq_work (NMI-safe; queuing one already
 * pending does nothing), whose handler marks the stream @woken and wakes
 * the wait queue.  poll() reports EPOLLIN once per wake-up (it takes
 * @woken), so a reader that drains every ring after each poll() sleeps
 * while fewer records than the watermark arrive, however many samples
 * that is, and never on a timer.  A reader that wants what is below the
 * watermark reads it when it likes (at the end, STOP then a drain).
 *
 * Lifetime: STOP waits for an RCU grace period, after which no writer
 * queues the work; release then waits for a queued one to finish
 * (kp_stream_wake_sync()) before the stream is freed.
 */
#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/poll.h>
#include <linux/wait.h>

#include "compat.h"
#include "stream.h"

static void kp_stream_wake_fn(struct irq_work *work)
{
	struct kp_stream *st = container_of(work, struct kp_stream, wake_work);

	atomic_set(&st->woken, 1);
	wake_up_all(&st->wait);
}

/**
 * kp_stream_wake_init() - set up a new stream's wake-up (not woken).
 * @st: the stream.
 */
void kp_stream_wake_init(struct kp_stream *st)
{
	init_waitqueue_head(&st->wait);
	init_irq_work(&st->wake_work, kp_stream_wake_fn);
	atomic_set(&st->woken, 0);
}

/**
 * kp_stream_wake() - wake the stream's reader soon.
 * @st: a started stream.
 *
 * Context: any, NMI included; no locks, no allocation.
 */
void kp_stream_wake(struct kp_stream *st)
{
	irq_work_queue(&st->wake_work);
}
EXPORT_SYMBOL_IF_KUNIT(kp_stream_wake);
NOKPROBE_SYMBOL(kp_stream_wake);

/**
 * kp_stream_wake_sync() - wait until a queued wake-up has run.
 * @st: a stream no writer can reach any more (stopped).
 *
 * Context: process; may sleep.
 */
void kp_stream_wake_sync(struct kp_stream *st)
{
	irq_work_sync(&st->wake_work);
}
EXPORT_SYMBOL_IF_KUNIT(kp_stream_wake_sync);

/**
 * kp_stream_poll() - the stream fd's poll().
 * @file: the stream fd.
 * @wait: the poll table.
 *
 * Return: EPOLLIN | EPOLLRDNORM once for each wake-up since the last
 * call that returned it, else 0.
 */
__poll_t kp_stream_poll(struct file *file, struct poll_table_struct *wait)
{
	struct kp_stream *st = file->private_data;

	poll_wait(file, &st->wait, wait);
	if (atomic_xchg(&st->woken, 0))
		return EPOLLIN | EPOLLRDNORM;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kp_stream_poll);

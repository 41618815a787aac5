// SPDX-License-Identifier: GPL-2.0
/*
 * thread_reserve.c - entries for threads that join from the fork hook,
 * allocated ahead of time in process context.
 *
 * The sched_process_fork tracepoint runs its probes with preemption
 * disabled.  On PREEMPT_RT the slab allocator takes sleeping locks, so no
 * allocation (not even GFP_ATOMIC) is allowed there.  A client with
 * KPROFILE_THREAD_INHERIT therefore keeps a reserve of KP_THREAD_RESERVE
 * zeroed entries: the fork hook takes one under the client's raw
 * spinlock, and when fewer than half are left it queues a work item that
 * refills the reserve with GFP_KERNEL.  A fork that finds the reserve
 * empty is counted as lost, as an allocation failure was before.
 *
 * Locking: @spare and @nr_spare are protected by kp_thread_client.lock.
 */
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "compat.h"
#include "thread.h"

/**
 * kp_thread_reserve_fill() - top the reserve up to KP_THREAD_RESERVE.
 * @c: the client.
 *
 * Context: process; may sleep.  Takes @c->lock for each entry added.
 */
void kp_thread_reserve_fill(struct kp_thread_client *c)
{
	struct kp_thread_task *e;
	unsigned long flags;
	bool full;

	for (;;) {
		raw_spin_lock_irqsave(&c->lock, flags);
		full = c->nr_spare >= KP_THREAD_RESERVE;
		raw_spin_unlock_irqrestore(&c->lock, flags);
		if (full)
			return;
		e = kzalloc(sizeof(*e), GFP_KERNEL);
		if (!e)
			return;
		raw_spin_lock_irqsave(&c->lock, flags);
		list_add(&e->node, &c->spare);
		c->nr_spare++;
		raw_spin_unlock_irqrestore(&c->lock, flags);
	}
}
EXPORT_SYMBOL_IF_KUNIT(kp_thread_reserve_fill);

static void kp_thread_reserve_work(struct work_struct *work)
{
	kp_thread_reserve_fill(container_of(work, struct kp_thread_client,
					    refill));
}

/**
 * kp_thread_reserve_init() - an empty reserve and its refill work.
 * @c: a client being created.
 */
void kp_thread_reserve_init(struct kp_thread_client *c)
{
	INIT_LIST_HEAD(&c->spare);
	c->nr_spare = 0;
	INIT_WORK(&c->refill, kp_thread_reserve_work);
}

/**
 * kp_thread_reserve_take() - an entry for a thread joining in atomic
 *	context.
 * @c: the client; @c->lock held.
 *
 * Never allocates.  Queues a refill when the reserve runs low.
 * Context: any but NMI (schedule_work() is allowed with a raw spinlock
 * held).
 *
 * Return: a zeroed entry, or NULL when the reserve is empty.
 */
struct kp_thread_task *kp_thread_reserve_take(struct kp_thread_client *c)
{
	struct kp_thread_task *e;

	lockdep_assert_held(&c->lock);
	e = list_first_entry_or_null(&c->spare, struct kp_thread_task, node);
	if (e) {
		list_del(&e->node);
		c->nr_spare--;
	}
	if (c->nr_spare < KP_THREAD_RESERVE / 2)
		schedule_work(&c->refill);
	return e;
}

/**
 * kp_thread_reserve_put() - give back an entry kp_thread_reserve_take()
 *	returned and that was not used.
 * @c: the client; @c->lock held.
 * @e: the entry, still zeroed.
 */
void kp_thread_reserve_put(struct kp_thread_client *c,
			   struct kp_thread_task *e)
{
	lockdep_assert_held(&c->lock);
	list_add(&e->node, &c->spare);
	c->nr_spare++;
}

/**
 * kp_thread_reserve_free() - stop refilling and free the reserve.
 * @c: a client whose hooks are gone (nothing takes from the reserve).
 *
 * Context: process; may sleep (waits for a running refill).
 */
void kp_thread_reserve_free(struct kp_thread_client *c)
{
	struct kp_thread_task *e, *tmp;

	cancel_work_sync(&c->refill);
	list_for_each_entry_safe(e, tmp, &c->spare, node)
		kfree(e);
	INIT_LIST_HEAD(&c->spare);
	c->nr_spare = 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * thread.c - the thread-profiling client and its accounting core
 * (EnableThreadProfiling, ReadThreadProfilingData, PERFORMANCE_DATA).
 *
 * The functions here know nothing of how context switches are observed:
 * thread_fd.c calls kp_thread_switch_in()/kp_thread_switch_out() from the
 * sched_switch tracepoint, and the KUnit suite calls them directly with
 * made-up TSC values over a fake register file.  See thread.h for the
 * object model and the locking rules.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <asm/msr.h>

#include "compat.h"
#include "pmu.h"
#include "thread.h"

/**
 * kp_thread_client_new() - become the thread-profiling client.
 * @t:		  the machine's state.
 * @flags:	  KPROFILE_THREAD_* (KPROFILE_THREAD_INHERIT,
 *		  KPROFILE_THREAD_START_ON_EXEC).
 * @counter_mask: configuration entries to read (bit i: entry i).
 * @reason:	  on failure, why.
 * @len:	  bytes at @reason.
 *
 * Takes the one client slot and copies the configuration: while the
 * client lives the configuration cannot change.  Entries not in
 * @counter_mask, and bits beyond the configuration, read 0.  Without a
 * profile interface the client still counts switches and cycles, and
 * reports the counters unavailable with the reason.
 * Context: process; takes @t->lock.
 *
 * Return: the client, or ERR_PTR(-EINVAL) (unknown flags, mask bits
 * beyond KPROFILE_MAX_COUNTERS), ERR_PTR(-EBUSY) (another client),
 * ERR_PTR(-ENOMEM).
 */
struct kp_thread_client *kp_thread_client_new(struct kp_threads *t,
					      u32 flags, u32 counter_mask,
					      char *reason, size_t len)
{
	struct kp_thread_client *c;
	u32 i;

	if ((flags & ~(KPROFILE_THREAD_INHERIT | KPROFILE_THREAD_START_ON_EXEC)) ||
	    (counter_mask >> (KPROFILE_MAX_COUNTERS - 1) >> 1)) {
		scnprintf(reason, len, "unknown flags 0x%x or counter mask 0x%x",
			  flags, counter_mask);
		return ERR_PTR(-EINVAL);
	}
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return ERR_PTR(-ENOMEM);
	c->threads = t;
	c->pmu = t->pmu;
	c->flags = flags;
	c->ns = get_pid_ns(task_active_pid_ns(current));
	raw_spin_lock_init(&c->lock);
	hash_init(c->tasks);
	INIT_LIST_HEAD(&c->all);
	kp_thread_reserve_init(c);
	if (flags & KPROFILE_THREAD_INHERIT)
		kp_thread_reserve_fill(c);

	mutex_lock(&t->lock);
	if (t->client) {
		mutex_unlock(&t->lock);
		scnprintf(reason, len,
			  "thread profiling is in use by pid %d; one client at a time",
			  pid_vnr(t->client_pid));
		put_pid_ns(c->ns);
		kp_thread_reserve_free(c);
		kfree(c);
		return ERR_PTR(-EBUSY);
	}
	c->valid = t->pmu->ops;
	if (!c->valid)
		scnprintf(c->reason, sizeof(c->reason),
			  "no profile interface: %s", t->pmu->desc->reason);
	c->count = t->count;
	for (i = 0; c->valid && i < t->count; i++) {
		if (!(counter_mask & BIT(i)))
			continue;
		c->idx[c->nr_idx].entry = i;
		c->idx[c->nr_idx].counter = t->config[i].index;
		c->nr_idx++;
	}
	t->client = c;
	t->client_pid = get_pid(task_tgid(current));
	mutex_unlock(&t->lock);
	return c;
}
EXPORT_SYMBOL_IF_KUNIT(kp_thread_client_new);

/**
 * kp_thread_client_free() - give up the client slot and free the entries.
 * @c: a client from kp_thread_client_new() whose hooks are gone (no
 *     switch, fork or exit hook can run for it any more).
 *
 * Its counters are stopped on every CPU first: a profiled thread may have
 * been running when the hooks went.
 * Context: process; may sleep.
 */
void kp_thread_client_free(struct kp_thread_client *c)
{
	struct kp_threads *t = c->threads;
	struct kp_thread_task *e, *tmp;

	kp_thread_stop_all_cpus(c);
	kp_thread_reserve_free(c);
	list_for_each_entry_safe(e, tmp, &c->all, node)
		kfree(e);
	put_pid_ns(c->ns);
	mutex_lock(&t->lock);
	WARN_ON_ONCE(t->client != c);
	t->client = NULL;
	put_pid(t->client_pid);
	t->client_pid = NULL;
	mutex_unlock(&t->lock);
	kfree(c);
}
EXPORT_SYMBOL_IF_KUNIT(kp_thread_client_free);

/**
 * kp_thread_find() - the live entry of @task.
 * @c:    the client.
 * @task: a task.
 *
 * Context: RCU read side (the tracepoints run with preemption off), or
 * @c->lock held.
 *
 * Return: the entry, or NULL when @task is not profiled.
 */
struct kp_thread_task *kp_thread_find(struct kp_thread_client *c,
				      struct task_struct *task)
{
	struct kp_thread_task *e;

	hash_for_each_possible_rcu(c->tasks, e, hnode, (unsigned long)task,
				   lockdep_is_held(&c->lock))
		if (READ_ONCE(e->task) == task)
			return e;
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(kp_thread_find);

/**
 * kp_thread_join() - start profiling @task.
 * @c:    the client.
 * @task: a task that is not yet exiting, and is either current, not yet
 *	  running (a new child in sched_process_fork), or held by a
 *	  reference.
 * @gfp:  GFP_KERNEL from the ioctl; an atomic mask (GFP_ATOMIC) from the
 *	  fork hook, which then takes a preallocated entry and never
 *	  allocates (thread_reserve.c).
 *
 * The entry starts switched out: its first switch-in starts it.
 * Context: any but NMI; takes @c->lock.
 *
 * Return: the entry, or NULL (no memory, an empty reserve, KP_THREAD_MAX
 * reached: counted in @c->lost).
 */
struct kp_thread_task *kp_thread_join(struct kp_thread_client *c,
				      struct task_struct *task, gfp_t gfp)
{
	bool may_alloc = gfpflags_allow_blocking(gfp);
	struct kp_thread_task *e = NULL;
	unsigned long flags;

	if (may_alloc)
		e = kzalloc(sizeof(*e), gfp | __GFP_NOWARN);
	raw_spin_lock_irqsave(&c->lock, flags);
	if (!may_alloc)
		e = kp_thread_reserve_take(c);
	if (!e || c->nr >= KP_THREAD_MAX) {
		c->lost++;
		if (e && !may_alloc)
			kp_thread_reserve_put(c, e);
		raw_spin_unlock_irqrestore(&c->lock, flags);
		if (may_alloc)
			kfree(e);
		return NULL;
	}
	e->task = task;
	e->tid = task_pid_nr_ns(task, c->ns);
	e->tgid = task_tgid_nr_ns(task, c->ns);
	strscpy_pad(e->comm, task->comm, sizeof(e->comm));
	hash_add_rcu(c->tasks, &e->hnode, (unsigned long)task);
	list_add_tail(&e->node, &c->all);
	c->nr++;
	/*
	 * The exit hook looks entries up under @c->lock after PF_EXITING is
	 * set: either it found this entry, or PF_EXITING is visible here and
	 * the thread will never be charged.
	 */
	if (task->flags & PF_EXITING) {
		hash_del_rcu(&e->hnode);
		WRITE_ONCE(e->task, NULL);
		WRITE_ONCE(e->exited, true);
	}
	raw_spin_unlock_irqrestore(&c->lock, flags);
	return e;
}
EXPORT_SYMBOL_IF_KUNIT(kp_thread_join);

static void kp_thread_start(struct kp_thread_client *c,
			    struct kp_thread_task *e, u64 tsc)
{
	unsigned int i;

	for (i = 0; i < c->nr_idx; i++) {
		kp_pmu_write_counter(c->pmu, c->idx[i].counter, 0);
		kp_pmu_start_counting(c->pmu, c->idx[i].counter);
	}
	e->in_tsc = tsc;
	WRITE_ONCE(e->running, true);
}

/**
 * kp_thread_start_current() - start @e, current's entry, now rather than
 *	at its next switch-in (a thread enabling profiling for itself).
 * @c: the client.
 * @e: the entry kp_thread_join() gave for current.
 *
 * No switch is counted.  Nothing if a switch-in already started it.
 * Context: process; disables preemption around the start.
 */
void kp_thread_start_current(struct kp_thread_client *c,
			     struct kp_thread_task *e)
{
	preempt_disable();
	if (!e->running && READ_ONCE(e->task) == current)
		kp_thread_start(c, e, c->threads->clock());
	preempt_enable();
}
EXPORT_SYMBOL_IF_KUNIT(kp_thread_start_current);

/**
 * kp_thread_switch_in() - @e's thread is being switched in on this CPU.
 * @c:   the client.
 * @e:   its entry.
 * @tsc: the TSC now.
 *
 * Counts the switch, zeroes and starts the client's counters on this CPU
 * and notes the TSC.
 * Context: this CPU, preemption (or interrupts) off; no locks taken.
 */
void kp_thread_switch_in(struct kp_thread_client *c, struct kp_thread_task *e,
			 u64 tsc)
{
	WRITE_ONCE(e->switches, e->switches + 1);
	kp_thread_start(c, e, tsc);
}
EXPORT_SYMBOL_IF_KUNIT(kp_thread_switch_in);

/**
 * kp_thread_switch_out() - @e's thread is being switched out on this CPU.
 * @c:   the client.
 * @e:   its entry.
 * @tsc: the TSC now.
 *
 * Stops the client's counters on this CPU and adds their values and the
 * cycles since the switch-in to @e.  Nothing happens for an entry that
 * was not switched in while profiled (it joined while running elsewhere).
 * Context: this CPU, preemption (or interrupts) off; no locks taken.
 */
void kp_thread_switch_out(struct kp_thread_client *c,
			  struct kp_thread_task *e, u64 tsc)
{
	unsigned int i;
	u32 idx;

	if (!e->running)
		return;
	for (i = 0; i < c->nr_idx; i++) {
		idx = c->idx[i].counter;
		kp_pmu_stop_counting(c->pmu, idx);
		WRITE_ONCE(e->hw[c->idx[i].entry], e->hw[c->idx[i].entry] +
			   kp_pmu_read_counter(c->pmu, idx));
	}
	if (tsc > e->in_tsc)
		WRITE_ONCE(e->cycles, e->cycles + (tsc - e->in_tsc));
	WRITE_ONCE(e->running, false);
}
EXPORT_SYMBOL_IF_KUNIT(kp_thread_switch_out);

/**
 * kp_thread_exited() - @task, current, is exiting (sched_process_exit).
 * @c:    the client.
 * @task: current.
 * @tsc:  the TSC now.
 *
 * Nothing when it is not profiled.  Else charges it up to now, records
 * its final name and moves it out of the hash table: its task_struct may
 * be freed and reused from here on, so no hook may find it again.  It
 * stays on @c->all, as exited.
 * Context: the exiting thread, preemption off; takes @c->lock.
 */
void kp_thread_exited(struct kp_thread_client *c, struct task_struct *task,
		      u64 tsc)
{
	struct kp_thread_task *e;
	unsigned long flags;

	raw_spin_lock_irqsave(&c->lock, flags);
	e = kp_thread_find(c, task);
	if (!e) {
		raw_spin_unlock_irqrestore(&c->lock, flags);
		return;
	}
	kp_thread_switch_out(c, e, tsc);
	strscpy_pad(e->comm, task->comm, sizeof(e->comm));
	hash_del_rcu(&e->hnode);
	WRITE_ONCE(e->task, NULL);
	WRITE_ONCE(e->exited, true);
	raw_spin_unlock_irqrestore(&c->lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(kp_thread_exited);

/**
 * kp_thread_exec_stopped() - @task, current, executed a program that left
 *	it non-dumpable (sched_process_exec).
 * @c:    the client.
 * @task: current.
 * @tsc:  the TSC now.
 *
 * Nothing when it is not profiled.  Else it is charged up to now and
 * leaves the hash table (so threads it creates do not join either), and
 * stays listed with KPROFILE_THREAD_EXEC_STOPPED and the name it had
 * before the exec.
 * Context: the exec'ing thread, preemption off; takes @c->lock.
 */
void kp_thread_exec_stopped(struct kp_thread_client *c,
			    struct task_struct *task, u64 tsc)
{
	struct kp_thread_task *e;
	unsigned long flags;

	raw_spin_lock_irqsave(&c->lock, flags);
	e = kp_thread_find(c, task);
	if (e) {
		kp_thread_switch_out(c, e, tsc);
		hash_del_rcu(&e->hnode);
		WRITE_ONCE(e->task, NULL);
		WRITE_ONCE(e->exec_stopped, true);
		c->exec_stopped = true;
	}
	raw_spin_unlock_irqrestore(&c->lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(kp_thread_exec_stopped);

/**
 * kp_thread_wait_exec() - @e restarts from zero at its next exec
 *	(KPROFILE_THREAD_START_ON_EXEC).
 * @c: the client.
 * @e: an entry kp_thread_join() gave.
 *
 * Context: any but NMI; takes @c->lock.
 */
void kp_thread_wait_exec(struct kp_thread_client *c, struct kp_thread_task *e)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&c->lock, flags);
	WRITE_ONCE(e->wait_exec, true);
	raw_spin_unlock_irqrestore(&c->lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(kp_thread_wait_exec);

/**
 * kp_thread_exec_started() - @task, current, executed a program
 *	(sched_process_exec) and stays profiled.
 * @c:    the client.
 * @task: current.
 * @tsc:  the TSC now.
 *
 * Nothing unless @task's entry waits for its exec (kp_thread_wait_exec()).
 * Else what it counted so far (counters, cycles, switches) is dropped and,
 * when it is switched in, its counters restart from zero now: it counts
 * from the end of its exec on.
 * Context: the exec'ing thread, preemption off; takes @c->lock.
 */
void kp_thread_exec_started(struct kp_thread_client *c,
			    struct task_struct *task, u64 tsc)
{
	struct kp_thread_task *e;
	unsigned long flags;
	unsigned int i;
	bool running;

	raw_spin_lock_irqsave(&c->lock, flags);
	e = kp_thread_find(c, task);
	if (e && e->wait_exec) {
		running = e->running;
		kp_thread_switch_out(c, e, tsc);
		for (i = 0; i < KPROFILE_MAX_COUNTERS; i++)
			WRITE_ONCE(e->hw[i], 0);
		WRITE_ONCE(e->cycles, 0);
		WRITE_ONCE(e->switches, 0);
		WRITE_ONCE(e->wait_exec, false);
		if (running)
			kp_thread_start(c, e, tsc);
	}
	raw_spin_unlock_irqrestore(&c->lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(kp_thread_exec_started);

static void kp_thread_stop_cpu(void *info)
{
	struct kp_thread_client *c = info;
	unsigned int i;

	for (i = 0; i < c->nr_idx; i++)
		kp_pmu_stop_counting(c->pmu, c->idx[i].counter);
}

/**
 * kp_thread_stop_all_cpus() - stop the client's counters everywhere.
 * @c: the client, whose hooks are gone.
 *
 * Context: process; sends IPIs.
 */
void kp_thread_stop_all_cpus(struct kp_thread_client *c)
{
	if (c->nr_idx)
		on_each_cpu(kp_thread_stop_cpu, c, 1);
}
EXPORT_SYMBOL_IF_KUNIT(kp_thread_stop_all_cpus);

/* Entries the list and read ioctls walk with interrupts off at a time. */
#define KP_THREAD_BATCH		64

/*
 * Every KP_THREAD_BATCH entries of a walk of @c->all, let interrupts and
 * the scheduler in: @c->lock is dropped and taken again.  The walk's
 * cursor stays valid: entries leave @c->all only when the client is
 * freed, which cannot happen during an ioctl on its fd.
 */
static void kp_thread_batch(struct kp_thread_client *c, unsigned long *flags,
			    u32 n)
	__must_hold(&c->lock)
{
	if (n % KP_THREAD_BATCH)
		return;
	raw_spin_unlock_irqrestore(&c->lock, *flags);
	cond_resched();
	raw_spin_lock_irqsave(&c->lock, *flags);
}

/*
 * What @e has counted, including the slice it is running now when it is
 * current (and so running on this CPU).  Called with @c->lock held, which
 * keeps preemption off.
 */
static void kp_thread_snapshot(struct kp_thread_client *c,
			       struct kp_thread_task *e, u64 *switches,
			       u64 *cycles, u64 *hw)
{
	unsigned int i;
	u32 entry;

	*switches = READ_ONCE(e->switches);
	*cycles = READ_ONCE(e->cycles);
	for (i = 0; i < c->nr_idx; i++) {
		entry = c->idx[i].entry;
		hw[entry] = READ_ONCE(e->hw[entry]);
	}
	if (e->task != current || !READ_ONCE(e->running))
		return;
	*cycles += c->threads->clock() - e->in_tsc;
	for (i = 0; i < c->nr_idx; i++)
		hw[c->idx[i].entry] += kp_pmu_read_counter(c->pmu,
							   c->idx[i].counter);
}

/**
 * kp_thread_read() - ReadThreadProfilingData: totals over every thread
 *	the client has profiled, live and exited.
 * @c: the client.
 * @d: filled.
 *
 * A thread running on another CPU is counted up to its last switch-in;
 * the caller's own running slice is included.
 * Context: process; takes @c->lock, KP_THREAD_BATCH entries at a time.
 */
void kp_thread_read(struct kp_thread_client *c,
		    struct kprofile_thread_data *d)
{
	u64 sw, cyc, hw[KPROFILE_MAX_COUNTERS];
	struct kp_thread_task *e;
	unsigned long flags;
	unsigned int i, n = 0;

	memset(d, 0, sizeof(*d));
	d->size = sizeof(*d);
	d->version = 1;
	d->hw_counter_count = c->count;
	if (c->valid)
		d->flags |= KPROFILE_THREAD_COUNTERS_VALID;
	strscpy(d->reason, c->reason, sizeof(d->reason));

	raw_spin_lock_irqsave(&c->lock, flags);
	list_for_each_entry(e, &c->all, node) {
		memset(hw, 0, sizeof(hw));
		kp_thread_snapshot(c, e, &sw, &cyc, hw);
		d->context_switches += sw;
		d->cycle_time += cyc;
		for (i = 0; i < KPROFILE_MAX_COUNTERS; i++)
			d->hw_counters[i] += hw[i];
		kp_thread_batch(c, &flags, ++n);
	}
	d->threads = c->nr;
	if (c->exec_stopped)
		d->flags |= KPROFILE_THREAD_EXEC_STOPPED;
	raw_spin_unlock_irqrestore(&c->lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(kp_thread_read);

/**
 * kp_thread_list() - per-thread data, in join order.
 * @c:    the client.
 * @out:  room for @room entries (kernel memory).
 * @room: entries at @out.
 *
 * Context: process; takes @c->lock, KP_THREAD_BATCH entries at a time.
 *
 * Return: the number of entries the client has; min(that, @room) were
 * written.
 */
u32 kp_thread_list(struct kp_thread_client *c,
		   struct kprofile_thread_entry *out, u32 room)
{
	struct kprofile_thread_entry *o;
	struct kp_thread_task *e;
	unsigned long flags;
	u32 n = 0;

	raw_spin_lock_irqsave(&c->lock, flags);
	list_for_each_entry(e, &c->all, node) {
		if (n < room) {
			o = &out[n];
			memset(o, 0, sizeof(*o));
			o->tid = e->tid;
			o->tgid = e->tgid;
			if (c->valid)
				o->flags |= KPROFILE_THREAD_COUNTERS_VALID;
			if (READ_ONCE(e->exited))
				o->flags |= KPROFILE_THREAD_EXITED;
			if (READ_ONCE(e->exec_stopped))
				o->flags |= KPROFILE_THREAD_EXEC_STOPPED;
			else if (!READ_ONCE(e->exited))
				strscpy_pad(e->comm, e->task->comm,
					    sizeof(e->comm));
			memcpy(o->comm, e->comm, sizeof(o->comm));
			kp_thread_snapshot(c, e, &o->context_switches,
					   &o->cycle_time, o->hw_counters);
		}
		kp_thread_batch(c, &flags, ++n);
	}
	raw_spin_unlock_irqrestore(&c->lock, flags);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(kp_thread_list);

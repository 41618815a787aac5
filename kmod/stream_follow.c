// SPDX-License-Identifier: GPL-2.0
/*
 * stream_follow.c - the processes a stream follows, and the task records
 * (KPROFILE_RECORD_FORK, _EXEC, _EXIT) that tell the reader when to
 * re-read a process's maps or retire it.
 *
 * The followed table
 * ------------------
 * A stream of a process (KPROFILE_TARGET_SELF or _PID) follows it by its
 * thread-group pid (task_tgid()); with KPROFILE_STREAM_INHERIT also every
 * process a followed one forks, from before the child's first
 * instruction.  The sample path looks the interrupted process up in NMI
 * context, so the table is a fixed open-addressing array of
 * KP_FOLLOW_SLOTS struct pid pointers: a lookup hashes the pointer and
 * compares at most KP_FOLLOW_PROBES slots (READ_ONCE(), no lock), stopping
 * at an empty one; an insert claims the first empty or removed slot of
 * the same window with cmpxchg(); a removal replaces the pointer with
 * KP_FOLLOW_TOMBSTONE.  A slot never becomes empty again, so a lookup
 * that stops at an empty slot has passed every slot its key could be in.
 * Each entry holds a reference on its struct pid (the one the creator's
 * check took for the target; get_pid() for a child), so a pointer cannot
 * be reused by another process while it is in the table.  A child that
 * finds its window full is not followed and counted in @untracked.
 *
 * The probes
 * ----------
 * sched_process_fork, sched_process_exec and sched_process_exit
 * (sched_hooks.h), registered while any stream of the sampler is started
 * (stream.c), with the sampler as their data.  Each walks the sampler's
 * started streams under rcu_read_lock() with preemption off, which it
 * takes itself (the probes' context: sched_hooks.h), so STOP's grace
 * period covers them and their records go to this CPU's ring:
 *
 * - fork of a new process (not a thread) whose parent is followed, by a
 *   stream with INHERIT: the child is followed, and a FORK record written;
 *   a system-wide stream writes FORK for every new process;
 * - exec of a followed process (every process, system-wide): an EXEC
 *   record with the new command name.  An exec that left the process
 *   non-dumpable (a set-user-ID or set-group-ID program, file
 *   capabilities) ends following it, as profiles and perf stop there
 *   (profile_exec.c), and sets the stream's @exec_stopped;
 * - exit of a followed process's last thread: it is followed no more, and
 *   an EXIT record written (every process, system-wide).
 */
#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/kprobes.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/preempt.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "access.h"
#include "compat.h"
#include "kprofile.h"
#include "sampler.h"
#include "sched_hooks.h"
#include "stream.h"

static unsigned int kp_follow_hash(const struct pid *pid)
{
	return hash_ptr((void *)pid, ilog2(KP_FOLLOW_SLOTS));
}

/**
 * kp_follow_find() - whether @pid is in a followed table.
 * @table: KP_FOLLOW_SLOTS slots.
 * @pid:   a thread-group pid (compared only).
 *
 * Context: any, NMI included; no locks.
 *
 * Return: true when it is.
 */
bool kp_follow_find(struct pid **table, const struct pid *pid)
{
	unsigned int h = kp_follow_hash(pid), i;
	const struct pid *v;

	for (i = 0; i < KP_FOLLOW_PROBES; i++) {
		v = READ_ONCE(table[(h + i) & (KP_FOLLOW_SLOTS - 1)]);
		if (v == pid)
			return true;
		if (!v)
			return false;
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(kp_follow_find);
NOKPROBE_SYMBOL(kp_follow_find);

/**
 * kp_follow_add() - put @pid in a followed table.
 * @table: KP_FOLLOW_SLOTS slots.
 * @pid:   a thread-group pid not in the table; on success the table owns
 *	   the caller's reference on it.
 *
 * Context: any but NMI; no locks (concurrent adds take distinct slots).
 *
 * Return: true, or false when its probe window is full (the reference
 * stays the caller's).
 */
bool kp_follow_add(struct pid **table, struct pid *pid)
{
	unsigned int h = kp_follow_hash(pid), i;
	struct pid **slot, *v, *old;

	for (i = 0; i < KP_FOLLOW_PROBES; i++) {
		slot = &table[(h + i) & (KP_FOLLOW_SLOTS - 1)];
		v = READ_ONCE(*slot);
		/* Free (empty or removed): claim it, unless taken meanwhile. */
		while (!v || v == KP_FOLLOW_TOMBSTONE) {
			old = cmpxchg(slot, v, pid);
			if (old == v)
				return true;
			v = old;
		}
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(kp_follow_add);

/**
 * kp_follow_del() - remove @pid from a followed table.
 * @table: KP_FOLLOW_SLOTS slots.
 * @pid:   a thread-group pid.
 *
 * Of concurrent removals of one pid, one succeeds; it gets the table's
 * reference (the caller puts it).
 * Context: any but NMI; no locks.
 *
 * Return: true when this call removed it.
 */
bool kp_follow_del(struct pid **table, const struct pid *pid)
{
	unsigned int h = kp_follow_hash(pid), i;
	struct pid **slot, *v;

	for (i = 0; i < KP_FOLLOW_PROBES; i++) {
		slot = &table[(h + i) & (KP_FOLLOW_SLOTS - 1)];
		v = READ_ONCE(*slot);
		if (!v)
			return false;
		if (v == pid)
			return cmpxchg(slot, v, KP_FOLLOW_TOMBSTONE) == v;
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(kp_follow_del);

/**
 * kp_stream_follows() - whether a stream records process @tgid.
 * @st:	  a stream.
 * @tgid: a thread-group pid.
 *
 * Context: any, NMI included.
 *
 * Return: true for a system-wide stream, or when @tgid is followed.
 */
bool kp_stream_follows(const struct kp_stream *st, const struct pid *tgid)
{
	if (st->target == KPROFILE_TARGET_SYSTEM)
		return true;
	return tgid && kp_follow_find(st->follow, tgid);
}
EXPORT_SYMBOL_IF_KUNIT(kp_stream_follows);
NOKPROBE_SYMBOL(kp_stream_follows);

/* One task record into this CPU's ring; preemption is off. */
static void kp_stream_task_record(struct kp_stream *st, u32 type,
				  struct task_struct *task,
				  struct task_struct *parent)
{
	struct kp_stream_ring *ring = this_cpu_ptr(st->rings);
	struct kprofile_record_task *rec;

	rec = kp_ring_begin(ring, type, sizeof(*rec));
	if (!rec)
		return;
	rec->time = ktime_get_mono_fast_ns();
	rec->cpu = smp_processor_id();
	rec->pid = task_tgid_nr_ns(task, st->ns);
	rec->tid = task_pid_nr_ns(task, st->ns);
	rec->ppid = parent ? task_tgid_nr_ns(parent, st->ns) : 0;
	memset(rec->reserved, 0, sizeof(rec->reserved));
	/* The probes run in @task (exec, exit) or its parent (fork). */
	strscpy_pad(rec->comm, task->comm, sizeof(rec->comm));
	/* The reader acts on an exec or exit at once; a fork can wait. */
	if (kp_ring_end(ring, type) || type != KPROFILE_RECORD_FORK)
		kp_stream_wake(st);
}

/**
 * kp_stream_fork() - @parent forked @child: follow it where the parent is
 *	followed with INHERIT, and write FORK records.
 * @set:    the sampler.
 * @parent: the forking task (current).
 * @child:  the new task, not yet running.
 *
 * A new thread is not a new process: nothing to do.
 * Context: process (the sched_process_fork probe); takes no lock.
 */
void kp_stream_fork(struct kp_sampler *set, struct task_struct *parent,
		    struct task_struct *child)
{
	struct pid *ptgid = task_tgid(parent), *ctgid;
	struct kp_stream *st;

	if (!thread_group_leader(child))
		return;
	ctgid = task_tgid(child);
	preempt_disable();
	rcu_read_lock();
	list_for_each_entry_rcu(st, &set->streams.list, node) {
		if (st->target != KPROFILE_TARGET_SYSTEM) {
			if (!(st->flags & KPROFILE_STREAM_INHERIT) ||
			    !kp_follow_find(st->follow, ptgid))
				continue;
			if (!kp_follow_add(st->follow, get_pid(ctgid))) {
				put_pid(ctgid);
				atomic64_inc(&st->untracked);
				continue;
			}
		}
		kp_stream_task_record(st, KPROFILE_RECORD_FORK, child, parent);
	}
	rcu_read_unlock();
	preempt_enable();
}
EXPORT_SYMBOL_IF_KUNIT(kp_stream_fork);

/**
 * kp_stream_exec() - @task executed a program: EXEC records; an exec that
 *	left it non-dumpable ends following it.
 * @set:  the sampler.
 * @task: the task (current), its command name already the new one.
 *
 * Context: process (the sched_process_exec probe); takes no lock.
 */
void kp_stream_exec(struct kp_sampler *set, struct task_struct *task)
{
	struct pid *tgid = task_tgid(task);
	bool dumpable = kp_task_dumpable(task);
	struct kp_stream *st;

	preempt_disable();
	rcu_read_lock();
	list_for_each_entry_rcu(st, &set->streams.list, node) {
		if (!kp_stream_follows(st, tgid))
			continue;
		kp_stream_task_record(st, KPROFILE_RECORD_EXEC, task, NULL);
		if (dumpable || st->target == KPROFILE_TARGET_SYSTEM)
			continue;
		if (kp_follow_del(st->follow, tgid))
			put_pid(tgid);
		WRITE_ONCE(st->exec_stopped, true);
	}
	rcu_read_unlock();
	preempt_enable();
}
EXPORT_SYMBOL_IF_KUNIT(kp_stream_exec);

/**
 * kp_stream_exit() - a thread of @task's process exits: when it is the
 *	last, the process is followed no more, with an EXIT record.
 * @set:	the sampler.
 * @task:	the exiting task (current).
 * @group_dead:	it is the last thread of its process.
 *
 * Context: process (the sched_process_exit probe); takes no lock.
 */
void kp_stream_exit(struct kp_sampler *set, struct task_struct *task,
		    bool group_dead)
{
	struct pid *tgid = task_tgid(task);
	struct kp_stream *st;

	if (!group_dead)
		return;
	preempt_disable();
	rcu_read_lock();
	list_for_each_entry_rcu(st, &set->streams.list, node) {
		if (st->target != KPROFILE_TARGET_SYSTEM) {
			/* One EXIT: of racing removals, one succeeds. */
			if (!kp_follow_del(st->follow, tgid))
				continue;
			put_pid(tgid);	/* the task holds its own */
		}
		kp_stream_task_record(st, KPROFILE_RECORD_EXIT, task, NULL);
	}
	rcu_read_unlock();
	preempt_enable();
}
EXPORT_SYMBOL_IF_KUNIT(kp_stream_exit);

static void kp_stream_on_fork(void *data, struct task_struct *parent,
			      struct task_struct *child)
{
	kp_stream_fork(data, parent, child);
}

static void kp_stream_on_exec(void *data, struct task_struct *task,
			      pid_t old_pid, struct linux_binprm *bprm)
{
	kp_stream_exec(data, task);
}

static KP_SCHED_EXIT_PROBE(kp_stream_on_exit)
{
	kp_stream_exit(data, task, KP_SCHED_EXIT_GROUP_DEAD(task));
}

/**
 * kp_stream_set_init() - set up a sampler's streams (none yet).
 * @set: the sampler.
 */
void kp_stream_set_init(struct kp_sampler *set)
{
	struct kp_stream_set *ss = &set->streams;

	INIT_LIST_HEAD(&ss->list);
	ss->nr_started = 0;
	ss->hooked = false;
}

/**
 * kp_stream_set_exit() - take a sampler's streams down.
 * @set: the sampler; no stream is left.
 */
void kp_stream_set_exit(struct kp_sampler *set)
{
	WARN_ON_ONCE(!list_empty(&set->streams.list));
	WARN_ON_ONCE(set->streams.hooked);
}

/* The probes, in the order they are registered. */
static const struct kp_sched_probe kp_stream_probes[] = {
	{ KP_SCHED_FORK, kp_stream_on_fork },
	{ KP_SCHED_EXEC, kp_stream_on_exec },
	{ KP_SCHED_EXIT, kp_stream_on_exit },
};

/**
 * kp_stream_hook() - register the fork, exec and exit probes: the first
 *	stream of the sampler starts.
 * @set: the sampler.
 *
 * Context: process; the sampler's @lock held (the tracepoint mutexes
 * come after it).
 *
 * Return: 0; -EOPNOTSUPP when the kernel lacks the tracepoints; an error
 * of kp_sched_hooks_register().
 */
int kp_stream_hook(struct kp_sampler *set)
{
	struct kp_stream_set *ss = &set->streams;
	int ret;

	lockdep_assert_held(&set->lock);
	if (ss->hooked)
		return 0;
	ret = kp_sched_hooks_register(kp_stream_probes,
				      ARRAY_SIZE(kp_stream_probes), set);
	if (ret)
		return ret;
	ss->hooked = true;
	return 0;
}

/**
 * kp_stream_unhook() - unregister the probes: the last stream stopped.
 * @set: the sampler.
 *
 * On return no probe of the sampler runs.
 * Context: process; the sampler's @lock held; sleeps.
 */
void kp_stream_unhook(struct kp_sampler *set)
{
	struct kp_stream_set *ss = &set->streams;

	lockdep_assert_held(&set->lock);
	if (!ss->hooked)
		return;
	kp_sched_hooks_unregister(kp_stream_probes,
				  ARRAY_SIZE(kp_stream_probes), set);
	ss->hooked = false;
}

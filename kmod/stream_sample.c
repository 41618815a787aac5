// SPDX-License-Identifier: GPL-2.0
/*
 * stream_sample.c - the sample path of streams: given one interrupt of a
 * source, append a KPROFILE_RECORD_SAMPLE to this CPU's ring of every
 * started stream it belongs to.
 *
 * The rule: the stream is started and has the source; the interrupted
 * process is followed (any, for a system-wide stream); it is not hidden
 * by dumpability (as profiles: a creator who may only see dumpable tasks,
 * or a stream of oneself and a non-dumpable address space other than the
 * creator's; counted as not_dumpable); the privilege level is one the
 * stream samples.  ProfileTime keeps ticking on this CPU for any started
 * ProfileTime stream of the process, whatever the later filters say.
 *
 * The call stack, with KPROFILE_STREAM_CALLCHAIN, innermost first:
 * - a sample in the kernel: the interrupted ip, then the return
 *   addresses the kernel's unwinder finds from the interrupted registers
 *   (ORC or frame pointers, as perf_callchain_kernel()); then, for a task
 *   with a user address space, its user stack as it entered the kernel
 *   (task_pt_regs());
 * - user mode: the ip, then a frame-pointer walk of the 64-bit user
 *   stack, {next frame, return address} pairs read with
 *   copy_from_user_nmi(), stopping at a fault, a zero return address, a
 *   frame that does not move up the stack or is misaligned.
 * The stack is built in a per-CPU scratch array (one per context that
 * can nest: hardirq, NMI), so the record is reserved at its exact size.
 * A stack cut at the stream's max_frames sets KPROFILE_SAMPLE_TRUNCATED.
 * With KPROFILE_STREAM_USER_STACK the record also carries the user
 * registers and a copy of the user stack (stream_regs.c).
 *
 * Context: NMI (counter sources) or hardirq (ProfileTime's hrtimer): no
 * locks, no allocation, no sleeping.  See stream.h for how STOP keeps a
 * stream alive until this path cannot see it.
 */
#include <linux/kprobes.h>
#include <linux/mm_types.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <asm/unwind.h>

#include "compat.h"
#include "sampler.h"
#include "stream.h"

/* A call stack being built: @nr of @max entries at @frames. */
struct kp_chain {
	u64 *frames;
	unsigned int nr;
	unsigned int max;
	bool truncated;
};

/* Append @addr; false (and TRUNCATED) when the stack is full. */
static bool kp_chain_add(struct kp_chain *c, unsigned long addr)
{
	if (c->nr == c->max) {
		c->truncated = true;
		return false;
	}
	c->frames[c->nr++] = addr;
	return true;
}

NOKPROBE_SYMBOL(kp_chain_add);

/* The kernel stack of the interrupted kernel context @regs. */
static void kp_chain_kernel(struct kp_chain *c, struct pt_regs *regs)
{
	struct unwind_state state;
	unsigned long addr;

	if (!kp_chain_add(c, instruction_pointer(regs)))
		return;
	for (unwind_start(&state, current, regs, NULL); !unwind_done(&state);
	     unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr || !kp_chain_add(c, addr))
			return;
	}
}

NOKPROBE_SYMBOL(kp_chain_kernel);

/* The user stack of the user registers @regs: a frame-pointer walk. */
static void kp_chain_user(struct kp_chain *c, struct pt_regs *regs)
{
	unsigned long fp, frame[2];	/* next frame, return address */

	if (!kp_chain_add(c, instruction_pointer(regs)))
		return;
	if (!user_64bit_mode(regs))
		return;
	fp = regs->bp;
	while (fp && IS_ALIGNED(fp, sizeof(long))) {
		if (copy_from_user_nmi(frame, (const void __user *)fp,
				       sizeof(frame)))
			return;
		if (!frame[1] || !kp_chain_add(c, frame[1]))
			return;
		if (frame[0] <= fp)
			return;	/* not up the stack: a loop, or the end */
		fp = frame[0];
	}
}

NOKPROBE_SYMBOL(kp_chain_user);

/*
 * The user registers of @task as it entered the kernel, or NULL: a kernel
 * thread, a task without an address space, or one whose saved registers
 * are not user ones (a kernel-created worker).
 */
static struct pt_regs *kp_chain_user_regs(struct task_struct *task)
{
	struct pt_regs *uregs;

	if (!task->mm || (task->flags & PF_KTHREAD))
		return NULL;
	uregs = task_pt_regs(task);
	return user_mode(uregs) ? uregs : NULL;
}

NOKPROBE_SYMBOL(kp_chain_user_regs);

/*
 * Whether @s, a sample of a process @st follows, is hidden because the
 * task is not dumpable (as kp_class_hides(): the creator may only see
 * dumpable tasks, or a stream of oneself meets a non-dumpable address
 * space other than its creator's).
 */
static bool kp_stream_hides(const struct kp_stream *st,
			    const struct kp_sample *s)
{
	if (s->dumpable)
		return false;
	return st->dumpable_only ||
	       (st->target == KPROFILE_TARGET_SELF && s->mm != st->mm);
}

/* Write one sample into this CPU's ring of @st. */
static void kp_stream_sample_one(struct kp_stream *st,
				 const struct kp_sample *s,
				 struct task_struct *task, struct pt_regs *regs)
{
	struct kp_stream_ring *ring = this_cpu_ptr(st->rings);
	struct kprofile_record_sample *rec;
	struct kp_chain c = { .max = st->max_frames };
	struct pt_regs *uregs, *sregs = NULL;
	unsigned int nr_kernel = 0;
	u32 size, room = 0;
	bool full = true;
	u64 time;

	if (kp_stream_hides(st, s)) {
		local64_inc(&ring->not_dumpable);
		return;
	}
	if (!kp_mode_counts(st->mode, s->user) || kp_other_counter(s, st->mode))
		return;
	time = ktime_get_mono_fast_ns();
	if (st->scratch && regs) {
		c.frames = this_cpu_ptr(st->scratch)->frames[in_nmi() ?
			KP_STREAM_SCRATCH_NMI : KP_STREAM_SCRATCH_HARDIRQ];
		if (s->user) {
			kp_chain_user(&c, regs);
		} else {
			kp_chain_kernel(&c, regs);
			nr_kernel = c.nr;
			uregs = kp_chain_user_regs(task);
			if (uregs)
				kp_chain_user(&c, uregs);
		}
	}

	if (st->stack_bytes) {
		sregs = kp_ustack_regs(task, regs, s->user);
		if (sregs)
			room = kp_ustack_room(st);
	}

	size = struct_size(rec, frames, c.nr);
	rec = kp_ring_begin(ring, KPROFILE_RECORD_SAMPLE, size + room);
	if (!rec)
		return;
	rec->time = time;
	rec->cpu = s->cpu;
	rec->pid = task_tgid_nr_ns(task, st->ns);
	rec->tid = task_pid_nr_ns(task, st->ns);
	rec->source = s->source;
	rec->ip = s->ip;
	rec->flags = (s->user ? KPROFILE_SAMPLE_USER : 0) |
		     (c.truncated ? KPROFILE_SAMPLE_TRUNCATED : 0);
	rec->nr_kernel = nr_kernel;
	rec->nr_user = c.nr - nr_kernel;
	if (c.nr)
		memcpy(rec->frames, c.frames, c.nr * sizeof(u64));
	if (room) {
		size += kp_ustack_fill(st, (void *)&rec->frames[c.nr], sregs,
				       &full);
		rec->flags |= KPROFILE_SAMPLE_STACK |
			      (full ? 0 : KPROFILE_SAMPLE_STACK_SHORT);
		if (!full)
			local64_inc(&ring->stack_short);
		kp_ring_trim(&rec->header, size);
	}
	if (kp_ring_end(ring, KPROFILE_RECORD_SAMPLE))
		kp_stream_wake(st);
}

NOKPROBE_SYMBOL(kp_stream_sample_one);

/**
 * kp_stream_sample_task() - record one interrupt in every started stream
 *	it belongs to.
 * @set:  the sampler.
 * @s:	  the interrupt, as the hit path sees it.
 * @task: the interrupted task (current; a test may name another): pid and
 *	  tid in the records, its user stack for a kernel sample.
 * @regs: the interrupted registers, for the call stack; NULL records none.
 *
 * Records go to this CPU's rings.
 * Context: NMI, or interrupts off (the hrtimer, a test); no locks, no
 * allocation.
 *
 * Return: whether a started stream with @s's source follows the
 * interrupted process or is system-wide (ProfileTime keeps ticking here).
 */
bool kp_stream_sample_task(struct kp_sampler *set,
			   const struct kp_sample *s, struct task_struct *task,
			   struct pt_regs *regs)
{
	struct kp_stream *st;
	bool wanted = false;

	if (unlikely(s->source >= KP_SOURCE_LIMIT))
		return false;
	rcu_read_lock();
	list_for_each_entry_rcu(st, &set->streams.list, node) {
		if (!test_bit(s->source, st->source_map) ||
		    !kp_stream_follows(st, s->tgid))
			continue;
		wanted = true;
		/* A ProfileTime tick shorter than the stream's interval. */
		if (!kp_rate_due(&this_cpu_ptr(st->rings)->credit, s->tick,
				 kp_rate_interval(set, st->interval)))
			continue;
		kp_stream_sample_one(st, s, task, regs);
	}
	rcu_read_unlock();
	return wanted;
}
EXPORT_SYMBOL_IF_KUNIT(kp_stream_sample_task);
NOKPROBE_SYMBOL(kp_stream_sample_task);

/**
 * kp_stream_sample() - kp_stream_sample_task() for the current task.
 * @set:  the sampler.
 * @s:	  the interrupt (of current).
 * @regs: the interrupted registers.
 *
 * Context: NMI or hardirq, on the CPU that was interrupted.
 *
 * Return: as kp_stream_sample_task().
 */
bool kp_stream_sample(struct kp_sampler *set, const struct kp_sample *s,
		      struct pt_regs *regs)
{
	if (list_empty(&set->streams.list))
		return false;
	return kp_stream_sample_task(set, s, current, regs);
}

NOKPROBE_SYMBOL(kp_stream_sample);

/**
 * kp_stream_time_wanted() - whether a started ProfileTime stream samples
 *	@task's process.
 * @set:  the sampler.
 * @task: the task that runs (or is switched in) here.
 *
 * Context: any, interrupts off included; no locks.
 *
 * Return: true when a started stream with ProfileTime is system-wide or
 * follows @task's process.
 */
bool kp_stream_time_wanted(struct kp_sampler *set,
			   struct task_struct *task)
{
	struct kp_stream *st;
	bool ret = false;

	if (list_empty(&set->streams.list))
		return false;
	rcu_read_lock();
	list_for_each_entry_rcu(st, &set->streams.list, node) {
		if (st->has_time && kp_stream_follows(st, task_tgid(task))) {
			ret = true;
			break;
		}
	}
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(kp_stream_time_wanted);

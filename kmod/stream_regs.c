// SPDX-License-Identifier: GPL-2.0
/*
 * stream_regs.c - the user context of a sample, for streams created with
 * KPROFILE_STREAM_USER_STACK (struct kprofile_sample_stack): the task's
 * user registers and a copy of the top of its user stack, which the
 * reader unwinds afterwards with the binaries' unwind tables (perf's
 * PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER, --call-graph dwarf).
 *
 * The sample path reserves the whole stack_bytes with its record, since
 * how much can be copied is only known by copying: straight into the
 * ring with copy_from_user_nmi(), which takes no lock, allocates nothing
 * and stops at the first page that is not present.  A short copy gives
 * back the rest of the reservation as a KPROFILE_RECORD_PAD record right
 * after the sample, so the sample's size is what it holds and the bytes
 * the ring spent are all accounted for.
 *
 * Only the current task's own user stack is copied (its address space is
 * the one loaded), and only from a 64-bit user context: a kernel thread,
 * or a 32-bit task, has no struct kprofile_sample_stack.
 *
 * Context: NMI or hardirq (the sample path), except kp_ustack_check().
 */
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "compat.h"
#include "stream.h"

/**
 * kp_ustack_check() - the stack fields of a create request.
 * @req: the request.
 *
 * Return: 0, or -EINVAL: @stack_bytes without USER_STACK, not a multiple
 * of 8 or above KPROFILE_STREAM_MAX_STACK, or the largest sample larger
 * than a ring's data area.
 */
int kp_ustack_check(const struct kprofile_create_stream *req)
{
	u64 largest, ring;
	u32 frames = 0;

	if (!(req->flags & KPROFILE_STREAM_USER_STACK))
		return req->stack_bytes ? -EINVAL : 0;
	if (req->stack_bytes % 8 ||
	    req->stack_bytes > KPROFILE_STREAM_MAX_STACK)
		return -EINVAL;
	if (req->flags & KPROFILE_STREAM_CALLCHAIN)
		frames = req->max_frames ?: KPROFILE_STREAM_DEFAULT_FRAMES;
	largest = sizeof(struct kprofile_record_sample) + 8ULL * frames +
		  sizeof(struct kprofile_sample_stack) +
		  (req->stack_bytes ?: KPROFILE_STREAM_DEFAULT_STACK);
	ring = (u64)(req->ring_pages ?: KPROFILE_STREAM_DEFAULT_PAGES) *
	       PAGE_SIZE;
	return largest > ring ? -EINVAL : 0;
}
EXPORT_SYMBOL_IF_KUNIT(kp_ustack_check);

/**
 * kp_ustack_regs() - the user registers a sample's stack copy starts from.
 * @task: the sampled task.
 * @regs: the interrupted registers (NULL: none).
 * @user: the sample is in user mode (@regs are the user ones).
 *
 * Return: @regs in user mode, the task's registers as it entered the
 * kernel in kernel mode, or NULL: not the current task, a kernel thread
 * in kernel mode, a 32-bit context.
 */
struct pt_regs *kp_ustack_regs(struct task_struct *task,
			       struct pt_regs *regs, bool user)
{
	struct pt_regs *u;

	if (task != current || (!user && (task->flags & PF_KTHREAD)))
		return NULL;
	u = user ? regs : task_pt_regs(task);
	if (!u || !user_mode(u) || !user_64bit_mode(u))
		return NULL;
	return u;
}

NOKPROBE_SYMBOL(kp_ustack_regs);

/**
 * kp_ustack_room() - bytes a sample of @st reserves for its user context.
 * @st: the stream.
 *
 * Return: 0 without USER_STACK.
 */
u32 kp_ustack_room(const struct kp_stream *st)
{
	if (!st->stack_bytes)
		return 0;
	return sizeof(struct kprofile_sample_stack) + st->stack_bytes;
}

NOKPROBE_SYMBOL(kp_ustack_room);

/**
 * kp_ustack_fill() - write a sample's user context.
 * @st:	   the stream.
 * @out:   where it goes: kp_ustack_room() bytes in the ring.
 * @uregs: the user registers (kp_ustack_regs()).
 * @full:  set to whether all of stack_bytes was copied.
 *
 * Return: the bytes it takes: the struct and its copy, padded to 8.
 */
u32 kp_ustack_fill(const struct kp_stream *st,
		   struct kprofile_sample_stack *out, struct pt_regs *uregs,
		   bool *full)
{
	unsigned long sp = uregs->sp, want = st->stack_bytes, left;
	u32 got;

	out->regs[0] = uregs->ax;
	out->regs[1] = uregs->dx;
	out->regs[2] = uregs->cx;
	out->regs[3] = uregs->bx;
	out->regs[4] = uregs->si;
	out->regs[5] = uregs->di;
	out->regs[6] = uregs->bp;
	out->regs[7] = uregs->sp;
	out->regs[8] = uregs->r8;
	out->regs[9] = uregs->r9;
	out->regs[10] = uregs->r10;
	out->regs[11] = uregs->r11;
	out->regs[12] = uregs->r12;
	out->regs[13] = uregs->r13;
	out->regs[14] = uregs->r14;
	out->regs[15] = uregs->r15;
	out->regs[16] = uregs->ip;
	out->reserved = 0;

	/* Not past the top of the user address space. */
	if (sp >= TASK_SIZE_MAX)
		want = 0;
	else if (want > TASK_SIZE_MAX - sp)
		want = TASK_SIZE_MAX - sp;
	left = want ? copy_from_user_nmi(out->data,
					 (const void __user *)sp, want) : 0;
	got = want - left;
	out->size = got;
	*full = got == st->stack_bytes;
	memset(out->data + got, 0, round_up(got, 8) - got);
	return sizeof(*out) + round_up(got, 8);
}

NOKPROBE_SYMBOL(kp_ustack_fill);

/**
 * kp_ring_trim() - give back the end of a reserved record.
 * @h:	  the record (kp_ring_begin()), not yet committed.
 * @size: the bytes it keeps; a multiple of 8, at most its @size.
 *
 * The rest becomes a KPROFILE_RECORD_PAD record right after it (the
 * reservation is contiguous: records never wrap), which the reader skips.
 */
void kp_ring_trim(struct kprofile_record_header *h, u32 size)
{
	struct kprofile_record_header *pad;

	if (size >= h->size)
		return;
	pad = (struct kprofile_record_header *)((u8 *)h + size);
	pad->type = KPROFILE_RECORD_PAD;
	pad->size = h->size - size;
	h->size = size;
}

NOKPROBE_SYMBOL(kp_ring_trim);

// SPDX-License-Identifier: GPL-2.0
/*
 * stream_regs_test.c - KUnit suite "kprofile_stream_regs": the user
 * context of USER_STACK samples (stream_regs.c) on a sampler over a
 * fake Intel machine.
 *
 * A user-mode sample carries struct kprofile_sample_stack after its
 * frames: the registers in DWARF order, and the stack copy.  This kernel
 * thread has no user address space, so copy_from_user_nmi() copies
 * nothing: the short-copy path (STACK_SHORT, size 0, counted in
 * stack_short), whose unused reservation follows as a PAD record, so that
 * data_head moved by exactly what was reserved.  No user context: a
 * kernel thread's kernel-mode sample, a 32-bit context, another task than
 * the current one.  The create checks of stack_bytes.
 */
#include <kunit/test.h>
#include <linux/pid.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <asm/segment.h>

#include "sources_fixture.h"
#include "stream_fixture.h"

#define SRC	KP_PROF_COUNTER
#define IP	0x401234UL
#define SP	0x7ffc0000UL

static const u32 src_counter[] = { SRC };

/* User registers with a distinct value in each. */
static void user_regs(struct pt_regs *r, unsigned long cs)
{
	memset(r, 0, sizeof(*r));
	r->ax = 100;
	r->dx = 101;
	r->cx = 102;
	r->bx = 103;
	r->si = 104;
	r->di = 105;
	r->bp = 106;
	r->sp = SP;
	r->r8 = 108;
	r->r9 = 109;
	r->r10 = 110;
	r->r11 = 111;
	r->r12 = 112;
	r->r13 = 113;
	r->r14 = 114;
	r->r15 = 115;
	r->ip = IP;
	r->cs = cs;
	r->ss = __USER_DS;
	r->flags = X86_EFLAGS_IF;
}

/* One interrupt of @task through the sample path, interrupts off. */
static void feed(struct kp_str_fix *f, struct task_struct *task,
		 struct pt_regs *regs, bool user)
{
	struct kp_sample s = {
		.source = SRC, .tgid = task_tgid(current), .ip = IP,
		.user = user, .dumpable = true,
	};
	unsigned long flags;

	local_irq_save(flags);
	s.cpu = smp_processor_id();
	kp_stream_sample_task(&f->prof->set, &s, task, regs);
	local_irq_restore(flags);
}

static struct kp_stream *new_stream(struct kp_str_fix *f, u32 target)
{
	struct kp_stream *st = kp_str_new(f, target, KPROFILE_STREAM_USER_STACK,
					  KPROFILE_MODE_BOTH, src_counter, 1,
					  0, 0);

	kp_str_start(f, st);
	return st;
}

static u64 data_head(struct kp_stream *st)
{
	u64 head = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		head += per_cpu_ptr(st->rings, cpu)->page->data_head;
	return head;
}

static void kp_ustack_short_copy(struct kunit *test)
{
	struct kp_str_fix *f = kp_str_fix_new(test);
	struct kp_stream *st = new_stream(f, KPROFILE_TARGET_SELF);
	const struct kprofile_sample_stack *u;
	const struct kprofile_record_sample *r;
	struct kp_str_read rd;
	struct pt_regs regs;
	unsigned int i;

	user_regs(&regs, __USER_CS);
	feed(f, current, &regs, true);
	kp_str_read_all(st, &rd);
	KUNIT_ASSERT_EQ(test, rd.nr, 1U);
	KUNIT_ASSERT_EQ(test, rd.recs[0]->type, (u32)KPROFILE_RECORD_SAMPLE);
	r = (const void *)rd.recs[0];
	KUNIT_EXPECT_EQ(test, r->flags, KPROFILE_SAMPLE_USER |
			KPROFILE_SAMPLE_STACK | KPROFILE_SAMPLE_STACK_SHORT);
	KUNIT_EXPECT_EQ(test, r->nr_kernel + r->nr_user, 0);
	/* Nothing copied: the record ends after the registers. */
	KUNIT_EXPECT_EQ(test, r->header.size,
			(u32)(sizeof(*r) + sizeof(*u)));
	u = (const void *)&r->frames[0];
	KUNIT_EXPECT_EQ(test, u->size, 0U);
	KUNIT_EXPECT_EQ(test, u->reserved, 0U);
	for (i = 0; i < 16; i++) {
		/* DWARF order: rax, rdx, rcx, rbx, rsi, rdi, rbp, rsp. */
		if (i == 7)
			KUNIT_EXPECT_EQ(test, u->regs[i], (u64)SP);
		else
			KUNIT_EXPECT_EQ(test, u->regs[i], (u64)(100 + i));
	}
	KUNIT_EXPECT_EQ(test, u->regs[16], (u64)IP);
	/* The rest of the reservation is a pad: all bytes accounted. */
	KUNIT_EXPECT_EQ(test, rd.pads, 1U);
	KUNIT_EXPECT_EQ(test, data_head(st),
			(u64)(sizeof(*r) + sizeof(*u) +
			      KPROFILE_STREAM_DEFAULT_STACK));
	KUNIT_EXPECT_EQ(test, kp_str_info(st).stack_short, 1ULL);
	KUNIT_EXPECT_EQ(test, kp_str_info(st).samples, 1ULL);
	KUNIT_EXPECT_EQ(test, kp_str_info(st).lost, 0ULL);
}

/* An sp at the top of the user address space copies nothing either. */
static void kp_ustack_top_of_user_space(struct kunit *test)
{
	struct kp_str_fix *f = kp_str_fix_new(test);
	struct kp_stream *st = new_stream(f, KPROFILE_TARGET_SELF);
	const struct kprofile_sample_stack *u;
	const struct kprofile_record_sample *r;
	struct kp_str_read rd;
	struct pt_regs regs;

	user_regs(&regs, __USER_CS);
	regs.sp = TASK_SIZE_MAX - 8;
	feed(f, current, &regs, true);
	regs.sp = TASK_SIZE_MAX;
	feed(f, current, &regs, true);
	kp_str_read_all(st, &rd);
	KUNIT_ASSERT_EQ(test, rd.nr, 2U);
	r = (const void *)rd.recs[1];
	u = (const void *)&r->frames[0];
	KUNIT_EXPECT_TRUE(test, r->flags & KPROFILE_SAMPLE_STACK_SHORT);
	KUNIT_EXPECT_EQ(test, u->size, 0U);
	KUNIT_EXPECT_EQ(test, u->regs[7], (u64)TASK_SIZE_MAX);
	KUNIT_EXPECT_EQ(test, kp_str_info(st).stack_short, 2ULL);
}

/* No user context to copy: no struct, no pad, nothing reserved for it. */
static void kp_ustack_none(struct kunit *test)
{
	struct kp_str_fix *f = kp_str_fix_new(test);
	struct kp_stream *st = new_stream(f, KPROFILE_TARGET_SYSTEM);
	const struct kprofile_record_sample *r;
	struct kp_str_read rd;
	struct pt_regs regs;
	unsigned int i;

	feed(f, current, NULL, false);		/* a kernel thread, in the kernel */
	user_regs(&regs, __USER32_CS);
	feed(f, current, &regs, true);		/* a 32-bit context */
	user_regs(&regs, __USER_CS);
	feed(f, &init_task, &regs, true);	/* not the current task */
	kp_str_read_all(st, &rd);
	KUNIT_ASSERT_EQ(test, rd.nr, 3U);
	for (i = 0; i < 3; i++) {
		r = (const void *)rd.recs[i];
		KUNIT_EXPECT_EQ(test, r->header.size, (u32)sizeof(*r));
		KUNIT_EXPECT_FALSE(test, r->flags & (KPROFILE_SAMPLE_STACK |
						     KPROFILE_SAMPLE_STACK_SHORT));
	}
	KUNIT_EXPECT_EQ(test, rd.pads, 0U);
	KUNIT_EXPECT_EQ(test, data_head(st), (u64)(3 * sizeof(*r)));
	KUNIT_EXPECT_EQ(test, kp_str_info(st).stack_short, 0ULL);
}

/* With CALLCHAIN the struct follows the frames. */
static void kp_ustack_after_frames(struct kunit *test)
{
	struct kp_str_fix *f = kp_str_fix_new(test);
	struct kp_stream *st = kp_str_new(f, KPROFILE_TARGET_SELF,
					  KPROFILE_STREAM_USER_STACK |
					  KPROFILE_STREAM_CALLCHAIN,
					  KPROFILE_MODE_BOTH, src_counter, 1,
					  4, 0);
	const struct kprofile_sample_stack *u;
	const struct kprofile_record_sample *r;
	struct kp_str_read rd;
	struct pt_regs regs;
	unsigned int n;

	kp_str_start(f, st);
	user_regs(&regs, __USER_CS);
	regs.bp = 0;	/* the frame-pointer walk ends at the ip */
	feed(f, current, &regs, true);
	kp_str_read_all(st, &rd);
	KUNIT_ASSERT_EQ(test, rd.nr, 1U);
	r = (const void *)rd.recs[0];
	n = r->nr_kernel + r->nr_user;
	KUNIT_ASSERT_EQ(test, n, 1U);
	KUNIT_EXPECT_EQ(test, r->frames[0], (u64)IP);
	KUNIT_EXPECT_TRUE(test, r->flags & KPROFILE_SAMPLE_STACK);
	KUNIT_EXPECT_EQ(test, r->header.size,
			(u32)(struct_size(r, frames, n) + sizeof(*u)));
	u = (const void *)&r->frames[n];
	KUNIT_EXPECT_EQ(test, u->regs[16], (u64)IP);
	KUNIT_EXPECT_EQ(test, u->regs[6], 0ULL);
}

static void kp_ustack_create_checks(struct kunit *test)
{
	struct kprofile_create_stream r = {
		.target = KPROFILE_TARGET_SELF, .mode = KPROFILE_MODE_USER,
		.nr_sources = 1,
	};

	r.stack_bytes = 8;	/* without USER_STACK */
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), -EINVAL);
	r.flags = KPROFILE_STREAM_USER_STACK;
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), 0);
	r.stack_bytes = 0;	/* the default */
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), 0);
	r.stack_bytes = 12;
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), -EINVAL);
	r.stack_bytes = KPROFILE_STREAM_MAX_STACK + 8;
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), -EINVAL);
	/* The largest sample must fit in a ring's data area. */
	r.stack_bytes = KPROFILE_STREAM_MAX_STACK;
	r.ring_pages = 65536 / PAGE_SIZE;
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), -EINVAL);
	r.ring_pages *= 2;
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), 0);
	r.ring_pages = 1;
	r.stack_bytes = PAGE_SIZE - sizeof(struct kprofile_record_sample) -
			sizeof(struct kprofile_sample_stack);
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), 0);
	r.flags |= KPROFILE_STREAM_CALLCHAIN;	/* 64 frames more */
	KUNIT_EXPECT_EQ(test, kp_stream_check(&r), -EINVAL);
}

static struct kunit_case kp_stream_regs_cases[] = {
	KUNIT_CASE(kp_ustack_short_copy),
	KUNIT_CASE(kp_ustack_top_of_user_space),
	KUNIT_CASE(kp_ustack_none),
	KUNIT_CASE(kp_ustack_after_frames),
	KUNIT_CASE(kp_ustack_create_checks),
	{}
};

static struct kunit_suite kp_stream_regs_suite = {
	.name = "kprofile_stream_regs",
	.test_cases = kp_stream_regs_cases,
	.exit = kp_str_fix_exit,
};

kunit_test_suite(kp_stream_regs_suite);

/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * kprofile_stream.h - the sample stream of /dev/kprofile: one record per
 * interrupt of a source, with the interrupted task and its call stack
 * (xperf's PmcInterrupt events with -stackwalk, perf's record -g), beside
 * the bucket profiles of kprofile.h.  Included by kprofile.h; the rules
 * there (fixed-width types, explicit padding, reserved fields zero) apply.
 *
 * A stream is created stopped by KPROFILE_IOC_CREATE_STREAM and owned by
 * the returned file descriptor.  KPROFILE_IOC_START arms its sources and
 * KPROFILE_IOC_STOP disarms them (the numbers a profile fd uses).
 *
 * Memory: mmap() the stream fd, MAP_SHARED, PROT_READ | PROT_WRITE, offset
 * 0, length nr_rings * (1 + ring_pages) pages (KPROFILE_IOC_STREAM_INFO).
 * Ring i (the ring of CPU i) starts at page i * (1 + ring_pages): one
 * struct kprofile_stream_page, then ring_pages data pages.  The module
 * writes records at data_head and publishes data_head with release
 * semantics; the reader reads records from data_tail up to data_head
 * (load-acquire), then stores the new data_tail (store-release) to free
 * the space.  Both are free-running byte counts: the offset in the data
 * area is the count modulo data_size.  A record never wraps: where one
 * would, a KPROFILE_RECORD_PAD record fills the rest of the area.  Every
 * record is a multiple of 8 bytes and starts with a struct
 * kprofile_record_header.  When a record does not fit, it is dropped and
 * counted in the ring's @lost: records are never lost silently.
 */
#ifndef _UAPI_LINUX_KPROFILE_STREAM_H
#define _UAPI_LINUX_KPROFILE_STREAM_H

#include <linux/types.h>

#define KPROFILE_STREAM_MAX_SOURCES	8
#define KPROFILE_STREAM_MAX_FRAMES	127	/* call-stack entries a sample */
#define KPROFILE_STREAM_DEFAULT_FRAMES	64
#define KPROFILE_STREAM_DEFAULT_PAGES	16	/* data pages per ring */
#define KPROFILE_STREAM_MAX_PAGES	1024
#define KPROFILE_COMM_LEN		16
#define KPROFILE_STREAM_DEFAULT_STACK	8192	/* user stack bytes a sample */
#define KPROFILE_STREAM_MAX_STACK	65528
#define KPROFILE_USER_REGS		17

/*
 * kprofile_stream_info.flags: poll() on the stream fd reports EPOLLIN
 * once per wake-up: when a ring has had another quarter of its data area
 * written since its last wake-up, and at every EXEC and EXIT record.  A
 * reader that drains every ring after each poll() sleeps in between,
 * without a timer.  Modules without it have no poll().
 */
#define KPROFILE_STREAM_INFO_POLL	(1U << 1)

/* kprofile_create_stream.flags */
#define KPROFILE_STREAM_INHERIT		(1U << 0) /* follow descendants (fork) */
#define KPROFILE_STREAM_CALLCHAIN	(1U << 1) /* record call stacks */
#define KPROFILE_STREAM_USER_STACK	(1U << 2) /* user registers + stack copy */

/**
 * struct kprofile_create_stream - KPROFILE_IOC_CREATE_STREAM.
 * @target:	enum kprofile_target: the caller's process, the process @pid,
 *		or every task.
 * @pid:	the process for KPROFILE_TARGET_PID; zero otherwise.
 * @flags:	KPROFILE_STREAM_*.  INHERIT (not with KPROFILE_TARGET_SYSTEM):
 *		processes the target forks, and theirs, are sampled too, from
 *		their first instruction.  CALLCHAIN: samples carry the call
 *		stack (kernel frames from the kernel's unwinder, user frames
 *		from a frame-pointer walk), up to @max_frames entries.
 * @mode:	enum kprofile_mode: which privilege levels are sampled; TABLE
 *		and BOTH sample both.  Kernel samples (and kernel frames)
 *		need CAP_PERFMON, as kernel ranges of profiles do.
 * @nr_sources:	entries at @sources, 1..KPROFILE_STREAM_MAX_SOURCES.
 * @max_frames:	call-stack entries per sample, 1..KPROFILE_STREAM_MAX_FRAMES;
 *		0 means KPROFILE_STREAM_DEFAULT_FRAMES.  Ignored without
 *		CALLCHAIN.
 * @sources:	user pointer to @nr_sources __u32 KPROFILE_SOURCE values,
 *		no duplicates.
 * @ring_pages:	data pages per ring, a power of two up to
 *		KPROFILE_STREAM_MAX_PAGES; 0 means
 *		KPROFILE_STREAM_DEFAULT_PAGES.  Charged to RLIMIT_MEMLOCK
 *		with the header pages, as profile buffers are.
 * @stack_bytes: with USER_STACK: the bytes of user stack each sample
 *		copies from the sampled sp up (struct kprofile_sample_stack),
 *		a multiple of 8 up to KPROFILE_STREAM_MAX_STACK; 0 means
 *		KPROFILE_STREAM_DEFAULT_STACK.  The largest sample must fit
 *		in a ring's data area.  Zero without USER_STACK.
 * @reserved:	zero.
 *
 * USER_STACK: each sample of a task with a 64-bit user context carries
 * its user registers (the sample's own in user mode; as the task entered
 * the kernel, in kernel mode) and a copy of the top of its user stack,
 * for an unwinder that reads the binaries' unwind tables (perf's
 * --call-graph dwarf).  It is read with copy_from_user_nmi() in the
 * interrupt: it stops at the first page that is not there (the top of
 * the stack, or a page swapped out), and the sample says how much it
 * has.  The stack is the target's memory: it is copied only for the
 * samples the stream may record at all (the access rules below, and
 * dumpability as for every sample).
 *
 * Returns a stream file descriptor (close-on-exec), stopped.
 *
 * Errors, in this order: EINVAL (nonzero @reserved or unknown @flags,
 * unknown @target or @mode, @pid without KPROFILE_TARGET_PID or <= 0 with
 * it, INHERIT with KPROFILE_TARGET_SYSTEM, @nr_sources or @max_frames or
 * @ring_pages out of range, @stack_bytes out of range, not a multiple of
 * 8, set without USER_STACK, or too big for the ring, an unknown or
 * repeated source), EFAULT
 * (@sources unreadable), EOPNOTSUPP (a source unsupported here), EPERM
 * (kernel mode, system-wide, or a counter source, without CAP_PERFMON),
 * EACCES (perf_event_paranoid forbids it), ESRCH (no process @pid), EACCES
 * (no ptrace-read access to @pid), ENOMEM (including RLIMIT_MEMLOCK).  The
 * access rules are those of profiles (docs/profiles.md, "Privileges").
 */
struct kprofile_create_stream {
	__u32 target;
	__s32 pid;
	__u32 flags;
	__u32 mode;
	__u32 nr_sources;
	__u32 max_frames;
	__u64 sources;
	__u32 ring_pages;
	__u32 stack_bytes;
	__u32 reserved[6];
};

/**
 * struct kprofile_stream_info - KPROFILE_IOC_STREAM_INFO on a stream fd.
 * @nr_rings:	rings in the mapping (one per possible CPU id).
 * @ring_pages:	data pages per ring.
 * @page_size:	bytes per page.
 * @started:	1 while started.
 * @samples:	sample records written, all rings.
 * @lost:	records dropped because their ring was full, all rings.
 * @untracked:	processes forked by followed ones that could not be
 *		followed (the stream follows at most 4096 at a time).
 * @not_dumpable: samples of a target task not recorded because it was not
 *		dumpable (a set-user-ID exec; see profiles' not_dumpable).
 * @flags:	KPROFILE_PROFILE_EXEC_STOPPED when a followed process executed
 *		a set-user-ID program and is followed no more;
 *		KPROFILE_STREAM_INFO_POLL: the fd supports poll() (below).
 * @reserved0:	zero.
 * @stack_short: USER_STACK samples whose stack copy stopped before
 *		stack_bytes (KPROFILE_SAMPLE_STACK_SHORT), all rings.
 * @reserved:	zero.
 */
struct kprofile_stream_info {
	__u32 nr_rings;
	__u32 ring_pages;
	__u32 page_size;
	__u32 started;
	__u64 samples;
	__u64 lost;
	__u64 untracked;
	__u64 not_dumpable;
	__u32 flags;
	__u32 reserved0;
	__u64 stack_short;
	__u64 reserved[3];
};

/**
 * struct kprofile_stream_page - the first page of each ring.
 * @data_head:	written by the module (store-release): bytes written.
 * @data_tail:	written by the reader (store-release): bytes consumed.
 * @data_offset: bytes from the start of this page to the data area.
 * @data_size:	bytes in the data area (ring_pages pages).
 * @lost:	records this ring dropped (full).
 * @records:	records this ring holds or held (pads excluded).
 * @cpu:	the CPU of this ring.
 * @reserved0:	zero.
 * @reserved:	zero.
 */
struct kprofile_stream_page {
	__u64 data_head;
	__u64 data_tail;
	__u64 data_offset;
	__u64 data_size;
	__u64 lost;
	__u64 records;
	__u32 cpu;
	__u32 reserved0;
	__u64 reserved[9];
};

/* kprofile_record_header.type */
enum kprofile_record_type {
	KPROFILE_RECORD_PAD = 0,	/* skip @size bytes */
	KPROFILE_RECORD_SAMPLE = 1,	/* struct kprofile_record_sample */
	KPROFILE_RECORD_FORK = 2,	/* struct kprofile_record_task */
	KPROFILE_RECORD_EXEC = 3,	/* struct kprofile_record_task */
	KPROFILE_RECORD_EXIT = 4,	/* struct kprofile_record_task */
};

/**
 * struct kprofile_record_header - the start of every record.
 * @type: enum kprofile_record_type.
 * @size: bytes in the record, this header included; a multiple of 8.
 */
struct kprofile_record_header {
	__u32 type;
	__u32 size;
};

/* kprofile_record_sample.flags */
#define KPROFILE_SAMPLE_USER		(1U << 0) /* interrupted in user mode */
#define KPROFILE_SAMPLE_TRUNCATED	(1U << 1) /* the stack had more frames */
#define KPROFILE_SAMPLE_STACK		(1U << 2) /* a kprofile_sample_stack follows */
#define KPROFILE_SAMPLE_STACK_SHORT	(1U << 3) /* its copy stopped at a fault */

/**
 * struct kprofile_record_sample - one interrupt of a source.
 * @header:	KPROFILE_RECORD_SAMPLE.
 * @time:	CLOCK_MONOTONIC, nanoseconds.
 * @cpu:	the CPU interrupted.
 * @pid:	the interrupted task's process, in the stream creator's pid
 *		namespace (0 when not visible there).
 * @tid:	the task itself, likewise.
 * @source:	the KPROFILE_SOURCE that fired.
 * @ip:		the interrupted instruction pointer.
 * @flags:	KPROFILE_SAMPLE_*.
 * @nr_kernel:	kernel entries of @frames.
 * @nr_user:	user entries of @frames, after the kernel ones.
 * @frames:	the call stack, innermost first: the interrupted ip, then
 *		return addresses.  A sample in the kernel lists its kernel
 *		stack, then the user stack of the task's entry into the
 *		kernel (none for a kernel thread); a sample in user mode has
 *		user entries only.  Empty without KPROFILE_STREAM_CALLCHAIN.
 *
 * With KPROFILE_SAMPLE_STACK, a struct kprofile_sample_stack follows the
 * last frame (at offsetof(frames) + 8 * (nr_kernel + nr_user)); @size
 * covers it.
 */
struct kprofile_record_sample {
	struct kprofile_record_header header;
	__u64 time;
	__u32 cpu;
	__s32 pid;
	__s32 tid;
	__u32 source;
	__u64 ip;
	__u32 flags;
	__u16 nr_kernel;
	__u16 nr_user;
	__u64 frames[];
};

/**
 * struct kprofile_sample_stack - the user context of a sample of a
 *	KPROFILE_STREAM_USER_STACK stream (KPROFILE_SAMPLE_STACK).
 * @regs:	the task's user registers, in the x86-64 psABI's DWARF
 *		numbering: rax, rdx, rcx, rbx, rsi, rdi, rbp, rsp, r8 ..
 *		r15, then rip (the return-address column, 16).
 * @size:	bytes at @data: the user stack from regs[7] (rsp) up, at
 *		most the stream's stack_bytes; fewer, with
 *		KPROFILE_SAMPLE_STACK_SHORT, where the copy met a page that
 *		is not there (the top of the stack, or one swapped out).
 * @reserved:	zero.
 * @data:	the copy, then zeroes up to a multiple of 8 bytes.  Where a
 *		copy is short, the rest of the bytes the sample reserved
 *		follows the record as a KPROFILE_RECORD_PAD record.
 */
struct kprofile_sample_stack {
	__u64 regs[KPROFILE_USER_REGS];
	__u32 size;
	__u32 reserved;
	__u8 data[];
};

/**
 * struct kprofile_record_task - a followed process forked, exec'd or ended:
 *	the reader re-reads /proc/PID/maps (fork, exec) or retires it (exit).
 * @header:	KPROFILE_RECORD_FORK, _EXEC or _EXIT.
 * @time:	CLOCK_MONOTONIC, nanoseconds.
 * @cpu:	the CPU it happened on.
 * @pid:	the process (the child, for FORK), in the stream creator's pid
 *		namespace.
 * @tid:	the thread (the child's, for FORK; the last one, for EXIT).
 * @ppid:	FORK: the parent process; otherwise 0.
 * @reserved:	zero.
 * @comm:	the task's command name (after the exec, for EXEC),
 *		NUL-terminated.
 */
struct kprofile_record_task {
	struct kprofile_record_header header;
	__u64 time;
	__u32 cpu;
	__s32 pid;
	__s32 tid;
	__s32 ppid;
	__u32 reserved[2];
	char comm[KPROFILE_COMM_LEN];
};

#endif /* _UAPI_LINUX_KPROFILE_STREAM_H */

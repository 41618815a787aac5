/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stream.h - sample streams (include/uapi/linux/kprofile_stream.h): one
 * record per interrupt of a source, with the interrupted task and its
 * call stack, written into per-CPU rings the reader maps (xperf's
 * PmcInterrupt events with -stackwalk, perf's record -g).
 *
 * Files
 * -----
 * stream.c	   the object: create (validation, privileges), start, stop,
 *		   statistics, its fd (ioctl, mmap, release).
 * stream_ring.c   one ring: reserve and commit from any context, losses.
 * stream_sample.c the sample path: which streams an interrupt feeds, the
 *		   call stack, the record.
 * stream_follow.c the processes a stream follows, and the fork, exec and
 *		   exit probes that maintain them and write task records.
 * stream_wake.c   poll(): the reader sleeps until a ring's watermark or a
 *		   task record wakes it.
 * stream_regs.c   USER_STACK: a sample's user registers and stack copy.
 *
 * Object model and locking
 * ------------------------
 * Streams are one of the two consumers of a struct kp_sampler (sampler.h;
 * the other is profiles, profile.h): they share its sources, hardware
 * layer and ProfileTime timers, and it feeds them every interrupt of a
 * source (kp_sampler_sample() calls kp_stream_sample()); a KUnit suite
 * builds its own sampler.  The sampler's @lock serialises every start
 * and stop of its streams, as of its profiles: it protects each stream's
 * @started and @node, the sampler's list of started streams
 * (@streams.list, an RCU list), @streams.nr_started and whether the
 * probes are registered (@streams.hooked).  A stream's own @op_lock
 * serialises its START, STOP and release, and is taken before the
 * sampler's @lock: STOP waits for an RCU grace period under it (so a
 * START cannot re-publish a node that readers may still be traversing).
 * Lock order: stream @op_lock, then the sampler's @lock, then what
 * sampler.h lists after it (cpus_read_lock(), the timers' @tlock, the
 * hardware layer's lock, the tracepoint mutexes; the whole order:
 * locking.h).
 *
 * Everything the interrupt paths and the probes read is immutable while
 * the stream is on the list, except: the rings (written only by their
 * CPU, stream_ring.c), the followed table (slots replaced with cmpxchg(),
 * read with READ_ONCE(), stream_follow.c), @untracked (atomic) and
 * @exec_stopped (WRITE_ONCE()).  The sample path (NMI, hardirq) and the
 * probes (any context; preemption off around ring writes) walk the list
 * under rcu_read_lock(), take no lock and allocate nothing.  STOP removes
 * the stream from the list and waits for a grace period, so when it
 * returns no interrupt or probe uses the stream; the rings stay mapped
 * and readable until the fd's last reference (mappings included) goes.
 */
#ifndef _KPROFILE_STREAM_H
#define _KPROFILE_STREAM_H

#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/irq_work.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <asm/local.h>
#include <asm/local64.h>
#include <uapi/linux/kprofile.h>

#include "sources.h"

struct file;
struct poll_table_struct;
struct kp_sampler;
struct kp_sample;
struct kp_sources;
struct mm_struct;
struct pid;
struct pid_namespace;
struct pt_regs;
struct task_struct;

/* Followed processes a stream can hold, and probes per lookup. */
#define KP_FOLLOW_SLOTS		4096
#define KP_FOLLOW_PROBES	64
/* A slot whose process was removed: skipped by lookups, reused by inserts. */
#define KP_FOLLOW_TOMBSTONE	((struct pid *)1UL)

/*
 * The reader is woken each time a ring has had 1/KP_RING_WAKE_PARTS of its
 * data area written since the last wake-up (stream_wake.c).
 */
#define KP_RING_WAKE_PARTS	4

/* Scratch call stacks per CPU: one for hardirq context, one for NMI. */
#define KP_STREAM_SCRATCH_HARDIRQ	0
#define KP_STREAM_SCRATCH_NMI		1

/**
 * struct kp_stream_ring - the module's side of one ring (stream_ring.c).
 * @page:	  the ring's header page (shared with the reader).
 * @data:	  the data area, right after @page.
 * @size:	  bytes in @data, a power of two.
 * @head:	  bytes reserved so far (free-running; published to
 *		  @page->data_head once every reservation below it is
 *		  written).
 * @nest:	  writers inside reserve..commit on this CPU (a probe, the
 *		  hrtimer, an NMI nest); only the outermost publishes.
 * @lost:	  records dropped because the ring was full.
 * @records:	  records committed (pads excluded).
 * @samples:	  sample records committed.
 * @not_dumpable: samples of this CPU not recorded because the task was
 *		  not dumpable (counted here: the CPU's own counter).
 * @wake_at:	  the @head at which the reader is next woken (kp_ring_end()).
 * @stack_short:  USER_STACK samples whose stack copy stopped short.
 * @credit:	  ProfileTime: the time ticked for the stream on this CPU
 *		  since its last sample, in 100 ns units (kp_rate_due()).
 *
 * Written only by the ring's CPU (local_t, local64_t: NMI-safe against
 * the same CPU's other writers), read by anyone for statistics.
 */
struct kp_stream_ring {
	struct kprofile_stream_page *page;
	u8 *data;
	u64 size;
	local64_t head;
	local_t nest;
	local64_t lost;
	local64_t records;
	local64_t samples;
	local64_t not_dumpable;
	local64_t wake_at;
	local64_t stack_short;
	local64_t credit;
};

/**
 * struct kp_stream_scratch - where the sample path builds a call stack
 *	before it knows the record's size.
 * @frames: one stack per context that may nest (hardirq, NMI).
 */
struct kp_stream_scratch {
	u64 frames[2][KPROFILE_STREAM_MAX_FRAMES];
};

/**
 * struct kp_stream_set - the streams of a sampler (embedded in
 *	struct kp_sampler as @streams).
 * @list:	the started streams (RCU; written under the sampler's @lock).
 * @nr_started: entries in @list (under the sampler's @lock).
 * @hooked:	the fork, exec and exit probes are registered (under the
 *		sampler's @lock: while a stream is started).
 */
struct kp_stream_set {
	struct list_head list;
	unsigned int nr_started;
	bool hooked;
};

/**
 * struct kp_stream - one stream object.
 * @set:	  its sampler.
 * @target:	  enum kprofile_target.
 * @flags:	  KPROFILE_STREAM_*.
 * @mode:	  enum kprofile_mode; TABLE samples both modes.
 * @nr_sources:	  entries in @sources.
 * @sources:	  the sources, as requested.
 * @source_map:	  the same, as a bitmap (the sample path's test).
 * @has_time:	  ProfileTime is one of them.
 * @max_frames:	  call-stack entries per sample (0 without CALLCHAIN).
 * @ring_pages:	  data pages per ring.
 * @stack_bytes:  user stack bytes each sample copies (0 without
 *		  USER_STACK).
 * @nr_rings:	  rings (nr_cpu_ids).
 * @dumpable_only: record the target's tasks only while dumpable (see
 *		  kp_access_dumpable_only()).
 * @mm:		  the creator's address space (compared only; NULL for a
 *		  kernel thread's stream).
 * @charged_mm:	  the address space charged for the rings (mmgrab()), or
 *		  NULL.
 * @ns:		  the creator's pid namespace (a reference): pids in records.
 * @area:	  the rings: nr_rings * (1 + @ring_pages) pages, vmalloc_user().
 * @nr_pages:	  pages in @area (also charged to RLIMIT_MEMLOCK).
 * @rings:	  the module's side of each possible CPU's ring.
 * @scratch:	  per-CPU call-stack scratch, or NULL without CALLCHAIN.
 * @follow:	  the followed processes (KP_FOLLOW_SLOTS struct pid
 *		  pointers, each a reference; NULL for a system-wide stream).
 * @untracked:	  processes forked by followed ones that did not fit.
 * @exec_stopped: a followed process executed a program that left it
 *		  non-dumpable and is followed no more.
 * @interval:	  its own ProfileTime interval (100 ns units), or 0: the
 *		  machine-wide one; written only while stopped, under
 *		  @op_lock and the sampler's @lock (sampler_rate.c).
 * @op_lock:	  serialises start, stop and release (see the file comment).
 * @started:	  on the sampler's list (under the sampler's @lock).
 * @node:	  on the sampler's @streams.list while started.
 * @wait:	  where poll() waits (stream_wake.c).
 * @wake_work:	  wakes @wait from any context, NMI included.
 * @woken:	  a wake-up poll() has not reported yet.
 *
 * Everything above @untracked is immutable after creation.
 */
struct kp_stream {
	struct kp_sampler *set;
	u32 target;
	u32 flags;
	enum kprofile_mode mode;
	u32 nr_sources;
	u32 sources[KPROFILE_STREAM_MAX_SOURCES];
	DECLARE_BITMAP(source_map, KP_SOURCE_LIMIT);
	bool has_time;
	u32 max_frames;
	u32 ring_pages;
	u32 stack_bytes;
	unsigned int nr_rings;
	bool dumpable_only;
	const struct mm_struct *mm;
	struct mm_struct *charged_mm;
	struct pid_namespace *ns;
	void *area;
	unsigned long nr_pages;
	struct kp_stream_ring __percpu *rings;
	struct kp_stream_scratch __percpu *scratch;
	struct pid **follow;

	atomic64_t untracked;
	bool exec_stopped;
	u32 interval;
	struct mutex op_lock;	/* start, stop, release */
	bool started;
	struct list_head node;
	wait_queue_head_t wait;
	struct irq_work wake_work;
	atomic_t woken;
};

/* stream.c */
int kp_stream_check(const struct kprofile_create_stream *req);
int kp_stream_check_sources(const struct kp_sources *sources,
			    const u32 *src, u32 nr);
int kp_stream_check_access(const struct kprofile_create_stream *req,
			   const u32 *src, struct pid **tgid);
struct kp_stream *kp_stream_new(struct kp_sampler *set,
				const struct kprofile_create_stream *req,
				const u32 *src, struct pid *tgid);
void kp_stream_free(struct kp_stream *st);
int kp_stream_start(struct kp_stream *st, char *reason, size_t len);
int kp_stream_stop(struct kp_stream *st);
void kp_stream_get_info(struct kp_stream *st,
			struct kprofile_stream_info *info);
void kp_stream_set_init(struct kp_sampler *set);
void kp_stream_set_exit(struct kp_sampler *set);

/* stream_ring.c */
void kp_ring_init(struct kp_stream_ring *r, void *base, u32 cpu,
		  u32 data_pages);
void *kp_ring_begin(struct kp_stream_ring *r, u32 type, u32 size);
bool kp_ring_end(struct kp_stream_ring *r, u32 type);

/* stream_wake.c */
void kp_stream_wake_init(struct kp_stream *st);
void kp_stream_wake(struct kp_stream *st);
void kp_stream_wake_sync(struct kp_stream *st);
__poll_t kp_stream_poll(struct file *file, struct poll_table_struct *wait);

/* stream_sample.c */
bool kp_stream_sample_task(struct kp_sampler *set,
			   const struct kp_sample *s, struct task_struct *task,
			   struct pt_regs *regs);
bool kp_stream_sample(struct kp_sampler *set, const struct kp_sample *s,
		      struct pt_regs *regs);
bool kp_stream_time_wanted(struct kp_sampler *set,
			   struct task_struct *task);

/* stream_regs.c */
int kp_ustack_check(const struct kprofile_create_stream *req);
struct pt_regs *kp_ustack_regs(struct task_struct *task,
			       struct pt_regs *regs, bool user);
u32 kp_ustack_room(const struct kp_stream *st);
u32 kp_ustack_fill(const struct kp_stream *st,
		   struct kprofile_sample_stack *out, struct pt_regs *uregs,
		   bool *full);
void kp_ring_trim(struct kprofile_record_header *h, u32 size);

/* stream_follow.c */
bool kp_follow_find(struct pid **table, const struct pid *pid);
bool kp_follow_add(struct pid **table, struct pid *pid);
bool kp_follow_del(struct pid **table, const struct pid *pid);
bool kp_stream_follows(const struct kp_stream *st, const struct pid *tgid);
void kp_stream_fork(struct kp_sampler *set, struct task_struct *parent,
		    struct task_struct *child);
void kp_stream_exec(struct kp_sampler *set, struct task_struct *task);
void kp_stream_exit(struct kp_sampler *set, struct task_struct *task,
		    bool group_dead);
int kp_stream_hook(struct kp_sampler *set);
void kp_stream_unhook(struct kp_sampler *set);

#endif /* _KPROFILE_STREAM_H */

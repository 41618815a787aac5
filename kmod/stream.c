// SPDX-License-Identifier: GPL-2.0
/*
 * stream.c - sample stream objects (include/uapi/linux/kprofile_stream.h):
 * KPROFILE_IOC_CREATE_STREAM, and the file descriptor that owns a stream
 * (KPROFILE_IOC_START, _STOP, _STREAM_INFO, mmap(), close).
 *
 * Create checks the request in the order the header documents:
 *
 *   EINVAL	nonzero @reserved, unknown @flags, @target or @mode; a @pid
 *		without KPROFILE_TARGET_PID, or <= 0 with it; INHERIT with
 *		KPROFILE_TARGET_SYSTEM; @nr_sources outside 1..8; with
 *		CALLCHAIN, @max_frames above 127; @ring_pages not a power
 *		of two or above 1024; @stack_bytes (kp_ustack_check())
 *   EFAULT	@sources cannot be read
 *   EINVAL	an unknown or repeated source
 *   EOPNOTSUPP	a source not supported on this machine
 *   EPERM	kernel samples (any @mode but USER) without CAP_PERFMON;
 *		then the rules profiles follow too (kp_access_check()):
 *		system-wide, or a counter source, without CAP_PERFMON
 *   EACCES	kernel.perf_event_paranoid forbids it (profiles' rule)
 *   ESRCH	no process @pid
 *   EACCES	no ptrace-read access to @pid
 *   ENOMEM	out of memory, or RLIMIT_MEMLOCK (without CAP_IPC_LOCK)
 *
 * The rings are one vmalloc_user() area, nr_cpu_ids * (1 + ring_pages)
 * pages, charged to the creator's locked memory as profile buffers are
 * (account_locked_vm()), and mapped whole by mmap() (MAP_SHARED, offset
 * 0; VM_DONTEXPAND, VM_DONTDUMP).  Start arms the sources as profiles
 * do (ProfileTime's timers, kp_pmu_arm() for counter sources), then
 * publishes the stream to the sample path and the probes; stop
 * unpublishes it, disarms, and waits for a grace period (stream.h).  The
 * records stay in the rings; close frees everything once the last
 * mapping is gone.
 */
#include <linux/anon_inodes.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "access.h"
#include "compat.h"
#include "device.h"
#include "kprofile.h"
#include "sampler.h"
#include "stream.h"

#define KP_STREAM_FLAGS	(KPROFILE_STREAM_INHERIT | KPROFILE_STREAM_CALLCHAIN | \
			 KPROFILE_STREAM_USER_STACK)

/**
 * kp_stream_check() - the shape of a create request (first EINVAL group).
 * @req: the request.
 *
 * Return: 0 or -EINVAL.
 */
int kp_stream_check(const struct kprofile_create_stream *req)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(req->reserved); i++)
		if (req->reserved[i])
			return -EINVAL;
	if ((req->flags & ~KP_STREAM_FLAGS) ||
	    req->target > KPROFILE_TARGET_SYSTEM ||
	    req->mode > KPROFILE_MODE_BOTH ||
	    (req->target != KPROFILE_TARGET_PID && req->pid) ||
	    (req->target == KPROFILE_TARGET_PID && req->pid <= 0) ||
	    ((req->flags & KPROFILE_STREAM_INHERIT) &&
	     req->target == KPROFILE_TARGET_SYSTEM))
		return -EINVAL;
	if (!req->nr_sources || req->nr_sources > KPROFILE_STREAM_MAX_SOURCES)
		return -EINVAL;
	if ((req->flags & KPROFILE_STREAM_CALLCHAIN) &&
	    req->max_frames > KPROFILE_STREAM_MAX_FRAMES)
		return -EINVAL;
	if (req->ring_pages && (!is_power_of_2(req->ring_pages) ||
				req->ring_pages > KPROFILE_STREAM_MAX_PAGES))
		return -EINVAL;
	return kp_ustack_check(req);
}
EXPORT_SYMBOL_IF_KUNIT(kp_stream_check);

/**
 * kp_stream_check_sources() - the sources of a create request.
 * @sources: the source model.
 * @src:     the sources.
 * @nr:      entries at @src (kp_stream_check() bounded it).
 *
 * Return: 0; -EINVAL for an unknown or repeated source (before any
 * -EOPNOTSUPP); -EOPNOTSUPP for one not supported on this machine.
 */
int kp_stream_check_sources(const struct kp_sources *sources,
			    const u32 *src, u32 nr)
{
	unsigned int i, j;

	for (i = 0; i < nr; i++) {
		if (!kp_source_known(sources, src[i]))
			return -EINVAL;
		for (j = 0; j < i; j++)
			if (src[j] == src[i])
				return -EINVAL;
	}
	for (i = 0; i < nr; i++)
		if (!kp_source_supported(sources, src[i], NULL, 0))
			return -EOPNOTSUPP;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kp_stream_check_sources);

/**
 * kp_stream_check_access() - the privilege rules, and the target.
 * @req:  a request kp_stream_check() accepted.
 * @src:  its sources, accepted by kp_stream_check_sources().
 * @tgid: out: a reference to the target's thread-group pid, or NULL for
 *	  a system-wide stream.
 *
 * Kernel samples carry kernel addresses (secret under KASLR): any @mode
 * but KPROFILE_MODE_USER needs CAP_PERFMON.  The rest are the rules
 * profiles follow too (access.c, kp_access_check()), for the stream's
 * target and mode, with a counter source when it has one.
 *
 * Return: 0, -EPERM, -EACCES, -ESRCH (or what kp_access_check() returns
 * rarely).
 */
int kp_stream_check_access(const struct kprofile_create_stream *req,
			   const u32 *src, struct pid **tgid)
{
	struct kp_access_request ar = {
		.target = req->target,
		.pid = req->pid,
		.kernel_mode = req->mode != KPROFILE_MODE_USER,
	};
	unsigned int i;

	*tgid = NULL;
	if (req->mode != KPROFILE_MODE_USER && !perfmon_capable())
		return -EPERM;
	for (i = 0; i < req->nr_sources; i++)
		ar.counter |= src[i] != KPROFILE_SOURCE_TIME;
	return kp_access_check(&ar, tgid);
}
EXPORT_SYMBOL_IF_KUNIT(kp_stream_check_access);

/* The rings: one area, charged to the creator's locked memory. */
static int kp_stream_alloc_rings(struct kp_stream *st)
{
	unsigned long per_ring = 1 + (unsigned long)st->ring_pages;
	unsigned int cpu;
	int ret;

	st->nr_pages = st->nr_rings * per_ring;
	if (st->nr_pages > totalram_pages())
		return -ENOMEM;
	if (current->mm) {
		ret = account_locked_vm(current->mm, st->nr_pages, true);
		if (ret)
			return ret;
		st->charged_mm = current->mm;
		mmgrab(st->charged_mm);
	}
	st->area = vmalloc_user(st->nr_pages << PAGE_SHIFT);
	st->rings = alloc_percpu(struct kp_stream_ring);
	if (!st->area || !st->rings)
		return -ENOMEM;
	for (cpu = 0; cpu < st->nr_rings; cpu++) {
		void *base = st->area + ((cpu * per_ring) << PAGE_SHIFT);

		if (cpu_possible(cpu))
			kp_ring_init(per_cpu_ptr(st->rings, cpu), base, cpu,
				     st->ring_pages);
		else	/* a header the reader understands; never written */
			kp_ring_init(&(struct kp_stream_ring){}, base, cpu,
				     st->ring_pages);
	}
	return 0;
}

/* Free a stream that is not started (and never will be again). */
static void kp_stream_destroy(struct kp_stream *st)
{
	unsigned int i;
	struct pid *p;

	if (st->follow) {
		for (i = 0; i < KP_FOLLOW_SLOTS; i++) {
			p = st->follow[i];
			if (p && p != KP_FOLLOW_TOMBSTONE)
				put_pid(p);
		}
		kvfree(st->follow);
	}
	kp_stream_wake_sync(st);
	free_percpu(st->scratch);
	free_percpu(st->rings);
	vfree(st->area);
	if (st->charged_mm) {
		account_locked_vm(st->charged_mm, st->nr_pages, false);
		mmdrop(st->charged_mm);
	}
	if (st->ns)
		put_pid_ns(st->ns);
	mutex_destroy(&st->op_lock);
	kfree(st);
}

/**
 * kp_stream_new() - a stopped stream of a validated request.
 * @set:  the sampler it belongs to.
 * @req:  a request kp_stream_check() accepted.
 * @src:  its sources, accepted by kp_stream_check_sources().
 * @tgid: the target's thread-group pid, or NULL (system-wide); the stream
 *	  takes over this reference (put on failure too).
 *
 * The rings are charged to the caller's locked memory (none for a kernel
 * thread); pids in records are those of the caller's pid namespace; the
 * caller's address space is the one a stream of oneself keeps recording
 * when it turns non-dumpable.  @dumpable_only is false: the caller sets
 * it (kp_access_dumpable_only()).
 * Context: process; sleeps.
 *
 * Return: the stream, or an ERR_PTR(): -ENOMEM (including RLIMIT_MEMLOCK).
 */
struct kp_stream *kp_stream_new(struct kp_sampler *set,
				const struct kprofile_create_stream *req,
				const u32 *src, struct pid *tgid)
{
	struct kp_stream *st;
	unsigned int i;
	int ret = -ENOMEM;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st) {
		put_pid(tgid);
		return ERR_PTR(-ENOMEM);
	}
	mutex_init(&st->op_lock);
	INIT_LIST_HEAD(&st->node);
	kp_stream_wake_init(st);
	atomic64_set(&st->untracked, 0);
	st->set = set;
	st->target = req->target;
	st->flags = req->flags;
	st->mode = req->mode;
	st->nr_sources = req->nr_sources;
	for (i = 0; i < req->nr_sources; i++) {
		st->sources[i] = src[i];
		__set_bit(src[i], st->source_map);
		st->has_time |= src[i] == KPROFILE_SOURCE_TIME;
	}
	if (req->flags & KPROFILE_STREAM_CALLCHAIN)
		st->max_frames = req->max_frames ?: KPROFILE_STREAM_DEFAULT_FRAMES;
	st->ring_pages = req->ring_pages ?: KPROFILE_STREAM_DEFAULT_PAGES;
	if (req->flags & KPROFILE_STREAM_USER_STACK)
		st->stack_bytes = req->stack_bytes ?:
				  KPROFILE_STREAM_DEFAULT_STACK;
	st->nr_rings = nr_cpu_ids;
	st->mm = current->mm;
	st->ns = get_pid_ns(task_active_pid_ns(current));

	if (tgid) {
		st->follow = kvcalloc(KP_FOLLOW_SLOTS, sizeof(*st->follow),
				      GFP_KERNEL);
		if (!st->follow || !kp_follow_add(st->follow, tgid)) {
			put_pid(tgid);
			goto err;
		}
	}
	if (st->max_frames) {
		st->scratch = alloc_percpu(struct kp_stream_scratch);
		if (!st->scratch)
			goto err;
	}
	ret = kp_stream_alloc_rings(st);
	if (ret)
		goto err;
	return st;

err:
	kp_stream_destroy(st);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_IF_KUNIT(kp_stream_new);

static int kp_stream_arm(struct kp_stream *st, u32 source, char *reason,
			 size_t len)
{
	if (source == KPROFILE_SOURCE_TIME) {
		kp_stimer_get(st->set);
		return 0;
	}
	/* Shared with profiles of its mode (kp_counter_mode()). */
	return kp_pmu_arm(st->set->pmu, source, kp_counter_mode(st->mode), NULL,
			  reason, len);
}

static void kp_stream_disarm(struct kp_stream *st, u32 source)
{
	if (source == KPROFILE_SOURCE_TIME)
		kp_stimer_put(st->set);
	else
		kp_pmu_disarm(st->set->pmu, source, kp_counter_mode(st->mode));
}

/**
 * kp_stream_start() - KPROFILE_IOC_START on a stream.
 * @st:     the stream.
 * @reason: on failure, why (may be NULL).
 * @len:    bytes at @reason.
 *
 * Arms every source (the first stream also registers the fork, exec and
 * exit probes), then publishes the stream to the sample path.
 * Context: process; sleeps.
 *
 * Return: 0; -EBUSY when started (or no counter is free); an error of
 * kp_pmu_arm(); -EOPNOTSUPP when INHERIT needs the fork tracepoint and
 * the kernel has none.
 */
int kp_stream_start(struct kp_stream *st, char *reason, size_t len)
{
	struct kp_sampler *set = st->set;
	unsigned int i = 0;
	int ret;

	if (reason && len)
		reason[0] = '\0';
	mutex_lock(&st->op_lock);
	mutex_lock(&set->lock);
	if (st->started) {
		ret = -EBUSY;
		goto out;
	}
	/* Without the tracepoints: no task records, and no INHERIT. */
	ret = kp_stream_hook(set);
	if (ret && (st->flags & KPROFILE_STREAM_INHERIT))
		goto out;
	ret = 0;
	for (i = 0; i < st->nr_sources; i++) {
		ret = kp_stream_arm(st, st->sources[i], reason, len);
		if (ret)
			goto err_arm;
	}
	list_add_tail_rcu(&st->node, &set->streams.list);
	set->streams.nr_started++;
	st->started = true;
	if (st->has_time) {
		kp_rate_update(set);
		kp_stimer_update(set);	/* where its processes run now */
	}
	goto out;

err_arm:
	while (i--)
		kp_stream_disarm(st, st->sources[i]);
	if (!set->streams.nr_started)
		kp_stream_unhook(set);
out:
	mutex_unlock(&set->lock);
	mutex_unlock(&st->op_lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(kp_stream_start);

/**
 * kp_stream_stop() - KPROFILE_IOC_STOP on a stream.
 * @st: the stream.
 *
 * Unpublishes the stream, disarms its sources (the last stream of the sampler
 * unregisters the probes), and waits until no interrupt or probe uses it.
 * The records stay in the rings.
 * Context: process; sleeps (an RCU grace period).
 *
 * Return: 0, or -EALREADY when not started.
 */
int kp_stream_stop(struct kp_stream *st)
{
	struct kp_sampler *set = st->set;
	unsigned int i;

	mutex_lock(&st->op_lock);
	mutex_lock(&set->lock);
	if (!st->started) {
		mutex_unlock(&set->lock);
		mutex_unlock(&st->op_lock);
		return -EALREADY;
	}
	list_del_rcu(&st->node);
	set->streams.nr_started--;
	st->started = false;
	for (i = 0; i < st->nr_sources; i++)
		kp_stream_disarm(st, st->sources[i]);
	if (!set->streams.nr_started)
		kp_stream_unhook(set);
	if (st->has_time)
		kp_rate_update(set);
	mutex_unlock(&set->lock);
	/* NMI handlers, hrtimers and the probes are RCU readers. */
	synchronize_rcu();
	mutex_unlock(&st->op_lock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kp_stream_stop);

/**
 * kp_stream_free() - stop (if started) and free a stream.
 * @st: the stream, or NULL; nothing maps its rings any more.
 *
 * Context: process; sleeps.
 */
void kp_stream_free(struct kp_stream *st)
{
	if (!st)
		return;
	kp_stream_stop(st);
	kp_stream_destroy(st);
}
EXPORT_SYMBOL_IF_KUNIT(kp_stream_free);

/**
 * kp_stream_get_info() - KPROFILE_IOC_STREAM_INFO.
 * @st:   the stream.
 * @info: filled in (reserved fields zeroed); the counters are the sums
 *	  of every ring's.
 */
void kp_stream_get_info(struct kp_stream *st,
			struct kprofile_stream_info *info)
{
	unsigned int cpu;

	memset(info, 0, sizeof(*info));
	info->nr_rings = st->nr_rings;
	info->ring_pages = st->ring_pages;
	info->page_size = PAGE_SIZE;
	info->started = READ_ONCE(st->started);
	for_each_possible_cpu(cpu) {
		struct kp_stream_ring *r = per_cpu_ptr(st->rings, cpu);

		info->samples += local64_read(&r->samples);
		info->lost += local64_read(&r->lost);
		info->not_dumpable += local64_read(&r->not_dumpable);
		info->stack_short += local64_read(&r->stack_short);
	}
	info->untracked = atomic64_read(&st->untracked);
	info->flags = KPROFILE_STREAM_INFO_POLL;
	if (READ_ONCE(st->exec_stopped))
		info->flags |= KPROFILE_PROFILE_EXEC_STOPPED;
}
EXPORT_SYMBOL_IF_KUNIT(kp_stream_get_info);

static long kp_stream_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	struct kp_stream *st = file->private_data;
	char reason[KPROFILE_REASON_LEN];
	struct kprofile_stream_info info;
	struct kprofile_interval iv;
	int ret;

	switch (cmd) {
	case KPROFILE_IOC_SET_INTERVAL:
		if (copy_from_user(&iv, (void __user *)arg, sizeof(iv)))
			return -EFAULT;
		ret = kp_stream_set_interval(st, &iv);
		if (!ret && copy_to_user((void __user *)arg, &iv, sizeof(iv)))
			return -EFAULT;
		return ret;
	case KPROFILE_IOC_START:
		ret = kp_stream_start(st, reason, sizeof(reason));
		if (ret && reason[0])
			pr_debug(KP_NAME ": stream start: %s\n", reason);
		return ret;
	case KPROFILE_IOC_STOP:
		return kp_stream_stop(st);
	case KPROFILE_IOC_STREAM_INFO:
		kp_stream_get_info(st, &info);
		if (copy_to_user((void __user *)arg, &info, sizeof(info)))
			return -EFAULT;
		return 0;
	default:
		return -ENOTTY;
	}
}

/* The whole area, shared, from offset 0: anything else is -EINVAL. */
static int kp_stream_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct kp_stream *st = file->private_data;

	if (!(vma->vm_flags & VM_SHARED) || vma->vm_pgoff ||
	    vma_pages(vma) != st->nr_pages)
		return -EINVAL;
	/* Sets VM_DONTEXPAND and VM_DONTDUMP. */
	return remap_vmalloc_range(vma, st->area, 0);
}

static int kp_stream_release(struct inode *inode, struct file *file)
{
	kp_stream_free(file->private_data);
	return 0;
}

static const struct file_operations kp_stream_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = kp_stream_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = kp_stream_mmap,
	.poll = kp_stream_poll,
	.release = kp_stream_release,
	.llseek = noop_llseek,
};

/* The sources of @req, copied in. */
static int kp_stream_user_sources(const struct kprofile_create_stream *req,
				  u32 *src)
{
	if (copy_from_user(src, u64_to_user_ptr(req->sources),
			   req->nr_sources * sizeof(*src)))
		return -EFAULT;
	return 0;
}

/**
 * kp_ioctl_create_stream() - KPROFILE_IOC_CREATE_STREAM.
 * @dev:  the device.
 * @argp: struct kprofile_create_stream.
 *
 * Validates the request (the file comment lists the errors in order),
 * then returns a new stream file descriptor, stopped.  The fd holds a
 * reference on the module.
 *
 * Return: the fd, or a negative errno.
 */
long kp_ioctl_create_stream(struct kp_device *dev, void __user *argp)
{
	struct kprofile_create_stream req;
	u32 src[KPROFILE_STREAM_MAX_SOURCES];
	struct kp_stream *st;
	struct pid *tgid;
	int ret;

	if (copy_from_user(&req, argp, sizeof(req)))
		return -EFAULT;
	ret = kp_stream_check(&req);
	if (ret)
		return ret;
	ret = kp_stream_user_sources(&req, src);
	if (ret)
		return ret;
	ret = kp_stream_check_sources(&dev->sources, src, req.nr_sources);
	if (ret)
		return ret;
	ret = kp_stream_check_access(&req, src, &tgid);
	if (ret)
		return ret;
	st = kp_stream_new(kp_sampler_module(), &req, src, tgid);
	if (IS_ERR(st))
		return PTR_ERR(st);
	st->dumpable_only = kp_access_dumpable_only(req.target, tgid);
	ret = anon_inode_getfd("[kprofile-stream]", &kp_stream_fops, st,
			       O_RDWR | O_CLOEXEC);
	if (ret < 0)
		kp_stream_free(st);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * profile.c - profile objects (docs/profiles.md): create (NtCreateProfileEx),
 * start (NtStartProfile), stop (NtStopProfile), statistics, and the file
 * descriptor that owns a profile.
 *
 * A profile is created stopped.  Start pins the caller's buffer, makes it
 * visible to the hit path, and arms the source: ProfileTime takes a
 * reference on the sampler's per-CPU timers, a counter source one arm of the
 * hardware layer (kp_pmu_arm(), refcounted there), so the first started
 * profile of a source arms it and the last to stop disarms it.  Stop
 * undoes that in reverse; the counts stay in the caller's buffer.  Closing
 * the fd stops the profile and frees it.  See profile.h for the locking.
 */
#include <linux/anon_inodes.h>
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include "access.h"
#include "compat.h"
#include "device.h"
#include "kprofile.h"
#include "profile.h"

/**
 * kp_profile_new() - a stopped profile of a validated request.
 * @set:  the sampler it belongs to.
 * @req:  a request kp_profile_check() accepted.
 * @tgid: the target's thread-group pid, or NULL (system-wide); the
 *	  profile takes over this reference.
 * @cpus: the CPUs, or NULL (or empty) for every CPU.
 *
 * Context: process.  The buffer's address space is the caller's: a
 * profile created by a user process remembers it (start must come from
 * it); one a kernel thread (a test) creates has none and can only be
 * started with kp_profile_start_buf().
 *
 * Return: the profile, or NULL (out of memory; @tgid is then put).
 */
struct kp_profile *kp_profile_new(struct kp_sampler *set,
				  const struct kprofile_create_profile *req,
				  struct pid *tgid, const struct cpumask *cpus)
{
	struct kp_profile *p;
	u64 n = req->size >> req->bucket_shift;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		goto err;
	if (!zalloc_cpumask_var(&p->cpus, GFP_KERNEL))
		goto err_p;
	p->stat = alloc_percpu(struct kp_profile_stat);
	if (!p->stat)
		goto err_cpus;
	refcount_set(&p->refs, 1);
	p->set = set;
	p->source = req->source;
	p->target = req->target;
	p->mode = req->mode;
	p->base = req->base;
	p->size = req->size;
	p->shift = req->bucket_shift;
	p->nr_buckets = n + !!(req->size & (BIT_ULL(p->shift) - 1));
	p->ubuf = (unsigned long)req->buffer;
	p->tgid = tgid;
	p->all_cpus = !cpus || cpumask_empty(cpus);
	if (!p->all_cpus)
		cpumask_copy(p->cpus, cpus);
	if (current->mm) {
		p->mm = current->mm;
		mmgrab(p->mm);
	}
	INIT_LIST_HEAD(&p->node);
	return p;

err_cpus:
	free_cpumask_var(p->cpus);
err_p:
	kfree(p);
err:
	put_pid(tgid);
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(kp_profile_new);

/**
 * kp_profile_get() - take a reference on a profile (its memory stays).
 * @p: the profile; the caller holds a reference already.
 */
void kp_profile_get(struct kp_profile *p)
{
	refcount_inc(&p->refs);
}

/**
 * kp_profile_put() - drop a reference; the last one frees the profile.
 * @p: the profile.
 *
 * Context: process.
 */
void kp_profile_put(struct kp_profile *p)
{
	if (!refcount_dec_and_test(&p->refs))
		return;
	if (p->mm)
		mmdrop(p->mm);
	put_pid(p->tgid);
	free_percpu(p->stat);
	free_cpumask_var(p->cpus);
	kfree(p);
}

/* After a grace period: no interrupt sees @buf or its profile any more. */
static void kp_profile_release_work(struct work_struct *work)
{
	struct kp_profile_buf *buf = container_of(to_rcu_work(work),
						  struct kp_profile_buf,
						  rwork);
	struct kp_profile *p = buf->owner;

	kp_profile_buf_release(buf);
	kp_profile_put(p);
}

/**
 * kp_profile_free() - stop (if started) and free a profile.
 * @p: the profile, or NULL.
 *
 * The memory goes when the last buffer release stop deferred has run.
 * Context: process; sleeps.
 */
void kp_profile_free(struct kp_profile *p)
{
	if (!p)
		return;
	kp_profile_stop(p);
	kp_profile_put(p);
}
EXPORT_SYMBOL_IF_KUNIT(kp_profile_free);

static int kp_profile_arm(struct kp_profile *p, char *reason, size_t len)
{
	struct kp_sampler *set = p->set;

	if (p->source == KPROFILE_SOURCE_TIME) {
		kp_stimer_get(set);
		return 0;
	}
	/*
	 * Profiles of one source and mode share one counter and its
	 * sampling rate; both modes (and the table's) share the table's
	 * counter, and each profile filters the mode in the hit path.  A
	 * user or kernel profile counts in its mode only (kp_counter_mode()).
	 */
	return kp_pmu_arm(set->pmu, p->source, kp_counter_mode(p->mode),
			  p->all_cpus ? NULL : p->cpus, reason, len);
}

static void kp_profile_disarm(struct kp_profile *p)
{
	if (p->source == KPROFILE_SOURCE_TIME)
		kp_stimer_put(p->set);
	else
		kp_pmu_disarm(p->set->pmu, p->source, kp_counter_mode(p->mode));
}

/**
 * kp_profile_start_buf() - start a profile on a given buffer.
 * @p:      a profile.
 * @buf:    its buckets; owned by the profile from here on when this
 *	    succeeds (released at stop), the caller's on failure.
 * @reason: on failure, why (may be NULL).
 * @len:    bytes at @reason.
 *
 * The source is armed, then the buffer published to the hit path and the
 * profile linked on its source's list.
 * Context: process; takes the sampler's lock.
 *
 * Return: 0; -EBUSY if @p is started; -ENOMEM; an error of kp_pmu_arm()
 * (-EBUSY when no counter is free, -EOPNOTSUPP, -EINVAL).
 */
int kp_profile_start_buf(struct kp_profile *p, struct kp_profile_buf *buf,
			 char *reason, size_t len)
{
	struct kp_sampler *set = p->set;
	int ret;

	if (reason && len)
		reason[0] = '\0';
	mutex_lock(&set->lock);
	if (p->started) {
		if (reason)
			scnprintf(reason, len, "the profile is started already");
		ret = -EBUSY;
		goto out;
	}
	ret = kp_profile_arm(p, reason, len);
	if (ret)
		goto out;
	rcu_assign_pointer(p->buf, buf);
	kp_profile_index_link(set, p);
	ret = kp_profile_index_rebuild(set, p->source, GFP_KERNEL);
	if (ret) {
		list_del_init(&p->node);
		RCU_INIT_POINTER(p->buf, NULL);
		kp_profile_disarm(p);
		goto out;
	}
	p->started = true;
	if (p->source == KPROFILE_SOURCE_TIME) {
		kp_rate_update(set);
		kp_stimer_update(set);	/* where its task runs now */
	}
out:
	mutex_unlock(&set->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(kp_profile_start_buf);

/*
 * Why kp_profile_buf_pin() refused @p's buckets (@err), as
 * account_locked_vm() decides: RLIMIT_MEMLOCK binds without CAP_IPC_LOCK.
 */
static void kp_profile_pin_reason(struct kp_profile *p, int err,
				  char *reason, size_t len)
{
	unsigned long first = p->ubuf >> PAGE_SHIFT;
	unsigned long last = (p->ubuf + p->nr_buckets * sizeof(u32) - 1) >>
			     PAGE_SHIFT;
	unsigned long pages = last - first + 1;
	unsigned long limit = rlimit(RLIMIT_MEMLOCK);
	unsigned long locked = READ_ONCE(current->mm->locked_vm);

	if (!reason)
		return;
	if (err == -ENOMEM && limit != RLIM_INFINITY &&
	    !ns_capable_noaudit(&init_user_ns, CAP_IPC_LOCK) &&
	    locked + pages > limit >> PAGE_SHIFT)
		scnprintf(reason, len,
			  "locking the buffer's %lu pages would exceed RLIMIT_MEMLOCK (%lu KiB, %lu KiB locked already)",
			  pages, limit >> 10, locked << (PAGE_SHIFT - 10));
	else if (err == -ENOMEM)
		scnprintf(reason, len,
			  "no memory to pin the buffer's %lu pages", pages);
	else if (err == -EFAULT)
		scnprintf(reason, len,
			  "the buffer is no longer writable memory that can be pinned (unmapped or remapped since the profile was created)");
	else
		scnprintf(reason, len, "cannot pin the buffer's %lu pages",
			  pages);
}

/**
 * kp_profile_start() - KPROFILE_IOC_START (NtStartProfile).
 * @p:      a profile a user process created.
 * @reason: on failure, why (may be NULL).
 * @len:    bytes at @reason.
 *
 * Pins the buffer, then starts the profile (kp_profile_start_buf()).
 * Context: process, in the creator's address space.
 *
 * Return: 0, -EBUSY (started already, or no counter free), -EXDEV (called
 * from another address space than the creator's), -ENOMEM (including
 * RLIMIT_MEMLOCK), -EFAULT (the buffer can no longer be pinned), or an
 * error of kp_pmu_arm().
 */
int kp_profile_start(struct kp_profile *p, char *reason, size_t len)
{
	struct kp_profile_buf *buf;
	int ret;

	if (reason && len)
		reason[0] = '\0';
	if (READ_ONCE(p->started)) {
		if (reason)
			scnprintf(reason, len, "the profile is started already");
		return -EBUSY;
	}
	if (!p->mm || p->mm != current->mm) {
		if (reason)
			scnprintf(reason, len,
				  "only the process that created the profile may start it (the buffer is in its memory)");
		return -EXDEV;
	}
	buf = kp_profile_buf_pin(p->mm, p->ubuf, p->nr_buckets, &p->buf_lost);
	if (IS_ERR(buf)) {
		kp_profile_pin_reason(p, PTR_ERR(buf), reason, len);
		return PTR_ERR(buf);
	}
	ret = kp_profile_start_buf(p, buf, reason, len);
	if (ret)
		kp_profile_buf_release(buf);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(kp_profile_start);

/**
 * kp_profile_stop() - KPROFILE_IOC_STOP (NtStopProfile).
 * @p: the profile.
 *
 * The buffer is withdrawn from the hit path first (a hit racing with
 * stop counts as unavailable), the profile unlinked from the hit path's
 * index and its source disarmed.  Stop does not wait for the hit path:
 * the buffer is unpinned by a work item after an RCU grace period, so
 * stopping many profiles costs no grace period each.  The counts stay in
 * the caller's buffer (they may still grow by an interrupt in flight).
 * Context: process; sleeps (the sampler's lock, the timer's cancel).
 *
 * Return: 0, or -EALREADY when @p is not started.
 */
int kp_profile_stop(struct kp_profile *p)
{
	struct kp_sampler *set = p->set;
	struct kp_profile_buf *buf;

	mutex_lock(&set->lock);
	if (!p->started) {
		mutex_unlock(&set->lock);
		return -EALREADY;
	}
	buf = rcu_dereference_protected(p->buf, lockdep_is_held(&set->lock));
	RCU_INIT_POINTER(p->buf, NULL);
	list_del_init(&p->node);
	kp_profile_index_remove(set, p);
	kp_profile_disarm(p);
	p->started = false;
	if (p->source == KPROFILE_SOURCE_TIME)
		kp_rate_update(set);
	mutex_unlock(&set->lock);
	refcount_inc(&p->refs);
	buf->owner = p;
	INIT_RCU_WORK(&buf->rwork, kp_profile_release_work);
	queue_rcu_work(set->release, &buf->rwork);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kp_profile_stop);

/**
 * kp_profile_buf_lost() - whether the buffer's mapping changed while the
 *	profile ran (since its last start).
 * @p: the profile.
 *
 * Return: true when later hits went to unavailable, not to the buckets.
 */
bool kp_profile_buf_lost(struct kp_profile *p)
{
	return READ_ONCE(p->buf_lost);
}

/**
 * kp_profile_start_ex() - KPROFILE_IOC_START_EX: KPROFILE_IOC_START, and
 *	the reason of a refusal.
 * @p:    the profile.
 * @ures: the caller's struct kprofile_start_result.
 *
 * @ures is zeroed before the start is tried, so that a caller who gets an
 * error has the reason with it: it is written after a refusal.
 * Context: process, in the creator's address space.
 *
 * Return: 0; -EFAULT (not started) when @ures cannot be written; an error
 * of kp_profile_start(), whose reason is in @ures->reason (if @ures can no
 * longer be written then, the error stands without it).
 */
static long kp_profile_start_ex(struct kp_profile *p,
				struct kprofile_start_result __user *ures)
{
	char reason[KPROFILE_REASON_LEN] = "";
	int ret;

	if (clear_user(ures, sizeof(*ures)))
		return -EFAULT;
	ret = kp_profile_start(p, reason, sizeof(reason));
	if (ret && copy_to_user(ures->reason, reason, sizeof(reason)))
		pr_debug(KP_NAME ": start: %s (not written back)\n", reason);
	return ret;
}

static long kp_profile_ioctl(struct file *file, unsigned int cmd,
			     unsigned long arg)
{
	struct kp_profile *p = file->private_data;
	struct kprofile_profile_stats_ex stx;
	struct kprofile_profile_stats st;
	char reason[KPROFILE_REASON_LEN];
	struct kprofile_interval iv;
	int ret;

	switch (cmd) {
	case KPROFILE_IOC_SET_INTERVAL:
		if (copy_from_user(&iv, (void __user *)arg, sizeof(iv)))
			return -EFAULT;
		ret = kp_profile_set_interval(p, &iv);
		if (!ret && copy_to_user((void __user *)arg, &iv, sizeof(iv)))
			return -EFAULT;
		return ret;
	case KPROFILE_IOC_START:
		ret = kp_profile_start(p, reason, sizeof(reason));
		if (ret && reason[0])
			pr_debug(KP_NAME ": start: %s\n", reason);
		return ret;
	case KPROFILE_IOC_START_EX:
		return kp_profile_start_ex(p, (void __user *)arg);
	case KPROFILE_IOC_STOP:
		return kp_profile_stop(p);
	case KPROFILE_IOC_PROFILE_STATS:
		kp_profile_get_stats(p, &st);
		if (copy_to_user((void __user *)arg, &st, sizeof(st)))
			return -EFAULT;
		return 0;
	case KPROFILE_IOC_PROFILE_STATS_EX:
		kp_profile_get_stats_ex(p, &stx);
		if (copy_to_user((void __user *)arg, &stx, sizeof(stx)))
			return -EFAULT;
		return 0;
	default:
		return -ENOTTY;
	}
}

static int kp_profile_release(struct inode *inode, struct file *file)
{
	kp_profile_free(file->private_data);
	return 0;
}

static const struct file_operations kp_profile_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = kp_profile_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.release = kp_profile_release,
	.llseek = noop_llseek,
};

/*
 * A user CPU bitmap (as sched_setaffinity()'s); bits of impossible CPUs
 * are dropped, and a set naming only impossible CPUs is -EINVAL.
 */
static int kp_profile_user_cpus(const struct kprofile_create_profile *req,
				struct cpumask *cpus)
{
	u32 size = min_t(u32, req->cpus_size, cpumask_size());

	cpumask_clear(cpus);
	if (copy_from_user(cpus, u64_to_user_ptr(req->cpus), size))
		return -EFAULT;
	if (bitmap_empty(cpumask_bits(cpus), size * BITS_PER_BYTE))
		return 0;	/* empty: every CPU */
	cpumask_and(cpus, cpus, cpu_possible_mask);
	return cpumask_empty(cpus) ? -EINVAL : 0;
}

/**
 * kp_ioctl_create_profile() - KPROFILE_IOC_CREATE_PROFILE
 *	(NtCreateProfileEx).
 * @dev:  the device.
 * @argp: struct kprofile_create_profile.
 *
 * Validates the request (profile_check.c lists the errors in order),
 * then returns a new profile file descriptor, stopped.  The fd holds a
 * reference on the module: it cannot be unloaded while a profile is open.
 *
 * Return: the fd, or a negative errno: those of kp_profile_check(),
 * kp_profile_check_buffer() and kp_profile_check_access(), -EFAULT for
 * an unreadable request or CPU set, -ENOMEM, -EMFILE.
 */
long kp_ioctl_create_profile(struct kp_device *dev, void __user *argp)
{
	struct kprofile_create_profile req;
	struct kp_profile *p;
	cpumask_var_t cpus;
	struct pid *tgid;
	u64 nr_buckets;
	int ret;

	if (copy_from_user(&req, argp, sizeof(req)))
		return -EFAULT;
	ret = kp_profile_check(&dev->sources, &req, &nr_buckets);
	if (ret)
		return ret;
	ret = kp_profile_check_buffer(&req, nr_buckets);
	if (ret)
		return ret;
	if (!zalloc_cpumask_var(&cpus, GFP_KERNEL))
		return -ENOMEM;
	if (req.cpus_size) {
		ret = kp_profile_user_cpus(&req, cpus);
		if (ret)
			goto out_cpus;
	}
	ret = kp_profile_check_access(&req, &tgid);
	if (ret)
		goto out_cpus;
	p = kp_profile_new(kp_sampler_module(), &req, tgid, cpus);
	if (!p) {
		ret = -ENOMEM;
		goto out_cpus;
	}
	p->dumpable_only = kp_access_dumpable_only(req.target, p->tgid);
	ret = anon_inode_getfd("[kprofile-profile]", &kp_profile_fops, p,
			       O_RDWR | O_CLOEXEC);
	if (ret < 0)
		kp_profile_free(p);
out_cpus:
	free_cpumask_var(cpus);
	return ret;
}

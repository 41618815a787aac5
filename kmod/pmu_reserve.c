// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_reserve.c - counter reservation (HalAllocateHardwareCounters /
 * HalFreeHardwareCounters; docs/hardware.md, "Reservation"): a resource list of Single, Range,
 * Overflow and EventBuffer descriptors (PHYSICAL_COUNTER_RESOURCE_
 * DESCRIPTOR) and a CPU set; no counter in the list means the whole PMU.
 *
 * A reservation takes its counters from kprofile and from Linux
 * (reserve_perfctr_nmi()), so while it lives perf's hardware events fail
 * with EBUSY, and while perf (the NMI watchdog) holds the PMU a
 * reservation fails with EBUSY and says so.  Linux arbitrates counters
 * machine-wide: the counters are held on every CPU, the CPU set is checked
 * and kept for the holder's information.  Nothing is programmed: the
 * holder programs its counters.  An Overflow descriptor makes kprofile take
 * the counters' PMIs (acknowledge, unmask the LVTPC, count, and call the
 * in-kernel handler), so they are not "unknown NMIs".  EventBuffer (PEBS)
 * is not supported.
 *
 * From user space the reservation is a file descriptor (KPROFILE_IOC_RESERVE)
 * freed on close; in the kernel, kprofile_reserve_counters() and
 * kprofile_release_counters().
 */
#include <linux/anon_inodes.h>
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kprofile.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "compat.h"
#include "device.h"
#include "kprofile.h"

#define KP_RESERVE_MAX_DESCS	64

/**
 * struct kprofile_reservation - a set of reserved counters.
 * @pmu:   the layer they come from.
 * @mask:  the counters.
 * @cpus:  the CPU set asked for.
 * @claim: overflow claim (Overflow descriptor), or NULL.
 */
struct kprofile_reservation {
	struct kp_pmu *pmu;
	u64 mask;
	cpumask_var_t cpus;
	struct kp_claim *claim;
};

static int kp_reserve_parse(struct kp_pmu *pmu,
			    const struct kprofile_counter_desc *descs, u32 nr,
			    u64 *mask, bool *overflow, char *reason,
			    size_t len)
{
	u32 i, j, n = pmu->desc->num_counters;

	*mask = 0;
	*overflow = false;
	for (i = 0; i < nr; i++) {
		const struct kprofile_counter_desc *d = &descs[i];

		if (d->flags || d->reserved)
			return -EINVAL;
		switch (d->type) {
		case KPROFILE_COUNTER_SINGLE:
			if (d->end)
				return -EINVAL;
			if (d->begin >= n)
				goto range;
			*mask |= BIT_ULL(d->begin);
			break;
		case KPROFILE_COUNTER_RANGE:
			if (d->begin > d->end)
				return -EINVAL;
			if (d->end >= n)
				goto range;
			for (j = d->begin; j <= d->end; j++)
				*mask |= BIT_ULL(j);
			break;
		case KPROFILE_COUNTER_OVERFLOW:
			if (d->begin || d->end)
				return -EINVAL;
			*overflow = true;
			break;
		case KPROFILE_COUNTER_EVENT_BUFFER:
			scnprintf(reason, len,
				  "EventBuffer (PEBS) reservations are not supported");
			return -EOPNOTSUPP;
		default:
			return -EINVAL;
		}
	}
	if (!*mask && n)
		*mask = kp_pmu_usable_counters(pmu);
	return 0;

range:
	scnprintf(reason, len, "this processor has counters 0..%u", n - 1);
	return -EINVAL;
}

/**
 * kp_reserve() - HalAllocateHardwareCounters.
 * @pmu:    the layer.
 * @descs:  the resource list (may be NULL when @nr is 0).
 * @nr:     entries in @descs; no Single or Range entry reserves every
 *	    counter.
 * @cpus:   the CPU set, or NULL for all; it must contain an online CPU.
 * @fn:     in-kernel overflow handler (NMI context), or NULL; with an
 *	    Overflow descriptor or @fn, kprofile takes the counters' PMIs.
 * @data:   for @fn.
 * @owner:  who, for messages ("pid 42").
 * @out:    the reservation.
 * @reason: on failure, why (at least KPROFILE_REASON_LEN bytes).
 * @len:    bytes at @reason.
 *
 * All or nothing; nothing is written to any register.
 * Context: process; may sleep.
 *
 * Return: 0; -EINVAL (bad descriptor or CPU set), -EOPNOTSUPP (no PMU, or
 * EventBuffer), -EBUSY (a counter is held: by perf, a profile, another
 * reservation or thread profiling; @reason says which), -ENOMEM.
 */
int kp_reserve(struct kp_pmu *pmu, const struct kprofile_counter_desc *descs,
	       u32 nr, const struct cpumask *cpus, kp_claim_fn fn, void *data,
	       const char *owner, struct kprofile_reservation **out,
	       char *reason, size_t len)
{
	struct kprofile_reservation *r;
	bool overflow;
	u64 mask;
	int ret;

	reason[0] = '\0';
	if (!pmu->ops) {
		scnprintf(reason, len, "no profile interface: %s",
			  pmu->desc->reason);
		return -EOPNOTSUPP;
	}
	ret = kp_reserve_parse(pmu, descs, nr, &mask, &overflow, reason, len);
	if (ret)
		return ret;
	if (cpus && !cpumask_intersects(cpus, cpu_online_mask)) {
		scnprintf(reason, len, "none of the CPUs is online");
		return -EINVAL;
	}
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	ret = -ENOMEM;
	if (!zalloc_cpumask_var(&r->cpus, GFP_KERNEL))
		goto err_free;
	cpumask_copy(r->cpus, cpus ?: cpu_online_mask);
	if (overflow || fn) {
		r->claim = kzalloc(sizeof(*r->claim), GFP_KERNEL);
		if (!r->claim)
			goto err_mask;
		r->claim->fn = fn;
		r->claim->data = data;
	}
	ret = kp_pmu_hold(pmu, mask, owner, r->claim, reason, len);
	if (ret)
		goto err_claim;
	r->pmu = pmu;
	r->mask = mask;
	*out = r;
	return 0;

err_claim:
	kfree(r->claim);
err_mask:
	free_cpumask_var(r->cpus);
err_free:
	kfree(r);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(kp_reserve);

/**
 * kp_reserve_mask() - the counters a reservation holds.
 * @r: the reservation.
 *
 * Return: the counter mask.
 */
u64 kp_reserve_mask(const struct kprofile_reservation *r)
{
	return r->mask;
}
EXPORT_SYMBOL_IF_KUNIT(kp_reserve_mask);

/**
 * kp_unreserve() - HalFreeHardwareCounters.
 * @r: a reservation from kp_reserve(); freed.
 *
 * The counters are disabled on every CPU and given back to Linux.
 * Context: process; sleeps.
 */
void kp_unreserve(struct kprofile_reservation *r)
{
	kp_pmu_unhold(r->pmu, r->mask);
	kfree(r->claim);
	free_cpumask_var(r->cpus);
	kfree(r);
}
EXPORT_SYMBOL_IF_KUNIT(kp_unreserve);

static int kp_reserve_release(struct inode *inode, struct file *file)
{
	kp_unreserve(file->private_data);
	return 0;
}

static const struct file_operations kp_reserve_fops = {
	.owner = THIS_MODULE,
	.release = kp_reserve_release,
	.llseek = noop_llseek,
};

static int kp_reserve_user_cpus(const struct kprofile_reserve *req,
				struct cpumask *cpus)
{
	u32 size = min_t(u32, req->cpus_size, cpumask_size());

	cpumask_clear(cpus);
	if (copy_from_user(cpus, u64_to_user_ptr(req->cpus), size))
		return -EFAULT;
	cpumask_and(cpus, cpus, cpu_possible_mask);
	return 0;
}

/**
 * kp_ioctl_reserve() - KPROFILE_IOC_RESERVE.
 * @dev:  the device.
 * @argp: struct kprofile_reserve; @counter_mask out.
 *
 * Needs CAP_PERFMON (or CAP_SYS_ADMIN): a reservation locks every perf
 * hardware event out, machine-wide.
 *
 * Return: a file descriptor owning the reservation (close frees it), or
 * -EPERM, -EFAULT, -EINVAL, -EOPNOTSUPP, -EBUSY, -ENOMEM, -EMFILE.  The
 * reason of an -EBUSY is in the kernel log at debug level.
 */
long kp_ioctl_reserve(struct kp_device *dev, void __user *argp)
{
	struct kprofile_counter_desc *descs = NULL;
	struct kprofile_reservation *r;
	char reason[KPROFILE_REASON_LEN], owner[32];
	struct kprofile_reserve req;
	cpumask_var_t cpus;
	struct file *file;
	int fd, ret;

	if (!perfmon_capable())
		return -EPERM;
	if (copy_from_user(&req, argp, sizeof(req)))
		return -EFAULT;
	if (req.flags || req.reserved[0] ||
	    req.reserved[1] || req.nr_descs > KP_RESERVE_MAX_DESCS ||
	    (req.cpus_size && !req.cpus))
		return -EINVAL;
	if (!zalloc_cpumask_var(&cpus, GFP_KERNEL))
		return -ENOMEM;
	if (req.cpus_size) {
		ret = kp_reserve_user_cpus(&req, cpus);
		if (ret)
			goto out_cpus;
	}
	if (req.nr_descs) {
		descs = memdup_user(u64_to_user_ptr(req.descs),
				    req.nr_descs * sizeof(*descs));
		if (IS_ERR(descs)) {
			ret = PTR_ERR(descs);
			descs = NULL;
			goto out_cpus;
		}
	}
	/* The pid is added when read, in the reader's pid namespace. */
	strscpy(owner, "reserved by pid", sizeof(owner));
	ret = kp_reserve(&dev->pmu, descs, req.nr_descs,
			 req.cpus_size ? cpus : NULL, NULL, NULL, owner, &r,
			 reason, sizeof(reason));
	if (ret) {
		pr_debug(KP_NAME ": reserve: %s\n", reason);
		goto out_descs;
	}
	kp_pmu_set_owner_pid(&dev->pmu, r->mask, task_tgid(current));
	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0) {
		ret = fd;
		goto err_unreserve;
	}
	file = anon_inode_getfile("[kprofile-reserve]", &kp_reserve_fops, r,
				  O_RDWR);
	if (IS_ERR(file)) {
		ret = PTR_ERR(file);
		goto err_fd;
	}
	req.counter_mask = r->mask;
	if (copy_to_user(argp, &req, sizeof(req))) {
		fput(file);	/* frees the reservation */
		put_unused_fd(fd);
		ret = -EFAULT;
		goto out_descs;
	}
	fd_install(fd, file);
	ret = fd;
	goto out_descs;

err_fd:
	put_unused_fd(fd);
err_unreserve:
	kp_unreserve(r);
out_descs:
	kfree(descs);
out_cpus:
	free_cpumask_var(cpus);
	return ret;
}

/**
 * kprofile_reserve_counters() - HalAllocateHardwareCounters, for modules.
 * @descs:   the resource list (Single, Range, Overflow; EventBuffer is
 *	     refused); NULL with @nr 0 reserves the whole PMU.
 * @nr:      entries at @descs.
 * @cpus:    the CPU set, or NULL for all.
 * @overflow: called in NMI context when a reserved counter (enabled with
 *	     INT) overflows, with the overflowed counters' mask; NULL for
 *	     none.  The holder reloads its counters; kprofile acknowledges
 *	     the overflow and unmasks the LVTPC.
 * @data:    for @overflow.
 * @counter_mask: out: the counters reserved (may be NULL).
 *
 * The holder programs the counters itself (event select MSRs
 * desc->evtsel_base + i, counters counter_base + i), sets their bits in
 * the global control where there is one, and writes counter values with
 * the legacy (32-bit, sign-extended) or full-width semantics: the rules
 * are in include/linux/kprofile.h ("reserving counters").
 * Context: process; may sleep.
 *
 * Return: the reservation, or an ERR_PTR(): -EINVAL, -EOPNOTSUPP, -EBUSY
 * (perf, e.g. the NMI watchdog, or kprofile holds a counter), -ENOMEM.
 */
struct kprofile_reservation *
kprofile_reserve_counters(const struct kprofile_counter_desc *descs, u32 nr,
			  const struct cpumask *cpus,
			  void (*overflow)(void *data, u64 mask,
					   struct pt_regs *regs),
			  void *data, u32 *counter_mask)
{
	struct kprofile_reservation *r;
	char reason[KPROFILE_REASON_LEN];
	int ret;

	ret = kp_reserve(&kp_dev.pmu, descs, nr, cpus, overflow, data,
			 "in-kernel reservation", &r, reason, sizeof(reason));
	if (ret) {
		pr_debug(KP_NAME ": reserve: %s\n", reason);
		return ERR_PTR(ret);
	}
	if (counter_mask)
		*counter_mask = r->mask;
	return r;
}
EXPORT_SYMBOL_GPL(kprofile_reserve_counters);

/**
 * kprofile_release_counters() - HalFreeHardwareCounters, for modules.
 * @r: from kprofile_reserve_counters(); freed.
 *
 * Context: process; sleeps.
 */
void kprofile_release_counters(struct kprofile_reservation *r)
{
	kp_unreserve(r);
}
EXPORT_SYMBOL_GPL(kprofile_release_counters);

// SPDX-License-Identifier: GPL-2.0
/*
 * profile_check.c - what KPROFILE_IOC_CREATE_PROFILE accepts, in the
 * spirit of NtCreateProfile: the request's shape, the caller's buffer,
 * and who may profile what (docs/profiles.md, "Creating a profile").
 *
 * The checks run in this order, so when a request is wrong in two ways
 * the first applies:
 *
 *   EINVAL	nonzero @flags or @reserved, an unknown @target or @mode, a
 *		@pid with a target other than KPROFILE_TARGET_PID or a @pid
 *		<= 0 with KPROFILE_TARGET_PID, a CPU set
 *		pointer without a size or the reverse, zero @buffer_size or
 *		@size, @bucket_shift outside 2..31, a @buffer not 4-byte
 *		aligned, an unknown @source
 *   ENOSPC	@buffer_size < ceil(@size / 2^@bucket_shift) * 4
 *   EOVERFLOW	@base + @size wraps
 *   EOPNOTSUPP	the source is not supported on this machine
 *		(KPROFILE_IOC_QUERY_SOURCE tells why)
 *   EFAULT	the buffer is not writable user memory, or the CPU set is
 *		not readable
 *   EINVAL	the CPU set names only CPUs that cannot exist
 *   EPERM	system-wide, a range reaching kernel addresses (the upper
 *		half), or a counter source, without CAP_PERFMON or
 *		CAP_SYS_ADMIN
 *   EACCES	kernel.perf_event_paranoid forbids it without those
 *		capabilities: above 2 every profile, above 1 a mode other
 *		than KPROFILE_MODE_USER
 *   ESRCH	no process @pid
 *   EACCES	@pid is another process the caller may not ptrace-read
 *		(access.c: the kernel's rule, every thread, and the LSMs)
 *
 * Privileges are those of the creator at creation time, as with
 * perf_event_open().
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/pagemap.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/uaccess.h>
#include <linux/user_namespace.h>

#include "access.h"
#include "compat.h"
#include "profile.h"

static bool kp_profile_reserved_zero(const struct kprofile_create_profile *req)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(req->reserved); i++)
		if (req->reserved[i])
			return false;
	return !req->flags;
}

/**
 * kp_profile_check() - validate a create request (no user memory, no
 *	privileges: see kp_profile_check_buffer() and
 *	kp_profile_check_access()).
 * @sources:    the source model.
 * @req:        the request.
 * @nr_buckets: out: ceil(@req->size / 2^@req->bucket_shift).
 *
 * Return: 0, -EINVAL, -ENOSPC, -EOVERFLOW or -EOPNOTSUPP, as the file
 * comment lists.
 */
int kp_profile_check(const struct kp_sources *sources,
		     const struct kprofile_create_profile *req,
		     u64 *nr_buckets)
{
	u64 n, bytes, end;

	if (!kp_profile_reserved_zero(req) ||
	    req->target > KPROFILE_TARGET_SYSTEM ||
	    req->mode > KPROFILE_MODE_BOTH ||
	    (req->target != KPROFILE_TARGET_PID && req->pid) ||
	    (req->target == KPROFILE_TARGET_PID && req->pid <= 0) ||
	    !req->cpus != !req->cpus_size)
		return -EINVAL;
	if (!req->buffer_size || !req->size)
		return -EINVAL;
	if (req->bucket_shift < KP_BUCKET_SHIFT_MIN ||
	    req->bucket_shift > KP_BUCKET_SHIFT_MAX)
		return -EINVAL;
	if (!IS_ALIGNED(req->buffer, sizeof(u32)))
		return -EINVAL;
	if (!kp_source_known(sources, req->source))
		return -EINVAL;

	n = req->size >> req->bucket_shift;
	if (req->size & (BIT_ULL(req->bucket_shift) - 1))
		n++;
	if (check_mul_overflow(n, (u64)sizeof(u32), &bytes) ||
	    req->buffer_size < bytes)
		return -ENOSPC;
	if (check_add_overflow(req->base, req->size, &end))
		return -EOVERFLOW;
	if (!kp_source_supported(sources, req->source, NULL, 0))
		return -EOPNOTSUPP;
	*nr_buckets = n;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kp_profile_check);

/**
 * kp_profile_kernel_range() - whether a range reaches kernel addresses.
 * @req: a request kp_profile_check() accepted.
 *
 * Kernel addresses are the upper half of the address space (bit 63 set:
 * 0xffff800000000000 and up with 4-level paging, 0xff00000000000000 with
 * 5-level).  The non-canonical hole below them holds no instruction, so a
 * range covering the whole user half, [0, 2^47) or [0, 2^56), is a user
 * range.
 *
 * Return: true when the last byte of [base, base + size) has bit 63 set.
 */
bool kp_profile_kernel_range(const struct kprofile_create_profile *req)
{
	return (req->base + req->size - 1) & BIT_ULL(63);
}
EXPORT_SYMBOL_IF_KUNIT(kp_profile_kernel_range);

/**
 * kp_profile_check_buffer() - probe the caller's buffer for writing
 *	(ProbeForWrite).
 * @req:	a request kp_profile_check() accepted.
 * @nr_buckets: its bucket count.
 *
 * Only the bytes the buckets use are probed; they are faulted in writable
 * without being written (fault_in_safe_writeable()), so the buffer keeps
 * what the caller put there.
 * Context: process, in the caller's address space.
 *
 * Return: 0 or -EFAULT.
 */
int kp_profile_check_buffer(const struct kprofile_create_profile *req,
			    u64 nr_buckets)
{
	void __user *ubuf = u64_to_user_ptr(req->buffer);
	size_t bytes = nr_buckets * sizeof(u32);

	if (!access_ok(ubuf, bytes))
		return -EFAULT;
	if (fault_in_safe_writeable(ubuf, bytes))
		return -EFAULT;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kp_profile_check_buffer);

/**
 * kp_profile_check_access() - apply the privilege rules to a profile and
 *	find its target.
 * @req:  a request kp_profile_check() accepted.
 * @tgid: out: a reference to the target's thread-group pid, or NULL for a
 *	  system-wide profile.
 *
 * The rules are access.c's (kp_access_check()), shared with streams: a
 * system-wide profile, a range reaching kernel addresses
 * (kp_profile_kernel_range()) or a counter source needs CAP_PERFMON;
 * then kernel.perf_event_paranoid, for a mode other than
 * KPROFILE_MODE_USER the stricter; then the target.
 *
 * Return: 0, -EPERM, -ESRCH or -EACCES (or, rarely, -ENOMEM, -EINTR,
 * -E2BIG from kp_may_access_task()).
 */
int kp_profile_check_access(const struct kprofile_create_profile *req,
			    struct pid **tgid)
{
	struct kp_access_request ar = {
		.target = req->target,
		.pid = req->pid,
		.kernel_mode = req->mode != KPROFILE_MODE_USER,
		.kernel_range = kp_profile_kernel_range(req),
		.counter = req->source != KPROFILE_SOURCE_TIME,
	};

	return kp_access_check(&ar, tgid);
}
EXPORT_SYMBOL_IF_KUNIT(kp_profile_check_access);

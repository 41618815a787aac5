// SPDX-License-Identifier: GPL-2.0
/*
 * profile_buf.c - a started profile's bucket buffer: the caller's pages,
 * pinned for as long as the profile runs, as Windows locks them with an
 * MDL (MmProbeAndLockPages) in NtStartProfile.
 *
 * Pinning uses pin_user_pages_fast(FOLL_WRITE | FOLL_LONGTERM), so the
 * pages cannot move or be swapped while the interrupt path writes them
 * through the kernel's direct map (x86-64 has no highmem).  The user sees
 * every increment live.  The pinned pages are charged to the address
 * space's locked_vm against RLIMIT_MEMLOCK unless the caller has
 * CAP_IPC_LOCK (account_locked_vm(), as VFIO does).  Only the pages the
 * buckets use are pinned.
 */
#include <linux/mm.h>
#include <linux/slab.h>

#include "compat.h"
#include "profile.h"

/**
 * kp_profile_buf_pin() - pin the pages of a profile's buckets.
 * @mm:		the current address space; must outlive the buffer.
 * @ubuf:	the first bucket, a user address in @mm.
 * @nr_buckets: buckets (4 bytes each).
 *
 * Context: process, in the address space @ubuf belongs to; sleeps.
 *
 * Return: the buffer, or an ERR_PTR(): -ENOMEM (no memory, or
 * RLIMIT_MEMLOCK would be exceeded), -EFAULT (a page is not writable
 * memory that can be pinned, e.g. it was unmapped since creation).
 */
struct kp_profile_buf *kp_profile_buf_pin(struct mm_struct *mm,
					  unsigned long ubuf, u64 nr_buckets)
{
	unsigned long first = ubuf >> PAGE_SHIFT;
	unsigned long last = (ubuf + nr_buckets * sizeof(u32) - 1) >> PAGE_SHIFT;
	unsigned long nr = last - first + 1;
	struct kp_profile_buf *buf;
	int ret, pinned;

	if (nr > INT_MAX)
		return ERR_PTR(-ENOMEM);
	/* Charge first: RLIMIT_MEMLOCK bounds what is allocated below. */
	ret = account_locked_vm(mm, nr, true);
	if (ret)
		return ERR_PTR(ret);
	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf) {
		ret = -ENOMEM;
		goto err_charge;
	}
	buf->mm = mm;
	buf->pages = kvmalloc_array(nr, sizeof(*buf->pages),
				    GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!buf->pages) {
		ret = -ENOMEM;
		goto err_buf;
	}

	pinned = pin_user_pages_fast(first << PAGE_SHIFT, nr,
				     FOLL_WRITE | FOLL_LONGTERM, buf->pages);
	if (pinned != nr) {
		if (pinned > 0)
			unpin_user_pages(buf->pages, pinned);
		ret = pinned < 0 && pinned != -EFAULT ? pinned : -EFAULT;
		goto err_pages;
	}
	buf->nr_pages = nr;
	buf->offset = offset_in_page(ubuf);
	buf->user = true;
	return buf;

err_pages:
	kvfree(buf->pages);
err_buf:
	kfree(buf);
err_charge:
	account_locked_vm(mm, nr, false);
	return ERR_PTR(ret);
}

/**
 * kp_profile_buf_release() - unpin and free a buffer no one can see any
 *	more (unpublished, and an RCU grace period passed).
 * @buf: from kp_profile_buf_pin(), or a test's kernel buffer (@user
 *	 false: only the pages array and @buf are the test's to free, and
 *	 nothing is done).
 *
 * The pages are marked dirty: the interrupt path wrote them through the
 * kernel mapping, so the page tables' dirty bits do not know.
 */
void kp_profile_buf_release(struct kp_profile_buf *buf)
{
	if (!buf || !buf->user)
		return;
	unpin_user_pages_dirty_lock(buf->pages, buf->nr_pages, true);
	account_locked_vm(buf->mm, buf->nr_pages, false);
	kvfree(buf->pages);
	kfree(buf);
}

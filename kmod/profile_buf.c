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
 *
 * Two things a pin cannot do are handled here:
 *
 * - The mapping may stop showing the pinned pages: munmap(),
 *   MADV_DONTNEED, mremap() or a MAP_FIXED mapping over the buffer.  The
 *   pages stay pinned, but the caller would never see another count.  An
 *   MMU interval notifier on the buffer's range sees such a change (an
 *   unmap or a clear of the range) and sets the profile's @lost flag:
 *   the hit path then counts interrupts as unavailable instead of
 *   writing invisible pages, and the statistics say BUFFER_LOST.  The
 *   kernel clearing the range for its own reasons is reported the same
 *   way: counts may move to unavailable, they are never lost silently.
 *   One such reason is common: splitting an anonymous mapping (munmap()
 *   or mprotect() of part of it) announces a clear of the 2 MiB around
 *   the split point (vma_adjust_trans_huge(), huge page or not), so a
 *   buffer that shares a merged private mapping with memory that is
 *   later unmapped is reported lost.  A buffer should have a mapping of
 *   its own: the tool's are MAP_SHARED | MAP_ANONYMOUS, which merge with
 *   nothing.  Without CONFIG_MMU_NOTIFIER nothing is watched,
 *   and the module says so at load (kp_access_init()).
 * - A shared mapping of a file that is written back (a disk file) must
 *   not be pinned long-term for writing: the filesystem would not see the
 *   writes (the GUP/writeback problem; Linux 6.5 refuses such pins
 *   itself).  Such a buffer is -EFAULT; anonymous memory, tmpfs and
 *   hugetlbfs are fine.
 */
#include <linux/backing-dev.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/slab.h>

#include "compat.h"
#include "profile.h"

#ifdef CONFIG_MMU_NOTIFIER
static bool kp_profile_buf_invalidate(struct mmu_interval_notifier *mni,
				      const struct mmu_notifier_range *range,
				      unsigned long cur_seq)
{
	struct kp_profile_buf *buf = container_of(mni, struct kp_profile_buf,
						  mni);

	if (range->event == MMU_NOTIFY_UNMAP ||
	    range->event == MMU_NOTIFY_CLEAR)
		WRITE_ONCE(*buf->lost, true);
	return true;
}

static const struct mmu_interval_notifier_ops kp_profile_buf_mni_ops = {
	.invalidate = kp_profile_buf_invalidate,
};

static int kp_profile_buf_watch(struct kp_profile_buf *buf,
				unsigned long start, unsigned long len)
{
	int ret;

	ret = mmu_interval_notifier_insert(&buf->mni, buf->mm, start, len,
					   &kp_profile_buf_mni_ops);
	buf->watched = !ret;
	return ret;
}

static void kp_profile_buf_unwatch(struct kp_profile_buf *buf)
{
	if (buf->watched)
		mmu_interval_notifier_remove(&buf->mni);
	buf->watched = false;
}
#else
static int kp_profile_buf_watch(struct kp_profile_buf *buf,
				unsigned long start, unsigned long len)
{
	return 0;
}

static void kp_profile_buf_unwatch(struct kp_profile_buf *buf)
{
}
#endif

/* Is @vma one whose pages must not be pinned long-term for writing? */
static bool kp_profile_buf_refused(struct vm_area_struct *vma)
{
	struct file *file = vma->vm_file;

	return file && (vma->vm_flags & VM_SHARED) &&
	       mapping_can_writeback(file->f_mapping);
}

/* -EFAULT unless [start, end) is mapped, and by no refused mapping. */
static int kp_profile_buf_check_vmas(struct mm_struct *mm,
				     unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma;
	unsigned long addr;
	int ret = 0;

	mmap_read_lock(mm);
	for (addr = start; addr < end; addr = vma->vm_end) {
		vma = find_vma(mm, addr);
		if (!vma || vma->vm_start > addr ||
		    kp_profile_buf_refused(vma)) {
			ret = -EFAULT;
			break;
		}
	}
	mmap_read_unlock(mm);
	return ret;
}

/**
 * kp_profile_buf_pin() - pin the pages of a profile's buckets, and watch
 *	their mapping.
 * @mm:		the current address space; must outlive the buffer.
 * @ubuf:	the first bucket, a user address in @mm.
 * @nr_buckets: buckets (4 bytes each).
 * @lost:	set (WRITE_ONCE(), from any context) when the mapping of
 *		the range changes while the buffer exists; cleared here.
 *
 * Context: process, in the address space @ubuf belongs to; sleeps.
 *
 * Return: the buffer, or an ERR_PTR(): -ENOMEM (no memory, or
 * RLIMIT_MEMLOCK would be exceeded), -EFAULT (a page is not writable
 * memory that can be pinned, e.g. it was unmapped since creation, or a
 * shared mapping of a file that is written back).
 */
struct kp_profile_buf *kp_profile_buf_pin(struct mm_struct *mm,
					  unsigned long ubuf, u64 nr_buckets,
					  bool *lost)
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
	buf->lost = lost;
	buf->pages = kvmalloc_array(nr, sizeof(*buf->pages),
				    GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!buf->pages) {
		ret = -ENOMEM;
		goto err_buf;
	}
	/* Watch first: a change after the checks below is seen. */
	WRITE_ONCE(*lost, false);
	ret = kp_profile_buf_watch(buf, first << PAGE_SHIFT, nr << PAGE_SHIFT);
	if (ret)
		goto err_pages;
	ret = kp_profile_buf_check_vmas(mm, first << PAGE_SHIFT,
					(last + 1) << PAGE_SHIFT);
	if (ret)
		goto err_watch;

	pinned = pin_user_pages_fast(first << PAGE_SHIFT, nr,
				     FOLL_WRITE | FOLL_LONGTERM, buf->pages);
	if (pinned != nr) {
		if (pinned > 0)
			unpin_user_pages(buf->pages, pinned);
		ret = pinned < 0 && pinned != -EFAULT ? pinned : -EFAULT;
		goto err_watch;
	}
	buf->nr_pages = nr;
	buf->offset = offset_in_page(ubuf);
	buf->user = true;
	return buf;

err_watch:
	kp_profile_buf_unwatch(buf);
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
	kp_profile_buf_unwatch(buf);
	unpin_user_pages_dirty_lock(buf->pages, buf->nr_pages, true);
	account_locked_vm(buf->mm, buf->nr_pages, false);
	kvfree(buf->pages);
	kfree(buf);
}

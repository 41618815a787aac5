// SPDX-License-Identifier: GPL-2.0
/*
 * sources_ioctl.c - the profile-source ioctls of /dev/kprofile: query one,
 * list all, set and get an interval.
 */
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "compat.h"
#include "device.h"
#include "kprofile.h"

/**
 * kp_ioctl_query_source() - KPROFILE_IOC_QUERY_SOURCE.
 * @dev:  the device.
 * @argp: struct kprofile_source_info; @source in, the rest out.
 *
 * Return: 0, -EFAULT, or -EINVAL for an unknown source.
 */
long kp_ioctl_query_source(struct kp_device *dev, void __user *argp)
{
	struct kprofile_source_info info;
	u32 source;
	int ret;

	if (get_user(source, (u32 __user *)argp))
		return -EFAULT;
	ret = kp_source_query(&dev->sources, source, &info);
	if (ret)
		return ret;
	return copy_to_user(argp, &info, sizeof(info)) ? -EFAULT : 0;
}

/**
 * kp_ioctl_list_sources() - KPROFILE_IOC_LIST_SOURCES.
 * @dev:  the device.
 * @argp: struct kprofile_source_list.
 *
 * Return: 0; -ENOSPC with @count set to the number needed; -EINVAL for
 * non-zero flags; -EFAULT.
 */
long kp_ioctl_list_sources(struct kp_device *dev, void __user *argp)
{
	struct kprofile_source_list list;
	struct kprofile_source_info *entries;
	u32 need = kp_source_count(&dev->sources);
	int ret;

	if (copy_from_user(&list, argp, sizeof(list)))
		return -EFAULT;
	if (list.flags)
		return -EINVAL;
	if (list.count < need) {
		list.count = need;
		if (copy_to_user(argp, &list, sizeof(list)))
			return -EFAULT;
		return -ENOSPC;
	}
	entries = kcalloc(need, sizeof(*entries), GFP_KERNEL);
	if (!entries)
		return -ENOMEM;
	list.count = need;
	ret = kp_source_list(&dev->sources, entries, &list.count);
	if (ret)
		goto out;
	ret = -EFAULT;
	if (copy_to_user(u64_to_user_ptr(list.entries), entries,
			 list.count * sizeof(*entries)))
		goto out;
	if (copy_to_user(argp, &list, sizeof(list)))
		goto out;
	ret = 0;
out:
	kfree(entries);
	return ret;
}

static long kp_ioctl_interval(struct kp_device *dev, void __user *argp,
			      bool set)
{
	struct kprofile_interval iv;
	int ret;

	/* An interval is machine-wide: every user's profiles of the source. */
	if (set && !perfmon_capable())
		return -EPERM;
	if (copy_from_user(&iv, argp, sizeof(iv)))
		return -EFAULT;
	if (set)
		ret = kp_source_set_interval(&dev->sources, iv.source,
					     &iv.interval);
	else
		ret = kp_source_get_interval(&dev->sources, iv.source,
					     &iv.interval);
	if (ret)
		return ret;
	return copy_to_user(argp, &iv, sizeof(iv)) ? -EFAULT : 0;
}

/**
 * kp_ioctl_set_interval() - KPROFILE_IOC_SET_INTERVAL.
 * @dev:  the device.
 * @argp: struct kprofile_interval; @interval returns the value used.
 *
 * Needs CAP_PERFMON (or CAP_SYS_ADMIN): the interval applies to every
 * profile of the source on the machine.
 *
 * Return: 0, -EPERM, -EINVAL (unknown source), -EOPNOTSUPP
 * (unsupported), -EFAULT.
 */
long kp_ioctl_set_interval(struct kp_device *dev, void __user *argp)
{
	return kp_ioctl_interval(dev, argp, true);
}

/**
 * kp_ioctl_get_interval() - KPROFILE_IOC_GET_INTERVAL.
 * @dev:  the device.
 * @argp: struct kprofile_interval; @interval out.
 *
 * Return: 0, -EINVAL (unknown source), -EOPNOTSUPP (unsupported), -EFAULT.
 */
long kp_ioctl_get_interval(struct kp_device *dev, void __user *argp)
{
	return kp_ioctl_interval(dev, argp, false);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * device.c - /dev/kprofile: the misc device, its ioctl dispatch, and the
 * info and version ioctls.  Each ioctl is one small function; those of a
 * concern live in that concern's file.
 */
#include <linux/compat.h>
#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "compat.h"
#include "device.h"
#include "kprofile.h"
#include "profile.h"

static void kp_fill_info(struct kp_device *dev, struct kprofile_info *i)
{
	const struct kp_pmu_desc *d = &dev->desc;
	struct kprofile_info info;

	memset(&info, 0, sizeof(info));
	info.abi_version = KPROFILE_ABI_VERSION;
	info.interface = d->iface;
	info.perfmon_version = d->perfmon_version;
	info.num_counters = d->num_counters;
	info.counter_width = d->counter_width;
	info.ebx_mask = d->ebx_mask;
	info.ebx_length = d->ebx_length;
	info.num_cpus = num_online_cpus();
	info.num_possible_cpus = num_possible_cpus();
	info.family = d->family;
	info.model = d->model;
	if (d->amd_perfmon_v2)
		info.flags |= KPROFILE_INFO_AMD_PERFMON_V2;
	if (d->hypervisor)
		info.flags |= KPROFILE_INFO_HYPERVISOR;
	if (x2apic_enabled())
		info.flags |= KPROFILE_INFO_X2APIC;
	strscpy(info.vendor, d->vendor, sizeof(info.vendor));
	strscpy(info.reason, d->reason, sizeof(info.reason));
	*i = info;
}

static long kp_ioctl_info(struct kp_device *dev, void __user *argp)
{
	struct kprofile_info info;

	kp_fill_info(dev, &info);
	return copy_to_user(argp, &info, sizeof(info)) ? -EFAULT : 0;
}

static long kp_ioctl_info_ex(struct kp_device *dev, void __user *argp)
{
	struct kprofile_info_ex *x;
	long ret;

	x = kzalloc(sizeof(*x), GFP_KERNEL);
	if (!x)
		return -ENOMEM;
	x->size = sizeof(*x);
	kp_fill_info(dev, &x->info);
	kp_pmu_state(&dev->pmu, x);
	ret = copy_to_user(argp, x, sizeof(*x)) ? -EFAULT : 0;
	kfree(x);
	return ret;
}

static long kp_ioctl_version(void __user *argp)
{
	struct kprofile_version v;

	memset(&v, 0, sizeof(v));
	v.size = sizeof(v);
	v.abi_version = KPROFILE_ABI_VERSION;
	v.major = KPROFILE_VERSION_MAJOR;
	v.minor = KPROFILE_VERSION_MINOR;
	v.patch = KPROFILE_VERSION_PATCH;
	strscpy(v.version, KPROFILE_VERSION, sizeof(v.version));
	return copy_to_user(argp, &v, sizeof(v)) ? -EFAULT : 0;
}

static long kp_dev_ioctl(struct file *file, unsigned int cmd,
			 unsigned long arg)
{
	struct kp_device *dev = &kp_dev;
	void __user *argp = (void __user *)arg;

	switch (cmd) {
	case KPROFILE_IOC_INFO:
		return kp_ioctl_info(dev, argp);
	case KPROFILE_IOC_INFO_EX:
		return kp_ioctl_info_ex(dev, argp);
	case KPROFILE_IOC_VERSION:
		return kp_ioctl_version(argp);
	case KPROFILE_IOC_QUERY_SOURCE:
		return kp_ioctl_query_source(dev, argp);
	case KPROFILE_IOC_LIST_SOURCES:
		return kp_ioctl_list_sources(dev, argp);
	case KPROFILE_IOC_SET_INTERVAL:
		return kp_ioctl_set_interval(dev, argp);
	case KPROFILE_IOC_GET_INTERVAL:
		return kp_ioctl_get_interval(dev, argp);
	case KPROFILE_IOC_SCHEDULE:
		return kp_ioctl_schedule(dev, argp);
	case KPROFILE_IOC_RESERVE:
		return kp_ioctl_reserve(dev, argp);
	case KPROFILE_IOC_CREATE_PROFILE:
		return kp_ioctl_create_profile(dev, argp);
	case KPROFILE_IOC_CREATE_STREAM:
		return kp_ioctl_create_stream(dev, argp);
	case KPROFILE_IOC_SET_HW_CONFIG:
		return kp_ioctl_set_hw_config(dev, argp);
	case KPROFILE_IOC_SET_HW_CONFIG_EX:
		return kp_ioctl_set_hw_config_ex(dev, argp);
	case KPROFILE_IOC_QUERY_HW_CONFIG:
		return kp_ioctl_query_hw_config(dev, argp);
	case KPROFILE_IOC_THREAD_ENABLE:
		return kp_ioctl_thread_enable(dev, argp);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations kp_dev_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = kp_dev_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static struct miscdevice kp_miscdev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = KPROFILE_DEVICE_NAME,
	.fops = &kp_dev_fops,
	.mode = 0600,
};

/**
 * kp_device_register() - create /dev/kprofile.
 *
 * Return: 0 or a negative errno from misc_register().
 */
int kp_device_register(void)
{
	return misc_register(&kp_miscdev);
}

/**
 * kp_device_unregister() - remove /dev/kprofile.
 */
void kp_device_unregister(void)
{
	misc_deregister(&kp_miscdev);
}

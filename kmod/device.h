/* SPDX-License-Identifier: GPL-2.0 */
/*
 * device.h - /dev/kprofile: registering the device, and the ioctl handlers
 * device.c dispatches to.  Each handler lives in the file of its concern;
 * its prototype is here, so that the headers of the layers below the
 * device (pmu.h, sources.h, ...) need not know struct kp_device.
 */
#ifndef _KPROFILE_DEVICE_H
#define _KPROFILE_DEVICE_H

#include <linux/compiler_types.h>

struct kp_device;

int kp_device_register(void);
void kp_device_unregister(void);

/* sources_ioctl.c: the source model (HalQuerySystemInformation). */
long kp_ioctl_query_source(struct kp_device *dev, void __user *argp);
long kp_ioctl_list_sources(struct kp_device *dev, void __user *argp);
long kp_ioctl_set_interval(struct kp_device *dev, void __user *argp);
long kp_ioctl_get_interval(struct kp_device *dev, void __user *argp);

/* pmu_schedule.c, pmu_reserve.c: the hardware layer. */
long kp_ioctl_schedule(struct kp_device *dev, void __user *argp);
long kp_ioctl_reserve(struct kp_device *dev, void __user *argp);

/* profile.c, stream.c: what the sampler feeds. */
long kp_ioctl_create_profile(struct kp_device *dev, void __user *argp);
long kp_ioctl_create_stream(struct kp_device *dev, void __user *argp);

/* thread_config.c, thread_fd.c: thread profiling. */
long kp_ioctl_set_hw_config(struct kp_device *dev, void __user *argp);
long kp_ioctl_set_hw_config_ex(struct kp_device *dev, void __user *argp);
long kp_ioctl_query_hw_config(struct kp_device *dev, void __user *argp);
long kp_ioctl_thread_enable(struct kp_device *dev, void __user *argp);

#endif /* _KPROFILE_DEVICE_H */

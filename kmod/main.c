// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - module init and exit, and nothing else: the order in which the
 * layers come up, and the reverse order in which they go.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>

#include "access.h"
#include "compat.h"
#include "device.h"
#include "kprofile.h"
#include "sampler.h"
#include "sched_hooks.h"

/* The machine-wide instance; see kprofile.h for its rules. */
struct kp_device kp_dev;

static const char *const kp_iface_names[] = {
	[KPROFILE_INTERFACE_NONE] = "None",
	[KPROFILE_INTERFACE_EMON] = "Emon",
	[KPROFILE_INTERFACE_AMD64] = "Amd64",
};

static int __init kp_init(void)
{
	struct kp_device *dev = &kp_dev;
	int ret;

	dev->hw = &kp_hw_real;
	/* Process context: asks perf first, then pins itself to one CPU. */
	kp_detect(dev->hw, &dev->desc);
	kp_sources_init(&dev->sources, &dev->desc);

	kp_sched_hooks_init();
	ret = kp_access_init();
	if (ret)
		goto err;
	ret = kp_pmu_init(&dev->pmu, dev->hw, &dev->desc, &dev->sources);
	if (ret)
		goto err_access;
	kp_api_init(&dev->pmu);
	kp_threads_init(&dev->threads, &dev->pmu);
	ret = kp_sampler_module_init(dev);
	if (ret)
		goto err_pmu;
	ret = kp_device_register();
	if (ret)
		goto err_sampler;

	if (dev->desc.iface == KPROFILE_INTERFACE_NONE)
		pr_info(KP_NAME ": profile interface None: %s\n",
			dev->desc.reason);
	else
		pr_info(KP_NAME ": profile interface %s, %u counters of %u bits\n",
			kp_iface_names[dev->desc.iface], dev->desc.num_counters,
			dev->desc.counter_width);
	return 0;

err_sampler:
	kp_sampler_module_exit(dev);
err_pmu:
	kp_threads_exit(&dev->threads);
	kp_api_exit(&dev->pmu);
	kp_pmu_exit(&dev->pmu);
err_access:
	kp_access_exit();
err:
	return ret;
}

static void __exit kp_exit(void)
{
	kp_device_unregister();
	kp_sampler_module_exit(&kp_dev);
	kp_threads_exit(&kp_dev.threads);
	kp_api_exit(&kp_dev.pmu);
	kp_pmu_exit(&kp_dev.pmu);
	kp_access_exit();
}

module_init(kp_init);
module_exit(kp_exit);

MODULE_DESCRIPTION("Windows profile sources on the x86 performance counters");
MODULE_LICENSE("GPL");
/* The project version (file VERSION, via kmod/Kbuild); KPROFILE_IOC_VERSION. */
MODULE_VERSION(KPROFILE_VERSION);

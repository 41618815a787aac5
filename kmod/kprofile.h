/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kprofile.h - the module's shared state.
 *
 * Object model and lock order
 * ---------------------------
 * There is one struct kp_device, kp_dev, for the machine.  Detection fills
 * @desc once at load; after that it is read-only.  The source model's
 * intervals are single words updated with WRITE_ONCE() and need no lock.
 * Later layers (hardware counters, profiles, thread profiling) keep their
 * own state in their own files and document their locks next to it; the
 * whole lock order, and what runs in NMI, hardirq and tracepoint-probe
 * context, is one page: locking.h.  Nothing is locked on the NMI or
 * hrtimer paths.
 */
#ifndef _KPROFILE_KPROFILE_H
#define _KPROFILE_KPROFILE_H

#include <linux/fs.h>

#include "detect.h"
#include "hw.h"
#include "pmu.h"
#include "sources.h"
#include "thread.h"

#define KP_NAME "kprofile"

/**
 * struct kp_device - the machine-wide kprofile instance.
 * @hw:      the processor seam (kp_hw_real in the module).
 * @desc:    the detected profile interface; read-only after load.
 * @sources: the profile-source model.
 * @pmu:     the hardware layer (pmu.h): counters, arming, overflows.
 * @threads: thread profiling and its counter configuration (thread.h).
 */
struct kp_device {
	const struct kp_hw *hw;
	struct kp_pmu_desc desc;
	struct kp_sources sources;
	struct kp_pmu pmu;
	struct kp_threads threads;
};

extern struct kp_device kp_dev;

/* api.c: other modules' overflow handlers on kp_dev.pmu. */
void kp_api_init(struct kp_pmu *pmu);
void kp_api_exit(struct kp_pmu *pmu);

#endif /* _KPROFILE_KPROFILE_H */

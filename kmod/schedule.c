// SPDX-License-Identifier: GPL-2.0
/*
 * schedule.c - which sources can run together (the HAL document's "future
 * work": "find out the number and the dependencies of the profile sources
 * that could be monitored at same time"): KPROFILE_IOC_SCHEDULE.
 *
 * On the Emon and Amd64 interfaces every table event may use any
 * general-purpose counter, so a set of sources fits when each counter
 * source that is not armed already finds a counter nobody holds:
 * not kprofile (a profile, a reservation, thread profiling), not perf.
 * ProfileTime needs no counter.  The answer is for the moment it is given.
 */
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/uaccess.h>

#include "compat.h"
#include "kprofile.h"

/**
 * kp_pmu_schedule() - place a set of sources on counters, without arming.
 * @pmu: the layer.
 * @s:   in: @nr_sources and @sources; out: everything else.  A source
 *	 already armed in KPROFILE_MODE_TABLE keeps its counter; a repeated
 *	 source shares its first placement; ProfileTime and unsupported
 *	 sources get KPROFILE_NO_COUNTER.  With no sources, @reason describes
 *	 who holds the busy counters.
 *
 * Return: 0 (the answer is in @s, including "does not fit" and its
 * reason), or -EINVAL for too many or unknown sources.
 */
int kp_pmu_schedule(struct kp_pmu *pmu, struct kprofile_schedule *s)
{
	u32 n = pmu->ops ? pmu->desc->num_counters : 0;
	struct kp_counter_holder h;
	u64 free = 0, busy = 0;
	unsigned int i, j;
	bool fits = true;
	char why[KPROFILE_REASON_LEN];

	if (s->nr_sources > KPROFILE_MAX_COUNTERS)
		return -EINVAL;
	for (j = 0; j < s->nr_sources; j++)
		if (!kp_source_known(pmu->sources, s->sources[j]))
			return -EINVAL;
	s->flags = 0;
	s->num_counters = n;
	memset(s->counters, 0xff, sizeof(s->counters));
	memset(s->reason, 0, sizeof(s->reason));

	mutex_lock(&pmu->lock);
	for (i = 0; i < n; i++) {
		kp_pmu_holder_locked(pmu, i, &h);
		if (h.kind == KP_HOLDER_FREE)
			free |= BIT_ULL(i);
		else
			busy |= BIT_ULL(i);
	}
	s->busy_mask = busy;
	for (j = 0; j < s->nr_sources; j++) {
		u32 src = s->sources[j];
		int idx = -1;

		for (i = 0; i < j; i++)
			if (s->sources[i] == src)
				idx = s->counters[i];
		if (idx >= 0 || src == KPROFILE_SOURCE_TIME) {
			s->counters[j] = idx >= 0 ? idx : KPROFILE_NO_COUNTER;
			continue;
		}
		if (!kp_source_supported(pmu->sources, src, why,
					 sizeof(why))) {
			if (fits)
				scnprintf(s->reason, sizeof(s->reason),
					  "source 0x%x: %s", src, why);
			fits = false;
			continue;
		}
		idx = pmu->ops ? kp_pmu_find_armed(pmu, src,
						   KPROFILE_MODE_TABLE) : -1;
		if (idx < 0 && free) {
			idx = __ffs64(free);
			free &= ~BIT_ULL(idx);
		}
		if (idx < 0) {
			if (fits)
				kp_pmu_busy_reason_locked(pmu, s->reason,
							  sizeof(s->reason));
			fits = false;
			continue;
		}
		s->counters[j] = idx;
	}
	if (!s->nr_sources && busy)
		kp_pmu_busy_reason_locked(pmu, s->reason, sizeof(s->reason));
	mutex_unlock(&pmu->lock);
	if (fits)
		s->flags |= KPROFILE_SCHED_FITS;
	return 0;
}
EXPORT_SYMBOL_IF_KP_TEST(kp_pmu_schedule);

/**
 * kp_ioctl_schedule() - KPROFILE_IOC_SCHEDULE.
 * @dev:  the device.
 * @argp: struct kprofile_schedule.
 *
 * Return: 0, -EFAULT, -EINVAL (more than KPROFILE_MAX_COUNTERS sources,
 * or an unknown one).
 */
long kp_ioctl_schedule(struct kp_device *dev, void __user *argp)
{
	struct kprofile_schedule s;
	int ret;

	if (copy_from_user(&s, argp, sizeof(s)))
		return -EFAULT;
	ret = kp_pmu_schedule(&dev->pmu, &s);
	if (ret)
		return ret;
	return copy_to_user(argp, &s, sizeof(s)) ? -EFAULT : 0;
}

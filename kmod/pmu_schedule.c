// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_schedule.c - which sources can run together, and on which counters:
 * KPROFILE_IOC_SCHEDULE (the HAL has no such call; docs/hardware.md, the
 * table at the top).
 *
 * A set of sources fits when each counter source that is not armed
 * already gets its own counter nobody holds (not kprofile: a profile, a
 * reservation, thread profiling; not perf) among the counters its event
 * may use: any general-purpose counter on Emon and most AMD families,
 * PERF_CTL[2:0] or [5:0] per event on AMD family 15h.
 * ProfileTime needs no counter.  The answer is for the moment it is given.
 */
#include <linux/bitops.h>
#include <linux/limits.h>
#include <linux/kernel.h>
#include <linux/uaccess.h>

#include "compat.h"
#include "device.h"
#include "kprofile.h"

/*
 * Give each of @n sources a distinct counter from its @allowed mask,
 * avoiding @taken; most constrained first, backtracking (at most
 * KPROFILE_MAX_COUNTERS sources, and a constrained family has 4 counters).
 */
static bool kp_sched_match(const u64 *allowed, unsigned int n, u64 taken,
			   int *out)
{
	unsigned int j, best = n, bw = UINT_MAX;
	u64 cand;

	for (j = 0; j < n; j++) {
		if (out[j] >= 0)
			continue;
		if (hweight64(allowed[j] & ~taken) < bw) {
			bw = hweight64(allowed[j] & ~taken);
			best = j;
		}
	}
	if (best == n)
		return true;
	cand = allowed[best] & ~taken;
	while (cand) {
		unsigned int i = __ffs64(cand);

		cand &= cand - 1;
		out[best] = i;
		if (kp_sched_match(allowed, n, taken | BIT_ULL(i), out))
			return true;
	}
	out[best] = -1;
	return false;
}

/* "0-2", "3", "0,2": the counters of @mask, for a reason. */
static void kp_sched_counters_text(u64 mask, char *buf, size_t len)
{
	unsigned int i, j;
	size_t pos = 0;

	buf[0] = '\0';
	while (mask && pos < len) {
		i = __ffs64(mask);
		for (j = i; j < 63 && (mask & BIT_ULL(j + 1)); j++)
			;
		mask &= ~GENMASK_ULL(j, i);
		if (j > i)
			pos += scnprintf(buf + pos, len - pos, "%s%u-%u",
					 pos ? "," : "", i, j);
		else
			pos += scnprintf(buf + pos, len - pos, "%s%u",
					 pos ? "," : "", i);
	}
}

/**
 * kp_pmu_schedule() - place a set of sources on counters, without arming.
 * @pmu: the layer.
 * @s:   in: @nr_sources and @sources; out: everything else.  A source
 *	 already armed in KPROFILE_MODE_TABLE keeps its counter; a repeated
 *	 source shares its first placement; ProfileTime and unsupported
 *	 sources get KPROFILE_NO_COUNTER.  With no sources, @reason describes
 *	 who holds the busy counters.
 *
 * Sources are placed on the counters their event may use
 * (kp_source_counters(): AMD family 15h constrains many events to
 * PERF_CTL[2:0]); the set fits when each new source gets a distinct free
 * counter it may use, found by matching, not first come first served.
 * Counters perf refused at kprofile's last attempt are used last and do
 * not make the set not fit: whether perf still holds them only arming
 * can tell without disturbing perf.
 *
 * Return: 0 (the answer is in @s, including "does not fit" and its
 * reason), or -EINVAL for too many or unknown sources.
 */
int kp_pmu_schedule(struct kp_pmu *pmu, struct kprofile_schedule *s)
{
	u32 n = pmu->ops ? pmu->desc->num_counters : 0;
	u64 allowed[KPROFILE_MAX_COUNTERS], free = 0, busy = 0, ours = 0;
	int place[KPROFILE_MAX_COUNTERS], dup[KPROFILE_MAX_COUNTERS];
	unsigned int need[KPROFILE_MAX_COUNTERS], nneed = 0;
	char why[KPROFILE_REASON_LEN], ctrs[48];
	struct kp_counter_holder h;
	unsigned int i, j;
	bool fits = true;

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
		if (pmu->counters[i].kind != KP_HOLDER_FREE)
			ours |= BIT_ULL(i);
	}
	s->busy_mask = busy;
	for (j = 0; j < s->nr_sources; j++) {
		u32 src = s->sources[j];
		int idx;

		dup[j] = -1;
		for (i = 0; i < j && dup[j] < 0; i++)
			if (s->sources[i] == src)
				dup[j] = i;
		if (dup[j] >= 0 || src == KPROFILE_SOURCE_TIME)
			continue;
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
		if (idx >= 0) {
			s->counters[j] = idx;
			continue;
		}
		allowed[nneed] = kp_source_counters(pmu->sources, src) &
				 kp_pmu_usable_counters(pmu);
		place[nneed] = -1;
		need[nneed++] = j;
	}
	/*
	 * A counter perf refused at kprofile's last attempt is placed last,
	 * not counted as taken: perf may have let go since (the NMI watchdog
	 * turned off, a perf session ended) without telling kprofile, and
	 * only a real attempt (arming) can tell without disturbing perf.
	 */
	if (nneed && !kp_sched_match(allowed, nneed, ~free, place) &&
	    !kp_sched_match(allowed, nneed, ours, place)) {
		u64 all = kp_pmu_usable_counters(pmu);

		for (i = 0; i < nneed && fits; i++) {
			if ((allowed[i] & all) == all)
				continue;
			kp_sched_counters_text(allowed[i], ctrs, sizeof(ctrs));
			scnprintf(s->reason, sizeof(s->reason),
				  "%s may use only counters %s here (%s); not enough of them are free",
				  kp_source_name(pmu->desc->iface, s->sources[need[i]]),
				  ctrs,
				  pmu->desc->iface == KPROFILE_INTERFACE_AMD64 ?
				  kp_amd_family_label(pmu->desc->amd_family) :
				  "this processor");
			fits = false;
		}
		if (fits)
			kp_pmu_busy_reason_locked(pmu, s->reason,
						  sizeof(s->reason));
		fits = false;
	} else {
		for (i = 0; i < nneed; i++)
			s->counters[need[i]] = place[i];
	}
	for (j = 0; j < s->nr_sources; j++)
		if (dup[j] >= 0)
			s->counters[j] = s->counters[dup[j]];
	if (!s->nr_sources && busy)
		kp_pmu_busy_reason_locked(pmu, s->reason, sizeof(s->reason));
	mutex_unlock(&pmu->lock);
	if (fits)
		s->flags |= KPROFILE_SCHED_FITS;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_schedule);

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

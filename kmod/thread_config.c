// SPDX-License-Identifier: GPL-2.0
/*
 * thread_config.c - the machine-wide hardware-counter configuration of thread
 * profiling (KeSetHardwareCounterConfiguration /
 * KeQueryHardwareCounterConfiguration).
 *
 * Up to KPROFILE_MAX_COUNTERS entries, each a counter source and a mode.  A set
 * validates everything first (EINVAL), needs a profile interface (EOPNOTSUPP,
 * STATUS_NOT_IMPLEMENTED), refuses while thread profiling is enabled (EBUSY: a
 * client counts with the configuration it started with), then claims one
 * counting counter per entry from the hardware layer; a counter in use
 * elsewhere is EBUSY (STATUS_WMI_ALREADY_ENABLED) and the reason names who
 * holds the counters.  Each set replaces the last.  A set frees the previous
 * configuration's counters first, so that the new one may reuse them; on
 * failure it claims them back.  Linux can reserve a freed counter meanwhile
 * (perf, the NMI watchdog): then the configuration is left empty, and the
 * reason says so.  Count 0 is the empty configuration, the one in force after
 * load.  See thread.h for the locking.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/pid.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/msr.h>

#include "compat.h"
#include "device.h"
#include "kprofile.h"
#include "pmu.h"
#include "thread.h"

#define KP_HWCONFIG_OWNER "thread profiling"

static u64 kp_thread_tsc(void)
{
	return rdtsc_ordered();
}

/**
 * kp_threads_init() - set up thread profiling with the empty configuration.
 * @t:   the state to initialise.
 * @pmu: the hardware layer counters come from.
 *
 * The cycle clock is the TSC; a test may replace @t->clock afterwards.
 */
void kp_threads_init(struct kp_threads *t, struct kp_pmu *pmu)
{
	memset(t, 0, sizeof(*t));
	t->pmu = pmu;
	t->clock = kp_thread_tsc;
	mutex_init(&t->lock);
}
EXPORT_SYMBOL_IF_KUNIT(kp_threads_init);

static void kp_hwconfig_release(struct kp_threads *t, u32 count,
				const struct kprofile_hw_counter *cfg)
{
	u32 i;

	for (i = 0; i < count; i++)
		kp_pmu_release_counting(t->pmu, cfg[i].index);
}

/**
 * kp_threads_exit() - give the configuration's counters back.
 * @t: the state; no client may be active (its fd holds the module).
 */
void kp_threads_exit(struct kp_threads *t)
{
	mutex_lock(&t->lock);
	WARN_ON_ONCE(t->client);
	kp_hwconfig_release(t, t->count, t->config);
	t->count = 0;
	mutex_unlock(&t->lock);
	mutex_destroy(&t->lock);
}
EXPORT_SYMBOL_IF_KUNIT(kp_threads_exit);

static int kp_hwconfig_check(struct kp_threads *t,
			     const struct kprofile_hw_config *cfg,
			     char *reason, size_t len)
{
	const struct kp_sources *s = t->pmu->sources;
	u32 i;

	if (cfg->count > KPROFILE_MAX_COUNTERS) {
		scnprintf(reason, len, "%u entries: at most %u", cfg->count,
			  KPROFILE_MAX_COUNTERS);
		return -EINVAL;
	}
	if (cfg->flags) {
		scnprintf(reason, len, "flags must be zero");
		return -EINVAL;
	}
	if (!t->pmu->ops) {
		scnprintf(reason, len, "no profile interface: %s",
			  t->pmu->desc->reason);
		return -EOPNOTSUPP;
	}
	for (i = 0; i < cfg->count; i++) {
		const struct kprofile_hw_counter *e = &cfg->counters[i];

		if (e->type != KPROFILE_HW_COUNTER_PMC ||
		    e->mode > KPROFILE_MODE_BOTH) {
			scnprintf(reason, len, "entry %u: unknown type %u or mode %u",
				  i, e->type, e->mode);
			return -EINVAL;
		}
		if (e->source == KPROFILE_SOURCE_TIME ||
		    !kp_source_known(s, e->source)) {
			scnprintf(reason, len,
				  "entry %u: source 0x%x is not a counter source here",
				  i, e->source);
			return -EINVAL;
		}
	}
	return 0;
}

/* Claim a counter for each of @count entries; all or nothing. */
static int kp_hwconfig_claim(struct kp_threads *t, u32 count,
			     struct kprofile_hw_counter *cfg, char *reason,
			     size_t len)
{
	u32 i, idx;
	int ret;

	for (i = 0; i < count; i++) {
		ret = kp_pmu_claim_counting(t->pmu, cfg[i].source, cfg[i].mode,
					    KP_HWCONFIG_OWNER, &idx);
		if (ret)
			goto unwind;
		cfg[i].index = idx;
	}
	return 0;

unwind:
	if (ret == -EBUSY)
		kp_pmu_busy_reason(t->pmu, reason, len);
	else if (kp_source_supported(t->pmu->sources, cfg[i].source, reason,
				     len))
		scnprintf(reason, len, "entry %u: source 0x%x: error %d", i,
			  cfg[i].source, ret);
	kp_hwconfig_release(t, i, cfg);
	return ret;
}

/*
 * A set failed and the previous configuration could not be claimed back
 * either: say that first, then why the set failed, cut to fit (a busy
 * reason alone can fill the buffer).
 */
static void kp_hwconfig_say_lost(char *reason, size_t len)
{
	static const char lost[] =
		"no configuration is in force now (Linux took a freed counter meanwhile): ";
	size_t n = sizeof(lost) - 1;

	if (len <= n) {
		strscpy(reason, lost, len);
		return;
	}
	memmove(reason + n, reason, len - n);
	reason[len - 1] = '\0';
	memcpy(reason, lost, n);
}

/**
 * kp_hwconfig_set() - KeSetHardwareCounterConfiguration.
 * @t:      the machine's thread-profiling state.
 * @cfg:    the new configuration; on success each entry's @index is the
 *	    counter it got.
 * @reason: filled with why on failure (at least one byte).
 * @len:    bytes at @reason.
 *
 * Needs CAP_PERFMON (or CAP_SYS_ADMIN), as a reservation does: the
 * configuration takes counters from perf for the whole machine.
 * Context: process; takes @t->lock and the hardware layer's lock.
 *
 * Return: 0; -EPERM (no CAP_PERFMON); -EINVAL (more than KPROFILE_MAX_COUNTERS entries, nonzero
 * flags, a bad type, mode or source, ProfileTime); -EOPNOTSUPP (no profile
 * interface, or a source this processor does not support); -EBUSY (thread
 * profiling is enabled, or a counter is held elsewhere).  On failure the
 * previous configuration is claimed back, or, if Linux took one of its
 * counters in between, left empty (@reason then begins "no configuration
 * is in force now").
 */
int kp_hwconfig_set(struct kp_threads *t, struct kprofile_hw_config *cfg,
		    char *reason, size_t len)
{
	struct kprofile_hw_counter old[KPROFILE_MAX_COUNTERS];
	u32 old_count;
	int ret;

	reason[0] = '\0';
	if (!perfmon_capable()) {
		scnprintf(reason, len,
			  "needs CAP_PERFMON: the configuration claims counters machine-wide, from perf too");
		return -EPERM;
	}
	ret = kp_hwconfig_check(t, cfg, reason, len);
	if (ret)
		return ret;

	mutex_lock(&t->lock);
	if (t->client) {
		scnprintf(reason, len,
			  "thread profiling is enabled (by pid %d); disable it first",
			  pid_vnr(t->client_pid));
		ret = -EBUSY;
		goto out;
	}
	/* Free the old counters so the new set may reuse them. */
	old_count = t->count;
	memcpy(old, t->config, sizeof(old));
	kp_hwconfig_release(t, old_count, old);
	t->count = 0;

	ret = kp_hwconfig_claim(t, cfg->count, cfg->counters, reason, len);
	if (ret) {
		/* Put the previous configuration back, as far as possible. */
		size_t used = strlen(reason);

		if (kp_hwconfig_claim(t, old_count, old, reason + used,
				      len - used)) {
			old_count = 0;
			reason[used] = '\0';
			kp_hwconfig_say_lost(reason, len);
		}
		t->count = old_count;
		memcpy(t->config, old, sizeof(old));
		goto out;
	}
	t->count = cfg->count;
	memset(t->config, 0, sizeof(t->config));
	memcpy(t->config, cfg->counters, cfg->count * sizeof(cfg->counters[0]));
out:
	mutex_unlock(&t->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(kp_hwconfig_set);

/**
 * kp_hwconfig_query() - KeQueryHardwareCounterConfiguration.
 * @t:   the machine's thread-profiling state.
 * @cfg: filled with the configuration, each entry with its counter.
 */
void kp_hwconfig_query(struct kp_threads *t, struct kprofile_hw_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	mutex_lock(&t->lock);
	cfg->count = t->count;
	memcpy(cfg->counters, t->config, t->count * sizeof(t->config[0]));
	mutex_unlock(&t->lock);
}
EXPORT_SYMBOL_IF_KUNIT(kp_hwconfig_query);

/**
 * kp_ioctl_set_hw_config() - KPROFILE_IOC_SET_HW_CONFIG.
 * @dev:  the device.
 * @argp: struct kprofile_hw_config.
 *
 * Return: 0, -EFAULT, or an error of kp_hwconfig_set().
 */
long kp_ioctl_set_hw_config(struct kp_device *dev, void __user *argp)
{
	struct kprofile_hw_config cfg;
	char reason[KPROFILE_REASON_LEN];

	if (copy_from_user(&cfg, argp, sizeof(cfg)))
		return -EFAULT;
	return kp_hwconfig_set(&dev->threads, &cfg, reason, sizeof(reason));
}

/**
 * kp_ioctl_set_hw_config_ex() - KPROFILE_IOC_SET_HW_CONFIG_EX: as
 *	KPROFILE_IOC_SET_HW_CONFIG, and copy back the counters or the reason.
 * @dev:  the device.
 * @argp: struct kprofile_hw_config_set.
 *
 * Return: 0, -EFAULT, or an error of kp_hwconfig_set().
 */
long kp_ioctl_set_hw_config_ex(struct kp_device *dev, void __user *argp)
{
	struct kprofile_hw_config_set req;
	long ret;

	if (copy_from_user(&req, argp, sizeof(req)))
		return -EFAULT;
	memset(req.reason, 0, sizeof(req.reason));
	ret = kp_hwconfig_set(&dev->threads, &req.config, req.reason,
			      sizeof(req.reason));
	if (copy_to_user(argp, &req, sizeof(req)))
		return -EFAULT;
	return ret;
}

/**
 * kp_ioctl_query_hw_config() - KPROFILE_IOC_QUERY_HW_CONFIG.
 * @dev:  the device.
 * @argp: struct kprofile_hw_config, filled.
 *
 * Return: 0 or -EFAULT.
 */
long kp_ioctl_query_hw_config(struct kp_device *dev, void __user *argp)
{
	struct kprofile_hw_config cfg;

	kp_hwconfig_query(&dev->threads, &cfg);
	return copy_to_user(argp, &cfg, sizeof(cfg)) ? -EFAULT : 0;
}

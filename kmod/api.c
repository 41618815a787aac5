// SPDX-License-Identifier: GPL-2.0
/*
 * api.c - the exported in-kernel API (include/linux/kprofile.h), for
 * other modules: the profile-source half of HalQuerySystemInformation and
 * HalSetSystemInformation, and overflow handlers
 * (HalProfileSourceInterruptHandler).  Counter reservations
 * (HalAllocateHardwareCounters) are exported by pmu_reserve.c.
 */
#include <linux/export.h>
#include <linux/kprofile.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>

#include "kprofile.h"

/**
 * kprofile_query_source() - HalProfileSourceInformation for one source.
 * @source: a KPROFILE_SOURCE.
 * @info:   filled in: support, interval and range, name, event select,
 *	    EBX bit and the reason when unsupported.
 *
 * Return: 0, or -EINVAL when @source is unknown on this machine.
 */
int kprofile_query_source(u32 source, struct kprofile_source_info *info)
{
	return kp_source_query(&kp_dev.sources, source, info);
}
EXPORT_SYMBOL_GPL(kprofile_query_source);

/**
 * kprofile_list_sources() - EventTraceProfileSourceListInformation.
 * @entries: room for *@count entries.
 * @count:   in: room; out: entries written, or needed on -ENOSPC.
 *
 * Return: 0, or -ENOSPC when *@count is too small.
 */
int kprofile_list_sources(struct kprofile_source_info *entries, u32 *count)
{
	return kp_source_list(&kp_dev.sources, entries, count);
}
EXPORT_SYMBOL_GPL(kprofile_list_sources);

/**
 * kprofile_set_interval() - HalSetProfileInterval.
 * @source:   a KPROFILE_SOURCE.
 * @interval: in: requested; out: the clamped interval actually used.
 *
 * Return: 0, -EINVAL (unknown source) or -EOPNOTSUPP (unsupported).
 */
int kprofile_set_interval(u32 source, u32 *interval)
{
	return kp_source_set_interval(&kp_dev.sources, source, interval);
}
EXPORT_SYMBOL_GPL(kprofile_set_interval);

/**
 * kprofile_get_interval() - a source's current interval.
 * @source:   a KPROFILE_SOURCE.
 * @interval: out.
 *
 * Return: 0, -EINVAL (unknown source) or -EOPNOTSUPP (unsupported).
 */
int kprofile_get_interval(u32 source, u32 *interval)
{
	return kp_source_get_interval(&kp_dev.sources, source, interval);
}
EXPORT_SYMBOL_GPL(kprofile_get_interval);

/*
 * Other modules' handlers (HalProfileSourceInterruptHandler): one consumer
 * of the module's hardware layer (kp_api_init()) dispatches to them, in NMI
 * context (pmu_nmi.c).  kp_api_lock serialises
 * writers of kp_api_handlers (a leaf lock: locking.h); the NMI path reads
 * the list under RCU.
 */
static DEFINE_MUTEX(kp_api_lock);
static LIST_HEAD(kp_api_handlers);

static void kp_api_overflow(struct kp_overflow_consumer *c, u32 source,
			    struct pt_regs *regs)
{
	struct kprofile_overflow_handler *h;

	list_for_each_entry_rcu(h, &kp_api_handlers, node)
		h->overflow(h, source, regs);
}

static struct kp_overflow_consumer kp_api_consumer = {
	.overflow = kp_api_overflow,
};

/**
 * kprofile_register_overflow_handler() - HalSetSystemInformation
 *	(HalProfileSourceInterruptHandler): be called on every counter
 *	overflow of an armed source.
 * @h: the handler; @h->overflow runs in NMI context on the CPU whose
 *     counter overflowed, with the source and the interrupted registers:
 *     no locks, no allocation, no sleeping.  @h->node is kprofile's.
 *
 * Sources are armed by profiles (KPROFILE_IOC_CREATE_PROFILE and
 * KPROFILE_IOC_START); the handler sees every overflow of them all.
 * Context: process.
 */
void kprofile_register_overflow_handler(struct kprofile_overflow_handler *h)
{
	mutex_lock(&kp_api_lock);
	list_add_tail_rcu(&h->node, &kp_api_handlers);
	mutex_unlock(&kp_api_lock);
}
EXPORT_SYMBOL_GPL(kprofile_register_overflow_handler);

/**
 * kprofile_unregister_overflow_handler() - stop being called.
 * @h: a registered handler.
 *
 * On return @h->overflow runs nowhere and will not be called again.
 * Context: process; sleeps.
 */
void kprofile_unregister_overflow_handler(struct kprofile_overflow_handler *h)
{
	mutex_lock(&kp_api_lock);
	list_del_rcu(&h->node);
	mutex_unlock(&kp_api_lock);
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(kprofile_unregister_overflow_handler);

/**
 * kp_api_init() - hand the module's overflows to other modules' handlers.
 * @pmu: &kp_dev.pmu, set up.
 */
void kp_api_init(struct kp_pmu *pmu)
{
	kp_pmu_add_consumer(pmu, &kp_api_consumer);
}

/**
 * kp_api_exit() - stop handing overflows to other modules.
 * @pmu: the layer kp_api_init() was given.
 *
 * Context: process; sleeps (synchronize_rcu()).
 */
void kp_api_exit(struct kp_pmu *pmu)
{
	kp_pmu_remove_consumer(pmu, &kp_api_consumer);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * api.c - the exported in-kernel API (include/linux/kprofile.h): the
 * profile-source half of HalQuerySystemInformation and
 * HalSetSystemInformation, for other modules.
 */
#include <linux/export.h>
#include <linux/kprofile.h>

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

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kprofile.h - in-kernel API of the kprofile module, for other modules.
 *
 * It mirrors the HAL's HalQuerySystemInformation / HalSetSystemInformation
 * for profile sources.  All functions may sleep; none may be called from
 * atomic context.
 */
#ifndef _LINUX_KPROFILE_H
#define _LINUX_KPROFILE_H

#include <linux/types.h>
#include <uapi/linux/kprofile.h>

int kprofile_query_source(u32 source, struct kprofile_source_info *info);
int kprofile_list_sources(struct kprofile_source_info *entries, u32 *count);
int kprofile_set_interval(u32 source, u32 *interval);
int kprofile_get_interval(u32 source, u32 *interval);

#endif /* _LINUX_KPROFILE_H */

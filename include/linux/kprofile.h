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

#include <linux/list.h>
#include <linux/types.h>
#include <uapi/linux/kprofile.h>

struct pt_regs;

int kprofile_query_source(u32 source, struct kprofile_source_info *info);
int kprofile_list_sources(struct kprofile_source_info *entries, u32 *count);
int kprofile_set_interval(u32 source, u32 *interval);
int kprofile_get_interval(u32 source, u32 *interval);

/**
 * struct kprofile_overflow_handler - HalProfileSourceInterruptHandler: a
 *	callback for every counter overflow of an armed profile source.
 * @overflow: called in NMI context on the CPU whose counter overflowed,
 *	      with the KPROFILE_SOURCE and the interrupted registers; no
 *	      locks, no allocation, no sleeping.
 * @node:     kprofile's; do not touch.
 */
struct kprofile_overflow_handler {
	void (*overflow)(struct kprofile_overflow_handler *h, u32 source,
			 struct pt_regs *regs);
	struct list_head node;
};

void kprofile_register_overflow_handler(struct kprofile_overflow_handler *h);
void kprofile_unregister_overflow_handler(struct kprofile_overflow_handler *h);

struct cpumask;
struct kprofile_reservation;

struct kprofile_reservation *
kprofile_reserve_counters(const struct kprofile_counter_desc *descs, u32 nr,
			  const struct cpumask *cpus,
			  void (*overflow)(void *data, u64 mask,
					   struct pt_regs *regs),
			  void *data, u32 *counter_mask);
void kprofile_release_counters(struct kprofile_reservation *r);

#endif /* _LINUX_KPROFILE_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sources.h - the profile-source model (KPROFILE_SOURCE; docs/profiles.md,
 * "Sources"): the tables of
 * kprofile_sources.h, which sources the running interface supports and why
 * not, and the machine-wide interval of each.
 */
#ifndef _KPROFILE_SOURCES_H
#define _KPROFILE_SOURCES_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <uapi/linux/kprofile.h>
#include <uapi/linux/kprofile_amd_families.h>

#include "detect.h"

/* One past the largest KPROFILE_SOURCE value any table uses. */
#define KP_SOURCE_LIMIT		0x100

/* The intervals' ranges are part of the ABI (uapi/linux/kprofile.h). */
#define KP_TIME_INTERVAL_DEFAULT	KPROFILE_TIME_INTERVAL_DEFAULT
#define KP_TIME_INTERVAL_MIN		KPROFILE_TIME_INTERVAL_MIN
#define KP_TIME_INTERVAL_MAX		KPROFILE_TIME_INTERVAL_MAX
#define KP_COUNTER_INTERVAL_DEFAULT	KPROFILE_COUNTER_INTERVAL_DEFAULT
#define KP_COUNTER_INTERVAL_MIN		KPROFILE_COUNTER_INTERVAL_MIN
#define KP_COUNTER_INTERVAL_MAX		KPROFILE_COUNTER_INTERVAL_MAX

/**
 * struct kp_source_row - one row of an interface's table.
 * @value:   the KPROFILE_SOURCE.
 * @name:    its name (for generic values, the generic name).
 * @ebx_bit: Emon EBX bit, or -1.
 * @select:  event select as in the table.
 */
struct kp_source_row {
	u32 value;
	const char *name;
	s32 ebx_bit;
	u32 select;
};

/**
 * struct kp_sources - the source model of one machine.
 * @desc:      the detected interface (not owned).
 * @intervals: machine-wide interval per source, indexed by value.  Written
 *	       with WRITE_ONCE() by the set-interval path, read with
 *	       READ_ONCE() anywhere, NMI and hrtimer included: no lock.
 */
struct kp_sources {
	const struct kp_pmu_desc *desc;
	u32 intervals[KP_SOURCE_LIMIT];
};

const char *kp_generic_name(u32 value);
const struct kp_source_row *kp_table(enum kprofile_interface iface,
				     unsigned int *nr);
const struct kp_source_row *kp_table_find(enum kprofile_interface iface,
					  u32 value);
const char *kp_source_name(enum kprofile_interface iface, u32 source);

void kp_sources_init(struct kp_sources *s, const struct kp_pmu_desc *desc);
bool kp_source_known(const struct kp_sources *s, u32 source);
bool kp_source_supported(const struct kp_sources *s, u32 source,
			 char *reason, size_t len);
int kp_source_query(const struct kp_sources *s, u32 source,
		    struct kprofile_source_info *info);
int kp_source_list(const struct kp_sources *s,
		   struct kprofile_source_info *entries, u32 *count);
u32 kp_source_count(const struct kp_sources *s);
u64 kp_source_counters(const struct kp_sources *s, u32 source);
bool kp_sources_constrained(const struct kp_sources *s);

/* sources_amd.c: the per-family rules of kprofile_amd_families.h. */
u32 kp_amd_family_of(const char *vendor, u32 family, u32 model);
const char *kp_amd_family_label(u32 fam);
const char *kp_amd_family_name(u32 fam);
u32 kp_amd_counters(u32 fam, u32 select, char *reason, size_t len);
bool kp_amd_family_constrained(u32 fam);
int kp_source_set_interval(struct kp_sources *s, u32 source, u32 *interval);
int kp_source_get_interval(const struct kp_sources *s, u32 source,
			   u32 *interval);

/**
 * kp_source_interval() - the interval of a supported source, for the hot
 *	paths (NMI reload, hrtimer re-arm).
 * @s:      the model.
 * @source: a source known to be supported.
 *
 * Return: its current interval.
 */
static inline u32 kp_source_interval(const struct kp_sources *s, u32 source)
{
	return READ_ONCE(s->intervals[source]);
}

#endif /* _KPROFILE_SOURCES_H */

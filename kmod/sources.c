// SPDX-License-Identifier: GPL-2.0
/*
 * sources.c - profile sources: the tables, which of them the interface
 * supports (HalQuerySystemInformation's HalProfileSourceInformation) and
 * the machine-wide intervals (HalSetProfileInterval; docs/profiles.md,
 * "Sources").
 *
 * Support rules:
 *   ProfileTime is always supported: it is an hrtimer, no PMU needed.
 *   Emon:  a table source is supported when its EBX bit is meaningful
 *	    (bit < CPUID.0AH:EAX[31:24]) and clear in CPUID.0AH:EBX.
 *   Amd64: a table source is supported when the running family's rules
 *	    (kprofile_amd_families.h, sources_amd.c) say its event select
 *	    counts what the table means there; they also say on which
 *	    counters (family 15h constrains some events).
 *   None:  nothing else.
 *   A generic value (< 0x19) is supported exactly when it is in the
 *   running interface's table.  A specific value (>= 0x19) is known only
 *   when the running interface's table has it.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "compat.h"
#include "sources.h"

#define KP_GENERIC_NAME(value, ident, name) \
	[value] = name,
static const char *const kp_generic_names[] = {
	KPROFILE_GENERIC_SOURCES(KP_GENERIC_NAME)
};

#define KP_EMON_G(ident, bit, sel) \
	{ KPROFILE_SOURCE_##ident, NULL, bit, sel },
#define KP_EMON_S(value, name, bit, sel) { value, name, bit, sel },
static const struct kp_source_row kp_emon_rows[] = {
	KPROFILE_EMON_SOURCES(KP_EMON_G, KP_EMON_S)
};

#define KP_AMD_G(ident, sel) { KPROFILE_SOURCE_##ident, NULL, -1, sel },
#define KP_AMD_S(value, name, sel) { value, name, -1, sel },
static const struct kp_source_row kp_amd64_rows[] = {
	KPROFILE_AMD64_SOURCES(KP_AMD_G, KP_AMD_S)
};

/**
 * kp_generic_name() - the name of a generic KPROFILE_SOURCE.
 * @value: 0x00..0x18.
 *
 * Return: e.g. "ProfileTime", or NULL when @value is not generic.
 */
const char *kp_generic_name(u32 value)
{
	return value < ARRAY_SIZE(kp_generic_names) ?
		kp_generic_names[value] : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(kp_generic_name);

/**
 * kp_table() - an interface's source table.
 * @iface: the interface.
 * @nr:    set to the number of rows.
 *
 * Return: the rows in table order, or NULL (and 0) for the None interface.
 */
const struct kp_source_row *kp_table(enum kprofile_interface iface,
				     unsigned int *nr)
{
	switch (iface) {
	case KPROFILE_INTERFACE_EMON:
		*nr = ARRAY_SIZE(kp_emon_rows);
		return kp_emon_rows;
	case KPROFILE_INTERFACE_AMD64:
		*nr = ARRAY_SIZE(kp_amd64_rows);
		return kp_amd64_rows;
	default:
		*nr = 0;
		return NULL;
	}
}
EXPORT_SYMBOL_IF_KUNIT(kp_table);

/**
 * kp_table_find() - a source's row in an interface's table.
 * @iface: the interface.
 * @value: the KPROFILE_SOURCE.
 *
 * Return: the row, or NULL when the table has no such source.
 */
const struct kp_source_row *kp_table_find(enum kprofile_interface iface,
					  u32 value)
{
	const struct kp_source_row *rows;
	unsigned int i, nr;

	rows = kp_table(iface, &nr);
	for (i = 0; i < nr; i++)
		if (rows[i].value == value)
			return &rows[i];
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(kp_table_find);

/**
 * kp_source_name() - a source's name on an interface.
 * @iface:  the profile interface.
 * @source: a KPROFILE_SOURCE.
 *
 * Return: e.g. "ProfileTotalIssues", or "?".
 */
const char *kp_source_name(enum kprofile_interface iface, u32 source)
{
	const struct kp_source_row *row;

	row = kp_table_find(iface, source);
	if (row && row->name)
		return row->name;
	return kp_generic_name(source) ?: "?";
}

static const char *kp_row_name(const struct kp_source_row *row)
{
	return row->name ? row->name : kp_generic_name(row->value);
}

static bool kp_is_timer(u32 source)
{
	return source == KPROFILE_SOURCE_TIME;
}

/**
 * kp_sources_init() - set up the source model for a detected machine.
 * @s:    the model to initialise; every interval gets its default.
 * @desc: the detected interface; must outlive @s.
 */
void kp_sources_init(struct kp_sources *s, const struct kp_pmu_desc *desc)
{
	unsigned int i;

	s->desc = desc;
	for (i = 0; i < KP_SOURCE_LIMIT; i++)
		s->intervals[i] = kp_is_timer(i) ? KP_TIME_INTERVAL_DEFAULT :
						   KP_COUNTER_INTERVAL_DEFAULT;
}
EXPORT_SYMBOL_IF_KUNIT(kp_sources_init);

/**
 * kp_source_known() - whether @source means anything on this machine.
 * @s:      the model.
 * @source: a KPROFILE_SOURCE.
 *
 * Return: true for the generic values 0x00..0x18 and for the values in the
 * running interface's table; false otherwise (callers answer EINVAL).
 */
bool kp_source_known(const struct kp_sources *s, u32 source)
{
	return kp_generic_name(source) ||
	       kp_table_find(s->desc->iface, source);
}
EXPORT_SYMBOL_IF_KUNIT(kp_source_known);

static void kp_reason(char *reason, size_t len, const char *fmt, ...)
{
	va_list args;

	if (!reason || !len)
		return;
	va_start(args, fmt);
	vsnprintf(reason, len, fmt, args);
	va_end(args);
}

/**
 * kp_source_supported() - apply the support rules to one source.
 * @s:      the model.
 * @source: a KPROFILE_SOURCE.
 * @reason: when not supported, filled with why (may be NULL).
 * @len:    bytes at @reason.
 *
 * Return: true when @source can be profiled on this machine.
 */
bool kp_source_supported(const struct kp_sources *s, u32 source,
			 char *reason, size_t len)
{
	const struct kp_pmu_desc *d = s->desc;
	const struct kp_source_row *row;

	if (reason && len)
		reason[0] = '\0';
	if (kp_is_timer(source))
		return true;
	if (source == KPROFILE_SOURCE_MAXIMUM) {
		kp_reason(reason, len,
			  "ProfileMaximum only marks the end of the generic sources");
		return false;
	}
	if (d->iface == KPROFILE_INTERFACE_NONE) {
		kp_reason(reason, len, "no profile interface: %s", d->reason);
		return false;
	}
	row = kp_table_find(d->iface, source);
	if (!row) {
		kp_reason(reason, len,
			  "the %s profile interface has no event for this source",
			  d->iface == KPROFILE_INTERFACE_EMON ? "Emon" : "Amd64");
		return false;
	}
	if (d->iface == KPROFILE_INTERFACE_EMON && row->ebx_bit >= 0) {
		if (row->ebx_bit >= d->ebx_length) {
			kp_reason(reason, len,
				  "CPUID 0xA: EBX bit %d is beyond the %u meaningful bits",
				  row->ebx_bit, d->ebx_length);
			return false;
		}
		if (d->ebx_mask & BIT(row->ebx_bit)) {
			kp_reason(reason, len,
				  "CPUID 0xA: EBX bit %d is set: the processor lacks this event",
				  row->ebx_bit);
			return false;
		}
	}
	if (d->iface == KPROFILE_INTERFACE_AMD64 &&
	    !kp_amd_counters(d->amd_family, row->select, reason, len))
		return false;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(kp_source_supported);

/**
 * kp_source_counters() - the counters a supported counter source may use.
 * @s:      the model.
 * @source: a supported counter source.
 *
 * Return: a mask of counter indexes below desc->num_counters: all of them
 * but those the processor reserves (desc->avoid_mask: TSX force-abort's
 * PMC3), and only some for events the AMD family constrains (family 15h);
 * 0 for a source that is not supported.
 */
u64 kp_source_counters(const struct kp_sources *s, u32 source)
{
	const struct kp_pmu_desc *d = s->desc;
	const struct kp_source_row *row = kp_table_find(d->iface, source);
	u64 all;

	if (!row || !d->num_counters)
		return 0;
	all = GENMASK_ULL(min_t(u32, d->num_counters, 64) - 1, 0) &
	      ~d->avoid_mask;
	if (d->iface == KPROFILE_INTERFACE_AMD64)
		return all & kp_amd_counters(d->amd_family, row->select,
					     NULL, 0);
	return all;
}
EXPORT_SYMBOL_IF_KUNIT(kp_source_counters);

/**
 * kp_sources_constrained() - whether some sources may use only some
 *	counters here.
 * @s: the model.
 *
 * Return: true on an AMD family with counter constraints (15h).
 */
bool kp_sources_constrained(const struct kp_sources *s)
{
	return s->desc->iface == KPROFILE_INTERFACE_AMD64 &&
	       kp_amd_family_constrained(s->desc->amd_family);
}

static void kp_range(u32 source, u32 *def, u32 *min, u32 *max)
{
	if (kp_is_timer(source)) {
		*def = KP_TIME_INTERVAL_DEFAULT;
		*min = KP_TIME_INTERVAL_MIN;
		*max = KP_TIME_INTERVAL_MAX;
	} else {
		*def = KP_COUNTER_INTERVAL_DEFAULT;
		*min = KP_COUNTER_INTERVAL_MIN;
		*max = KP_COUNTER_INTERVAL_MAX;
	}
}

/**
 * kp_source_query() - everything about one source
 *	(HalProfileSourceInformation, extended).
 * @s:      the model.
 * @source: a KPROFILE_SOURCE.
 * @info:   filled in completely (reserved fields zeroed).
 *
 * Return: 0, or -EINVAL when @source is unknown on this machine.  An
 * unsupported source is answered, with its reason.
 */
int kp_source_query(const struct kp_sources *s, u32 source,
		    struct kprofile_source_info *info)
{
	const struct kp_source_row *row;
	const char *name;

	if (!kp_source_known(s, source))
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	info->source = source;
	info->ebx_bit = -1;
	row = kp_table_find(s->desc->iface, source);
	name = row ? kp_row_name(row) : kp_generic_name(source);
	strscpy(info->name, name, sizeof(info->name));
	if (row) {
		info->flags |= KPROFILE_SOURCE_IN_TABLE;
		info->select = row->select;
		info->ebx_bit = row->ebx_bit;
	}
	if (kp_generic_name(source))
		info->flags |= KPROFILE_SOURCE_GENERIC;
	if (kp_is_timer(source))
		info->flags |= KPROFILE_SOURCE_TIMER;
	kp_range(source, &info->default_interval, &info->min_interval,
		 &info->max_interval);
	if (kp_source_supported(s, source, info->reason,
				sizeof(info->reason))) {
		info->flags |= KPROFILE_SOURCE_SUPPORTED;
		info->interval = kp_source_interval(s, source);
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kp_source_query);

/**
 * kp_source_count() - how many sources kp_source_list() reports.
 * @s: the model.
 *
 * Return: the generic sources plus the interface's specific ones.
 */
u32 kp_source_count(const struct kp_sources *s)
{
	const struct kp_source_row *rows;
	unsigned int i, nr;
	u32 n = ARRAY_SIZE(kp_generic_names);

	rows = kp_table(s->desc->iface, &nr);
	for (i = 0; i < nr; i++)
		if (!kp_generic_name(rows[i].value))
			n++;
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(kp_source_count);

/**
 * kp_source_list() - every source known here
 *	(EventTraceProfileSourceListInformation).
 * @s:       the model.
 * @entries: room for *@count entries (may be NULL when *@count is 0).
 * @count:   in: room at @entries; out: entries written, or needed.
 *
 * Lists the generic sources 0x00..0x18, then the interface's specific
 * sources in table order (ascending).
 *
 * Return: 0, or -ENOSPC when *@count is too small (it is then set to the
 * number needed and nothing is written).
 */
int kp_source_list(const struct kp_sources *s,
		   struct kprofile_source_info *entries, u32 *count)
{
	const struct kp_source_row *rows;
	unsigned int i, nr;
	u32 need = kp_source_count(s), n = 0;

	if (*count < need) {
		*count = need;
		return -ENOSPC;
	}
	for (i = 0; i < ARRAY_SIZE(kp_generic_names); i++)
		kp_source_query(s, i, &entries[n++]);
	rows = kp_table(s->desc->iface, &nr);
	for (i = 0; i < nr; i++)
		if (!kp_generic_name(rows[i].value))
			kp_source_query(s, rows[i].value, &entries[n++]);
	*count = n;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kp_source_list);

static int kp_check_settable(const struct kp_sources *s, u32 source)
{
	if (!kp_source_known(s, source))
		return -EINVAL;
	if (!kp_source_supported(s, source, NULL, 0))
		return -EOPNOTSUPP;
	return 0;
}

/**
 * kp_source_set_interval() - set a source's machine-wide interval
 *	(HalSetProfileInterval).
 * @s:        the model.
 * @source:   a KPROFILE_SOURCE.
 * @interval: in: the request; out: the interval actually used, clamped to
 *	      the source's range.  Running profiles pick it up at their next
 *	      period.
 *
 * Return: 0, -EINVAL for an unknown source, -EOPNOTSUPP for an
 * unsupported one.
 */
int kp_source_set_interval(struct kp_sources *s, u32 source, u32 *interval)
{
	u32 def, min, max;
	int ret;

	ret = kp_check_settable(s, source);
	if (ret)
		return ret;
	kp_range(source, &def, &min, &max);
	*interval = clamp(*interval, min, max);
	WRITE_ONCE(s->intervals[source], *interval);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kp_source_set_interval);

/**
 * kp_source_get_interval() - a source's machine-wide interval.
 * @s:        the model.
 * @source:   a KPROFILE_SOURCE.
 * @interval: out.
 *
 * Return: 0, -EINVAL for an unknown source, -EOPNOTSUPP for an
 * unsupported one.
 */
int kp_source_get_interval(const struct kp_sources *s, u32 source,
			   u32 *interval)
{
	int ret;

	ret = kp_check_settable(s, source);
	if (ret)
		return ret;
	*interval = kp_source_interval(s, source);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kp_source_get_interval);

// SPDX-License-Identifier: GPL-2.0
/*
 * sources_amd.c - which Amd64 table sources each AMD family supports, and
 * on which counters (docs/hardware.md F2).  The rules and their citations
 * are data, in <uapi/linux/kprofile_amd_families.h>, shared with the tool
 * (`kprofile sources --family`); this file only applies them.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "compat.h"
#include "sources.h"

/**
 * struct kp_amd_rule - one row of KPROFILE_AMD_EVENT_RULES.
 * @families: KPROFILE_AMD_FAM() bits the row applies to.
 * @first:    first event code (select bits 7:0).
 * @last:     last event code.
 * @umask:    unit mask (select bits 15:8), or KPROFILE_AMD_ANY_UMASK.
 * @counters: legacy counters the event may use; 0: not supported.
 * @cite:     what the event counts there, and where that comes from.
 */
struct kp_amd_rule {
	u32 families;
	u8 first;
	u8 last;
	u16 umask;
	u8 counters;
	const char *cite;
};

#define KP_AMD_RULE(fams, lo, hi, um, ctrs, text) \
	{ .families = (fams), .first = (lo), .last = (hi), .umask = (um), \
	  .counters = (ctrs), .cite = (text) },
static const struct kp_amd_rule kp_amd_rules[] = {
	KPROFILE_AMD_EVENT_RULES(KP_AMD_RULE)
};

struct kp_amd_family_info {
	const char *name;
	const char *label;
	const char *ref;
};

#define KP_AMD_FAMILY(ident, value, n, l, r) \
	[value] = { .name = n, .label = l, .ref = r },
static const struct kp_amd_family_info kp_amd_families[] = {
	KPROFILE_AMD_FAMILIES(KP_AMD_FAMILY)
};

/**
 * kp_amd_family_of() - the event-list family of an AMD or Hygon processor.
 * @vendor: CPUID vendor string.
 * @family: display family.
 * @model:  display model.
 *
 * Zen generations by model follow perf's pmu-events mapfile (family 17h
 * models below 30h are Zen 1) and AMD's family 19h model ranges (Zen 4:
 * 10h-1Fh and 60h-AFh).
 *
 * Return: enum kprofile_amd_family; KPROFILE_AMD_FAMILY_UNKNOWN for a
 * family without an event list (11h, 12h, 14h, 16h, later ones).
 */
u32 kp_amd_family_of(const char *vendor, u32 family, u32 model)
{
	if (!strcmp(vendor, "HygonGenuine"))
		return KPROFILE_AMD_FAMILY_HYGON;
	switch (family) {
	case 0x0f:
		return KPROFILE_AMD_FAMILY_K8;
	case 0x10:
		return KPROFILE_AMD_FAMILY_FAM10H;
	case 0x15:
		return KPROFILE_AMD_FAMILY_FAM15H;
	case 0x17:
		return model < 0x30 ? KPROFILE_AMD_FAMILY_ZEN1 :
				      KPROFILE_AMD_FAMILY_ZEN2;
	case 0x19:
		if (model < 0x10 || (model >= 0x20 && model < 0x60))
			return KPROFILE_AMD_FAMILY_ZEN3;
		return KPROFILE_AMD_FAMILY_ZEN4;
	case 0x1a:
		return KPROFILE_AMD_FAMILY_ZEN5;
	default:
		return KPROFILE_AMD_FAMILY_UNKNOWN;
	}
}
EXPORT_SYMBOL_IF_KUNIT(kp_amd_family_of);

/**
 * kp_amd_family_label() - how messages name a family.
 * @fam: enum kprofile_amd_family.
 *
 * Return: e.g. "Zen 1 (family 17h)".
 */
const char *kp_amd_family_label(u32 fam)
{
	if (fam >= ARRAY_SIZE(kp_amd_families))
		fam = KPROFILE_AMD_FAMILY_UNKNOWN;
	return kp_amd_families[fam].label;
}
EXPORT_SYMBOL_IF_KUNIT(kp_amd_family_label);

/**
 * kp_amd_family_name() - the short name of a family, as
 *	`kprofile sources --family` spells it.
 * @fam: enum kprofile_amd_family.
 *
 * Return: e.g. "zen1".
 */
const char *kp_amd_family_name(u32 fam)
{
	if (fam >= ARRAY_SIZE(kp_amd_families))
		fam = KPROFILE_AMD_FAMILY_UNKNOWN;
	return kp_amd_families[fam].name;
}

static const struct kp_amd_rule *kp_amd_rule_find(u32 fam, u32 select)
{
	u32 ev = select & 0xff, um = (select >> 8) & 0xff;
	unsigned int i;

	if (fam >= ARRAY_SIZE(kp_amd_families))
		fam = KPROFILE_AMD_FAMILY_UNKNOWN;
	for (i = 0; i < ARRAY_SIZE(kp_amd_rules); i++) {
		const struct kp_amd_rule *r = &kp_amd_rules[i];

		if ((r->families & BIT(fam)) && ev >= r->first &&
		    ev <= r->last &&
		    (r->umask == KPROFILE_AMD_ANY_UMASK || r->umask == um))
			return r;
	}
	return NULL;
}

/**
 * kp_amd_counters() - where an Amd64 table event may run on a family.
 * @fam:    enum kprofile_amd_family.
 * @select: the table's event select.
 * @reason: when the event is not supported there, filled with why: the
 *	    family, the event and the citation (may be NULL).
 * @len:    bytes at @reason.
 *
 * Return: the mask of legacy counters (PERF_CTL0-3) the event may use, 0
 * when the family does not count it as the table means it.
 */
u32 kp_amd_counters(u32 fam, u32 select, char *reason, size_t len)
{
	const struct kp_amd_rule *r = kp_amd_rule_find(fam, select);
	const char *label = kp_amd_family_label(fam);

	if (r && r->counters)
		return r->counters;
	if (!reason || !len)
		return 0;
	if (r)
		scnprintf(reason, len, "%s: event 0x%02x umask 0x%02x is %s",
			  label, select & 0xff, (select >> 8) & 0xff, r->cite);
	else
		scnprintf(reason, len,
			  "%s has no core event 0x%02x umask 0x%02x (%s)",
			  label, select & 0xff, (select >> 8) & 0xff,
			  kp_amd_families[fam < ARRAY_SIZE(kp_amd_families) ?
					  fam : 0].ref);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kp_amd_counters);

/**
 * kp_amd_family_constrained() - whether some events of a family may use
 *	only some counters (family 15h).
 * @fam: enum kprofile_amd_family.
 *
 * Return: true when the allocator should keep the constrained counters
 * for the events that need them.
 */
bool kp_amd_family_constrained(u32 fam)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kp_amd_rules); i++)
		if ((kp_amd_rules[i].families & BIT(fam)) &&
		    kp_amd_rules[i].counters &&
		    kp_amd_rules[i].counters != 0xf)
			return true;
	return false;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fake_pmu.h - the fake processor's performance-monitoring unit: counters
 * that count only when enabled, overflow that sets status and raises a
 * PMI through the LVTPC, and NMI delivery to a list of handlers, as the
 * Intel SDM (Vol. 3B ch. 18-20, Vol. 3A 11.5) and the AMD APM (Vol. 2
 * 13.2, 16.4) describe them.  Included by fake_hw.h.
 *
 * Counting
 *	kp_fake_pmc_define() makes an (event select, counter) MSR pair
 *	general-purpose counter n.  Such a counter counts (kp_fake_count(),
 *	kp_fake_tick()) only while its select has EN (bit 22) and, when a
 *	global control register is modelled (kp_fake_pmu_global(): Intel
 *	v2+, AMD PerfMonV2), bit n of it is set, and the counters are not
 *	frozen (Intel streamlined freeze, GLOBAL_STATUS bit 59).  A counter
 *	may be counting before any code under test runs: give its select
 *	EN with kp_fake_msr_set(), as perf's NMI watchdog leaves it.
 *
 * Overflow and PMI
 *	A counter that wraps sets its status bit (kp_fake_counter_status())
 *	whether or not INT is set.  With INT it raises a PMI: if
 *	DEBUGCTL.FREEZE_PERFMON_ON_PMI (bit 12) is set, the PMU freezes
 *	(kp_fake_pmu_freeze(): legacy, v2/v3, clears GLOBAL_CTRL; streamlined,
 *	v4+, sets GLOBAL_STATUS.CTR_Frz).  The local APIC then delivers an
 *	NMI only if the LVTPC is not masked; a PMI while it is masked is
 *	lost (its status bit stays).  On Intel the APIC masks the LVTPC when
 *	it delivers a PMI (kp_fake_pmu_lvtpc_automask()); the handler must
 *	unmask it (the lvtpc_nmi op; in x2APIC mode, kp_fake_x2apic(), a
 *	write of MSR 0x834).  AMD does not mask it.
 *
 * NMIs
 *	A delivered PMI is pending until kp_fake_nmi_deliver() runs the
 *	registered handlers (kp_fake_nmi_register(), in order, every one of
 *	them, as Linux runs NMI_LOCAL handlers) on that CPU with interrupts
 *	off.  At most two NMIs are pending (one being taken and one
 *	latched); more collapse into them.  An NMI no handler claims is
 *	"unknown", unless the previous NMI of the same delivery run (a
 *	back-to-back NMI) was claimed with a count above one: Linux then
 *	swallows it.  NMIs left for a later kp_fake_nmi_deliver() are late,
 *	as AMD's PMIs can be.
 */
#ifndef _KPROFILE_FAKE_PMU_H
#define _KPROFILE_FAKE_PMU_H

#include <linux/bits.h>
#include <linux/types.h>

struct kp_fake;
struct pt_regs;

#define KP_FAKE_MAX_PMCS		16	/* general-purpose counters */
#define KP_FAKE_MAX_NMI_HANDLERS	4
#define KP_FAKE_MAX_INJECT		4

#define KP_FAKE_EVTSEL_INT		BIT_ULL(20)
#define KP_FAKE_EVTSEL_EN		BIT_ULL(22)
#define KP_FAKE_DEBUGCTL_FREEZE_ON_PMI	BIT_ULL(12)
#define KP_FAKE_STATUS_CTR_FRZ		BIT_ULL(59)

/**
 * enum kp_fake_freeze - what a PMI does when DEBUGCTL bit 12 is set.
 * @KP_FAKE_FREEZE_NONE:	nothing (no DEBUGCTL modelled).
 * @KP_FAKE_FREEZE_LEGACY:	perfmon v2/v3: GLOBAL_CTRL is cleared.
 * @KP_FAKE_FREEZE_STREAMLINED: v4 and later: GLOBAL_STATUS.CTR_Frz (bit
 *				59) is set and nothing counts until it is
 *				cleared through GLOBAL_OVF_CTRL.
 */
enum kp_fake_freeze {
	KP_FAKE_FREEZE_NONE,
	KP_FAKE_FREEZE_LEGACY,
	KP_FAKE_FREEZE_STREAMLINED,
};

/**
 * struct kp_fake_nmi_stats - PMIs and NMIs on one CPU since the fake was
 *	made.
 * @raised:    PMIs the PMU raised (overflow with INT, kp_fake_pmi_raise()).
 * @lost:      of those, dropped because the LVTPC was masked.
 * @merged:    of those, collapsed into an NMI already pending.
 * @delivered: NMIs the handlers ran for.
 * @handled:   of those, claimed by a handler.
 * @swallowed: unclaimed back-to-back NMIs Linux would swallow.
 * @unknown:   unclaimed NMIs: "NMI received for unknown reason".
 */
struct kp_fake_nmi_stats {
	unsigned int raised;
	unsigned int lost;
	unsigned int merged;
	unsigned int delivered;
	unsigned int handled;
	unsigned int swallowed;
	unsigned int unknown;
};

/**
 * typedef kp_fake_nmi_fn - an NMI handler: as an NMI_LOCAL handler, the
 *	number of events it handled (0: not its NMI).
 * @fake: the fake.
 * @data: the registrant's pointer.
 * @regs: the interrupted registers (kp_fake_nmi_deliver()'s).
 */
typedef int (*kp_fake_nmi_fn)(struct kp_fake *fake, void *data,
			      struct pt_regs *regs);

/* --- the model (setup) ------------------------------------------------- */

void kp_fake_pmc_define(struct kp_fake *fake, unsigned int n, u32 sel_msr,
			u32 ctr_msr);
void kp_fake_pmu_global(struct kp_fake *fake, u32 ctrl_msr, u32 status_msr);
void kp_fake_pmu_freeze(struct kp_fake *fake, u32 debugctl_msr,
			enum kp_fake_freeze how);
void kp_fake_pmu_lvtpc_automask(struct kp_fake *fake, bool on);
void kp_fake_x2apic(struct kp_fake *fake);
void kp_fake_counter_status(struct kp_fake *fake, u32 counter,
			    u32 status_msr, unsigned int bit);

/* --- events ------------------------------------------------------------ */

bool kp_fake_counter_enabled(struct kp_fake *fake, unsigned int cpu,
			     unsigned int n);
bool kp_fake_count(struct kp_fake *fake, unsigned int cpu, u32 counter,
		   u64 events);
void kp_fake_tick(struct kp_fake *fake, unsigned int cpu, u64 events);
void kp_fake_inject_after_write(struct kp_fake *fake, unsigned int cpu,
				u32 trigger_msr, u32 counter, u64 events);
void kp_fake_pmi_raise(struct kp_fake *fake, unsigned int cpu);

/* --- LVTPC and NMIs ---------------------------------------------------- */

bool kp_fake_lvtpc_masked(struct kp_fake *fake, unsigned int cpu);
void kp_fake_lvtpc_set_masked(struct kp_fake *fake, unsigned int cpu,
			      bool masked);
void kp_fake_nmi_register(struct kp_fake *fake, kp_fake_nmi_fn fn,
			  void *data);
unsigned int kp_fake_nmi_pending(struct kp_fake *fake, unsigned int cpu);
unsigned int kp_fake_nmi_deliver(struct kp_fake *fake, unsigned int cpu,
				 unsigned int max, struct pt_regs *regs);
void kp_fake_nmi_stats(struct kp_fake *fake, unsigned int cpu,
		       struct kp_fake_nmi_stats *st);

/* --- other agents ------------------------------------------------------ */

int kp_fake_perf_pt_nmi(struct kp_fake *fake, void *data,
			struct pt_regs *regs);

#endif /* _KPROFILE_FAKE_PMU_H */

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

/**
 * DOC: reserving counters (HalAllocateHardwareCounters)
 *
 * kprofile_reserve_counters() takes general-purpose counters from kprofile
 * and from Linux's arbitration (reserve_perfctr_nmi() and
 * reserve_evntsel_nmi(), what perf and the NMI watchdog use), on every CPU,
 * and programs nothing.  The holder programs them itself, on each CPU it
 * uses, with interrupts off:
 *
 * - event select i is MSR evtsel_base + i and counter i is counter_base +
 *   i (Intel: IA32_PERFEVTSELi 0x186 + i, IA32_PMCi 0xC1 + i; AMD:
 *   PerfEvtSeli 0xC0010000 + i, PerfCtri 0xC0010004 + i);
 * - a counter counts only while EN is set in its select *and* its bit is
 *   set in the global control when the processor has one: bit i of
 *   IA32_PERF_GLOBAL_CTRL (0x38F, Intel perfmon v2 and later) or of
 *   PerfCntrGlobalCtl (0xC0000301, AMD PerfMonV2).  Set it with a
 *   read-modify-write with interrupts off, and clear it when done;
 * - Linux zeroes PerfCntrGlobalCtl at every CPU start on Zen 4 and later
 *   (CPU online, resume).  kprofile re-enables its own counters then, not
 *   the holder's: a holder that keeps counters across CPU hotplug or
 *   suspend re-programs them itself;
 * - writes to the legacy Intel counter MSRs IA32_PMCi keep only bits 31:0,
 *   sign-extended to the counter width.  When IA32_PERF_CAPABILITIES (MSR
 *   0x345, present when CPUID.1:ECX[15] is set) has bit 13 (FW_WRITE),
 *   IA32_A_PMCi (0x4C1 + i) take full-width values; otherwise load only
 *   values a sign-extended 32-bit write represents (a period of at most
 *   2^31 - 1 events, as perf does);
 * - with an overflow handler, kprofile's NMI handler acknowledges the
 *   overflows of counters whose select has INT and unmasks the LVTPC; the
 *   holder reloads its counters in the handler.  A counter that overflows
 *   without INT raises no PMI and is not reported.
 *
 * kprofile_release_counters() disables the counters on every CPU (EN, INT
 * and the global-control bit cleared) and gives them back to Linux.
 */

struct kprofile_reservation *
kprofile_reserve_counters(const struct kprofile_counter_desc *descs, u32 nr,
			  const struct cpumask *cpus,
			  void (*overflow)(void *data, u64 mask,
					   struct pt_regs *regs),
			  void *data, u32 *counter_mask);
void kprofile_release_counters(struct kprofile_reservation *r);

#endif /* _LINUX_KPROFILE_H */

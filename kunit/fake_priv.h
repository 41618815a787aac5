/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fake_priv.h - the insides of the fake processor, shared by its parts:
 * fake_hw.c (the ops, CPUID, the MSR file), fake_log.c (write log, seed,
 * snapshot) and fake_pmu.c (the performance-monitoring model: counting,
 * overflow, PMIs through the LVTPC, NMI delivery).  Not for the suites:
 * they use fake_hw.h and fake_pmu.h.
 *
 * Concurrency: the ops run wherever the code under test runs (IPIs,
 * NMIs): no locks, no allocation.  Each CPU touches only its own row of
 * @vals and its own struct kp_fake_cpu; the log hands out slots with
 * atomic_inc_return().  The definitions (@cpuid, @msrs, @pmu) are written
 * only by the setup helpers, in the test's context, while nothing else
 * uses the fake.
 */
#ifndef _KPROFILE_FAKE_PRIV_H
#define _KPROFILE_FAKE_PRIV_H

#include <linux/atomic.h>
#include <linux/types.h>

#include "fake_hw.h"
#include "fake_pmu.h"

#define KP_FAKE_CPUID1_ECX_HV	BIT(31)	/* hypervisor present */

/**
 * struct kp_fake_cpuid - one CPUID table entry.
 * @leaf:    EAX input.
 * @subleaf: ECX input, or KP_FAKE_ANY_SUBLEAF.
 * @regs:    the answer.
 */
struct kp_fake_cpuid {
	u32 leaf;
	u32 subleaf;
	struct kp_cpuid_regs regs;
};

/**
 * struct kp_fake_msr - the definition of one MSR (its values are per CPU).
 * @msr:        the MSR number.
 * @flags:      KP_FAKE_* behaviour.
 * @mask:       bits a store keeps (the width).
 * @width:      width in bits, 1..64.
 * @reserved:   bits whose setting in a write faults (#GP).
 * @alias:      index of the MSR whose value this one reads and writes
 *		(full-width counter aliases), or -1.
 * @w1c:        index of the MSR whose bits a write clears, or -1.
 * @status:     index of the status MSR an overflow sets a bit in, or -1.
 * @status_bit: that bit.
 * @pmc:        the general-purpose counter (kp_fake_pmc_define()) this
 *		counter MSR is, or -1.
 */
struct kp_fake_msr {
	u32 msr;
	unsigned int flags;
	u64 mask;
	unsigned int width;
	u64 reserved;
	int alias;
	int w1c;
	int status;
	unsigned int status_bit;
	int pmc;
};

/**
 * struct kp_fake_cpu - one CPU's interrupt state; touched only by that
 *	CPU (or by the test while the fake is idle).
 * @lvtpc_calls:  lvtpc_nmi op calls since the last log clear.
 * @lvtpc_masked: the LVTPC mask bit.
 * @in_nmi:	  an NMI is being delivered (kp_fake_nmi_deliver()).
 * @pending:	  NMIs raised and not yet delivered (at most two: one
 *		  being taken and one latched; one while @in_nmi).
 * @stats:	  what happened to PMIs and NMIs on this CPU.
 */
struct kp_fake_cpu {
	unsigned int lvtpc_calls;
	bool lvtpc_masked;
	bool in_nmi;
	unsigned int pending;
	struct kp_fake_nmi_stats stats;
};

/**
 * struct kp_fake_inject - events that happen right after a write.
 * @armed:   waiting for its write.
 * @cpu:     the CPU.
 * @trigger: index of the MSR whose next successful write fires it.
 * @counter: the counter MSR that then counts.
 * @events:  how many events.
 */
struct kp_fake_inject {
	bool armed;
	unsigned int cpu;
	int trigger;
	u32 counter;
	u64 events;
};

/**
 * struct kp_fake_nmi_handler - one registered NMI handler.
 * @fn:   the handler.
 * @data: its argument.
 */
struct kp_fake_nmi_handler {
	kp_fake_nmi_fn fn;
	void *data;
};

/**
 * struct kp_fake_pmu - the performance-monitoring model.
 * @nr:		    general-purpose counters defined.
 * @sel:	    MSR index of each counter's event select.
 * @ctr:	    MSR index of each counter.
 * @global_ctrl:    MSR index of the global enable register, or -1.
 * @status:	    MSR index of the global status register, or -1.
 * @debugctl:	    MSR index of IA32_DEBUGCTL (freeze on PMI), or -1.
 * @freeze:	    enum kp_fake_freeze: what a PMI does with DEBUGCTL bit 12.
 * @lvtpc_automask: the local APIC masks the LVTPC on every PMI (Intel).
 * @nmi:	    registered NMI handlers, called in order.
 * @nr_nmi:	    entries in @nmi.
 * @inject:	    pending injections (kp_fake_inject_after_write()).
 */
struct kp_fake_pmu {
	unsigned int nr;
	int sel[KP_FAKE_MAX_PMCS];
	int ctr[KP_FAKE_MAX_PMCS];
	int global_ctrl;
	int status;
	int debugctl;
	enum kp_fake_freeze freeze;
	bool lvtpc_automask;
	struct kp_fake_nmi_handler nmi[KP_FAKE_MAX_NMI_HANDLERS];
	unsigned int nr_nmi;
	struct kp_fake_inject inject[KP_FAKE_MAX_INJECT];
};

/**
 * struct kp_fake - a fake processor; see fake_hw.h.
 * @test:     the owning test.
 * @hw:       the seam handed to the code under test (ctx = this).
 * @cpuid:    CPUID table.
 * @nr_cpuid: entries used in @cpuid.
 * @msrs:     MSR definitions.
 * @nr_msrs:  entries used in @msrs.
 * @vals:     MSR values, [cpu * KP_FAKE_MAX_MSRS + index], nr_cpu_ids rows;
 *	      row c is only accessed by CPU c (or by the test while idle).
 * @cpus:     per-CPU interrupt state, nr_cpu_ids entries.
 * @pmu:      the performance-monitoring model.
 * @log_next: writes since the last clear; the next free log slot.
 * @log:      KP_FAKE_LOG_LEN entries.
 * @scratch:  returned by kp_fake_cpuid_find() when the entry is missing.
 * @platform: perf's verdict, feature bits, per-CPU CPUID (fake_platform.c).
 * @x2apic_lvtpc: MSR index of the x2APIC LVTPC (kp_fake_x2apic()), or -1
 *	      (xAPIC mode: the lvtpc_nmi op is the LVTPC).
 */
struct kp_fake {
	struct kunit *test;
	struct kp_hw hw;
	struct kp_fake_cpuid cpuid[KP_FAKE_MAX_CPUID];
	unsigned int nr_cpuid;
	struct kp_fake_msr msrs[KP_FAKE_MAX_MSRS];
	unsigned int nr_msrs;
	u64 *vals;
	struct kp_fake_cpu *cpus;
	struct kp_fake_pmu pmu;
	atomic_t log_next;
	struct kp_fake_write *log;
	struct kp_cpuid_regs scratch;
	struct kp_fake_platform *platform;
	int x2apic_lvtpc;
};

static inline int kp_fake_msr_index(const struct kp_fake *fake, u32 msr)
{
	unsigned int i;

	for (i = 0; i < fake->nr_msrs; i++)
		if (fake->msrs[i].msr == msr)
			return i;
	return -1;
}

static inline u64 *kp_fake_val(struct kp_fake *fake, unsigned int cpu, int idx)
{
	return &fake->vals[cpu * KP_FAKE_MAX_MSRS + idx];
}

/* fake_hw.c */
int kp_fake_msr_lookup(struct kp_fake *fake, u32 msr);
bool kp_fake_cpu_ok(struct kp_fake *fake, unsigned int cpu);

/* fake_log.c: the write log, from the write op. */
void kp_fake_log_write(struct kp_fake *fake, unsigned int cpu, u32 msr,
		       u64 val, int ret);

/* fake_pmu.c: what the PMU does after a successful write, on @cpu. */
void kp_fake_pmu_written(struct kp_fake *fake, unsigned int cpu, int idx);

#endif /* _KPROFILE_FAKE_PRIV_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fake_hw.h - a fake processor behind the kp_hw seam (kmod/hw.h), for the
 * KUnit suites.
 *
 * A struct kp_fake is a CPUID table, a per-CPU MSR file, a model of the
 * performance-monitoring unit (fake_pmu.h: counters that count only when
 * enabled, overflow, PMIs through the LVTPC, NMIs), plus a log of every
 * MSR write.  Hand kp_fake_hw(fake) to
 * the code under test where it expects a const struct kp_hw *.
 *
 * Typical use::
 *
 *	struct kp_fake *fake = kp_fake_new(test);
 *	struct kp_pmu_desc desc;
 *
 *	kp_fake_intel(fake, 2, 4, 48, 7, BIT(4));
 *	kp_detect(kp_fake_hw(fake), &desc);
 *	KUNIT_EXPECT_EQ(test, desc.iface, KPROFILE_INTERFACE_EMON);
 *
 *	kp_fake_log_clear(fake);
 *	... arm a source with on_each_cpu() ...
 *	static const struct kp_fake_msrval seq[] = {
 *		{ 0x186, 0x005300c5 }, { 0xc1, 0xffffffffd8f0 },
 *	};
 *	KP_FAKE_EXPECT_WRITES(test, fake, KP_FAKE_EACH_CPU, seq);
 *
 * CPUID
 *	A table of (leaf, subleaf) -> EAX..EDX.  A leaf that is not in the
 *	table returns zeros, as real processors do above their maximum leaf.
 *	An entry added with subleaf KP_FAKE_ANY_SUBLEAF answers every
 *	subleaf (leaves such as 0xA ignore ECX).  The table is shared by
 *	every CPU; kp_fake_cpuid_cpu() gives one CPU entries of its own
 *	(hybrid parts).
 *
 * MSRs
 *	Each MSR is defined once (kp_fake_msr_define()) and then has one
 *	value per possible CPU, indexed by smp_processor_id() of the CPU
 *	that accesses it; the array is sized nr_cpu_ids.  Accessing an MSR
 *	that is not defined faults (-EIO), as a #GP does on real hardware.
 *	Per-MSR behaviour (KP_FAKE_* flags, see below): fault on read,
 *	fault on write, ignore writes, legacy 32-bit counter writes; a
 *	counter width that masks every value stored; reserved bits whose
 *	setting faults (kp_fake_msr_reserved(), as the SDM's #GP on reserved
 *	bits of event selects and global registers); an alias that reads
 *	and writes another MSR's value (IA32_A_PMCx); and "write-1-to-clear
 *	into another MSR" for overflow acknowledgment registers.
 *
 * Write log
 *	Every kp_wrmsr() through the fake is appended to a log (CPU, MSR,
 *	value as written, result), in the order the writes happened, faulting
 *	writes and writes to undefined MSRs included.  The log holds
 *	KP_FAKE_LOG_LEN entries; later writes are counted but dropped, and
 *	kp_fake_log_overflowed() tells.
 *
 * Context rules
 *	The ops (what the code under test calls) take no locks and do not
 *	allocate: they may run in process context, in on_each_cpu() IPIs, in
 *	hrtimer callbacks and in NMIs (a test calling the NMI handler
 *	directly).  Each CPU only touches its own MSR values and LVTPC slot;
 *	the write log reserves slots with an atomic counter.
 *	The setup and inspection helpers (everything below that is not an
 *	op) run in the test's process context, and only while no code under
 *	test is running on another CPU (for example after on_each_cpu(...,
 *	true) has returned).  Setup helpers that are given impossible
 *	arguments fail the test (KUNIT_FAIL) rather than return an error.
 *
 * Lifetime
 *	kp_fake_new() allocates with kunit_kzalloc(): everything is freed
 *	when the test ends.  Do not keep a fake's kp_hw past its test.
 */
#ifndef _KPROFILE_FAKE_HW_H
#define _KPROFILE_FAKE_HW_H

#include <kunit/test.h>
#include <linux/types.h>

#include "../kmod/hw.h"

/* Capacities of one fake. */
#define KP_FAKE_MAX_CPUID	48	/* CPUID table entries */
#define KP_FAKE_MAX_MSRS	64	/* defined MSRs */
#define KP_FAKE_LOG_LEN		1024	/* write-log entries kept */

/* A CPUID entry that answers every subleaf of its leaf. */
#define KP_FAKE_ANY_SUBLEAF	0xffffffffU

/* @cpu argument: every possible CPU (setters), each online CPU (checks). */
#define KP_FAKE_ALL_CPUS	(-1)
#define KP_FAKE_EACH_CPU	(-1)

/*
 * Per-MSR behaviour flags (kp_fake_msr_define(), kp_fake_msr_set_flags()).
 *
 * KP_FAKE_FAULT_READ:	  reads fault: the op returns -EIO and *val = 0.
 * KP_FAKE_FAULT_WRITE:	  writes fault: -EIO, the value is unchanged (the
 *			  write is still logged, with ret -EIO).
 * KP_FAKE_IGNORE_WRITES: writes succeed but are discarded: reads keep
 *			  returning the current (fixed) value.  This is a
 *			  hypervisor whose counters read back wrong.
 * KP_FAKE_LEGACY32:	  Intel IA32_PMCx legacy write semantics: only the
 *			  low 32 bits of a write are kept, sign-extended
 *			  to the counter width.
 * KP_FAKE_WRITE_ONLY:	  reads return 0 and writes are not stored (an
 *			  acknowledgment register such as
 *			  IA32_PERF_GLOBAL_OVF_CTRL); combine with
 *			  kp_fake_msr_w1c().
 */
#define KP_FAKE_FAULT_READ	BIT(0)
#define KP_FAKE_FAULT_WRITE	BIT(1)
#define KP_FAKE_IGNORE_WRITES	BIT(2)
#define KP_FAKE_LEGACY32	BIT(3)
#define KP_FAKE_WRITE_ONLY	BIT(4)

/**
 * struct kp_fake_write - one logged MSR write.
 * @cpu: smp_processor_id() of the writer.
 * @msr: the MSR.
 * @val: the value as the code under test wrote it (before any masking).
 * @ret: what the op returned: 0, or -EIO for a fault.
 * @irqs_off: interrupts were disabled on the writer (a read-modify-write
 *	 that needs them off can be checked).
 */
struct kp_fake_write {
	unsigned int cpu;
	u32 msr;
	u64 val;
	int ret;
	bool irqs_off;
};

/**
 * struct kp_fake_msrval - an (MSR, value) pair of an expected write
 *	sequence (KP_FAKE_EXPECT_WRITES()).
 * @msr: the MSR.
 * @val: the value written.
 */
struct kp_fake_msrval {
	u32 msr;
	u64 val;
};

struct kp_fake;

/* --- creation ---------------------------------------------------------- */

/**
 * kp_fake_new() - a blank fake processor for @test.
 * @test: the test; the fake is freed when it ends.
 *
 * The fake starts with an empty CPUID table (every leaf reads as zeros, so
 * the vendor string is empty), no MSRs (every access faults), an empty
 * write log, zero LVTPC counts, the LVTPC unmasked (Linux's perf has
 * programmed it at boot) and no PMU model.  Use kp_fake_intel() or kp_fake_amd()
 * for a whole processor.  Allocation failure fails the test.
 *
 * Return: the fake.
 */
struct kp_fake *kp_fake_new(struct kunit *test);

/**
 * kp_fake_hw() - the seam to hand to the code under test.
 * @fake: the fake.
 *
 * Return: a struct kp_hw whose ops act on @fake (ctx is @fake).
 */
const struct kp_hw *kp_fake_hw(struct kp_fake *fake);

/* --- CPUID ------------------------------------------------------------- */

/**
 * kp_fake_cpuid_set() - add or replace a CPUID table entry.
 * @fake:    the fake.
 * @leaf:    EAX input.
 * @subleaf: ECX input, or KP_FAKE_ANY_SUBLEAF to answer every subleaf
 *	     (an exact entry wins over an ANY entry).
 * @eax:     EAX output.
 * @ebx:     EBX output.
 * @ecx:     ECX output.
 * @edx:     EDX output.
 *
 * Leaf 0's EAX is the maximum basic leaf; the fake does not enforce it
 * (an entry above it still answers), like kp_detect() it is up to the
 * code under test to check it.
 */
void kp_fake_cpuid_set(struct kp_fake *fake, u32 leaf, u32 subleaf,
		       u32 eax, u32 ebx, u32 ecx, u32 edx);

/**
 * kp_fake_cpuid_find() - an entry of the CPUID table, to edit in place.
 * @fake:    the fake.
 * @leaf:    EAX input.
 * @subleaf: ECX input as given to kp_fake_cpuid_set().
 *
 * Example: clear long mode on a fake AMD processor with
 * ``kp_fake_cpuid_find(fake, 0x80000001, 0)->edx &= ~BIT(29);``
 *
 * Return: the registers of that exact entry; fails the test (and returns
 * a scratch entry) when there is none.
 */
struct kp_cpuid_regs *kp_fake_cpuid_find(struct kp_fake *fake, u32 leaf,
					 u32 subleaf);

/**
 * kp_fake_vendor() - set the vendor string (CPUID leaf 0 EBX, EDX, ECX).
 * @fake:   the fake.
 * @vendor: up to 12 characters, e.g. "HygonGenuine"; shorter strings are
 *	    padded with NULs.
 *
 * Leaf 0's EAX (the maximum leaf) is kept.
 */
void kp_fake_vendor(struct kp_fake *fake, const char *vendor);

/**
 * kp_fake_max_leaf() - set the maximum basic leaf (CPUID leaf 0 EAX).
 * @fake:     the fake.
 * @max_leaf: the new maximum; the vendor string is kept.
 */
void kp_fake_max_leaf(struct kp_fake *fake, u32 max_leaf);

/**
 * kp_fake_hypervisor() - set or clear the hypervisor bit, CPUID.1:ECX[31].
 * @fake:    the fake; leaf 1 must be in its table.
 * @present: whether a hypervisor is announced.
 */
void kp_fake_hypervisor(struct kp_fake *fake, bool present);

/* --- MSRs -------------------------------------------------------------- */

/**
 * kp_fake_msr_define() - add (or redefine) an MSR.
 * @fake:  the fake.
 * @msr:   the MSR number.
 * @init:  its value on every possible CPU (masked to @width).
 * @width: bits kept by every store: 48 for an AMD counter, CPUID.0AH's
 *	   width for an Intel one; 0 or 64 for a plain 64-bit register.
 * @flags: KP_FAKE_* behaviour flags.
 *
 * Redefining an MSR replaces its behaviour and resets its values; a
 * write-1-to-clear link or overflow-status link (kp_fake_msr_w1c(),
 * kp_fake_counter_status()) of the MSR is dropped.  More than
 * KP_FAKE_MAX_MSRS MSRs fails the test.
 */
void kp_fake_msr_define(struct kp_fake *fake, u32 msr, u64 init,
			unsigned int width, unsigned int flags);

/**
 * kp_fake_msr_defined() - whether an MSR is defined.
 * @fake: the fake.
 * @msr:  the MSR number.
 *
 * Return: true when kp_fake_msr_define() defined @msr.
 */
bool kp_fake_msr_defined(struct kp_fake *fake, u32 msr);

/**
 * kp_fake_msr_set_flags() - change an MSR's behaviour, keeping its values.
 * @fake:  the fake.
 * @msr:   a defined MSR (else the test fails).
 * @flags: the new KP_FAKE_* flags (they replace the old ones).
 *
 * Example: make counter 0 ignore writes, as a hypervisor that masks the
 * PMU does: ``kp_fake_msr_set_flags(fake, 0xc1, KP_FAKE_IGNORE_WRITES |
 * KP_FAKE_LEGACY32);``
 */
void kp_fake_msr_set_flags(struct kp_fake *fake, u32 msr,
			   unsigned int flags);

/**
 * kp_fake_msr_w1c() - make writes to @msr clear bits in @target.
 * @fake:   the fake.
 * @msr:    a defined MSR, typically KP_FAKE_WRITE_ONLY (the
 *	    acknowledgment register).
 * @target: a defined MSR (the status register).
 *
 * A successful write of V to @msr on a CPU clears the bits of V in that
 * CPU's @target: IA32_PERF_GLOBAL_OVF_CTRL -> IA32_PERF_GLOBAL_STATUS,
 * AMD PerfCntrGlobalStatusClr -> PerfCntrGlobalStatus.
 */
void kp_fake_msr_w1c(struct kp_fake *fake, u32 msr, u32 target);

/**
 * kp_fake_msr_reserved() - make writes that set reserved bits fault.
 * @fake:     the fake.
 * @msr:      a defined MSR.
 * @reserved: bits a write must leave clear; a write with any of them set
 *	      faults (-EIO, #GP) and changes nothing.
 */
void kp_fake_msr_reserved(struct kp_fake *fake, u32 msr, u64 reserved);

/**
 * kp_fake_msr_alias() - make @msr another name of @target's value.
 * @fake:   the fake.
 * @msr:    a defined MSR; its own flags and reserved bits apply to
 *	    accesses through it, @target's width to the value.
 * @target: a defined MSR.
 *
 * Example: IA32_A_PMC0 (0x4C1), the full-width alias of IA32_PMC0.
 */
void kp_fake_msr_alias(struct kp_fake *fake, u32 msr, u32 target);

/**
 * kp_fake_msr_set() - set an MSR's value directly, as hardware would.
 * @fake: the fake.
 * @cpu:  a possible CPU, or KP_FAKE_ALL_CPUS.
 * @msr:  a defined MSR.
 * @val:  the value, masked to the MSR's width; flags do not apply and
 *	  nothing is logged.
 *
 * Use it to seed a counter near overflow, raise a status bit, or give
 * registers recognisable values before a save/restore test.
 */
void kp_fake_msr_set(struct kp_fake *fake, int cpu, u32 msr, u64 val);

/**
 * kp_fake_msr_get() - an MSR's stored value, as hardware holds it.
 * @fake: the fake.
 * @cpu:  a possible CPU.
 * @msr:  a defined MSR (else the test fails and 0 is returned).
 *
 * Flags do not apply: a KP_FAKE_FAULT_READ MSR still shows its value.
 *
 * Return: the value.
 */
u64 kp_fake_msr_get(struct kp_fake *fake, unsigned int cpu, u32 msr);

/**
 * kp_fake_seed() - give every storable MSR a distinct value on every CPU.
 * @fake: the fake.
 *
 * Every defined MSR except KP_FAKE_WRITE_ONLY ones and write-1-to-clear
 * targets (status registers) gets a value unique to its (CPU, MSR),
 * masked to its width, so a save/restore test can tell whether the code
 * under test put back what it found (kp_fake_snapshot()).
 */
void kp_fake_seed(struct kp_fake *fake);

/**
 * kp_fake_snapshot() - copy every MSR value of every CPU.
 * @fake: the fake.
 *
 * Return: an opaque copy (freed with the test) for
 * kp_fake_snapshot_equal().
 */
u64 *kp_fake_snapshot(struct kp_fake *fake);

/**
 * kp_fake_snapshot_equal() - whether the MSRs are as in a snapshot.
 * @fake: the fake; no MSR may have been defined since the snapshot.
 * @snap: from kp_fake_snapshot().
 *
 * Every difference is printed (CPU, MSR, then and now) to the test log.
 *
 * Return: true when every MSR on every CPU holds its snapshot value.
 */
bool kp_fake_snapshot_equal(struct kp_fake *fake, const u64 *snap);

/* --- LVTPC ------------------------------------------------------------- */

/**
 * kp_fake_lvtpc_count() - how often a CPU called the lvtpc_nmi op (which
 *	also clears the LVTPC mask bit: kp_fake_lvtpc_masked()).
 * @fake: the fake.
 * @cpu:  a possible CPU.
 *
 * Return: calls since kp_fake_new() or kp_fake_log_clear().
 */
unsigned int kp_fake_lvtpc_count(struct kp_fake *fake, unsigned int cpu);

/* --- write log --------------------------------------------------------- */

/**
 * kp_fake_log_clear() - forget every logged write and LVTPC call.
 * @fake: the fake.
 */
void kp_fake_log_clear(struct kp_fake *fake);

/**
 * kp_fake_log_len() - logged writes since the last clear.
 * @fake: the fake.
 *
 * Return: entries available to kp_fake_log_at(), at most KP_FAKE_LOG_LEN.
 */
unsigned int kp_fake_log_len(struct kp_fake *fake);

/**
 * kp_fake_log_overflowed() - whether writes were dropped.
 * @fake: the fake.
 *
 * Return: true when more than KP_FAKE_LOG_LEN writes happened since the
 * last clear; kp_fake_writes_match() then fails.
 */
bool kp_fake_log_overflowed(struct kp_fake *fake);

/**
 * kp_fake_log_at() - one logged write.
 * @fake: the fake.
 * @i:    0 .. kp_fake_log_len() - 1, in the order the writes happened.
 *
 * Return: the entry (NULL, and the test fails, when @i is out of range).
 */
const struct kp_fake_write *kp_fake_log_at(struct kp_fake *fake,
					   unsigned int i);

/**
 * kp_fake_log_count_msr() - how many logged writes went to an MSR.
 * @fake: the fake.
 * @cpu:  a CPU, or KP_FAKE_ALL_CPUS for all of them.
 * @msr:  the MSR.
 *
 * Return: the number of writes (faulting ones included).
 */
unsigned int kp_fake_log_count_msr(struct kp_fake *fake, int cpu, u32 msr);

/**
 * kp_fake_writes_match() - whether a CPU's writes are exactly a sequence.
 * @test: the test (for the diagnostic output).
 * @fake: the fake.
 * @cpu:  a CPU, or KP_FAKE_EACH_CPU: every online CPU must match.
 * @seq:  the expected (MSR, value) pairs, in order.
 * @n:    entries in @seq (0: the CPU wrote nothing).
 *
 * Prefer KP_FAKE_EXPECT_WRITES().  On a mismatch the expected sequence
 * and the whole log are printed.
 *
 * Return: true on an exact match and no log overflow.
 */
bool kp_fake_writes_match(struct kunit *test, struct kp_fake *fake, int cpu,
			  const struct kp_fake_msrval *seq, unsigned int n);

/**
 * kp_fake_log_dump() - print the write log to the test log.
 * @test: the test.
 * @fake: the fake.
 */
void kp_fake_log_dump(struct kunit *test, struct kp_fake *fake);

/**
 * KP_FAKE_EXPECT_WRITES() - expect an exact MSR write sequence.
 * @test: the test.
 * @fake: the fake.
 * @cpu:  a CPU number, or KP_FAKE_EACH_CPU for "every online CPU wrote
 *	  exactly this sequence".
 * @seq:  a static array of struct kp_fake_msrval.
 *
 * The writes @cpu made since the last kp_fake_log_clear(), in order, must
 * be exactly @seq (MSR and value as written); faulting writes count.  On a
 * mismatch the whole log is printed.
 */
#define KP_FAKE_EXPECT_WRITES(test, fake, cpu, seq)			\
	do {								\
		struct kunit *__kpf_test = (test);			\
		int __kpf_cpu = (cpu);					\
		const struct kp_fake_msrval *__kpf_seq = (seq);		\
									\
		KUNIT_EXPECT_TRUE_MSG(__kpf_test,			\
			kp_fake_writes_match(__kpf_test, (fake),	\
					     __kpf_cpu, __kpf_seq,	\
					     sizeof(seq) /		\
					     sizeof((seq)[0]) +		\
					     __must_be_array(seq)),	\
			"MSR write sequence on CPU %d (-1: each)",	\
			__kpf_cpu);					\
	} while (0)

/* --- whole processors -------------------------------------------------- */

/* MSRs the convenience setups define. */
#define KP_FAKE_MSR_IA32_PMC0		0x000000c1
#define KP_FAKE_MSR_IA32_PERFEVTSEL0	0x00000186
#define KP_FAKE_MSR_IA32_DEBUGCTL	0x000001d9
#define KP_FAKE_MSR_IA32_PERF_CAPS	0x00000345
#define KP_FAKE_MSR_IA32_A_PMC0		0x000004c1
#define KP_FAKE_MSR_IA32_FIXED_CTR0	0x00000309
#define KP_FAKE_MSR_IA32_FIXED_CTR_CTRL	0x0000038d
#define KP_FAKE_MSR_IA32_GLOBAL_STATUS	0x0000038e
#define KP_FAKE_MSR_IA32_GLOBAL_CTRL	0x0000038f
#define KP_FAKE_MSR_IA32_GLOBAL_OVF_CTRL 0x00000390
#define KP_FAKE_MSR_K7_EVNTSEL0		0xc0010000
#define KP_FAKE_MSR_K7_PERFCTR0		0xc0010004
#define KP_FAKE_MSR_AMD_GLOBAL_STATUS	0xc0000300
#define KP_FAKE_MSR_AMD_GLOBAL_CTL	0xc0000301
#define KP_FAKE_MSR_AMD_GLOBAL_STATUS_CLR 0xc0000302

#define KP_FAKE_INTEL_FIXED_COUNTERS	3
#define KP_FAKE_INTEL_FIXED_WIDTH	48
#define KP_FAKE_AMD_COUNTERS		4
#define KP_FAKE_AMD_WIDTH		48

/**
 * kp_fake_intel() - make the fake an Intel processor with architectural
 *	performance monitoring.
 * @fake:     the fake (normally fresh from kp_fake_new()).
 * @version:  CPUID.0AH:EAX[7:0], the perfmon version (0: none).
 * @counters: CPUID.0AH:EAX[15:8], general-purpose counters.
 * @width:    CPUID.0AH:EAX[23:16], their width in bits.
 * @ebx_len:  CPUID.0AH:EAX[31:24], meaningful EBX bits.
 * @ebx_mask: CPUID.0AH:EBX, set bits are unavailable events.
 *
 * CPUID: leaf 0 = max leaf 0x16, "GenuineIntel"; leaf 1 = family 6 model
 * 0x5e (Skylake), no hypervisor bit; leaf 0xA (any subleaf) as given, with
 * EDX = 3 fixed counters of 48 bits for @version >= 2; 0x80000000 = max
 * 0x80000008; 0x80000001 = long mode.
 *
 * MSRs, all 0 unless said: for each counter n < @counters (only when
 * @version >= 1) IA32_PERFEVTSEL(n) at 0x186+n (bits 63:32 reserved) and
 * IA32_PMC(n) at 0xC1+n (@width bits, KP_FAKE_LEGACY32), general-purpose
 * counter n of the PMU model; IA32_DEBUGCTL (0x1D9).  For @version >= 2
 * also the fixed counters 0x309..0x30B (48 bits), IA32_FIXED_CTR_CTRL
 * (0x38D), IA32_PERF_GLOBAL_STATUS (0x38E, KP_FAKE_FAULT_WRITE),
 * IA32_PERF_GLOBAL_CTRL (0x38F, reset value: every general-purpose
 * counter enabled; bits of counters that do not exist are reserved) and
 * IA32_PERF_GLOBAL_OVF_CTRL (0x390, KP_FAKE_WRITE_ONLY, clears bits of
 * 0x38E; bits of no counter or condition reserved); counter n's overflow
 * sets bit n of 0x38E.  The LVTPC is masked by every PMI; freeze on PMI
 * is legacy for versions 2 and 3, streamlined from 4.  No
 * IA32_PERF_CAPABILITIES: see kp_fake_intel_full_width().
 */
void kp_fake_intel(struct kp_fake *fake, u32 version, u32 counters,
		   u32 width, u32 ebx_len, u32 ebx_mask);

/**
 * kp_fake_intel_full_width() - give a kp_fake_intel() processor
 *	IA32_PERF_CAPABILITIES.
 * @fake: the fake, after kp_fake_intel().
 * @fw:   IA32_PERF_CAPABILITIES bit 13 (FW_WRITE).
 *
 * Sets CPUID.1:ECX[15] (PDCM) and defines IA32_PERF_CAPABILITIES (0x345,
 * read-only) with bit 13 = @fw.  With @fw, IA32_A_PMC(n) at 0x4C1+n are
 * full-width aliases of IA32_PMC(n): a write there keeps every bit of the
 * counter's width.  Without it they do not exist (#GP), as on silicon.
 */
void kp_fake_intel_full_width(struct kp_fake *fake, bool fw);

/**
 * kp_fake_amd() - make the fake an AMD64 processor.
 * @fake:       the fake (normally fresh from kp_fake_new()).
 * @family:     display family, e.g. 0x17 (Zen 1/2), 0x19 (Zen 3/4).
 * @perfmon_v2: CPUID 0x80000022:EAX[0], Zen 4 PerfMonV2.
 *
 * CPUID: leaf 0 = max leaf 0x10, "AuthenticAMD"; leaf 1 = @family
 * (base 0xF plus extended family) model 1, no hypervisor bit;
 * 0x80000000 = max 0x80000022 for @family >= 0x19 or @perfmon_v2, else
 * 0x8000001F; 0x80000001 = long mode (EDX[29]); 0x80000022 (when within
 * the maximum) = EAX[0] @perfmon_v2, other registers 0.
 *
 * MSRs, all 0: PERF_CTL0..3 at 0xC0010000..3 (bits 63:42, 39:36 and 21
 * reserved) and PERF_CTR0..3 at 0xC0010004..7 (48 bits), counters 0..3
 * of the PMU model; the LVTPC is not masked by a PMI.  With @perfmon_v2 also PerfCntrGlobalStatus
 * (0xC0000300, KP_FAKE_FAULT_WRITE), PerfCntrGlobalCtl (0xC0000301, bits
 * above counter 3 reserved) and
 * PerfCntrGlobalStatusClr (0xC0000302, KP_FAKE_WRITE_ONLY, clears bits of
 * 0xC0000300); counter n's overflow sets bit n of 0xC0000300.
 *
 * For Hygon, follow with kp_fake_vendor(fake, "HygonGenuine").
 */
void kp_fake_amd(struct kp_fake *fake, u32 family, bool perfmon_v2);

/* --- platform: perf's verdict, feature bits, per-CPU CPUID ---------------
 * (fake_platform.c)  By default the platform op (struct kp_platform, hw.h)
 * answers what the kernel would conclude from the CPUID table: feature
 * bits from the leaves, and "perf initialised a PMU" whenever the table
 * describes counters.  The helpers below change that answer, and give
 * single CPUs CPUID entries of their own (they win over the shared table).
 */

/**
 * kp_fake_platform_set() - answer exactly @p from now on.
 * @fake: the fake.
 * @p:    the answer.
 */
void kp_fake_platform_set(struct kp_fake *fake, const struct kp_platform *p);

/**
 * kp_fake_platform_calls() - how often the platform op ran, and where.
 * @fake:   the fake.
 * @atomic: if not NULL, set to how many of those calls ran with
 *	    preemption or interrupts disabled.  The real op may sleep
 *	    (it may create a perf event), so this must stay 0.  Counted
 *	    only with CONFIG_PREEMPT_COUNT (the debug KUnit kernel);
 *	    always 0 without it.
 *
 * Return: platform op calls since kp_fake_new().
 */
unsigned int kp_fake_platform_calls(struct kp_fake *fake, unsigned int *atomic);

/**
 * kp_fake_perf_no_pmu() - perf found no usable PMU at boot (its
 *	check_hw_exists() failed, as under a hypervisor that masks it).
 * @fake: the fake.
 */
void kp_fake_perf_no_pmu(struct kp_fake *fake);

/**
 * kp_fake_feature() - force a KP_FEAT_* bit on or off.
 * @fake:    the fake.
 * @feature: KP_FEAT_* bits.
 * @on:      set or clear them.
 */
void kp_fake_feature(struct kp_fake *fake, u32 feature, bool on);

/**
 * kp_fake_cpuid_cpu() - a CPUID entry for one CPU only (hybrid parts).
 * @fake:    the fake.
 * @cpu:     the CPU (smp_processor_id() of the caller of the op).
 * @leaf:    EAX input.
 * @subleaf: ECX input, or KP_FAKE_ANY_SUBLEAF.
 * @eax:     EAX output.
 * @ebx:     EBX output.
 * @ecx:     ECX output.
 * @edx:     EDX output.
 */
void kp_fake_cpuid_cpu(struct kp_fake *fake, unsigned int cpu, u32 leaf,
		       u32 subleaf, u32 eax, u32 ebx, u32 ecx, u32 edx);

/**
 * kp_fake_perf_watchdog() - perf's NMI watchdog is running, as it is on
 *	bare metal by default: on AMD its cycles event sits on counter 0
 *	(select 0x530076: EN, INT, USR, OS) and counts; on Intel it uses
 *	fixed counter 1 (IA32_FIXED_CTR_CTRL 0xb0).  On every CPU.
 * @fake: the fake (kp_fake_intel() v2+ or kp_fake_amd()).
 */
void kp_fake_perf_watchdog(struct kp_fake *fake);

/* Internal to the fake: fake_hw.c <-> fake_platform.c. */
struct kp_fake_platform;
struct kp_fake_platform *kp_fake_platform_new(struct kunit *test);
struct kp_fake_platform *kp_fake_platform_of(struct kp_fake *fake);
struct kunit *kp_fake_test(struct kp_fake *fake);
bool kp_fake_cpuid_percpu(struct kp_fake *fake, u32 leaf, u32 subleaf,
			  struct kp_cpuid_regs *regs);
void kp_fake_op_platform(void *ctx, struct kp_platform *p);

#include "fake_pmu.h"

#endif /* _KPROFILE_FAKE_HW_H */

/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * kprofile_amd_families.h - which Amd64 table sources mean what the table
 * says on each AMD processor family, on which counters they may run, and
 * where that comes from.  Defined once: the module (kmod/sources_amd.c)
 * and the tool (kprofile sources --family) expand these X-macros.
 *
 * The Amd64 table (kprofile_sources.h) is the K8 event list.  Later
 * families renumbered or dropped many of its events, so a source is
 * supported on a family only when a rule below says its event select
 * (event code and unit mask) still counts the same thing there.
 *
 * KPROFILE_AMD_FAMILIES(X): X(IDENT, value, "name", "label", "reference")
 *   IDENT/value: enum kprofile_amd_family; "name": what
 *   `kprofile sources --family` accepts; "label": how reasons name it;
 *   "reference": the event list the family's rules were checked against.
 *
 * KPROFILE_AMD_EVENT_RULES(R): R(families, first, last, umask, counters,
 *   "citation"), in order; the first rule whose @families (a mask of
 *   KPROFILE_AMD_FAM(IDENT) bits) holds the running family, whose event
 *   code range [@first, @last] holds the select's event code (bits 7:0)
 *   and whose @umask is the select's unit mask (bits 15:8) or
 *   KPROFILE_AMD_ANY_UMASK decides:
 *   @counters is the mask of the four legacy counters (PERF_CTL0-3) the
 *   event may use there, 0 when the source is not supported; "citation"
 *   is the event's meaning on that family and its source.  A select no
 *   rule matches is not supported ("no such core event").
 *
 * Sources of the citations (see docs/hardware.md, "F2"):
 *   K8:       BKDG for AMD Athlon 64 and Opteron (#26094), section 10.2:
 *	       the Amd64 table is this list.
 *   Fam10h:   BKDG for family 10h (#31116), 3.14; perf's NB handling in
 *	       arch/x86/events/amd/core.c (amd_is_nb_event, amd_nb).
 *   Fam15h:   BKDG for family 15h (#42301) event names; counter
 *	       constraints from amd_get_event_constraints_f15h() and its
 *	       table comment in arch/x86/events/amd/core.c (Linux 6.1).
 *   Zen 1-3:  perf's tools/perf/pmu-events/arch/x86/amdzen{1,2,3} (6.1).
 *   Zen 4/5:  amdzen4 and amdzen5 (upstream perf, later than 6.1).
 *   Hygon:    family 18h (Dhyana) is Zen 1 (perf drives it as family 17h).
 */
#ifndef _UAPI_LINUX_KPROFILE_AMD_FAMILIES_H
#define _UAPI_LINUX_KPROFILE_AMD_FAMILIES_H

#define KPROFILE_AMD_FAMILIES(X) \
	X(UNKNOWN, 0, "other", "AMD family without an event list", \
	  "perf's event map for every AMD family (arch/x86/events/amd/core.c)") \
	X(K8, 1, "k8", "K8 (family 0Fh)", "BKDG #26094 10.2") \
	X(FAM10H, 2, "fam10h", "family 10h", "BKDG #31116 3.14") \
	X(FAM15H, 3, "fam15h", "family 15h", "BKDG #42301; amd/core.c f15h constraints") \
	X(ZEN1, 4, "zen1", "Zen 1 (family 17h)", "perf pmu-events amdzen1") \
	X(ZEN2, 5, "zen2", "Zen 2 (family 17h)", "perf pmu-events amdzen2") \
	X(ZEN3, 6, "zen3", "Zen 3 (family 19h)", "perf pmu-events amdzen3") \
	X(ZEN4, 7, "zen4", "Zen 4 (family 19h)", "perf pmu-events amdzen4") \
	X(ZEN5, 8, "zen5", "Zen 5 (family 1Ah)", "perf pmu-events amdzen5") \
	X(HYGON, 9, "hygon", "Hygon (family 18h)", "perf pmu-events amdzen1 (Dhyana is Zen 1)")

#define __KPROFILE_AMD_FAMILY_ENUM(ident, value, name, label, ref) \
	KPROFILE_AMD_FAMILY_##ident = value,
enum kprofile_amd_family {
	KPROFILE_AMD_FAMILIES(__KPROFILE_AMD_FAMILY_ENUM)
	KPROFILE_AMD_FAMILY_COUNT
};
#undef __KPROFILE_AMD_FAMILY_ENUM

#define KPROFILE_AMD_FAM(ident)		(1U << KPROFILE_AMD_FAMILY_##ident)
#define KPROFILE_AMD_ANY_UMASK		0x100

/* Family groups used by the rules. */
#define __KP_AMD_ZEN123	(KPROFILE_AMD_FAM(ZEN1) | KPROFILE_AMD_FAM(ZEN2) | \
			 KPROFILE_AMD_FAM(ZEN3) | KPROFILE_AMD_FAM(HYGON))
#define __KP_AMD_ZEN45	(KPROFILE_AMD_FAM(ZEN4) | KPROFILE_AMD_FAM(ZEN5))
#define __KP_AMD_ZEN	(__KP_AMD_ZEN123 | __KP_AMD_ZEN45)
#define __KP_AMD_F15	KPROFILE_AMD_FAM(FAM15H)
#define __KP_AMD_F10	KPROFILE_AMD_FAM(FAM10H)
#define __KP_AMD_ALL	0xffffffffU

#define KPROFILE_AMD_EVENT_RULES(R) \
	/* K8: the table is its own event list. */ \
	R(KPROFILE_AMD_FAM(K8), 0x00, 0xff, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "the Amd64 table is the K8 BKDG (#26094) event list") \
	/* Family 10h: K8's core events; NB events are per node. */ \
	R(__KP_AMD_F10, 0x42, 0x42, 0x01, 0, \
	  "DC refill umask 01h is 'refill from northbridge' on 10h, not K8's Invalid state") \
	R(__KP_AMD_F10, 0xe0, 0xff, KPROFILE_AMD_ANY_UMASK, 0, \
	  "NB event: one counter per node, arbitrated by perf's amd_nb; kprofile does not") \
	R(__KP_AMD_F10, 0x00, 0xdf, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "10h BKDG keeps the K8 core event") \
	/* Family 15h: BKDG #42301 names; counters from perf's f15h table. */ \
	R(__KP_AMD_F15, 0x00, 0x02, KPROFILE_AMD_ANY_UMASK, 0, \
	  "000h-002h are FPU pipe assignment/FP scheduler events on 15h, not K8's") \
	R(__KP_AMD_F15, 0x20, 0x22, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "020h segment register loads, 021h/022h pipeline restarts (LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0x24, 0x24, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "024h locked operations (LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0x26, 0x27, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "026h retired CLFLUSH, 027h retired CPUID (LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0x42, 0x42, 0x01, 0, \
	  "DC refill umask 01h is 'refill from system' on 15h, not K8's Invalid state") \
	R(__KP_AMD_F15, 0x40, 0x42, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "040h DC accesses, 041h DC misses, 042h DC refills from L2 (DC: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0x43, 0x43, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "043h DC refills from system; perf: PERF_CTL[2:0] only") \
	R(__KP_AMD_F15, 0x44, 0x44, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "044h DC lines evicted (DC: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0x45, 0x46, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "045h/046h unified TLB hit/miss after an L1 DTLB miss; perf: PERF_CTL[2:0]") \
	R(__KP_AMD_F15, 0x47, 0x47, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "047h misaligned accesses (DC: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0x4b, 0x4b, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "04Bh prefetch instructions dispatched (DC: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0x76, 0x76, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "076h CPU clocks not halted (CU group: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0x7d, 0x7f, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "07Dh-07Fh L2 requests, misses, fills (CU group: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0x80, 0x89, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "080h-089h IC fetches, misses, refills, ITLB, stalls, return stack (IC/DE: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0xcb, 0xcb, 0x0f, 0xf, \
	  "0CBh retired MMX/FP instructions, all (EX/LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xcb, 0xcb, 0x01, 0xf, \
	  "0CBh umask 01h retired x87 instructions (EX/LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xcb, 0xcb, 0x02, 0xf, \
	  "0CBh umask 02h retired MMX instructions (EX/LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xcb, 0xcb, KPROFILE_AMD_ANY_UMASK, 0, \
	  "0CBh umask 04h is every SSE/AVX instruction on 15h, 08h selects nothing") \
	R(__KP_AMD_F15, 0xc0, 0xca, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0C0h-0CAh retired instructions, uops, branches, returns (EX/LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xcd, 0xcf, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0CDh-0CFh interrupts-masked cycles, interrupts taken (EX/LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xd0, 0xd1, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0D0h decoder empty, 0D1h dispatch stalls (DE: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0xd3, 0xd3, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0D3h microsequencer stall due to serialization (DE: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0xd5, 0xd9, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0D5h-0D9h dispatch stalls: retire queue, schedulers, LDQ, all quiet (DE: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0xdb, 0xdf, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0DBh FPU exceptions, 0DCh-0DFh DR0-3 matches (perf: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xe0, 0xff, KPROFILE_AMD_ANY_UMASK, 0, \
	  "NB event: 15h counts it only in the NB counters (perf: 'moved to uncore.c')") \
	/* Zen (and Hygon): perf's amdzen JSON. */ \
	R(__KP_AMD_ZEN, 0x76, 0x76, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "ls_not_halted_cyc: core cycles not in halt") \
	R(__KP_AMD_ZEN, 0xc0, 0xc0, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "ex_ret_instr: retired instructions") \
	R(__KP_AMD_ZEN, 0xc1, 0xc1, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "ex_ret_cops/ex_ret_ops: retired macro-ops") \
	R(__KP_AMD_ZEN, 0xc2, 0xc3, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "ex_ret_brn, ex_ret_brn_misp: retired branches, mispredicted") \
	R(__KP_AMD_ZEN, 0xc4, 0xc5, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "ex_ret_brn_tkn, ex_ret_brn_tkn_misp: retired taken branches, mispredicted") \
	R(__KP_AMD_ZEN, 0xc6, 0xc6, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "ex_ret_brn_far: retired far control transfers") \
	R(__KP_AMD_ZEN123, 0xc7, 0xc7, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "ex_ret_brn_resync: retired branch resyncs") \
	R(__KP_AMD_ZEN, 0xc8, 0xc9, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "ex_ret_near_ret, ex_ret_near_ret_mispred: retired near returns, mispredicted") \
	R(__KP_AMD_ZEN, 0xca, 0xca, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "ex_ret_brn_ind_misp: retired indirect branches mispredicted") \
	R(__KP_AMD_ZEN123, 0xcb, 0xcb, 0x0f, 0xf, \
	  "ex_ret_mmx_fp_instr: retired x87, MMX and SSE instructions") \
	R(__KP_AMD_ZEN123, 0xcb, 0xcb, 0x01, 0xf, \
	  "ex_ret_mmx_fp_instr.x87_instr: retired x87 instructions") \
	R(__KP_AMD_ZEN123, 0xcb, 0xcb, 0x02, 0xf, \
	  "ex_ret_mmx_fp_instr.mmx_instr: retired MMX instructions") \
	R(__KP_AMD_ZEN123, 0xcb, 0xcb, KPROFILE_AMD_ANY_UMASK, 0, \
	  "ex_ret_mmx_fp_instr umask 04h is every SSE instruction, 08h selects nothing") \
	R(__KP_AMD_ZEN45, 0xcb, 0xcb, KPROFILE_AMD_ANY_UMASK, 0, \
	  "no 0xCB in amdzen4: x87/MMX ops are fp_ops_retired_by_width (0x08)") \
	R(__KP_AMD_ZEN, 0xcc, 0xcc, KPROFILE_AMD_ANY_UMASK, 0, \
	  "none on Zen 1/2; ex_ret_ind_brch_instr (indirect branches) on Zen 3+") \
	R(__KP_AMD_ZEN, 0x00, 0x02, KPROFILE_AMD_ANY_UMASK, 0, \
	  "fpu_pipe_assignment, fp_sched_empty, fp_retx87_fp_ops: not K8's FPU dispatch events") \
	R(__KP_AMD_ZEN, 0x63, 0x63, KPROFILE_AMD_ANY_UMASK, 0, \
	  "l2_wcb_req: write-combining buffer requests, not cache-line state changes") \
	R(__KP_AMD_ZEN, 0xd1, 0xd1, KPROFILE_AMD_ANY_UMASK, 0, \
	  "ex_ret_cond: retired conditional branches, not dispatch stalls") \
	R(__KP_AMD_ZEN, 0xd3, 0xd4, KPROFILE_AMD_ANY_UMASK, 0, \
	  "ex_div_busy, ex_div_count: divider busy cycles and ops") \
	R(__KP_AMD_ZEN123, 0x40, 0x40, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "ls_dc_accesses: data cache accesses") \
	R(__KP_AMD_ZEN, 0x41, 0x41, KPROFILE_AMD_ANY_UMASK, 0, \
	  "ls_mab_alloc: the umask picks the pipe; the table's 00h counts nothing") \
	R(__KP_AMD_ZEN, 0x45, 0x45, 0x07, 0xf, \
	  "ls_l1_d_tlb_miss umask 07h: L1 DTLB misses that hit the L2 DTLB") \
	R(__KP_AMD_ZEN, 0x46, 0x46, KPROFILE_AMD_ANY_UMASK, 0, \
	  "ls_tablewalker: page-table walker use, not L2 DTLB misses") \
	R(KPROFILE_AMD_FAM(ZEN1) | KPROFILE_AMD_FAM(ZEN2) | \
	  KPROFILE_AMD_FAM(HYGON), 0x47, 0x47, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "ls_misal_accesses: misaligned loads") \
	R(__KP_AMD_ZEN, 0x47, 0x47, KPROFILE_AMD_ANY_UMASK, 0, \
	  "ls_misal_loads (Zen 3+): the umask picks ma64/ma4k; the table's 00h counts nothing") \
	R(__KP_AMD_ZEN, 0x4b, 0x4b, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "ls_pref_instr_disp: software prefetches dispatched (umask: load, store/W, NTA)") \
	R(KPROFILE_AMD_FAM(ZEN2) | KPROFILE_AMD_FAM(ZEN3) | __KP_AMD_ZEN45, \
	  0x26, 0x27, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "ls_ret_cl_flush, ls_ret_cpuid: retired CLFLUSH, retired CPUID") \
	R(__KP_AMD_ZEN123, 0x80, 0x81, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "ic_fw32, ic_fw32_miss: 32-byte instruction fetches, misses") \
	R(__KP_AMD_ZEN45, 0x80, 0x81, KPROFILE_AMD_ANY_UMASK, 0, \
	  "not in amdzen4: IC hits/misses are ic_tag_hit_miss (0x18E)") \
	R(__KP_AMD_ZEN, 0x82, 0x83, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "ic_cache_fill_l2, ic_cache_fill_sys: IC lines filled from L2, from system") \
	R(__KP_AMD_ZEN, 0x84, 0x84, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "bp_l1_tlb_miss_l2_tlb_hit: L1 ITLB misses that hit the L2 ITLB") \
	R(__KP_AMD_ZEN, 0x85, 0x85, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "bp_l1_tlb_miss_l2_tlb_miss: fetches missing both ITLBs (umask 03h: 4K, 2M)") \
	R(__KP_AMD_ZEN123, 0x86, 0x86, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "bp_snp_re_sync: pipeline restarts due to an instruction-stream probe") \
	R(__KP_AMD_ZEN, 0x87, 0x87, KPROFILE_AMD_ANY_UMASK, 0, \
	  "ic_fetch_stall: the umask picks the stall kind; the table's 00h counts nothing") \
	/* Families without an event list: what perf maps on every AMD. */ \
	R(KPROFILE_AMD_FAM(UNKNOWN), 0x76, 0x76, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "cycles: perf's 0x76 on every AMD family") \
	R(KPROFILE_AMD_FAM(UNKNOWN), 0xc0, 0xc0, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "instructions: perf's 0xC0 on every AMD family") \
	R(KPROFILE_AMD_FAM(UNKNOWN), 0xc2, 0xc3, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "branches, branch misses: perf's 0xC2/0xC3 on every AMD family")

#endif /* _UAPI_LINUX_KPROFILE_AMD_FAMILIES_H */

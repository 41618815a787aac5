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
 *   rule matches is not supported ("no such core event").  Every rule
 *   that supports an event covers one event code and its citation starts
 *   with that code ("0x4B ..."): what that event counts on that family,
 *   not a blanket reference to a whole list (the tool's
 *   AmdFamily.EverySupportedRowCitesItsMeaning checks it).
 *
 * Sources of the citations (see docs/hardware.md, "F2"):
 *   K8:       BKDG for AMD Athlon 64 and Opteron (#26094) 10.2, rev. 3.14
 *	       (the event list the Amd64 table follows; as transcribed by
 *	       perfctr and OProfile), and rev. 3.30 / the revision F BKDG
 *	       (#32559) where they changed a meaning (as in libpfm4's
 *	       amd64_events_k8.h).
 *   Fam10h:   BKDG for family 10h (#31116) rev. 3.20, event by event (as
 *	       in libpfm4's amd64_events_fam10h.h); perf's NB handling in
 *	       arch/x86/events/amd/core.c (amd_is_nb_event, amd_nb).
 *   Fam15h:   BKDG for family 15h (#42301) events and unit masks (as in
 *	       libpfm4's amd64_events_fam15h.h); counter constraints from
 *	       amd_get_event_constraints_f15h() and its table comment in
 *	       arch/x86/events/amd/core.c (Linux 6.1).
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
	/* K8: BKDG #26094 10.2 (rev. 3.14; rev. F: #32559), event by event. */ \
	R(KPROFILE_AMD_FAM(K8), 0x00, 0x00, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x00 dispatched FPU ops; umask 01h-04h add/multiply/store pipe ops excluding junk, 08h-20h junk ops (load ops in later revisions)") \
	R(KPROFILE_AMD_FAM(K8), 0x01, 0x01, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x01 cycles with no FPU ops retired") \
	R(KPROFILE_AMD_FAM(K8), 0x02, 0x02, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x02 dispatched FPU ops that use the fast flag interface") \
	R(KPROFILE_AMD_FAM(K8), 0x20, 0x20, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x20 segment register loads; umask 01h-40h ES, CS, SS, DS, FS, GS, HS") \
	R(KPROFILE_AMD_FAM(K8), 0x21, 0x21, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x21 pipeline resyncs caused by self-modifying code") \
	R(KPROFILE_AMD_FAM(K8), 0x22, 0x22, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x22 pipeline resyncs caused by a snoop (probe hit)") \
	R(KPROFILE_AMD_FAM(K8), 0x23, 0x23, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x23 cycles the LS buffer 2 is full") \
	R(KPROFILE_AMD_FAM(K8), 0x24, 0x24, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x24 locked operations; from revision C the umask selects executed (01h) or cycles (02h, 04h), so the table's 00h counts only on earlier revisions") \
	R(KPROFILE_AMD_FAM(K8), 0x25, 0x25, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x25 microarchitectural late cancels of an operation (#26094 3.14; not in later revisions)") \
	R(KPROFILE_AMD_FAM(K8), 0x26, 0x26, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x26 retired CLFLUSH instructions") \
	R(KPROFILE_AMD_FAM(K8), 0x27, 0x27, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x27 retired CPUID instructions") \
	R(KPROFILE_AMD_FAM(K8), 0x40, 0x40, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x40 data cache accesses") \
	R(KPROFILE_AMD_FAM(K8), 0x41, 0x41, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x41 data cache misses") \
	R(KPROFILE_AMD_FAM(K8), 0x42, 0x42, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x42 data cache refills from L2 by MOESI state (revision F, #32559: umask 01h is refills from system)") \
	R(KPROFILE_AMD_FAM(K8), 0x43, 0x43, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x43 data cache refills from system by MOESI state") \
	R(KPROFILE_AMD_FAM(K8), 0x44, 0x44, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x44 data cache writebacks (lines evicted) by MOESI state") \
	R(KPROFILE_AMD_FAM(K8), 0x45, 0x45, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x45 L1 DTLB misses that hit the L2 DTLB") \
	R(KPROFILE_AMD_FAM(K8), 0x46, 0x46, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x46 L1 and L2 DTLB misses") \
	R(KPROFILE_AMD_FAM(K8), 0x47, 0x47, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x47 misaligned data references") \
	R(KPROFILE_AMD_FAM(K8), 0x48, 0x48, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x48 microarchitectural late cancels of an access") \
	R(KPROFILE_AMD_FAM(K8), 0x49, 0x49, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x49 microarchitectural early cancels of an access") \
	R(KPROFILE_AMD_FAM(K8), 0x4a, 0x4a, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x4A single-bit ECC errors found by the scrubber; umask 01h scrubber, 02h piggyback") \
	R(KPROFILE_AMD_FAM(K8), 0x4b, 0x4b, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x4B dispatched prefetch instructions; umask 01h load, 02h store (PREFETCHW), 04h NTA") \
	R(KPROFILE_AMD_FAM(K8), 0x63, 0x63, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x63 umask 10h/20h: bus unit clean-to-dirty and shared-to-dirty line changes, as the Windows HAL table names them; not in #26094 3.14 or later, make hwtest amd-sources checks it") \
	R(KPROFILE_AMD_FAM(K8), 0x76, 0x76, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x76 CPU clocks not halted (not in HLT or STPCLK)") \
	R(KPROFILE_AMD_FAM(K8), 0x7d, 0x7d, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x7D internal L2 requests; umask 01h IC fill, 02h DC fill, 04h TLB reload, 08h tag snoop, 10h cancelled") \
	R(KPROFILE_AMD_FAM(K8), 0x7e, 0x7e, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x7E fill requests that missed in L2; umask 01h IC fill, 02h DC fill, 04h TLB reload") \
	R(KPROFILE_AMD_FAM(K8), 0x7f, 0x7f, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x7F fills into L2; umask 01h dirty L2 victim, 02h victim (#26094 3.14; L2 fills and writebacks to system in #32559)") \
	R(KPROFILE_AMD_FAM(K8), 0x80, 0x80, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x80 instruction cache fetches") \
	R(KPROFILE_AMD_FAM(K8), 0x81, 0x81, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x81 instruction cache misses") \
	R(KPROFILE_AMD_FAM(K8), 0x82, 0x82, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x82 instruction cache refills from L2") \
	R(KPROFILE_AMD_FAM(K8), 0x83, 0x83, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x83 instruction cache refills from system") \
	R(KPROFILE_AMD_FAM(K8), 0x84, 0x84, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x84 L1 ITLB misses that hit the L2 ITLB") \
	R(KPROFILE_AMD_FAM(K8), 0x85, 0x85, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x85 L1 and L2 ITLB misses") \
	R(KPROFILE_AMD_FAM(K8), 0x86, 0x86, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x86 pipeline resyncs caused by an instruction-stream snoop") \
	R(KPROFILE_AMD_FAM(K8), 0x87, 0x87, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x87 instruction fetch stall cycles") \
	R(KPROFILE_AMD_FAM(K8), 0x88, 0x88, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x88 return stack hits") \
	R(KPROFILE_AMD_FAM(K8), 0x89, 0x89, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x89 return stack overflows") \
	R(KPROFILE_AMD_FAM(K8), 0xc0, 0xc0, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC0 retired instructions (with exceptions, interrupts and resyncs)") \
	R(KPROFILE_AMD_FAM(K8), 0xc1, 0xc1, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC1 retired uops") \
	R(KPROFILE_AMD_FAM(K8), 0xc2, 0xc2, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC2 retired branches (conditional, unconditional, exceptions, interrupts)") \
	R(KPROFILE_AMD_FAM(K8), 0xc3, 0xc3, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC3 retired branches mispredicted") \
	R(KPROFILE_AMD_FAM(K8), 0xc4, 0xc4, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC4 retired taken branches") \
	R(KPROFILE_AMD_FAM(K8), 0xc5, 0xc5, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC5 retired taken branches mispredicted") \
	R(KPROFILE_AMD_FAM(K8), 0xc6, 0xc6, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC6 retired far control transfers") \
	R(KPROFILE_AMD_FAM(K8), 0xc7, 0xc7, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC7 retired resyncs (non-control-transfer branches)") \
	R(KPROFILE_AMD_FAM(K8), 0xc8, 0xc8, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC8 retired near returns") \
	R(KPROFILE_AMD_FAM(K8), 0xc9, 0xc9, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC9 retired near returns mispredicted") \
	R(KPROFILE_AMD_FAM(K8), 0xca, 0xca, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xCA retired taken branches mispredicted by address miscompare") \
	R(KPROFILE_AMD_FAM(K8), 0xcb, 0xcb, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xCB retired FPU instructions; umask 01h x87, 02h MMX and 3DNow!, 04h packed SSE/SSE2, 08h scalar SSE/SSE2") \
	R(KPROFILE_AMD_FAM(K8), 0xcc, 0xcc, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xCC retired fastpath double-op instructions; umask 01h-04h low op in position 0, 1, 2") \
	R(KPROFILE_AMD_FAM(K8), 0xcd, 0xcd, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xCD interrupts-masked cycles (IF=0)") \
	R(KPROFILE_AMD_FAM(K8), 0xce, 0xce, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xCE interrupts-masked cycles with an interrupt pending") \
	R(KPROFILE_AMD_FAM(K8), 0xcf, 0xcf, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xCF taken hardware interrupts") \
	R(KPROFILE_AMD_FAM(K8), 0xd0, 0xd0, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xD0 nothing to dispatch (decoder empty)") \
	R(KPROFILE_AMD_FAM(K8), 0xd1, 0xd1, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xD1 dispatch stalls (events 0xD2-0xDA combined)") \
	R(KPROFILE_AMD_FAM(K8), 0xd2, 0xd2, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xD2 dispatch stalls for a branch abort to retire") \
	R(KPROFILE_AMD_FAM(K8), 0xd3, 0xd3, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xD3 dispatch stalls for serialization") \
	R(KPROFILE_AMD_FAM(K8), 0xd4, 0xd4, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xD4 dispatch stalls for a segment load") \
	R(KPROFILE_AMD_FAM(K8), 0xd5, 0xd5, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xD5 dispatch stalls: reorder buffer full") \
	R(KPROFILE_AMD_FAM(K8), 0xd6, 0xd6, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xD6 dispatch stalls: reservation stations full") \
	R(KPROFILE_AMD_FAM(K8), 0xd7, 0xd7, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xD7 dispatch stalls: FPU full") \
	R(KPROFILE_AMD_FAM(K8), 0xd8, 0xd8, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xD8 dispatch stalls: LS full") \
	R(KPROFILE_AMD_FAM(K8), 0xd9, 0xd9, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xD9 dispatch stalls waiting for all to be quiet") \
	R(KPROFILE_AMD_FAM(K8), 0xda, 0xda, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xDA dispatch stalls: far control transfer or resync branch pending") \
	R(KPROFILE_AMD_FAM(K8), 0xdb, 0xdb, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xDB FPU exceptions; umask 01h x87 reclass microfaults, 02h SSE retype, 04h SSE reclass, 08h SSE and x87 microtraps") \
	R(KPROFILE_AMD_FAM(K8), 0xdc, 0xdc, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xDC breakpoint matches for DR0") \
	R(KPROFILE_AMD_FAM(K8), 0xdd, 0xdd, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xDD breakpoint matches for DR1") \
	R(KPROFILE_AMD_FAM(K8), 0xde, 0xde, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xDE breakpoint matches for DR2") \
	R(KPROFILE_AMD_FAM(K8), 0xdf, 0xdf, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xDF breakpoint matches for DR3") \
	R(KPROFILE_AMD_FAM(K8), 0xe0, 0xe0, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xE0 memory controller page accesses; umask 01h hit, 02h miss, 04h conflict") \
	R(KPROFILE_AMD_FAM(K8), 0xe1, 0xe1, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xE1 memory controller page table overflows") \
	R(KPROFILE_AMD_FAM(K8), 0xe2, 0xe2, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xE2 memory controller DRAM command slots missed (MemClks)") \
	R(KPROFILE_AMD_FAM(K8), 0xe3, 0xe3, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xE3 memory controller turnarounds; umask 01h DIMM, 02h read to write, 04h write to read") \
	R(KPROFILE_AMD_FAM(K8), 0xe4, 0xe4, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xE4 memory controller bypass counter saturation; umask 01h high, 02h low priority, 04h DRAM interface, 08h DRAM queue") \
	R(KPROFILE_AMD_FAM(K8), 0xeb, 0xeb, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xEB sized commands; umask 01h-40h non-posted and posted byte/dword writes, byte/dword reads, RdModWr") \
	R(KPROFILE_AMD_FAM(K8), 0xec, 0xec, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xEC probe results; umask 01h miss, 02h hit, 04h hit dirty without, 08h with memory cancel") \
	R(KPROFILE_AMD_FAM(K8), 0xf6, 0xf6, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xF6 HyperTransport link 0 bandwidth; umask 01h command, 02h data, 04h buffer release, 08h nop dwords sent") \
	R(KPROFILE_AMD_FAM(K8), 0xf7, 0xf7, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xF7 HyperTransport link 1 bandwidth; umask 01h command, 02h data, 04h buffer release, 08h nop dwords sent") \
	R(KPROFILE_AMD_FAM(K8), 0xf8, 0xf8, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xF8 HyperTransport link 2 bandwidth; umask 01h command, 02h data, 04h buffer release, 08h nop dwords sent") \
	/* Family 10h: BKDG #31116 (rev. 3.20) event by event; NB events are per node. */ \
	R(__KP_AMD_F10, 0x00, 0x00, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x00 dispatched FPU ops; umask 01h-04h add/multiply/store pipe ops, 08h-20h their load and SSE move ops (K8's junk ops)") \
	R(__KP_AMD_F10, 0x01, 0x01, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x01 cycles in which the FPU is empty (K8: no FPU ops retired)") \
	R(__KP_AMD_F10, 0x02, 0x02, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x02 dispatched fast flag FPU operations") \
	R(__KP_AMD_F10, 0x20, 0x20, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x20 segment register loads; umask 01h-40h ES, CS, SS, DS, FS, GS, HS") \
	R(__KP_AMD_F10, 0x21, 0x21, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x21 pipeline restarts due to self-modifying code") \
	R(__KP_AMD_F10, 0x22, 0x22, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x22 pipeline restarts due to a probe hit") \
	R(__KP_AMD_F10, 0x23, 0x23, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x23 cycles the LS buffer 2 is full") \
	R(__KP_AMD_F10, 0x24, 0x24, KPROFILE_AMD_ANY_UMASK, 0, \
	  "0x24 locked operations: the umask selects executed (01h) or cycles (02h-08h); the table's 00h counts nothing") \
	R(__KP_AMD_F10, 0x25, 0x25, KPROFILE_AMD_ANY_UMASK, 0, \
	  "0x25: no such event in the 10h BKDG; K8's late cancel of an operation is gone") \
	R(__KP_AMD_F10, 0x26, 0x26, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x26 retired CLFLUSH instructions") \
	R(__KP_AMD_F10, 0x27, 0x27, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x27 retired CPUID instructions") \
	R(__KP_AMD_F10, 0x40, 0x40, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x40 data cache accesses") \
	R(__KP_AMD_F10, 0x41, 0x41, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x41 data cache misses") \
	R(__KP_AMD_F10, 0x42, 0x42, 0x01, 0, \
	  "0x42 umask 01h is a refill from the northbridge on 10h, not the table's L2 line in Invalid state") \
	R(__KP_AMD_F10, 0x42, 0x42, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x42 data cache refills from L2 by state; umask 02h-10h S, E, O, M (1Fh also counts refills from the northbridge)") \
	R(__KP_AMD_F10, 0x43, 0x43, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x43 data cache refills from the northbridge by MOESI state") \
	R(__KP_AMD_F10, 0x44, 0x44, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x44 data cache lines evicted by MOESI state") \
	R(__KP_AMD_F10, 0x45, 0x45, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x45 L1 DTLB misses that hit the L2 DTLB; umask 07h: 4K, 2M, 1G") \
	R(__KP_AMD_F10, 0x46, 0x46, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x46 L1 and L2 DTLB misses; umask 07h: 4K, 2M, 1G reloads") \
	R(__KP_AMD_F10, 0x47, 0x47, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x47 misaligned accesses") \
	R(__KP_AMD_F10, 0x48, 0x48, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x48 microarchitectural late cancels of an access") \
	R(__KP_AMD_F10, 0x49, 0x49, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x49 microarchitectural early cancels of an access") \
	R(__KP_AMD_F10, 0x4a, 0x4a, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x4A single-bit ECC errors recorded by the scrubber; umask 01h scrubber, 02h piggyback") \
	R(__KP_AMD_F10, 0x4b, 0x4b, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x4B prefetch instructions dispatched; umask 01h load, 02h store (PREFETCHW), 04h NTA") \
	R(__KP_AMD_F10, 0x63, 0x63, KPROFILE_AMD_ANY_UMASK, 0, \
	  "0x63: no such event in the 10h BKDG") \
	R(__KP_AMD_F10, 0x76, 0x76, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x76 CPU clocks not halted") \
	R(__KP_AMD_F10, 0x7d, 0x7d, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x7D requests to L2; umask 01h IC fill, 02h DC fill, 04h TLB walk, 08h tag snoop, 10h cancelled") \
	R(__KP_AMD_F10, 0x7e, 0x7e, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x7E L2 cache misses; umask 01h IC fill, 02h DC fill, 04h TLB walk") \
	R(__KP_AMD_F10, 0x7f, 0x7f, 0x01, 0, \
	  "0x7F umask 01h is L2 fills (L1 victims, TLB walks, prefetches) on 10h, not the table's dirty L2 victims") \
	R(__KP_AMD_F10, 0x7f, 0x7f, 0x02, 0, \
	  "0x7F umask 02h is L2 writebacks to system on 10h, not the table's victims from L1") \
	R(__KP_AMD_F10, 0x7f, 0x7f, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x7F L2 fills and writebacks to system (umask 03h: both, the table's fills into L2)") \
	R(__KP_AMD_F10, 0x80, 0x80, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x80 instruction cache fetches") \
	R(__KP_AMD_F10, 0x81, 0x81, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x81 instruction cache misses") \
	R(__KP_AMD_F10, 0x82, 0x82, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x82 instruction cache refills from L2") \
	R(__KP_AMD_F10, 0x83, 0x83, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x83 instruction cache refills from system") \
	R(__KP_AMD_F10, 0x84, 0x84, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x84 L1 ITLB misses that hit the L2 ITLB") \
	R(__KP_AMD_F10, 0x85, 0x85, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x85 L1 and L2 ITLB misses; umask 03h: 4K and 2M pages") \
	R(__KP_AMD_F10, 0x86, 0x86, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x86 pipeline restarts due to an instruction-stream probe") \
	R(__KP_AMD_F10, 0x87, 0x87, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x87 instruction fetch stall cycles") \
	R(__KP_AMD_F10, 0x88, 0x88, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x88 return stack hits") \
	R(__KP_AMD_F10, 0x89, 0x89, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x89 return stack overflows") \
	R(__KP_AMD_F10, 0xc0, 0xc0, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC0 retired instructions") \
	R(__KP_AMD_F10, 0xc1, 0xc1, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC1 retired uops") \
	R(__KP_AMD_F10, 0xc2, 0xc2, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC2 retired branch instructions") \
	R(__KP_AMD_F10, 0xc3, 0xc3, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC3 retired mispredicted branch instructions") \
	R(__KP_AMD_F10, 0xc4, 0xc4, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC4 retired taken branch instructions") \
	R(__KP_AMD_F10, 0xc5, 0xc5, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC5 retired taken branch instructions mispredicted") \
	R(__KP_AMD_F10, 0xc6, 0xc6, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC6 retired far control transfers") \
	R(__KP_AMD_F10, 0xc7, 0xc7, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC7 retired branch resyncs") \
	R(__KP_AMD_F10, 0xc8, 0xc8, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC8 retired near returns") \
	R(__KP_AMD_F10, 0xc9, 0xc9, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC9 retired near returns mispredicted") \
	R(__KP_AMD_F10, 0xca, 0xca, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xCA retired indirect branches mispredicted") \
	R(__KP_AMD_F10, 0xcb, 0xcb, 0x04, 0, \
	  "0xCB umask 04h is every SSE instruction (SSE to SSE4A) on 10h, not packed SSE/SSE2 only") \
	R(__KP_AMD_F10, 0xcb, 0xcb, 0x08, 0, \
	  "0xCB umask 08h selects nothing on 10h (scalar SSE is under 04h)") \
	R(__KP_AMD_F10, 0xcb, 0xcb, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xCB retired MMX/FP instructions; umask 01h x87, 02h MMX and 3DNow!, 0Fh all of them with SSE") \
	R(__KP_AMD_F10, 0xcc, 0xcc, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xCC retired fastpath double-op instructions; umask 01h-04h low op in position 0, 1, 2") \
	R(__KP_AMD_F10, 0xcd, 0xcd, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xCD interrupts-masked cycles") \
	R(__KP_AMD_F10, 0xce, 0xce, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xCE interrupts-masked cycles with an interrupt pending") \
	R(__KP_AMD_F10, 0xcf, 0xcf, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xCF interrupts taken") \
	R(__KP_AMD_F10, 0xd0, 0xd0, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xD0 decoder empty") \
	R(__KP_AMD_F10, 0xd1, 0xd1, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xD1 dispatch stalls (0xD2-0xDA combined)") \
	R(__KP_AMD_F10, 0xd2, 0xd2, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xD2 dispatch stalls for a branch abort to retire") \
	R(__KP_AMD_F10, 0xd3, 0xd3, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xD3 dispatch stalls for serialization") \
	R(__KP_AMD_F10, 0xd4, 0xd4, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xD4 dispatch stalls for a segment load") \
	R(__KP_AMD_F10, 0xd5, 0xd5, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xD5 dispatch stalls: reorder buffer full") \
	R(__KP_AMD_F10, 0xd6, 0xd6, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xD6 dispatch stalls: reservation station full") \
	R(__KP_AMD_F10, 0xd7, 0xd7, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xD7 dispatch stalls: FPU full") \
	R(__KP_AMD_F10, 0xd8, 0xd8, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xD8 dispatch stalls: LS full") \
	R(__KP_AMD_F10, 0xd9, 0xd9, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xD9 dispatch stalls waiting for all quiet") \
	R(__KP_AMD_F10, 0xda, 0xda, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xDA dispatch stalls for a far transfer or resync to retire") \
	R(__KP_AMD_F10, 0xdb, 0xdb, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xDB FPU exceptions; umask 01h x87 reclass microfaults, 02h SSE retype, 04h SSE reclass, 08h SSE and x87 microtraps") \
	R(__KP_AMD_F10, 0xdc, 0xdc, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xDC DR0 breakpoint matches") \
	R(__KP_AMD_F10, 0xdd, 0xdd, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xDD DR1 breakpoint matches") \
	R(__KP_AMD_F10, 0xde, 0xde, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xDE DR2 breakpoint matches") \
	R(__KP_AMD_F10, 0xdf, 0xdf, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xDF DR3 breakpoint matches") \
	R(__KP_AMD_F10, 0xe0, 0xff, KPROFILE_AMD_ANY_UMASK, 0, \
	  "NB event: one counter per node, arbitrated by perf's amd_nb; kprofile does not") \
	/* Family 15h: BKDG #42301 event by event; counters from perf's f15h table. */ \
	R(__KP_AMD_F15, 0x00, 0x02, KPROFILE_AMD_ANY_UMASK, 0, \
	  "0x00-0x02 are FPU pipe assignment and FP scheduler events on 15h, not K8's FPU dispatch events") \
	R(__KP_AMD_F15, 0x20, 0x20, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x20 segment register loads (LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0x21, 0x21, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x21 pipeline restarts due to self-modifying code (LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0x22, 0x22, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x22 pipeline restarts due to a probe hit (LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0x24, 0x24, KPROFILE_AMD_ANY_UMASK, 0, \
	  "0x24 locked operations: the umask selects executed (01h) or cycles (04h, 08h); the table's 00h counts nothing") \
	R(__KP_AMD_F15, 0x26, 0x26, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x26 retired CLFLUSH instructions (LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0x27, 0x27, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x27 retired CPUID instructions (LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0x40, 0x40, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x40 DC accesses (DC: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0x41, 0x41, KPROFILE_AMD_ANY_UMASK, 0, \
	  "0x41 DC misses: the umask selects first misses (01h) or streaming stores (02h); the table's 00h counts nothing") \
	R(__KP_AMD_F15, 0x42, 0x42, 0x1f, 0xf, \
	  "0x42 DC refills from L2 or system, any fill status (DC: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0x42, 0x42, KPROFILE_AMD_ANY_UMASK, 0, \
	  "0x42 umasks are the fill status on 15h (good, invalid, poison, read error), not the line's MOESI state") \
	R(__KP_AMD_F15, 0x43, 0x43, 0x1f, 0x7, \
	  "0x43 DC refills from system; perf: PERF_CTL[2:0] only") \
	R(__KP_AMD_F15, 0x43, 0x43, KPROFILE_AMD_ANY_UMASK, 0, \
	  "0x43 has no unit mask on 15h: a MOESI-state umask counts every refill from system") \
	R(__KP_AMD_F15, 0x44, 0x44, KPROFILE_AMD_ANY_UMASK, 0, \
	  "0x44: no DC lines-evicted event in the 15h BKDG") \
	R(__KP_AMD_F15, 0x45, 0x45, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0x45 unified TLB hits for data after an L1 DTLB miss (umask 07h); perf: PERF_CTL[2:0]") \
	R(__KP_AMD_F15, 0x46, 0x46, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0x46 unified TLB misses for data (umask 07h); perf: PERF_CTL[2:0]") \
	R(__KP_AMD_F15, 0x47, 0x47, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x47 misaligned accesses (DC: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0x4b, 0x4b, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x4B prefetch instructions dispatched; umask 01h load, 02h store, 04h NTA (DC: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0x76, 0x76, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0x76 CPU clocks not halted (CU group: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0x7d, 0x7d, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0x7D requests to L2; umask 01h IC fill, 02h DC fill, 04h TLB walk, 08h NB probe, 10h cancelled (CU group: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0x7e, 0x7e, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0x7E L2 cache misses; umask 01h IC fill, 02h DC fill, 04h TLB walk (CU group: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0x7f, 0x7f, 0x03, 0x7, \
	  "0x7F L2 fills from system and writebacks to system (umask 03h; CU group: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0x7f, 0x7f, KPROFILE_AMD_ANY_UMASK, 0, \
	  "0x7F umask 01h is L2 fills from system and 02h L2 writebacks on 15h, not the table's victims") \
	R(__KP_AMD_F15, 0x80, 0x80, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0x80 IC fetches (IC/DE: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0x81, 0x81, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0x81 IC misses (IC/DE: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0x82, 0x82, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0x82 IC refills from L2 (IC/DE: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0x83, 0x83, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0x83 IC refills from system (IC/DE: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0x84, 0x84, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0x84 L1 ITLB misses that hit the L2 ITLB (IC/DE: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0x85, 0x85, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0x85 L1 and L2 ITLB misses; umask 03h: 4K and 2M pages (IC/DE: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0x86, 0x86, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0x86 pipeline restarts due to an instruction-stream probe (IC/DE: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0x87, 0x87, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0x87 instruction fetch stalls (IC/DE: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0x88, 0x88, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0x88 return stack hits (IC/DE: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0x89, 0x89, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0x89 return stack overflows (IC/DE: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0xcb, 0xcb, 0x0f, 0xf, \
	  "0xCB retired MMX/FP instructions, all (EX/LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xcb, 0xcb, 0x01, 0xf, \
	  "0xCB umask 01h retired x87 instructions (EX/LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xcb, 0xcb, 0x02, 0xf, \
	  "0xCB umask 02h retired MMX instructions (EX/LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xcb, 0xcb, KPROFILE_AMD_ANY_UMASK, 0, \
	  "0xCB umask 04h is every SSE/AVX instruction on 15h, 08h selects nothing") \
	R(__KP_AMD_F15, 0xc0, 0xc0, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC0 retired instructions (EX/LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xc1, 0xc1, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC1 retired uops (EX/LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xc2, 0xc2, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC2 retired branch instructions (EX/LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xc3, 0xc3, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC3 retired mispredicted branch instructions (EX/LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xc4, 0xc4, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC4 retired taken branch instructions (EX/LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xc5, 0xc5, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC5 retired taken branch instructions mispredicted (EX/LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xc6, 0xc6, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC6 retired far control transfers (EX/LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xc7, 0xc7, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC7 retired branch resyncs (EX/LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xc8, 0xc8, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC8 retired near returns (EX/LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xc9, 0xc9, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC9 retired near returns mispredicted (EX/LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xca, 0xca, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xCA retired indirect branches mispredicted (EX/LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xcd, 0xcd, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xCD interrupts-masked cycles (EX/LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xce, 0xce, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xCE interrupts-masked cycles with an interrupt pending (EX/LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xcf, 0xcf, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xCF interrupts taken (EX/LS: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xd0, 0xd0, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0xD0 decoder empty (DE: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0xd1, 0xd1, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0xD1 dispatch stalls (DE: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0xd3, 0xd3, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0xD3 microsequencer stall due to serialization (DE: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0xd5, 0xd5, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0xD5 dispatch stall for retire queue full (DE: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0xd6, 0xd6, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0xD6 dispatch stall for integer scheduler queue full (DE: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0xd7, 0xd7, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0xD7 dispatch stall for FP scheduler queue full (DE: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0xd8, 0xd8, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0xD8 dispatch stall for LDQ full (DE: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0xd9, 0xd9, KPROFILE_AMD_ANY_UMASK, 0x7, \
	  "0xD9 microsequencer stall waiting for all quiet (DE: PERF_CTL[2:0])") \
	R(__KP_AMD_F15, 0xdb, 0xdb, 0x0f, 0xf, \
	  "0xDB FPU exceptions: microfaults, microtraps, Int2Ext and Ext2Int faults (umask 0Fh; perf: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xdb, 0xdb, KPROFILE_AMD_ANY_UMASK, 0, \
	  "0xDB umasks are total microfaults (01h), microtraps (02h), Int2Ext (04h), Ext2Int (08h) on 15h, not K8's x87/SSE split") \
	R(__KP_AMD_F15, 0xdc, 0xdc, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xDC DR0 breakpoint matches (perf: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xdd, 0xdd, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xDD DR1 breakpoint matches (perf: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xde, 0xde, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xDE DR2 breakpoint matches (perf: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xdf, 0xdf, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xDF DR3 breakpoint matches (perf: PERF_CTL[5:0])") \
	R(__KP_AMD_F15, 0xe0, 0xff, KPROFILE_AMD_ANY_UMASK, 0, \
	  "NB event: 15h counts it only in the NB counters (perf: 'moved to uncore.c')") \
	/* Zen (and Hygon): perf's amdzen JSON, event by event. */ \
	R(__KP_AMD_ZEN, 0x76, 0x76, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x76 ls_not_halted_cyc: core cycles not in halt") \
	R(__KP_AMD_ZEN, 0xc0, 0xc0, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC0 ex_ret_instr: retired instructions") \
	R(__KP_AMD_ZEN, 0xc1, 0xc1, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC1 ex_ret_cops/ex_ret_ops: retired macro-ops") \
	R(__KP_AMD_ZEN, 0xc2, 0xc2, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC2 ex_ret_brn: retired branches") \
	R(__KP_AMD_ZEN, 0xc3, 0xc3, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC3 ex_ret_brn_misp: retired branches mispredicted") \
	R(__KP_AMD_ZEN, 0xc4, 0xc4, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC4 ex_ret_brn_tkn: retired taken branches") \
	R(__KP_AMD_ZEN, 0xc5, 0xc5, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC5 ex_ret_brn_tkn_misp: retired taken branches mispredicted") \
	R(__KP_AMD_ZEN, 0xc6, 0xc6, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC6 ex_ret_brn_far: retired far control transfers") \
	R(__KP_AMD_ZEN123, 0xc7, 0xc7, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC7 ex_ret_brn_resync: retired branch resyncs") \
	R(__KP_AMD_ZEN, 0xc8, 0xc8, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC8 ex_ret_near_ret: retired near returns") \
	R(__KP_AMD_ZEN, 0xc9, 0xc9, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC9 ex_ret_near_ret_mispred: retired near returns mispredicted") \
	R(__KP_AMD_ZEN, 0xca, 0xca, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xCA ex_ret_brn_ind_misp: retired indirect branches mispredicted") \
	R(__KP_AMD_ZEN123, 0xcb, 0xcb, 0x0f, 0xf, \
	  "0xCB ex_ret_mmx_fp_instr: retired x87, MMX and SSE instructions") \
	R(__KP_AMD_ZEN123, 0xcb, 0xcb, 0x01, 0xf, \
	  "0xCB ex_ret_mmx_fp_instr.x87_instr: retired x87 instructions") \
	R(__KP_AMD_ZEN123, 0xcb, 0xcb, 0x02, 0xf, \
	  "0xCB ex_ret_mmx_fp_instr.mmx_instr: retired MMX instructions") \
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
	  "0x40 ls_dc_accesses: data cache accesses") \
	R(__KP_AMD_ZEN, 0x41, 0x41, KPROFILE_AMD_ANY_UMASK, 0, \
	  "ls_mab_alloc: the umask picks the pipe; the table's 00h counts nothing") \
	R(__KP_AMD_ZEN, 0x45, 0x45, 0x07, 0xf, \
	  "0x45 ls_l1_d_tlb_miss umask 07h: L1 DTLB misses that hit the L2 DTLB") \
	R(__KP_AMD_ZEN, 0x46, 0x46, KPROFILE_AMD_ANY_UMASK, 0, \
	  "ls_tablewalker: page-table walker use, not L2 DTLB misses") \
	R(KPROFILE_AMD_FAM(ZEN1) | KPROFILE_AMD_FAM(ZEN2) | \
	  KPROFILE_AMD_FAM(HYGON), 0x47, 0x47, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x47 ls_misal_accesses: misaligned loads") \
	R(__KP_AMD_ZEN, 0x47, 0x47, KPROFILE_AMD_ANY_UMASK, 0, \
	  "ls_misal_loads (Zen 3+): the umask picks ma64/ma4k; the table's 00h counts nothing") \
	R(__KP_AMD_ZEN, 0x4b, 0x4b, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x4B ls_pref_instr_disp: software prefetches dispatched (umask: load, store/W, NTA)") \
	R(KPROFILE_AMD_FAM(ZEN2) | KPROFILE_AMD_FAM(ZEN3) | __KP_AMD_ZEN45, 0x26, 0x26, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x26 ls_ret_cl_flush: retired CLFLUSH instructions") \
	R(KPROFILE_AMD_FAM(ZEN2) | KPROFILE_AMD_FAM(ZEN3) | __KP_AMD_ZEN45, 0x27, 0x27, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x27 ls_ret_cpuid: retired CPUID instructions") \
	R(__KP_AMD_ZEN123, 0x80, 0x80, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x80 ic_fw32: 32-byte instruction fetches") \
	R(__KP_AMD_ZEN123, 0x81, 0x81, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x81 ic_fw32_miss: 32-byte instruction fetches that miss the IC") \
	R(__KP_AMD_ZEN45, 0x80, 0x81, KPROFILE_AMD_ANY_UMASK, 0, \
	  "not in amdzen4: IC hits/misses are ic_tag_hit_miss (0x18E)") \
	R(__KP_AMD_ZEN, 0x82, 0x82, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x82 ic_cache_fill_l2: IC lines filled from L2") \
	R(__KP_AMD_ZEN, 0x83, 0x83, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x83 ic_cache_fill_sys: IC lines filled from system") \
	R(__KP_AMD_ZEN, 0x84, 0x84, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x84 bp_l1_tlb_miss_l2_tlb_hit: L1 ITLB misses that hit the L2 ITLB") \
	R(__KP_AMD_ZEN, 0x85, 0x85, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x85 bp_l1_tlb_miss_l2_tlb_miss: fetches missing both ITLBs (umask 03h: 4K, 2M)") \
	R(__KP_AMD_ZEN123, 0x86, 0x86, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x86 bp_snp_re_sync: pipeline restarts due to an instruction-stream probe") \
	R(__KP_AMD_ZEN, 0x87, 0x87, KPROFILE_AMD_ANY_UMASK, 0, \
	  "ic_fetch_stall: the umask picks the stall kind; the table's 00h counts nothing") \
	/* Families without an event list: what perf maps on every AMD. */ \
	R(KPROFILE_AMD_FAM(UNKNOWN), 0x76, 0x76, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0x76 cycles: perf's cycles event on every AMD family") \
	R(KPROFILE_AMD_FAM(UNKNOWN), 0xc0, 0xc0, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC0 instructions: perf's instructions event on every AMD family") \
	R(KPROFILE_AMD_FAM(UNKNOWN), 0xc2, 0xc2, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC2 branches: perf's branch-instructions event on every AMD family") \
	R(KPROFILE_AMD_FAM(UNKNOWN), 0xc3, 0xc3, KPROFILE_AMD_ANY_UMASK, 0xf, \
	  "0xC3 branch misses: perf's branch-misses event on every AMD family")

#endif /* _UAPI_LINUX_KPROFILE_AMD_FAMILIES_H */

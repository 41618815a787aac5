/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * kprofile_sources.h - the profile-source tables, defined once.
 *
 * Every KPROFILE_SOURCE known to kprofile is listed here and nowhere else;
 * the module, the tool and the tests expand these X-macros.  The tables
 * are those of the Windows 10 HAL as documented by Geoff Chappell (The Emon
 * and Amd64 Profile Interfaces); names are Windows' own descriptive strings,
 * typos included.
 *
 * KPROFILE_GENERIC_SOURCES(X): X(value, IDENT, "Name") for the 25 values of
 *   the public KPROFILE_SOURCE enumeration, 0x00..0x18 (ProfileMaximum).
 * KPROFILE_EMON_SOURCES(G, S): one row per Emon source, in table order.
 *   G(IDENT, ebx_bit, select) is a generic source (its name comes from the
 *   generic table); S(value, "Name", ebx_bit, select) an Emon-specific one.
 *   ebx_bit is -1 where the table has none.
 * KPROFILE_AMD64_SOURCES(G, S): likewise, G(IDENT, select) and
 *   S(value, "Name", select).
 *
 * Event selects are as in the tables: USR (bit 16) and OS (bit 17) set,
 * EN (bit 22) and INT (bit 20) clear.
 */
#ifndef _UAPI_LINUX_KPROFILE_SOURCES_H
#define _UAPI_LINUX_KPROFILE_SOURCES_H

#define KPROFILE_GENERIC_SOURCES(X) \
	X(0x00, TIME, "ProfileTime") \
	X(0x01, ALIGNMENT_FIXUP, "ProfileAlignmentFixup") \
	X(0x02, TOTAL_ISSUES, "ProfileTotalIssues") \
	X(0x03, PIPELINE_DRY, "ProfilePipelineDry") \
	X(0x04, LOAD_INSTRUCTIONS, "ProfileLoadInstructions") \
	X(0x05, PIPELINE_FROZEN, "ProfilePipelineFrozen") \
	X(0x06, BRANCH_INSTRUCTIONS, "ProfileBranchInstructions") \
	X(0x07, TOTAL_NONISSUES, "ProfileTotalNonissues") \
	X(0x08, DCACHE_MISSES, "ProfileDcacheMisses") \
	X(0x09, ICACHE_MISSES, "ProfileIcacheMisses") \
	X(0x0A, CACHE_MISSES, "ProfileCacheMisses") \
	X(0x0B, BRANCH_MISPREDICTIONS, "ProfileBranchMispredictions") \
	X(0x0C, STORE_INSTRUCTIONS, "ProfileStoreInstructions") \
	X(0x0D, FP_INSTRUCTIONS, "ProfileFpInstructions") \
	X(0x0E, INTEGER_INSTRUCTIONS, "ProfileIntegerInstructions") \
	X(0x0F, 2_ISSUE, "Profile2Issue") \
	X(0x10, 3_ISSUE, "Profile3Issue") \
	X(0x11, 4_ISSUE, "Profile4Issue") \
	X(0x12, SPECIAL_INSTRUCTIONS, "ProfileSpecialInstructions") \
	X(0x13, TOTAL_CYCLES, "ProfileTotalCycles") \
	X(0x14, ICACHE_ISSUES, "ProfileIcacheIssues") \
	X(0x15, DCACHE_ACCESSES, "ProfileDcacheAccesses") \
	X(0x16, MEMORY_BARRIER_CYCLES, "ProfileMemoryBarrierCycles") \
	X(0x17, LOAD_LINKED_ISSUES, "ProfileLoadLinkedIssues") \
	X(0x18, MAXIMUM, "ProfileMaximum")

#define KPROFILE_EMON_SOURCES(G, S) \
	G(TIME, -1, 0x0003003C) \
	G(TOTAL_ISSUES, 1, 0x000300C0) \
	G(BRANCH_INSTRUCTIONS, 5, 0x000300C4) \
	G(CACHE_MISSES, 4, 0x0003412E) \
	G(BRANCH_MISPREDICTIONS, 6, 0x000300C5) \
	G(TOTAL_CYCLES, 0, 0x0003003C) \
	S(0x19, "ProfileUnhaltedCoreCycles", 0, 0x0003003C) \
	S(0x1A, "ProfileInstructionRetired", 1, 0x000300C0) \
	S(0x1B, "ProfileUnhaltedReferenceCycles", 2, 0x0003013C) \
	S(0x1C, "ProfileLLCReference", 3, 0x00034F2E) \
	S(0x1D, "ProfileLLCMisses", 4, 0x0003412E) \
	S(0x1E, "ProfileBranchInstructionRetired", 5, 0x000300C4) \
	S(0x1F, "ProfileBranchMispredictsRetired", 6, 0x000300C5)

#define KPROFILE_AMD64_SOURCES(G, S) \
	G(TIME, 0x00030076) \
	G(TOTAL_ISSUES, 0x000300C0) \
	G(BRANCH_INSTRUCTIONS, 0x000300C2) \
	G(DCACHE_MISSES, 0x00030041) \
	G(ICACHE_MISSES, 0x00030081) \
	G(BRANCH_MISPREDICTIONS, 0x000300C3) \
	G(FP_INSTRUCTIONS, 0x00030FCB) \
	G(ICACHE_ISSUES, 0x00030080) \
	G(DCACHE_ACCESSES, 0x00030040) \
	S(0x19, "ProfileFPDispatchedFPUOps", 0x00033F00) \
	S(0x1A, "ProfileFPDispatchedFPUOpsAddExcludeJunk", 0x00030100) \
	S(0x1B, "ProfileFPDispatchedFPUOpsMulExcludeJunk", 0x00030200) \
	S(0x1C, "ProfileFPDispatchedFPUOpsStoreExcludeJunk", 0x00030400) \
	S(0x1D, "ProfileFPDispatchedFPUOpsAddJunk", 0x00030800) \
	S(0x1E, "ProfileFPDispatchedFPUOpsMulJunk", 0x00031000) \
	S(0x1F, "ProfileFPDispatchedFPUOpsStoreJunk", 0x00032000) \
	S(0x20, "ProfileFPCyclesNoFPUOpsRetired", 0x00030001) \
	S(0x21, "ProfileFPDispatchedFPUOpsWithFastFlag", 0x00030002) \
	S(0x22, "ProfileLSSegmentRegisterLoad", 0x00037F20) \
	S(0x23, "ProfileLSSegmentRegisterLoadES", 0x00030120) \
	S(0x24, "ProfileLSSegmentRegisterLoadCS", 0x00030220) \
	S(0x25, "ProfileLSSegmentRegisterLoadSS", 0x00030420) \
	S(0x26, "ProfileLSSegmentRegisterLoadDS", 0x00030820) \
	S(0x27, "ProfileLSSegmentRegisterLoadFS", 0x00031020) \
	S(0x28, "ProfileLSSegmentRegisterLoadGS", 0x00032020) \
	S(0x29, "ProfileLSSegmentRegisterLoadHS", 0x00034020) \
	S(0x2A, "ProfileLSResyncBySelfModifyingCode", 0x00030021) \
	S(0x2B, "ProfileLSResyncBySnoop", 0x00030022) \
	S(0x2C, "ProfileLSBuffer2Full", 0x00030023) \
	S(0x2D, "ProfileLSLockedOperation", 0x00030024) \
	S(0x2E, "ProfileLSLateCancelOperation", 0x00030025) \
	S(0x2F, "ProfileLSRetiredCFLUSH", 0x00030026) \
	S(0x30, "ProfileLSRetiredCPUID", 0x00030027) \
	S(0x31, "ProfileDCAccess", 0x00030040) \
	S(0x32, "ProfileDCMiss", 0x00030041) \
	S(0x33, "ProfileDCRefillFromL2", 0x00031F42) \
	S(0x34, "ProfileDCRefillFromL2Invalid", 0x00030142) \
	S(0x35, "ProfileDCRefillFromL2Shared", 0x00030242) \
	S(0x36, "ProfileDCRefillFromL2Exclusive", 0x00030442) \
	S(0x37, "ProfileDCRefillFromL2Owner", 0x00030842) \
	S(0x38, "ProfileDCRefillFromL2Modified", 0x00031042) \
	S(0x39, "ProfileDCRefillFromSystem", 0x00031F43) \
	S(0x3A, "ProfileDCRefillFromSystemInvalid", 0x00030143) \
	S(0x3B, "ProfileDCRefillFromSystemShared", 0x00030243) \
	S(0x3C, "ProfileDCRefillFromSystemExclusive", 0x00030443) \
	S(0x3D, "ProfileDCRefillFromSystemOwner", 0x00030843) \
	S(0x3E, "ProfileDCRefillFromSystemModified", 0x00031043) \
	S(0x3F, "ProfileDCRefillCopyBack", 0x00031F44) \
	S(0x40, "ProfileDCRefillCopyBackInvalid", 0x00030144) \
	S(0x41, "ProfileDCRefillCopyBackShared", 0x00030244) \
	S(0x42, "ProfileDCRefillCopyBackExclusive", 0x00030444) \
	S(0x43, "ProfileDCRefillCopyBackOwner", 0x00030844) \
	S(0x44, "ProfileDCRefillCopyBackModified", 0x00031044) \
	S(0x45, "ProfileDCL1DTLBMissL2DTLBHit", 0x00030745) \
	S(0x46, "ProfileDCL1DTLBMissL2DTLBMiss", 0x00030746) \
	S(0x47, "ProfileDCMisaligndDataReference", 0x00030047) \
	S(0x48, "ProfileDCLateCancelOfAccess", 0x00030048) \
	S(0x49, "ProfileDCEarlyCancelOfAccess", 0x00030049) \
	S(0x4A, "ProfileDCOneBitECCError", 0x0003034A) \
	S(0x4B, "ProfileDCOneBitECCErrorScrubberError", 0x0003014A) \
	S(0x4C, "ProfileDCOneBitECCErrorPiggybackScrubberError", 0x0003024A) \
	S(0x4D, "ProfileDCDispatchedPrefetchInstructions", 0x0003074B) \
	S(0x4E, "ProfileDCDispatchedPrefetchInstructionsLoad", 0x0003014B) \
	S(0x4F, "ProfileDCDispatchedPrefetchInstructionsStore", 0x0003024B) \
	S(0x50, "ProfileDCDispatchedPrefetchInstructionsNTA", 0x0003044B) \
	S(0x51, "ProfileBUInternalL2Request", 0x00031F7D) \
	S(0x52, "ProfileBUInternalL2RequestICFill", 0x0003017D) \
	S(0x53, "ProfileBUInternalL2RequestDCFill", 0x0003027D) \
	S(0x54, "ProfileBUInternalL2RequestTLBReload", 0x0003047D) \
	S(0x55, "ProfileBUInternalL2RequestTagSnoopRequest", 0x0003087D) \
	S(0x56, "ProfileBUInternalL2RequestCancelledRequest", 0x0003107D) \
	S(0x57, "ProfileBUFillRequestMissedInL2", 0x0003077E) \
	S(0x58, "ProfileBUFillRequestMissedInL2ICFill", 0x0003017E) \
	S(0x59, "ProfileBUFillRequestMissedInL2DCFill", 0x0003027E) \
	S(0x5A, "ProfileBUFillRequestMissedInL2TLBLoad", 0x0003047E) \
	S(0x5B, "ProfileBUFillIntoL2", 0x0003037F) \
	S(0x5C, "ProfileBUFillIntoL2DirtyL2Victim", 0x0003017F) \
	S(0x5D, "ProfileBUFillIntoL2VictimFromL1", 0x0003027F) \
	S(0x5E, "ProfileICFetch", 0x00030080) \
	S(0x5F, "ProfileICMiss", 0x00030081) \
	S(0x60, "ProfileICRefillFromL2", 0x00030082) \
	S(0x61, "ProfileICRefillFromSystem", 0x00030083) \
	S(0x62, "ProfileICL1TLBMissL2TLBHit", 0x00030084) \
	S(0x63, "ProfileICL1TLBMissL2TLBMiss", 0x00030385) \
	S(0x64, "ProfileICResyncBySnoop", 0x00030086) \
	S(0x65, "ProfileICInstructionFetchStall", 0x00030087) \
	S(0x66, "ProfileICReturnStackHit", 0x00030088) \
	S(0x67, "ProfileICReturnStackOverflow", 0x00030089) \
	S(0x68, "ProfileFRRetiredx86Instructions", 0x000300C0) \
	S(0x69, "ProfileFRRetireduops", 0x000300C1) \
	S(0x6A, "ProfileFRRetiredBranches", 0x000300C2) \
	S(0x6B, "ProfileFRRetiredBranchesMispredicted", 0x000300C3) \
	S(0x6C, "ProfileFRRetiredTakenBranches", 0x000300C4) \
	S(0x6D, "ProfileFRRetiredTakenBranchesMispredicted", 0x000300C5) \
	S(0x6E, "ProfileFRRetiredFarControlTransfers", 0x000300C6) \
	S(0x6F, "ProfileFRRetiredResyncsNonControlTransferBranches", 0x000300C7) \
	S(0x70, "ProfileFRRetiredNearReturns", 0x000300C8) \
	S(0x71, "ProfileFRRetiredNearReturnsMispredicted", 0x000300C9) \
	S(0x72, "ProfileFRRetiredTakenBranchMispredictedByAddressMiscompare", 0x000300CA) \
	S(0x73, "ProfileFRRetiredFPUInstructions", 0x00030FCB) \
	S(0x74, "ProfileFRRetiredFPUInstructionsx87", 0x000301CB) \
	S(0x75, "ProfileFRRetiredFPUInstructionsMMXAnd3DNow", 0x000302CB) \
	S(0x76, "ProfileFRRetiredFPUInstructionsPackedSSEAndSSE2", 0x000304CB) \
	S(0x77, "ProfileFRRetiredFPUInstructionsScalarSSEAndSSE2", 0x000308CB) \
	S(0x78, "ProfileFRRetiredFastpathDoubleOpInstructions", 0x000307CC) \
	S(0x79, "ProfileFRRetiredFastpathDoubleOpInstructionsLowOpInPosition0", 0x000301CC) \
	S(0x7A, "ProfileFRRetiredFastpathDoubleOpInstructionsLowOpInPosition1", 0x000302CC) \
	S(0x7B, "ProfileFRRetiredFastpathDoubleOpInstructionsLowOpInPosition2", 0x000304CC) \
	S(0x7C, "ProfileFRInterruptsMaskedCycles", 0x000300CD) \
	S(0x7D, "ProfileFRInterruptsMaskedWhilePendingCycles", 0x000300CE) \
	S(0x7E, "ProfileFRTakenHardwareInterrupts", 0x000300CF) \
	S(0x7F, "ProfileFRNothingToDispatch", 0x000300D0) \
	S(0x80, "ProfileFRDispatchStalls", 0x000300D1) \
	S(0x81, "ProfileFRDispatchStallsFromBranchAbortToRetire", 0x000300D2) \
	S(0x82, "ProfileFRDispatchStallsForSerialization", 0x000300D3) \
	S(0x83, "ProfileFRDispachStallsForSegmentLoad", 0x000300D4) \
	S(0x84, "ProfileFRDispatchStallsWhenReorderBufferFull", 0x000300D5) \
	S(0x85, "ProfileFRDispatchStallsWhenReservationStationsFull", 0x000300D6) \
	S(0x86, "ProfileFRDispatchStallsWhenFPUFull", 0x000300D7) \
	S(0x87, "ProfileFRDispatchStallsWhenLSFull", 0x000300D8) \
	S(0x88, "ProfileFRDispatchStallsWhenWaitingForAllQuiet", 0x000300D9) \
	S(0x89, "ProfileFRDispatchStallsWhenFarControlOrResyncBranchPending", 0x000300DA) \
	S(0x8A, "ProfileFRFPUExceptions", 0x00030FDB) \
	S(0x8B, "ProfileFRFPUExcpetionsx87ReclassMicroFaults", 0x000301DB) \
	S(0x8C, "ProfileFRFPUExceptionsSSERetypeMicroFaults", 0x000302DB) \
	S(0x8D, "ProfileFRFPUExceptionsSSEReclassMicroFaults", 0x000304DB) \
	S(0x8E, "ProfileFRFPUExceptionsSSEAndx87MicroTraps", 0x000308DB) \
	S(0x8F, "ProfileFRNumberOfBreakPointsForDR0", 0x000300DC) \
	S(0x90, "ProfileFRNumberOfBreakPointsForDR1", 0x000300DD) \
	S(0x91, "ProfileFRNumberOfBreakPointsForDR2", 0x000300DE) \
	S(0x92, "ProfileFRNumberOfBreakPointsForDR3", 0x000300DF) \
	S(0x93, "ProfileNBMemoryControllerPageAccessEvent", 0x000307E0) \
	S(0x94, "ProfileNBMemoryControllerPageAccessEventPageHit", 0x000301E0) \
	S(0x95, "ProfileNBMemoryControllerPageAccessEventPageMiss", 0x000302E0) \
	S(0x96, "ProfileNBMemoryControllerPageAccessEventPageConflict", 0x000304E0) \
	S(0x97, "ProfileNBMemoryControllerPageTableOverflow", 0x000300E1) \
	S(0x98, "ProfileNBMemoryControllerDRAMCommandSlotsMissed", 0x000300E2) \
	S(0x99, "ProfileNBMemoryControllerTurnAround", 0x000307E3) \
	S(0x9A, "ProfileNBMemoryControllerTurnAroundDIMM", 0x000301E3) \
	S(0x9B, "ProfileNBMemoryControllerTurnAroundReadToWrite", 0x000302E3) \
	S(0x9C, "ProfileNBMemoryControllerTurnAroundWriteToRead", 0x000304E3) \
	S(0x9D, "ProfileNBMemoryControllerBypassCounter", 0x00030FE4) \
	S(0x9E, "ProfileNBMemoryControllerBypassCounterHighPriority", 0x000301E4) \
	S(0x9F, "ProfileNBMemoryControllerBypassCounterLowPriority", 0x000302E4) \
	S(0xA0, "ProfileNBMemoryControllerBypassCounterDRAMControllerInterface", 0x000304E4) \
	S(0xA1, "ProfileNBMemoryControllerBypassCounterDRAMControllerQueue", 0x000308E4) \
	S(0xA2, "ProfileNBSizedCommands", 0x00037FEB) \
	S(0xA3, "ProfileNBSizedCommandsNonPostWrSzByte", 0x000301EB) \
	S(0xA4, "ProfileNBSizedCommandsNonPostWrSzDword", 0x000302EB) \
	S(0xA5, "ProfileNBSizedCommandsWrSzByte", 0x000304EB) \
	S(0xA6, "ProfileNBSizedCommandsWrSzDword", 0x000308EB) \
	S(0xA7, "ProfileNBSizedCommandsRdSzByte", 0x000310EB) \
	S(0xA8, "ProfileNBSizedCommandsRdSzDword", 0x000320EB) \
	S(0xA9, "ProfileNBSizedCommandsRdModWr", 0x000340EB) \
	S(0xAA, "ProfileNBProbeResult", 0x00030FEC) \
	S(0xAB, "ProfileNBProbeResultMiss", 0x000301EC) \
	S(0xAC, "ProfileNBProbeResultHit", 0x000302EC) \
	S(0xAD, "ProfileNBProbeResultHitDirtyWithoutMemoryCanceL", 0x000304EC) \
	S(0xAE, "ProfileNBProbeResultHitDirtyWithMemoryCancel", 0x000308EC) \
	S(0xAF, "ProfileNBHyperTransportBus0Bandwidth", 0x00030FF6) \
	S(0xB0, "ProfileNBHyperTransportBus0BandwidthCommandSent", 0x000301F6) \
	S(0xB1, "ProfileNBHyperTransportBus0BandwidthDataSent", 0x000302F6) \
	S(0xB2, "ProfileNBHyperTransportBus0BandwidthBufferReleaseSent", 0x000304F6) \
	S(0xB3, "ProfileNBHyperTransportBug0BandwidthNopSent", 0x000308F6) \
	S(0xB4, "ProfileNBHyperTransportBus1Bandwidth", 0x00030FF7) \
	S(0xB5, "ProfileNBHyperTransportBus1BandwidthCommandSent", 0x000301F7) \
	S(0xB6, "ProfileNBHyperTransportBus1BandwidthDataSent", 0x000302F7) \
	S(0xB7, "ProfileNBHyperTransportBus1BandwidthBufferReleaseSent", 0x000304F7) \
	S(0xB8, "ProfileNBHyperTransportBus1BandwidthNopSent", 0x000308F7) \
	S(0xB9, "ProfileNBHyperTransportBus2Bandwidth", 0x00030FF8) \
	S(0xBA, "ProfileNBHyperTransportBus2BandwidthCommandSent", 0x000301F8) \
	S(0xBB, "ProfileNBHyperTransportBus2BandwidthDataSent", 0x000302F8) \
	S(0xBC, "ProfileNBHyperTransportBus2BandwidthBufferReleaseSent", 0x000304F8) \
	S(0xBD, "ProfileNBHyperTransportBus2BandwidthNopSen", 0x000308F8) \
	S(0xBE, "ProfileBUCleanToDirty", 0x00031063) \
	S(0xBF, "ProfileBUSharedToDirty", 0x00032063)

#endif /* _UAPI_LINUX_KPROFILE_SOURCES_H */

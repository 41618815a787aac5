/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * kprofile.h - user/kernel ABI of /dev/kprofile, the Windows profile-source
 * model on Linux.
 *
 * Rules: fixed-width types only, pointers travel as __u64, every hole is an
 * explicit pad or reserved field that must be zero (EINVAL otherwise), one
 * ioctl type letter.  The ABI is extended by adding ioctls or new structs,
 * never by changing an existing one.  Unknown ioctls fail with ENOTTY.
 *
 * Objects: /dev/kprofile is the machine-wide device.  Creating a profile,
 * reserving counters or enabling thread profiling returns a new file
 * descriptor (the ioctl's return value) that owns the object; closing it
 * stops and frees the object.
 */
#ifndef _UAPI_LINUX_KPROFILE_H
#define _UAPI_LINUX_KPROFILE_H

#include <linux/ioctl.h>
#include <linux/types.h>
#include <linux/kprofile_sources.h>
#include <linux/kprofile_amd_families.h>
#include <linux/kprofile_stream.h>

#define KPROFILE_ABI_VERSION	1
#define KPROFILE_DEVICE_NAME	"kprofile"

/* Generic KPROFILE_SOURCE values 0x00..0x18: KPROFILE_SOURCE_TIME, ... */
#define __KPROFILE_GENERIC_ENUM(value, ident, name) \
	KPROFILE_SOURCE_##ident = value,
enum kprofile_source {
	KPROFILE_GENERIC_SOURCES(__KPROFILE_GENERIC_ENUM)
	KPROFILE_SOURCE_FIRST_SPECIFIC = 0x19,
};
#undef __KPROFILE_GENERIC_ENUM

#define KPROFILE_NAME_LEN	64	/* source names, NUL-terminated */
#define KPROFILE_REASON_LEN	128	/* human-readable reasons */
#define KPROFILE_VENDOR_LEN	16	/* CPUID vendor string */
#define KPROFILE_MAX_COUNTERS	16	/* MAX_HW_COUNTERS */
#define KPROFILE_NO_COUNTER	0xffffffffU

/*
 * Interval ranges (what xperf -pmcsources shows).  ProfileTime is in
 * 100 ns units; counter sources are in events per interrupt.  Requests
 * outside a range are clamped.
 */
#define KPROFILE_TIME_INTERVAL_DEFAULT		10000U
#define KPROFILE_TIME_INTERVAL_MIN		1221U
#define KPROFILE_TIME_INTERVAL_MAX		1000000U
#define KPROFILE_COUNTER_INTERVAL_DEFAULT	65536U
#define KPROFILE_COUNTER_INTERVAL_MIN		4096U
#define KPROFILE_COUNTER_INTERVAL_MAX		2147483647U

/* Which profile interface the HAL-like layer chose. */
enum kprofile_interface {
	KPROFILE_INTERFACE_NONE = 0,	/* ProfileTime only; see reason */
	KPROFILE_INTERFACE_EMON = 1,	/* Intel architectural perfmon */
	KPROFILE_INTERFACE_AMD64 = 2,	/* AMD64 / Hygon legacy counters */
};

/* kprofile_info.flags */
#define KPROFILE_INFO_AMD_PERFMON_V2	(1U << 0) /* Zen 4 global control */
#define KPROFILE_INFO_HYPERVISOR	(1U << 1) /* CPUID hypervisor bit */
#define KPROFILE_INFO_X2APIC		(1U << 2) /* LVTPC is MSR 0x834 */

/**
 * struct kprofile_info - KPROFILE_IOC_INFO: what the module found.
 * @abi_version:     KPROFILE_ABI_VERSION of the running module.
 * @interface:       enum kprofile_interface.
 * @perfmon_version: CPUID.0AH:EAX[7:0] (Intel); 2 for AMD PerfMonV2, 0 else.
 * @num_counters:    general-purpose counters per CPU.
 * @counter_width:   their width in bits.
 * @ebx_mask:        CPUID.0AH:EBX (Intel): set bits are unavailable events.
 * @ebx_length:      CPUID.0AH:EAX[31:24]: how many EBX bits are meaningful.
 * @num_cpus:        online CPUs.
 * @num_possible_cpus: possible CPUs.
 * @family:          CPU family (display family).
 * @model:           CPU model (display model).
 * @flags:           KPROFILE_INFO_*.
 * @reserved:        zero.
 * @vendor:          CPUID vendor string, e.g. "GenuineIntel".
 * @reason:          why @interface is NONE (empty otherwise).
 */
struct kprofile_info {
	__u32 abi_version;
	__u32 interface;
	__u32 perfmon_version;
	__u32 num_counters;
	__u32 counter_width;
	__u32 ebx_mask;
	__u32 ebx_length;
	__u32 num_cpus;
	__u32 num_possible_cpus;
	__u32 family;
	__u32 model;
	__u32 flags;
	__u32 reserved[4];
	char vendor[KPROFILE_VENDOR_LEN];
	char reason[KPROFILE_REASON_LEN];
};

/* kprofile_info_ex.pmu_state: can the counters be used now? */
enum kprofile_pmu_state {
	KPROFILE_PMU_NONE = 0,		/* no profile interface: info.reason */
	KPROFILE_PMU_AVAILABLE = 1,	/* the counters are free */
	KPROFILE_PMU_BUSY = 2,		/* the interface is known, but someone
					 * else (perf: the NMI watchdog) is
					 * counting: @state_reason */
};

/* kprofile_info_ex.flags */
#define KPROFILE_INFO_EX_PERF_PMU	(1U << 0) /* perf initialised a PMU */
#define KPROFILE_INFO_EX_HYBRID		(1U << 1) /* CPUs of several types */
#define KPROFILE_INFO_EX_TSX_FORCE_ABORT (1U << 2) /* PMC3 kept off (TFA) */

/**
 * struct kprofile_info_ex - KPROFILE_IOC_INFO_EX: KPROFILE_IOC_INFO, plus
 *	whether the counters can be used now and what limits them.
 * @size:	  out: sizeof(struct kprofile_info_ex).
 * @pmu_state:	  enum kprofile_pmu_state, evaluated at the call: a PMU
 *		  perf holds is BUSY, not NONE, and becomes AVAILABLE when
 *		  perf lets go (no reload needed).
 * @flags:	  KPROFILE_INFO_EX_*.
 * @amd_family:	  enum kprofile_amd_family (Amd64 only, else 0): which
 *		  event list applies (kprofile_amd_families.h).
 * @busy_mask:	  counters someone else was counting on, on some CPU.
 * @counter_mask: counters kprofile may use on every online CPU (a hybrid
 *		  CPU with fewer counters, or TSX force-abort's PMC3,
 *		  removes some).
 * @reserved:	  zero.
 * @info:	  what KPROFILE_IOC_INFO returns.
 * @state_reason: why BUSY, or what limits @counter_mask (else empty).
 * @amd_family_name: e.g. "zen3", as `kprofile sources --family` takes it.
 */
struct kprofile_info_ex {
	__u32 size;
	__u32 pmu_state;
	__u32 flags;
	__u32 amd_family;
	__u32 busy_mask;
	__u32 counter_mask;
	__u32 reserved[10];
	struct kprofile_info info;
	char state_reason[KPROFILE_REASON_LEN];
	char amd_family_name[16];
};

#define KPROFILE_VERSION_LEN	32	/* kprofile_version.version */

/**
 * struct kprofile_version - KPROFILE_IOC_VERSION: which kprofile release
 *	the running module is (the project's semantic version, the file
 *	VERSION of the source tree; what `modinfo kprofile` shows as
 *	version).
 * @size:	 out: sizeof(struct kprofile_version).
 * @abi_version: KPROFILE_ABI_VERSION of the running module.
 * @major:	 the version's major number,
 * @minor:	 minor number,
 * @patch:	 and patch number.
 * @reserved:	 zero.
 * @version:	 the whole version, NUL-terminated, e.g. "1.2.0" or
 *		 "1.3.0-rc1" (semver: pre-release and build suffixes here only).
 *
 * Modules that predate it fail with ENOTTY.
 */
struct kprofile_version {
	__u32 size;
	__u32 abi_version;
	__u32 major;
	__u32 minor;
	__u32 patch;
	__u32 reserved[3];
	char version[KPROFILE_VERSION_LEN];
};

/* kprofile_source_info.flags */
#define KPROFILE_SOURCE_SUPPORTED	(1U << 0) /* usable on this machine */
#define KPROFILE_SOURCE_TIMER		(1U << 1) /* ProfileTime: an hrtimer */
#define KPROFILE_SOURCE_GENERIC		(1U << 2) /* value < 0x19 */
#define KPROFILE_SOURCE_IN_TABLE	(1U << 3) /* in the interface's table */

/**
 * struct kprofile_source_info - one profile source
 *	(HalProfileSourceInformation, extended).
 * @source:	      in: the KPROFILE_SOURCE value.
 * @flags:	      KPROFILE_SOURCE_*.
 * @interval:	      current machine-wide interval (0 when unsupported).
 * @default_interval: default interval.
 * @min_interval:     smallest accepted interval.
 * @max_interval:     largest accepted interval.  ProfileTime's intervals
 *		      are in 100 ns units, counter sources' in events.
 * @select:	      the table's event select (USR|OS set, EN|INT clear), or 0.
 * @ebx_bit:	      the Emon EBX bit, or -1 when none.
 * @reserved:	      zero.
 * @name:	      the source's name, e.g. "ProfileTotalIssues".
 * @reason:	      why the source is unsupported (empty when supported).
 */
struct kprofile_source_info {
	__u32 source;
	__u32 flags;
	__u32 interval;
	__u32 default_interval;
	__u32 min_interval;
	__u32 max_interval;
	__u32 select;
	__s32 ebx_bit;
	__u32 reserved[2];
	char name[KPROFILE_NAME_LEN];
	char reason[KPROFILE_REASON_LEN];
};

/**
 * struct kprofile_source_list - KPROFILE_IOC_LIST_SOURCES
 *	(EventTraceProfileSourceListInformation).
 * @count:   in: room in @entries; out: entries written, or on ENOSPC the
 *	     number needed.
 * @flags:   zero.
 * @entries: pointer to struct kprofile_source_info[@count].
 *
 * Lists the generic sources 0x00..0x18, then the running interface's
 * specific sources, in ascending value order.
 */
struct kprofile_source_list {
	__u32 count;
	__u32 flags;
	__u64 entries;
};

/**
 * struct kprofile_interval - KPROFILE_IOC_{SET,GET}_INTERVAL.
 * @source:   the KPROFILE_SOURCE.
 * @interval: set: in the request, out the interval actually used (clamped);
 *	      get: out.
 *
 * On /dev/kprofile, SET_INTERVAL sets the source's machine-wide interval
 * (NtSetIntervalProfile): every profile and stream of the source that has
 * no interval of its own follows it.  It needs CAP_PERFMON (or
 * CAP_SYS_ADMIN): EPERM.
 *
 * On a stopped profile fd or stream fd, SET_INTERVAL with @source
 * KPROFILE_SOURCE_TIME sets that profile's (stream's) own ProfileTime
 * interval, in 100 ns units, from its next start; the machine-wide
 * interval does not change.  Its owner needs no capability (as perf gives
 * every user the sampling rate of their own events); only the process
 * that created it may set it.  The range is the machine-wide one (the
 * interval used is returned, clamped).  Errors: EOPNOTSUPP (@source is
 * not ProfileTime, or the profile or stream has no ProfileTime: a counter
 * source's interval is only the machine-wide one), EINVAL (0), EBUSY
 * (started), EXDEV (another process than the creator).  The module's
 * ProfileTime timers then tick at the shortest interval a started
 * profile or stream wants, and each is sampled at its own.
 */
struct kprofile_interval {
	__u32 source;
	__u32 interval;
};

/* Request which privilege levels a counter or profile counts. */
enum kprofile_mode {
	KPROFILE_MODE_TABLE = 0,	/* as the table says (USR and OS) */
	KPROFILE_MODE_USER = 1,		/* user mode only */
	KPROFILE_MODE_KERNEL = 2,	/* kernel mode only */
	KPROFILE_MODE_BOTH = 3,		/* both */
};

/* kprofile_schedule: which sources can run together. */
#define KPROFILE_SCHED_FITS		(1U << 0)

/**
 * struct kprofile_schedule - KPROFILE_IOC_SCHEDULE: can these sources be
 *	armed together now, and on which counters?
 * @nr_sources:	in: entries used in @sources (<= KPROFILE_MAX_COUNTERS).
 * @flags:	out: KPROFILE_SCHED_FITS when all fit now.
 * @busy_mask:	out: counters held now (by kprofile sources, reservations,
 *		thread profiling or perf).
 * @num_counters: out: counters per CPU.
 * @sources:	in: KPROFILE_SOURCE values.
 * @counters:	out: the counter each source gets (a source already armed
 *		keeps its counter), or KPROFILE_NO_COUNTER.
 * @reason:	out: why not, when they do not fit; with no sources, who
 *		holds the busy counters (kprofile sources by name,
 *		reservations and thread profiling by owner, or perf: the NMI
 *		watchdog), e.g. to explain an EBUSY.
 *
 * Sources are placed as armed by profiles (KPROFILE_MODE_TABLE).  A set
 * fits when each counter source not armed yet gets its own free counter
 * among those its event may use: any general-purpose counter, except on
 * AMD family 15h, where many events may use only counters 0-2
 * (kprofile_amd_families.h); placement is a matching, so @counters may
 * differ from arming the sources one by one.  A counter perf refused at
 * kprofile's last attempt to take it (in @busy_mask and @reason as
 * perf's) is placed last but does not make the set not fit: perf may
 * have let go since, and only arming asks Linux (and says EBUSY, with the
 * reason, if perf still holds it).  When the set does not fit,
 * @counters is KPROFILE_NO_COUNTER for the sources not armed yet.
 * Unknown sources: EINVAL.
 */
struct kprofile_schedule {
	__u32 nr_sources;
	__u32 flags;
	__u32 busy_mask;
	__u32 num_counters;
	__u32 sources[KPROFILE_MAX_COUNTERS];
	__u32 counters[KPROFILE_MAX_COUNTERS];
	char reason[KPROFILE_REASON_LEN];
};

/* kprofile_counter_desc.type: PHYSICAL_COUNTER_RESOURCE_DESCRIPTOR_TYPE */
enum kprofile_counter_desc_type {
	KPROFILE_COUNTER_SINGLE = 1,		/* @begin is the counter */
	KPROFILE_COUNTER_RANGE = 2,		/* @begin..@end inclusive */
	KPROFILE_COUNTER_OVERFLOW = 3,		/* overflows are counted */
	KPROFILE_COUNTER_EVENT_BUFFER = 4,	/* PEBS: EOPNOTSUPP */
};

/**
 * struct kprofile_counter_desc - one PHYSICAL_COUNTER_RESOURCE_DESCRIPTOR.
 * @type:  enum kprofile_counter_desc_type.
 * @flags: zero.
 * @begin: counter index (SINGLE) or first index (RANGE).
 * @end:   last index (RANGE); zero otherwise.
 * @reserved: zero.
 */
struct kprofile_counter_desc {
	__u32 type;
	__u32 flags;
	__u32 begin;
	__u32 end;
	__u64 reserved;
};

/**
 * struct kprofile_reserve - KPROFILE_IOC_RESERVE (HalAllocateHardwareCounters).
 * @nr_descs:	 entries at @descs; 0 reserves the whole PMU.
 * @flags:	 zero.
 * @descs:	 pointer to struct kprofile_counter_desc[@nr_descs].
 * @cpus:	 pointer to a CPU bitmap (as sched_setaffinity's), or 0.
 * @cpus_size:	 bytes at @cpus; 0 means all online CPUs.
 * @counter_mask: out: the counters reserved.
 * @reserved:	 zero.
 *
 * Returns a file descriptor that owns the reservation; close frees it.
 * Needs CAP_PERFMON.  Nothing is programmed: the holder programs the
 * counters.  The counters are held machine-wide (Linux arbitrates them
 * that way); @cpus must include an online CPU.  An OVERFLOW descriptor
 * makes kprofile acknowledge the counters' overflow interrupts.  EBUSY:
 * a counter is held (KPROFILE_IOC_SCHEDULE with no sources says by whom,
 * e.g. perf's NMI watchdog); EOPNOTSUPP: no usable PMU, or EVENT_BUFFER.
 */
struct kprofile_reserve {
	__u32 nr_descs;
	__u32 flags;
	__u64 descs;
	__u64 cpus;
	__u32 cpus_size;
	__u32 counter_mask;
	__u64 reserved[2];
};

/* kprofile_create_profile.target */
enum kprofile_target {
	KPROFILE_TARGET_SELF = 0,	/* the calling process (thread group) */
	KPROFILE_TARGET_PID = 1,	/* the process @pid */
	KPROFILE_TARGET_SYSTEM = 2,	/* every task, and the kernel */
};

/**
 * struct kprofile_create_profile - KPROFILE_IOC_CREATE_PROFILE
 *	(NtCreateProfileEx).
 * @target:	 enum kprofile_target.
 * @pid:	 the process for KPROFILE_TARGET_PID; zero otherwise.
 * @base:	 first address of the profiled range.
 * @size:	 bytes in the range; base + size must not wrap.
 * @buffer:	 user pointer to __u32 buckets, 4-byte aligned, writable.
 * @buffer_size: bytes at @buffer; at least ceil(size >> bucket_shift) * 4.
 * @bucket_shift: log2 of the bucket size in bytes, 2..31.
 * @source:	 the KPROFILE_SOURCE.
 * @mode:	 enum kprofile_mode.
 * @flags:	 zero.
 * @cpus:	 pointer to a CPU bitmap, or 0.
 * @cpus_size:	 bytes at @cpus; 0 means all online CPUs.
 * @reserved:	 zero.
 *
 * Returns a profile file descriptor (close-on-exec), stopped; the fd owns
 * the profile, and closing it stops and frees it.  The buffer is the
 * caller's memory: KPROFILE_IOC_START pins it and the interrupt path adds
 * to its counters live; the counts stay after KPROFILE_IOC_STOP.
 *
 * Errors, in this order: EINVAL (nonzero @flags or @reserved, unknown
 * @target or @mode, @pid without KPROFILE_TARGET_PID or <= 0 with it,
 * @cpus without @cpus_size or the reverse, zero @buffer_size or @size,
 * @bucket_shift outside 2..31, @buffer not 4-byte aligned, unknown
 * @source), ENOSPC (@buffer_size too small), EOVERFLOW (@base + @size
 * wraps), EOPNOTSUPP (source unsupported here: KPROFILE_IOC_QUERY_SOURCE
 * says why), EFAULT (buffer not writable, CPU set unreadable), EINVAL (CPU
 * set of impossible CPUs only), EPERM (system-wide or a kernel range
 * without CAP_PERFMON or CAP_SYS_ADMIN), ESRCH (no process @pid), EACCES
 * (no ptrace-read access to @pid).  docs/profiles.md has the details.
 */
struct kprofile_create_profile {
	__u32 target;
	__s32 pid;
	__u64 base;
	__u64 size;
	__u64 buffer;
	__u64 buffer_size;
	__u32 bucket_shift;
	__u32 source;
	__u32 mode;
	__u32 flags;
	__u64 cpus;
	__u32 cpus_size;
	__u32 reserved[5];
};

/**
 * struct kprofile_profile_stats - KPROFILE_IOC_PROFILE_STATS on a profile fd.
 * @hits:	 interrupts that matched and were counted in a bucket.
 * @outside:	 interrupts whose task matched but whose ip was out of range.
 * @unavailable: interrupts that matched while the buffer was not pinned
 *		 (a stop racing with them); normally 0.
 * @wrong_mode:	 interrupts whose task matched but privilege mode did not.
 * @started:	 1 while started.
 * @source:	 the profile's source.
 * @interval:	 the source's interval now.
 * @reserved:	 zero.
 */
struct kprofile_profile_stats {
	__u64 hits;
	__u64 outside;
	__u64 unavailable;
	__u64 wrong_mode;
	__u32 started;
	__u32 source;
	__u32 interval;
	__u32 reserved[5];
};

/* kprofile_profile_stats_ex.flags: why a profile stopped counting. */
#define KPROFILE_PROFILE_EXEC_STOPPED	(1U << 0) /* target exec'd set-user-ID */
#define KPROFILE_PROFILE_BUFFER_LOST	(1U << 1) /* buffer unmapped/replaced */

/**
 * struct kprofile_profile_stats_ex - KPROFILE_IOC_PROFILE_STATS_EX on a
 *	profile fd: the statistics, and why counting stopped.
 * @stats:	  as KPROFILE_IOC_PROFILE_STATS fills it.
 * @flags:	  KPROFILE_PROFILE_*.  EXEC_STOPPED: the target executed a
 *		  program that left it non-dumpable (set-user-ID,
 *		  set-group-ID, file capabilities) while the profile was
 *		  started; the profile counts it no more (perf tears its
 *		  task events down at such an exec).  BUFFER_LOST: the
 *		  buffer's mapping changed while started (munmap,
 *		  MADV_DONTNEED, mremap, a MAP_FIXED mapping over it): later
 *		  interrupts are counted in @stats.unavailable, not in
 *		  buckets the caller could no longer see.
 * @reserved0:	  zero.
 * @not_dumpable: interrupts of the target not counted because it was not
 *		  dumpable (after such an exec, or, for a profile of another
 *		  process created without CAP_PERFMON/CAP_SYS_PTRACE, while
 *		  the target is non-dumpable).
 * @reserved:	  zero.
 */
struct kprofile_profile_stats_ex {
	struct kprofile_profile_stats stats;
	__u32 flags;
	__u32 reserved0;
	__u64 not_dumpable;
	__u64 reserved[4];
};

/**
 * struct kprofile_start_result - KPROFILE_IOC_START_EX on a profile fd:
 *	start the profile as KPROFILE_IOC_START does, and say why not.
 * @reason:   out: why the start was refused, empty when it was not: who
 *	      holds the counters (EBUSY), that the profile is started
 *	      already (EBUSY), that another process than its creator called
 *	      (EXDEV), that the buffer could not be pinned (ENOMEM:
 *	      RLIMIT_MEMLOCK; EFAULT), or a reason of the counter layer.
 * @reserved: out: zero.
 *
 * The structure is written (zeroed) before the start is tried, and the
 * reason after a refusal, so the caller has it with the error: the ioctl
 * returns 0 or the error KPROFILE_IOC_START would return (EFAULT, without
 * starting, when the structure cannot be written).  Modules that predate
 * it fail with ENOTTY: use KPROFILE_IOC_START.
 */
struct kprofile_start_result {
	char reason[KPROFILE_REASON_LEN];
	__u32 reserved[8];
};

/* Hardware counter configuration (KeSetHardwareCounterConfiguration). */
enum kprofile_hw_counter_type {
	KPROFILE_HW_COUNTER_PMC = 0,	/* PMCCounter: a profile source */
};

/**
 * struct kprofile_hw_counter - one HARDWARE_COUNTER.
 * @type:    enum kprofile_hw_counter_type.
 * @source:  the KPROFILE_SOURCE to count (a counter source: not
 *	     ProfileTime, which is a timer).
 * @index:   out (query, SET_HW_CONFIG_EX): the counter it uses; ignored
 *	     on input.
 * @mode:    enum kprofile_mode: which privilege levels count.
 */
struct kprofile_hw_counter {
	__u32 type;
	__u32 source;
	__u32 index;
	__u32 mode;
};

/**
 * struct kprofile_hw_config - KPROFILE_IOC_{SET,QUERY}_HW_CONFIG.
 * @count:    entries used in @counters, 0..KPROFILE_MAX_COUNTERS.
 * @flags:    zero.
 * @counters: the configuration.
 */
struct kprofile_hw_config {
	__u32 count;
	__u32 flags;
	struct kprofile_hw_counter counters[KPROFILE_MAX_COUNTERS];
};

/**
 * struct kprofile_hw_config_set - KPROFILE_IOC_SET_HW_CONFIG_EX: set the
 *	configuration as KPROFILE_IOC_SET_HW_CONFIG does, and say what
 *	happened.
 * @config: in: the configuration; out (success): with each entry's @index.
 * @reason: out: why not, on failure (EBUSY: who holds the counter, or that
 *	    thread profiling is enabled; EOPNOTSUPP: why there is no PMU).
 *
 * Errors (both set ioctls): EINVAL (count > KPROFILE_MAX_COUNTERS, a
 * nonzero @flags, an unknown type, source or mode, ProfileTime), EOPNOTSUPP
 * (no PMU, or a source this processor does not support), EBUSY (a counter
 * is held by someone else, or thread profiling is enabled).  On failure
 * the previous configuration stays, unless Linux (perf, the NMI watchdog)
 * took one of its counters while the set ran: then none is in force, and
 * @reason says so.
 */
struct kprofile_hw_config_set {
	struct kprofile_hw_config config;
	char reason[KPROFILE_REASON_LEN];
};

/* kprofile_thread_enable.flags */
#define KPROFILE_THREAD_INHERIT	(1U << 0) /* also threads and processes
					   * the task creates later, and
					   * theirs */
#define KPROFILE_THREAD_START_ON_EXEC (1U << 1) /* count the task from
					   * its next exec on */

/**
 * struct kprofile_thread_enable - KPROFILE_IOC_THREAD_ENABLE
 *	(EnableThreadProfiling).
 * @pid:	  thread (or with KPROFILE_THREAD_INHERIT, process) to profile;
 *		  0 is the caller.  Another process needs ptrace-read access.
 * @flags:	  KPROFILE_THREAD_*.
 * @counter_mask: which configured counters (bit i = entry i) to read.
 * @reserved:	  zero.
 *
 * With KPROFILE_THREAD_START_ON_EXEC the task (@pid itself, not threads it
 * creates before that exec) restarts from zero (counters, cycles,
 * switches) when it next executes a program (at sched_process_exec, the
 * end of execve()): a tool that forks, enables and then lets the child
 * exec counts the program, not its own code in the child, nor the exec
 * up to then.  (perf's enable_on_exec starts a little earlier, inside
 * execve(), so its kernel-mode counts also hold the end of the exec.)
 *
 * Returns a file descriptor; KPROFILE_IOC_THREAD_READ reads it, close
 * disables profiling.  The configured counters are read through the
 * configuration in force at enable time (it cannot change while enabled).
 * Errors: EBUSY (another thread-profiling client is active), ESRCH (no
 * such thread), EPERM (no ptrace-read access), EINVAL (unknown flags,
 * nonzero reserved, a @counter_mask bit >= KPROFILE_MAX_COUNTERS).
 */
struct kprofile_thread_enable {
	__s32 pid;
	__u32 flags;
	__u32 counter_mask;
	__u32 reserved[5];
};

/* kprofile_thread_data.flags, kprofile_thread_entry.flags */
#define KPROFILE_THREAD_COUNTERS_VALID	(1U << 0) /* hw_counters are real */
#define KPROFILE_THREAD_EXITED		(1U << 1) /* entry: thread has exited */
/*
 * Entry: the thread executed a program that left it non-dumpable
 * (set-user-ID, set-group-ID, file capabilities); it was charged up to
 * that exec and counts no more, nor do threads it creates (perf tears its
 * task events down at such an exec).  Data: some thread did.
 */
#define KPROFILE_THREAD_EXEC_STOPPED	(1U << 2)

/**
 * struct kprofile_thread_data - KPROFILE_IOC_THREAD_READ
 *	(ReadThreadProfilingData, PERFORMANCE_DATA).
 * @size:	      sizeof(struct kprofile_thread_data).
 * @version:	      1.
 * @flags:	      KPROFILE_THREAD_*; without COUNTERS_VALID the counter
 *		      values are unavailable (no PMU), not zero.
 * @hw_counter_count: entries of @hw_counters that are configured.
 * @context_switches: times the profiled threads were switched in.
 * @cycle_time:	      TSC cycles they ran while profiled.
 * @threads:	      threads accounted.
 * @reserved:	      zero.
 * @hw_counters:      accumulated counter values, per configuration entry;
 *		      an entry not in counter_mask reads 0.
 * @reason:	      why counters are unavailable.
 */
struct kprofile_thread_data {
	__u32 size;
	__u32 version;
	__u32 flags;
	__u32 hw_counter_count;
	__u64 context_switches;
	__u64 cycle_time;
	__u64 threads;
	__u64 reserved;
	__u64 hw_counters[KPROFILE_MAX_COUNTERS];
	char reason[KPROFILE_REASON_LEN];
};

/**
 * struct kprofile_thread_entry - one profiled thread (KPROFILE_IOC_THREAD_LIST).
 * @tid:	      its thread id (in the caller's pid namespace; 0 if none).
 * @tgid:	      its process id.
 * @flags:	      KPROFILE_THREAD_COUNTERS_VALID, KPROFILE_THREAD_EXITED.
 * @reserved:	      zero.
 * @comm:	      its command name when it was last seen.
 * @context_switches: as in struct kprofile_thread_data, for this thread.
 * @cycle_time:	      as in struct kprofile_thread_data, for this thread.
 * @hw_counters:      as in struct kprofile_thread_data, for this thread.
 */
struct kprofile_thread_entry {
	__s32 tid;
	__s32 tgid;
	__u32 flags;
	__u32 reserved;
	char comm[16];
	__u64 context_switches;
	__u64 cycle_time;
	__u64 hw_counters[KPROFILE_MAX_COUNTERS];
};

/**
 * struct kprofile_thread_list - KPROFILE_IOC_THREAD_LIST on a
 *	thread-profiling fd: per-thread data, in the order threads joined.
 * @count:   in: room in @entries; out: entries written, or on ENOSPC the
 *	     number needed.
 * @flags:   zero.
 * @entries: pointer to struct kprofile_thread_entry[@count].
 */
struct kprofile_thread_list {
	__u32 count;
	__u32 flags;
	__u64 entries;
};

#define KPROFILE_IOC_MAGIC	0xBF

/* On /dev/kprofile. */
#define KPROFILE_IOC_INFO		_IOR(KPROFILE_IOC_MAGIC, 0x00, struct kprofile_info)
#define KPROFILE_IOC_QUERY_SOURCE	_IOWR(KPROFILE_IOC_MAGIC, 0x01, struct kprofile_source_info)
#define KPROFILE_IOC_LIST_SOURCES	_IOWR(KPROFILE_IOC_MAGIC, 0x02, struct kprofile_source_list)
#define KPROFILE_IOC_SET_INTERVAL	_IOWR(KPROFILE_IOC_MAGIC, 0x03, struct kprofile_interval)
#define KPROFILE_IOC_GET_INTERVAL	_IOWR(KPROFILE_IOC_MAGIC, 0x04, struct kprofile_interval)
#define KPROFILE_IOC_SCHEDULE		_IOWR(KPROFILE_IOC_MAGIC, 0x05, struct kprofile_schedule)
#define KPROFILE_IOC_RESERVE		_IOWR(KPROFILE_IOC_MAGIC, 0x06, struct kprofile_reserve)
#define KPROFILE_IOC_CREATE_PROFILE	_IOW(KPROFILE_IOC_MAGIC, 0x07, struct kprofile_create_profile)
#define KPROFILE_IOC_SET_HW_CONFIG	_IOW(KPROFILE_IOC_MAGIC, 0x08, struct kprofile_hw_config)
#define KPROFILE_IOC_QUERY_HW_CONFIG	_IOR(KPROFILE_IOC_MAGIC, 0x09, struct kprofile_hw_config)
#define KPROFILE_IOC_THREAD_ENABLE	_IOW(KPROFILE_IOC_MAGIC, 0x0A, struct kprofile_thread_enable)
#define KPROFILE_IOC_SET_HW_CONFIG_EX	_IOWR(KPROFILE_IOC_MAGIC, 0x0B, struct kprofile_hw_config_set)
#define KPROFILE_IOC_INFO_EX		_IOR(KPROFILE_IOC_MAGIC, 0x0C, struct kprofile_info_ex)
#define KPROFILE_IOC_VERSION		_IOR(KPROFILE_IOC_MAGIC, 0x0D, struct kprofile_version)
#define KPROFILE_IOC_CREATE_STREAM	_IOW(KPROFILE_IOC_MAGIC, 0x0E, struct kprofile_create_stream)

/*
 * On a profile fd.  START (NtStartProfile): pin the buffer, arm the
 * source; EBUSY when started (or no counter is free), EXDEV from another
 * address space than the creator's, ENOMEM (RLIMIT_MEMLOCK).  STOP
 * (NtStopProfile): disarm, unpin; EALREADY when not started.  START_EX:
 * START, and the reason of a refusal (struct kprofile_start_result).
 */
#define KPROFILE_IOC_START		_IO(KPROFILE_IOC_MAGIC, 0x40)
#define KPROFILE_IOC_STOP		_IO(KPROFILE_IOC_MAGIC, 0x41)
#define KPROFILE_IOC_PROFILE_STATS	_IOR(KPROFILE_IOC_MAGIC, 0x42, struct kprofile_profile_stats)
#define KPROFILE_IOC_PROFILE_STATS_EX	_IOR(KPROFILE_IOC_MAGIC, 0x43, struct kprofile_profile_stats_ex)
#define KPROFILE_IOC_START_EX		_IOR(KPROFILE_IOC_MAGIC, 0x44, struct kprofile_start_result)

/*
 * On a stream fd (kprofile_stream.h): KPROFILE_IOC_START and
 * KPROFILE_IOC_STOP as on a profile fd (EBUSY, EALREADY; START may fail
 * as arming a profile's source does), and its statistics.  On a profile
 * fd or a stream fd, KPROFILE_IOC_SET_INTERVAL sets its own ProfileTime
 * interval (struct kprofile_interval).
 */
#define KPROFILE_IOC_STREAM_INFO	_IOR(KPROFILE_IOC_MAGIC, 0x50, struct kprofile_stream_info)

/* On a thread-profiling fd. */
#define KPROFILE_IOC_THREAD_READ	_IOR(KPROFILE_IOC_MAGIC, 0x60, struct kprofile_thread_data)
#define KPROFILE_IOC_THREAD_LIST	_IOWR(KPROFILE_IOC_MAGIC, 0x61, struct kprofile_thread_list)

#endif /* _UAPI_LINUX_KPROFILE_H */

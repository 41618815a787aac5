/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmu.h - the hardware layer: profile interfaces (HalpProfileInterface),
 * counter ownership, arming sources on every CPU, the overflow (NMI) path,
 * counting counters for thread profiling, and per-CPU state across
 * hotplug and suspend.
 *
 * Layers above this one never touch an MSR: they call the functions below.
 * Everything here reaches the processor through a struct kp_hw (hw.h), so
 * a KUnit suite builds its own struct kp_pmu over a fake register file with
 * kp_pmu_setup() and never touches the module's instance.
 *
 * Counter model
 * -------------
 * A processor has desc->num_counters general-purpose counters per CPU.
 * Counter i is held machine-wide by at most one holder (enum kp_holder):
 * a kprofile source armed for sampling (refcounted per (source, mode)), a
 * reservation (HalAllocateHardwareCounters), a counting user (thread
 * profiling), or nobody.  Before kprofile uses counter i it reserves it
 * from Linux with reserve_perfctr_nmi()/reserve_evntsel_nmi(), the
 * arbitration perf and the NMI watchdog also use; when that fails, perf
 * holds the counter (KP_HOLDER_PERF in queries).
 *
 * Locking
 * -------
 * @lock (a mutex) protects the counter slots and the consumer list's
 * writers; it is taken after cpus_read_lock() where both are held, and
 * after a profile's own lock (kprofile.h's order).  The per-CPU state is
 * written only on its own CPU with interrupts off (IPIs, the NMI) or while
 * the CPU is being brought up or down; the NMI path reads it with
 * READ_ONCE() and takes no lock.  The overflow consumer list is RCU.
 * The whole lock order, and the contexts: locking.h.
 */
#ifndef _KPROFILE_PMU_H
#define _KPROFILE_PMU_H

#include <linux/cpumask.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/types.h>
#include <uapi/linux/kprofile.h>

#include "detect.h"
#include "hw.h"
#include "sources.h"

struct pid;
struct pt_regs;
struct kp_pmu;

/**
 * struct kp_pmu_ops - one profile interface, as HalpProfileInterface.
 * @name:	"Emon" or "Amd64".
 * @initialize: InitializeProfiling, on the calling CPU: the LVTPC entry
 *		delivers NMI.
 * @enable_monitoring: EnableMonitoring, on the calling CPU: write the event
 *		select of counter @idx (@select has EN, and INT when
 *		sampling), then enable it in the global control when the
 *		interface has one.
 * @disable_monitoring: DisableMonitoring, on the calling CPU: take counter
 *		@idx out of the global control, clear EN and INT in its
 *		event select, and acknowledge a pending overflow of it.
 * @set_interval: SetInterval, on the calling CPU: load counter @idx with
 *		(-@interval) & mask (see kp_pmu_period()).
 * @check_overflow: CheckOverflowStatus, on the calling CPU, in NMI
 *		context: which of the counters in @armed (kprofile's, known
 *		to be enabled with INT) and @claimed (reserved counters
 *		whose overflows kprofile takes; only those whose select has
 *		INT count) overflowed.  An armed counter overflowed when its
 *		status bit is set *or* its top bit is clear (it is always
 *		loaded with the top bit set), so another NMI handler that
 *		acknowledged the status first (perf's, with Intel PT) does
 *		not hide it.
 * @ack_overflow: acknowledge the overflows in @mask (global status
 *		interfaces; nothing for top-bit ones).
 * @query:	QueryInformation: HalProfileSourceInformation for @source.
 * @global_status: the interface reports overflows in a global status
 *		register (Intel v2+, AMD PerfMonV2): the handler unmasks the
 *		LVTPC after acknowledging; without one (top bit), first.
 * @late_pmi:	PMIs may arrive after their overflow was handled (AMD):
 *		the handler claims unknown NMIs for a while after handling
 *		an overflow or disabling an overflowed counter (perf's
 *		amd_pmu_adjust_nmi_window()).
 *
 * Every operation but @query runs on one CPU with interrupts off or in
 * NMI context: no locks, no allocation, no sleeping.
 */
struct kp_pmu_ops {
	const char *name;
	void (*initialize)(struct kp_pmu *pmu);
	void (*enable_monitoring)(struct kp_pmu *pmu, unsigned int idx,
				  u64 select);
	void (*disable_monitoring)(struct kp_pmu *pmu, unsigned int idx);
	void (*set_interval)(struct kp_pmu *pmu, unsigned int idx,
			     u32 interval);
	u64 (*check_overflow)(struct kp_pmu *pmu, u64 armed, u64 claimed);
	void (*ack_overflow)(struct kp_pmu *pmu, u64 mask);
	int (*query)(struct kp_pmu *pmu, u32 source,
		     struct kprofile_source_info *info);
	bool (*global_status)(const struct kp_pmu *pmu);
	bool late_pmi;
};

extern const struct kp_pmu_ops kp_pmu_emon_ops;
extern const struct kp_pmu_ops kp_pmu_amd64_ops;

/**
 * struct kp_pmu_arbiter - Linux's counter arbitration, behind a pointer so
 *	a test can play "perf holds the PMU".
 * @reserve: reserve counter @idx and its event select
 *	     (reserve_perfctr_nmi() and reserve_evntsel_nmi()); true on
 *	     success, false when someone (perf) holds either.
 * @release: release both.
 *
 * Both are atomic bit operations: callable in any context.
 */
struct kp_pmu_arbiter {
	bool (*reserve)(struct kp_pmu *pmu, unsigned int idx);
	void (*release)(struct kp_pmu *pmu, unsigned int idx);
};

extern const struct kp_pmu_arbiter kp_pmu_arbiter_nmi;

/**
 * enum kp_holder - who holds a counter.
 * @KP_HOLDER_FREE:	nobody; kprofile may take it.
 * @KP_HOLDER_SOURCE:	a kprofile source armed for sampling.
 * @KP_HOLDER_RESERVED: a reservation (HalAllocateHardwareCounters).
 * @KP_HOLDER_COUNTING: a counting user without interrupts (thread
 *			profiling).
 * @KP_HOLDER_PERF:	Linux perf (the NMI watchdog, or perf events):
 *			reserve_perfctr_nmi() refuses it.
 */
enum kp_holder {
	KP_HOLDER_FREE = 0,
	KP_HOLDER_SOURCE,
	KP_HOLDER_RESERVED,
	KP_HOLDER_COUNTING,
	KP_HOLDER_PERF,
};

/**
 * struct kp_counter_holder - the answer of kp_pmu_holder().
 * @kind:   enum kp_holder.
 * @source: the source (SOURCE, COUNTING).
 * @mode:   its mode (SOURCE, COUNTING).
 * @users:  arm count (SOURCE).
 * @owner:  who (RESERVED, COUNTING): a short description.
 */
struct kp_counter_holder {
	enum kp_holder kind;
	u32 source;
	enum kprofile_mode mode;
	unsigned int users;
	char owner[32];
};

/**
 * typedef kp_claim_fn - an overflow handler of reserved counters.
 * @data: the registrant's pointer.
 * @mask: the reserved counters that overflowed on this CPU.
 * @regs: the interrupted registers.
 *
 * Called in NMI context: no locks, no allocation, no sleeping.
 */
typedef void (*kp_claim_fn)(void *data, u64 mask, struct pt_regs *regs);

/**
 * struct kp_claim - overflows of reserved counters that kprofile takes
 *	(an Overflow resource descriptor).
 * @fn:	       called for each overflow, or NULL to only count them.
 * @data:      passed to @fn.
 * @overflows: overflows seen.
 * @rcu:       for freeing after the NMI path let go.
 */
struct kp_claim {
	kp_claim_fn fn;
	void *data;
	atomic64_t overflows;
	struct rcu_head rcu;
};

/**
 * struct kp_counter - a counter slot (private to the hardware layer's
 *	files; described here so the structure's size is known).
 *	Protected by kp_pmu.lock.
 * @kind:     enum kp_holder (never KP_HOLDER_PERF: such a slot is FREE).
 * @source:   SOURCE, COUNTING: the source.
 * @mode:     SOURCE, COUNTING: the mode.
 * @users:    SOURCE: kp_pmu_arm() calls not yet disarmed.
 * @select:   SOURCE, COUNTING: the event select with EN (and INT for
 *	      SOURCE) and the mode's USR/OS bits.
 * @all_cpus: SOURCE: armed on every online CPU, and on CPUs that come
 *	      online later.
 * @cpus:     SOURCE without @all_cpus: the CPUs it is armed on.
 * @claim:    RESERVED: overflow claim, or NULL (read by the NMI path
 *	      under RCU).
 * @owner:    RESERVED, COUNTING: who, for messages.
 * @owner_pid: RESERVED by a process: it (a reference), so that messages
 *	      give its id in the pid namespace of whoever reads them.
 */
struct kp_counter {
	enum kp_holder kind;
	u32 source;
	enum kprofile_mode mode;
	unsigned int users;
	u64 select;
	bool all_cpus;
	cpumask_var_t cpus;
	struct kp_claim __rcu *claim;
	char owner[32];
	struct pid *owner_pid;
};

/**
 * struct kp_pmu_cpu - one CPU's hardware-layer state.  Written on its own
 *	CPU only (IPI, NMI, hotplug callback, resume), read by the NMI path.
 * @armed:	   counters sampling here (the NMI path checks these).
 * @counting:	   counters counting here (no interrupt).
 * @source:	   the source of each armed or counting counter.
 * @select:	   the event select each armed or counting counter has.
 * @delivering:	   while the NMI path hands an overflow to the consumers:
 *		   1 + the enum kprofile_mode its counter counts in
 *		   (kp_pmu_delivering()); 0 otherwise.
 * @nmi_until:	   late-PMI interfaces: unknown NMIs until this jiffy are
 *		   claimed as kprofile's (written on this CPU only, with
 *		   interrupts off or in the NMI).
 * @checked:	   kp_pmu_cpu_check() ran here: @present and @ebx_unavail
 *		   are this CPU's (F7, pmu_hybrid.c).
 * @present:	   the counters this CPU has (CPUID 0xA / 0x23 here).
 * @ebx_unavail:   Emon events this CPU lacks (CPUID.0AH:EBX here).
 *
 * Nothing of what kprofile found on the CPU is saved: teardown touches
 * only the counters kprofile programmed (see pmu_cpu.c).
 */
struct kp_pmu_cpu {
	u64 armed;
	u64 counting;
	u32 source[KPROFILE_MAX_COUNTERS];
	u64 select[KPROFILE_MAX_COUNTERS];
	u8 delivering;
	unsigned long nmi_until;
	bool checked;
	u64 present;
	u32 ebx_unavail;
};

/**
 * struct kp_overflow_consumer - someone who wants counter overflows of
 *	armed sources (profile objects, the exported callback API).
 * @overflow: called in NMI context on the CPU that overflowed, with the
 *	      source and the interrupted registers: no locks, no
 *	      allocation, no sleeping.
 * @node:     on kp_pmu.consumers (RCU).
 */
struct kp_overflow_consumer {
	void (*overflow)(struct kp_overflow_consumer *c, u32 source,
			 struct pt_regs *regs);
	struct list_head node;
};

/**
 * struct kp_pmu - the hardware layer of one (real or fake) machine.
 * @hw:		  the processor seam.
 * @desc:	  the detected interface (not owned, read-only).
 * @sources:	  the source model (not owned; intervals read lock-free).
 * @ops:	  the interface's ops, or NULL for KPROFILE_INTERFACE_NONE.
 * @arbiter:	  counter arbitration with perf (kp_pmu_arbiter_nmi, or a
 *		  test's).
 * @counter_mask: (1 << counter width) - 1.
 * @max_period:	  largest period: the top bit must be set after a reload
 *		  (2^31 - 1 on Emon: legacy writes are 32 bits, sign-extended).
 * @write_base:	  MSR of counter 0 for writes: IA32_A_PMC0 when
 *		  IA32_PERF_CAPABILITIES.FW_WRITE says full-width writes
 *		  work, else @desc->counter_base.
 * @nmi_window:	  late-PMI interfaces: how long (jiffies) after an overflow
 *		  or a disable unknown NMIs are claimed.
 * @shut_down:	  the machine is rebooting or kexec'ing: nothing is
 *		  programmed any more (kp_pmu_shutdown()).
 * @lock:	  protects @counters, @perf_refused and writers of @consumers.
 * @counters:	  the counter slots.
 * @perf_refused: counters Linux's arbitration refused at the last attempt
 *		  to take them (reported as perf's; never probed).
 * @claimed:	  counters whose overflows reservations claim; read by the
 *		  NMI path (READ_ONCE).
 * @consumers:	  struct kp_overflow_consumer list (RCU).
 * @cpu:	  per-CPU state.
 * @hp_node:	  instance of the CPU hotplug state (kp_pmu_hotplug_add()).
 */
struct kp_pmu {
	const struct kp_hw *hw;
	const struct kp_pmu_desc *desc;
	const struct kp_sources *sources;
	const struct kp_pmu_ops *ops;
	const struct kp_pmu_arbiter *arbiter;
	u64 counter_mask;
	u64 max_period;
	u32 write_base;
	unsigned long nmi_window;
	bool shut_down;
	struct mutex lock;	/* @counters, @perf_refused, @consumers writers */
	struct kp_counter counters[KPROFILE_MAX_COUNTERS];
	u64 perf_refused;
	u64 claimed;
	struct list_head consumers;
	struct kp_pmu_cpu __percpu *cpu;
	struct hlist_node hp_node;
};

/* pmu.c: setup, arming. */
int kp_pmu_setup(struct kp_pmu *pmu, const struct kp_hw *hw,
		 const struct kp_pmu_desc *desc,
		 const struct kp_sources *sources);
void kp_pmu_teardown(struct kp_pmu *pmu);
u64 kp_pmu_period(const struct kp_pmu *pmu, u32 interval);
u64 kp_pmu_select(const struct kp_pmu *pmu, u32 source,
		  enum kprofile_mode mode, bool sampling);
int kp_pmu_arm(struct kp_pmu *pmu, u32 source, enum kprofile_mode mode,
	       const struct cpumask *cpus, char *reason, size_t len);
void kp_pmu_disarm(struct kp_pmu *pmu, u32 source, enum kprofile_mode mode);
void kp_pmu_program_cpu(struct kp_pmu *pmu, unsigned int idx, u32 source,
			u64 select);
int kp_pmu_find_armed(struct kp_pmu *pmu, u32 source,
		      enum kprofile_mode mode);

/* pmu_owner.c: the counter slots and their holders. */
int kp_pmu_alloc_counter(struct kp_pmu *pmu, u64 allowed);
void kp_pmu_free_counter(struct kp_pmu *pmu, unsigned int idx);
void kp_pmu_stop_everywhere(struct kp_pmu *pmu, unsigned int idx);
void kp_pmu_holder(struct kp_pmu *pmu, unsigned int idx,
		   struct kp_counter_holder *h);
void kp_pmu_holder_locked(struct kp_pmu *pmu, unsigned int idx,
			  struct kp_counter_holder *h);
void kp_pmu_busy_reason(struct kp_pmu *pmu, char *reason, size_t len);
void kp_pmu_busy_reason_locked(struct kp_pmu *pmu, char *reason, size_t len);
void kp_pmu_set_owner_pid(struct kp_pmu *pmu, u64 mask, struct pid *pid);
int kp_pmu_hold(struct kp_pmu *pmu, u64 mask, const char *owner,
		struct kp_claim *claim, char *reason, size_t len);
void kp_pmu_unhold(struct kp_pmu *pmu, u64 mask);

/* pmu_counting.c: counting counters (thread profiling). */
int kp_pmu_claim_counting(struct kp_pmu *pmu, u32 source,
			  enum kprofile_mode mode, const char *owner,
			  u32 *idx);
void kp_pmu_release_counting(struct kp_pmu *pmu, u32 idx);
void kp_pmu_start_counting(struct kp_pmu *pmu, u32 idx);
void kp_pmu_stop_counting(struct kp_pmu *pmu, u32 idx);
u64 kp_pmu_read_counter(struct kp_pmu *pmu, u32 idx);
void kp_pmu_write_counter(struct kp_pmu *pmu, u32 idx, u64 val);

/* pmu_schedule.c: which sources can run together. */
int kp_pmu_schedule(struct kp_pmu *pmu, struct kprofile_schedule *s);

/* pmu_reserve.c: HalAllocateHardwareCounters. */
struct kprofile_reservation;
int kp_reserve(struct kp_pmu *pmu, const struct kprofile_counter_desc *descs,
	       u32 nr, const struct cpumask *cpus, kp_claim_fn fn, void *data,
	       const char *owner, struct kprofile_reservation **out,
	       char *reason, size_t len);
u64 kp_reserve_mask(const struct kprofile_reservation *r);
void kp_unreserve(struct kprofile_reservation *r);

/* pmu_cpu.c: per-CPU bring-up and take-down, hotplug, suspend/resume. */
void kp_pmu_cpu_up(struct kp_pmu *pmu);
void kp_pmu_cpu_down(struct kp_pmu *pmu);
void kp_pmu_resume_cpu(struct kp_pmu *pmu);
void kp_pmu_shutdown(struct kp_pmu *pmu);
int kp_pmu_hotplug_add(struct kp_pmu *pmu);
void kp_pmu_hotplug_remove(struct kp_pmu *pmu);
int kp_pmu_init(struct kp_pmu *pmu, const struct kp_hw *hw,
		const struct kp_pmu_desc *desc,
		const struct kp_sources *sources);
void kp_pmu_exit(struct kp_pmu *pmu);

/* pmu.c helpers shared inside the hardware layer. */
u64 kp_pmu_topbit_overflow(struct kp_pmu *pmu, u64 armed, u64 claimed);
u64 kp_pmu_claimed_int(struct kp_pmu *pmu, u64 claimed);
void kp_pmu_global_rmw(struct kp_pmu *pmu, u32 msr, u64 set, u64 clear);
int kp_pmu_check_source(struct kp_pmu *pmu, u32 source,
			enum kprofile_mode mode, char *reason, size_t len);

/*
 * pmu_hybrid.c: counters and events that differ per CPU (docs/hardware.md
 * F7).
 */
void kp_pmu_cpu_check(struct kp_pmu *pmu);
int kp_pmu_cpus_allow(struct kp_pmu *pmu, const struct cpumask *cpus,
		      u32 source, u64 *allowed, int *short_cpu, char *reason,
		      size_t len);
u64 kp_pmu_usable_counters(const struct kp_pmu *pmu);
u64 kp_pmu_usable_counters_desc(const struct kp_pmu *pmu);

/* pmu_busy.c: can the counters be used now (KPROFILE_IOC_INFO_EX)? */
void kp_pmu_state(struct kp_pmu *pmu, struct kprofile_info_ex *x);

/* pmu_nmi.c: the overflow path. */
int kp_pmu_handle_overflow(struct kp_pmu *pmu, struct pt_regs *regs);
u8 kp_pmu_delivering(struct kp_pmu *pmu);
void kp_pmu_nmi_window_open(struct kp_pmu *pmu);
void kp_pmu_add_consumer(struct kp_pmu *pmu, struct kp_overflow_consumer *c);
void kp_pmu_remove_consumer(struct kp_pmu *pmu,
			    struct kp_overflow_consumer *c);
int kp_nmi_register(struct kp_pmu *pmu);
void kp_nmi_unregister(struct kp_pmu *pmu);

#endif /* _KPROFILE_PMU_H */

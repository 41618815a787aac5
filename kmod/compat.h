/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - every kernel-version difference kprofile cares about, in one
 * place.  Nothing else in kmod/ or kunit/ tests LINUX_VERSION_CODE.
 */
#ifndef _KPROFILE_COMPAT_H
#define _KPROFILE_COMPAT_H

#include <linux/version.h>
#include <linux/module.h>

/*
 * EXPORT_SYMBOL_NS_GPL() took a bare identifier until 6.13 and a string
 * literal since.  kprofile exports its internals to the KUnit module in
 * the KPROFILE_INTERNAL namespace, only in test builds.
 */
#if KERNEL_VERSION(6, 13, 0) <= LINUX_VERSION_CODE
#define KP_NS_INTERNAL "KPROFILE_INTERNAL"
#define KP_IMPORT_INTERNAL() MODULE_IMPORT_NS("KPROFILE_INTERNAL")
#else
#define KP_NS_INTERNAL KPROFILE_INTERNAL
#define KP_IMPORT_INTERNAL() MODULE_IMPORT_NS(KPROFILE_INTERNAL)
#endif

#ifdef KPROFILE_EXPORT_INTERNALS
#define EXPORT_SYMBOL_IF_KP_TEST(sym) EXPORT_SYMBOL_NS_GPL(sym, KP_NS_INTERNAL)
#else
#define EXPORT_SYMBOL_IF_KP_TEST(sym)
#endif

/*
 * MSR accessors: rdmsrl_safe()/wrmsrl_safe() became rdmsrq_safe()/
 * wrmsrq_safe() in 6.16.
 */
#include <asm/msr.h>
#if KERNEL_VERSION(6, 16, 0) <= LINUX_VERSION_CODE
#define kp_compat_rdmsr_safe(msr, p)	rdmsrq_safe(msr, p)
#define kp_compat_wrmsr_safe(msr, v)	wrmsrq_safe(msr, v)
#else
#define kp_compat_rdmsr_safe(msr, p)	rdmsrl_safe(msr, p)
#define kp_compat_wrmsr_safe(msr, v)	wrmsrl_safe(msr, v)
#endif

/*
 * perf's verdict on the PMU (detection, F1): perf_get_x86_pmu_capability()
 * is exported since 3.x; its struct has kept these fields.  It returns all
 * zeros when perf initialised no PMU (and WARNs on hybrid parts: callers
 * must not ask there).
 */
#include <asm/perf_event.h>
static inline void kp_compat_perf_caps(u32 *version, u32 *counters,
				       u32 *width)
{
	struct x86_pmu_capability cap;

	perf_get_x86_pmu_capability(&cap);
	*version = cap.version > 0 ? cap.version : 0;
	*counters = cap.num_counters_gp > 0 ? cap.num_counters_gp : 0;
	*width = cap.bit_width_gp > 0 ? cap.bit_width_gp : 0;
}

/*
 * CPU feature bits detection asks about that older kernels lack
 * (PERFMON_V2 since 6.0, HYBRID_CPU and RTM_ALWAYS_ABORT since 5.13):
 * there the answer is "no", as the kernel itself would not know them.
 */
#include <asm/cpufeature.h>
#ifdef X86_FEATURE_PERFMON_V2
#define kp_compat_has_perfmon_v2()	boot_cpu_has(X86_FEATURE_PERFMON_V2)
#else
#define kp_compat_has_perfmon_v2()	false
#endif
#ifdef X86_FEATURE_HYBRID_CPU
#define kp_compat_has_hybrid_cpu()	boot_cpu_has(X86_FEATURE_HYBRID_CPU)
#else
#define kp_compat_has_hybrid_cpu()	false
#endif
#ifdef X86_FEATURE_RTM_ALWAYS_ABORT
#define kp_compat_has_rtm_always_abort() \
	boot_cpu_has(X86_FEATURE_RTM_ALWAYS_ABORT)
#else
#define kp_compat_has_rtm_always_abort() false
#endif

/*
 * The local APIC's LVTPC entry.  Up to 6.5 apic_write() goes through the
 * exported struct apic; since 6.6 it is a static call that modules cannot
 * use.  There, write the register directly: MSR 0x834 in x2APIC mode, the
 * memory-mapped page otherwise.  Both are what the APIC drivers do.
 */
#include <asm/apic.h>
#if KERNEL_VERSION(6, 6, 0) <= LINUX_VERSION_CODE
static inline void kp_compat_lvtpc_write(u32 val)
{
	if (x2apic_enabled())
		native_apic_msr_write(APIC_LVTPC, val);
	else
		native_apic_mem_write(APIC_LVTPC, val);
}
#else
static inline void kp_compat_lvtpc_write(u32 val)
{
	apic_write(APIC_LVTPC, val);
}
#endif

/*
 * The sched_switch tracepoint (thread profiling) gained prev_state in
 * 5.18.  KP_SCHED_SWITCH_PROBE(fn) declares a probe with the running
 * kernel's arguments: data, preempt, prev, next.
 */
struct task_struct;
#if KERNEL_VERSION(5, 18, 0) <= LINUX_VERSION_CODE
#define KP_SCHED_SWITCH_PROBE(fn)					\
	void fn(void *data, bool preempt, struct task_struct *prev,	\
		struct task_struct *next, unsigned int prev_state)
#else
#define KP_SCHED_SWITCH_PROBE(fn)					\
	void fn(void *data, bool preempt, struct task_struct *prev,	\
		struct task_struct *next)
#endif

/*
 * hrtimer_setup() replaced hrtimer_init() plus a ->function assignment in
 * 6.13 (hrtimer_init() is gone since 6.15).
 */
#include <linux/hrtimer.h>
#if KERNEL_VERSION(6, 13, 0) <= LINUX_VERSION_CODE
#define kp_compat_hrtimer_setup(t, fn, clock, mode) \
	hrtimer_setup(t, fn, clock, mode)
#else
static inline void
kp_compat_hrtimer_setup(struct hrtimer *t,
			enum hrtimer_restart (*fn)(struct hrtimer *),
			clockid_t clock, enum hrtimer_mode mode)
{
	hrtimer_init(t, clock, mode);
	t->function = fn;
}
#endif

#endif /* _KPROFILE_COMPAT_H */

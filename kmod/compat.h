/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - every kernel-version difference kprofile cares about, in one
 * place, fed by compat.mk (what a version number cannot answer).  Nothing
 * else in kmod/ or kunit/ tests LINUX_VERSION_CODE.
 *
 * The rest of the module calls the upstream API by its upstream name:
 * where an older kernel lacks a function or macro, this file back-fills
 * that name (as WireGuard's compat/compat.h does), so dropping a kernel
 * means deleting a block here.  A private kp_compat_ or KP_ name remains
 * only where the upstream interface differs between kernels (a
 * signature, a structure, an export) or has no name to back-fill.
 */
#ifndef _KPROFILE_COMPAT_H
#define _KPROFILE_COMPAT_H

#include <linux/version.h>
#include <linux/module.h>

/*
 * Internals the KUnit suites call: EXPORT_SYMBOL_IF_KUNIT() exports a
 * symbol into the EXPORTED_FOR_KUNIT_TESTING namespace when the kernel
 * has CONFIG_KUNIT, and not at all otherwise.  <kunit/visibility.h> came
 * in 6.2 (9c988fae6f6a, "kunit: add macro to allow conditionally
 * exposing static symbols to tests") and was backported to 6.1.y (Debian
 * 12's 6.1 has it), so kmod/compat.mk asks for the header and defines
 * KP_HAVE_KUNIT_VISIBILITY_H; without it, back-fill the macro as 6.2 has
 * it.
 *
 * MODULE_IMPORT_NS() took a bare identifier until 6.13 and a string
 * literal since (cdd30ebb1b9f, "module: Convert symbol namespace to string
 * literal", which also made the namespace above a string): the KUnit
 * module imports the namespace with KP_IMPORT_KUNIT_NS().
 */
#ifdef KP_HAVE_KUNIT_VISIBILITY_H
#include <kunit/visibility.h>
#elif IS_ENABLED(CONFIG_KUNIT)
#define EXPORT_SYMBOL_IF_KUNIT(symbol) EXPORT_SYMBOL_NS(symbol, EXPORTED_FOR_KUNIT_TESTING)
#define VISIBLE_IF_KUNIT
#else
#define EXPORT_SYMBOL_IF_KUNIT(symbol)
#define VISIBLE_IF_KUNIT static
#endif

#if KERNEL_VERSION(6, 13, 0) <= LINUX_VERSION_CODE
#define KP_IMPORT_KUNIT_NS() MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING")
#else
#define KP_IMPORT_KUNIT_NS() MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING)
#endif

/*
 * rdmsrq_safe() and wrmsrq_safe(): before 6.16, rdmsrl_safe() and
 * wrmsrl_safe() (6fe22abacd40, "x86/msr: Rename 'rdmsrl_safe()' to
 * 'rdmsrq_safe()'", and 6fa17efe4544, "x86/msr: Rename 'wrmsrl_safe()'
 * to 'wrmsrq_safe()'").
 */
#include <asm/msr.h>
#if KERNEL_VERSION(6, 16, 0) > LINUX_VERSION_CODE
#define rdmsrq_safe(msr, p)	rdmsrl_safe(msr, p)
#define wrmsrq_safe(msr, val)	wrmsrl_safe(msr, val)
#endif

/*
 * perf's verdict on the PMU (detection, docs/hardware.md F1).
 * kp_compat_perf_caps() returns false when it cannot tell (then detection reads
 * the MSRs instead).
 *
 * perf_get_x86_pmu_capability() answers with perf's PMU version, counters
 * and width; it returns all zeros when perf initialised no PMU (and WARNs
 * on hybrid parts: callers must not ask there).  Since 6.19 it is exported
 * to KVM's modules only (6276c67f2bc4, "x86: Restrict KVM-induced symbol
 * exports to KVM modules where obvious/possible": EXPORT_SYMBOL_FOR_KVM,
 * "module:kvm,..." in Module.symvers), and not at all without KVM;
 * compat.mk defines KP_NO_PERF_CAPS_EXPORT then.  There,
 * ask perf whether it can create a hardware event at all: the "cpu" PMU
 * (PERF_TYPE_RAW) exists only when perf's hardware check passed at boot,
 * and -ENOENT means no PMU took the event.  The event is created disabled
 * for the calling task and released at once: it is never scheduled, so
 * no counter is written.  Process context only.
 */
#include <asm/perf_event.h>
#ifndef KP_NO_PERF_CAPS_EXPORT
static inline bool kp_compat_perf_caps(u32 *version, u32 *counters,
				       u32 *width)
{
	struct x86_pmu_capability cap;

	perf_get_x86_pmu_capability(&cap);
	*version = cap.version > 0 ? cap.version : 0;
	*counters = cap.num_counters_gp > 0 ? cap.num_counters_gp : 0;
	*width = cap.bit_width_gp > 0 ? cap.bit_width_gp : 0;
	return true;
}
#else
#include <linux/perf_event.h>
#include <linux/err.h>
#include <linux/sched.h>
static inline bool kp_compat_perf_caps(u32 *version, u32 *counters,
				       u32 *width)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_RAW,
		.size = sizeof(attr),
		.disabled = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	struct perf_event *ev;

	*version = 0;
	*width = 0;
	ev = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	if (!IS_ERR(ev)) {
		perf_event_release_kernel(ev);
		*counters = 1;	/* at least: perf does not say how many */
		return true;
	}
	*counters = 0;
	return PTR_ERR(ev) == -ENOENT;
}
#endif

/*
 * CPU feature bits detection asks about that older kernels lack: there
 * the answer is "no", as the kernel itself would not know them (no
 * upstream name to back-fill: a bit the kernel does not know, it never
 * sets).
 * HYBRID_CPU since 5.13 (a161545ab53b, "x86/cpufeatures: Enumerate Intel
 * Hybrid Technology feature bit"), RTM_ALWAYS_ABORT since 5.14
 * (1348924ba816, "x86/msr: Define new bits in TSX_FORCE_ABORT MSR"),
 * PERFMON_V2 since 5.19 (d6d0c7f681fd, "x86/cpufeatures: Add PerfMonV2
 * feature bit").
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
 * exported struct apic; since 6.6 (f8542a55499a, "x86/apic: Turn on static
 * calls") it is a static call that modules cannot use.  There, write the
 * register directly: MSR 0x834 in x2APIC mode, the memory-mapped page
 * otherwise.  Both are what the APIC drivers do.
 * native_apic_msr_write() exists only with CONFIG_X86_X2APIC (distribution
 * kernels have it; a tinyconfig kernel may not, and then x2APIC mode is
 * never on).  The mode comes from the exported x2apic_mode, set once at
 * boot: x2apic_enabled() would read MSR_IA32_APICBASE on every PMI (a VM
 * exit under a hypervisor).  This bypasses APIC drivers that are not the
 * native ones (Xen PV, UV); kprofile does not support those.
 */
#include <asm/apic.h>
#if KERNEL_VERSION(6, 6, 0) <= LINUX_VERSION_CODE
static inline void kp_compat_lvtpc_write(u32 val)
{
#ifdef CONFIG_X86_X2APIC
	if (x2apic_mode) {
		native_apic_msr_write(APIC_LVTPC, val);
		return;
	}
#endif
	native_apic_mem_write(APIC_LVTPC, val);
}
#else
static inline void kp_compat_lvtpc_write(u32 val)
{
	apic_write(APIC_LVTPC, val);
}
#endif

/*
 * The sched_switch tracepoint (sched_hooks.h) gained prev_state in
 * 5.18 (fa2c3254d7cf, "sched/tracing: Don't re-read p->state when emitting
 * sched_switch event").  KP_SCHED_SWITCH_PROBE(fn) declares a probe with
 * the running kernel's arguments: data, preempt, prev, next.
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
 * hrtimer_setup(): since 6.13 (908a1d775422, "hrtimer: Introduce
 * hrtimer_setup() to replace hrtimer_init()"; hrtimer_init() is gone
 * since 6.15).  Before, hrtimer_init() and a ->function assignment.
 * Timer changes reach stable trees with their users, so kmod/compat.mk
 * asks the header and defines KP_HAVE_HRTIMER_SETUP.
 */
#include <linux/hrtimer.h>
#ifndef KP_HAVE_HRTIMER_SETUP
static inline void hrtimer_setup(struct hrtimer *timer,
				 enum hrtimer_restart (*function)(struct hrtimer *),
				 clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
}
#endif

/*
 * perfmon_capable() (CAP_PERFMON or CAP_SYS_ADMIN): since 5.8
 * (980737282232, "capabilities: introduce CAP_PERFMON to kernel and user
 * space"); before, perf's privileged operations needed CAP_SYS_ADMIN.
 * Machine-wide changes and privileged profiles use it.
 */
#include <linux/capability.h>
#if KERNEL_VERSION(5, 8, 0) > LINUX_VERSION_CODE
static inline bool perfmon_capable(void)
{
	return capable(CAP_SYS_ADMIN);
}
#endif

/*
 * file_open_root_mnt(), opening a path below a mount's root: since 5.14,
 * when file_open_root() took a struct path (ffb37ca3bd16, "switch
 * file_open_root() to struct path", which added file_open_root_mnt());
 * before, file_open_root(dentry, mnt, ...).
 */
#include <linux/fs.h>
#include <linux/mount.h>
#if KERNEL_VERSION(5, 14, 0) > LINUX_VERSION_CODE
static inline struct file *file_open_root_mnt(struct vfsmount *mnt,
					      const char *name, int flags,
					      umode_t mode)
{
	return file_open_root(mnt->mnt_root, mnt, name, flags, mode);
}
#endif

/*
 * The sched_process_exit tracepoint gained group_dead in 6.16
 * (3e816361e94a, "sched/tracepoints: Move and extend the
 * sched_process_exit() tracepoint").  Probes are registered through a
 * void pointer, so a stale prototype compiles, and works only by the
 * calling convention (kCFI traps on it).  KP_SCHED_EXIT_PROBE(fn)
 * declares a probe with the running kernel's arguments: data, task.
 */
#if KERNEL_VERSION(6, 16, 0) <= LINUX_VERSION_CODE
#define KP_SCHED_EXIT_PROBE(fn)					\
	void fn(void *data, struct task_struct *task, bool group_dead)
#else
#define KP_SCHED_EXIT_PROBE(fn)					\
	void fn(void *data, struct task_struct *task)
#endif

/*
 * KP_SCHED_EXIT_GROUP_DEAD(task), inside a KP_SCHED_EXIT_PROBE(): whether
 * @task is the last thread of its process.  Since 6.16 (3e816361e94a)
 * the tracepoint says so; before, do_exit() fires it after its
 * atomic_dec_and_test(&tsk->signal->live), so the count says so (when
 * the last two threads exit at once, both may see 0: callers must
 * tolerate a second "last" thread).
 */
#if KERNEL_VERSION(6, 16, 0) <= LINUX_VERSION_CODE
#define KP_SCHED_EXIT_GROUP_DEAD(task)	((void)(task), group_dead)
#else
#define KP_SCHED_EXIT_GROUP_DEAD(task)	(!atomic_read(&(task)->signal->live))
#endif

/*
 * Syscore (suspend/resume, shutdown) callbacks take a context pointer and
 * are registered through struct syscore since 6.19 (a97fbc3ee3e2,
 * "syscore: Pass context data to callbacks"; register_syscore_ops() is
 * gone).  The change also reached 6.12.y (6.12.117 has it, 6.12.95 does
 * not), so kmod/compat.mk asks the header and defines KP_HAVE_STRUCT_SYSCORE.
 * KP_SYSCORE_RESUME(fn) and KP_SYSCORE_SHUTDOWN(fn) declare the
 * callbacks, KP_DEFINE_SYSCORE() the registration object,
 * kp_compat_{,un}register_syscore() take it.
 */
#include <linux/syscore_ops.h>
#if defined(KP_HAVE_STRUCT_SYSCORE) || KERNEL_VERSION(6, 19, 0) <= LINUX_VERSION_CODE
#define KP_SYSCORE_RESUME(fn)	void fn(void *data)
#define KP_SYSCORE_SHUTDOWN(fn)	void fn(void *data)
#define KP_DEFINE_SYSCORE(name, resume_fn, shutdown_fn)			\
	static const struct syscore_ops name##_ops = {			\
		.resume = resume_fn,					\
		.shutdown = shutdown_fn,				\
	};								\
	static struct syscore name = { .ops = &name##_ops }
#define kp_compat_register_syscore(s)	register_syscore(s)
#define kp_compat_unregister_syscore(s)	unregister_syscore(s)
#else
#define KP_SYSCORE_RESUME(fn)	void fn(void)
#define KP_SYSCORE_SHUTDOWN(fn)	void fn(void)
#define KP_DEFINE_SYSCORE(name, resume_fn, shutdown_fn)			\
	static struct syscore_ops name = {				\
		.resume = resume_fn,					\
		.shutdown = shutdown_fn,				\
	}
#define kp_compat_register_syscore(s)	register_syscore_ops(s)
#define kp_compat_unregister_syscore(s)	unregister_syscore_ops(s)
#endif

/*
 * CPUID: cpuid_count() came from <asm/processor.h> (defined there in 5.10,
 * through <asm/cpuid.h> in 6.12).  <asm/cpuid/api.h> appeared in 6.15
 * (adc574269bca, "x86/cpuid: Refactor <asm/cpuid.h>"); <asm/cpuid.h> went
 * in 6.18 (ed6c4b657bca, "x86/cpuid: Remove transitional <asm/cpuid.h>
 * header"), and Ahmed S. Darwish's "x86/cpu: <asm/processor.h>: Do not
 * include CPUID API header" (after 6.16; in 7.2, not in 6.12; its
 * mainline id is not in the archives we could search) left processor.h
 * with only <asm/cpuid/types.h>.  Test for the header, not a version:
 * kmod/compat.mk defines KP_HAVE_ASM_CPUID_API_H when the kernel has it
 * (sparse 0.6.4 cannot evaluate __has_include).
 */
#ifdef KP_HAVE_ASM_CPUID_API_H
#include <asm/cpuid/api.h>
#else
#include <asm/processor.h>
#endif

/*
 * fault_in_safe_writeable(), faulting a user buffer in writable without
 * writing it: since 5.16 (cdd591fc86e3, "iov_iter: Introduce
 * fault_in_iov_iter_writeable"), and backported with the filesystem
 * fixes that use it to some stable trees, so kmod/compat.mk asks the
 * header and defines KP_HAVE_FAULT_IN_SAFE_WRITEABLE.  Without it, do
 * what it does: fixup_user_fault() page by page under the mmap lock (both
 * exported).  fault_in_pages_writeable() is no substitute: it writes
 * zeros.  Return: the bytes not faulted in (0 on success), as upstream.
 */
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/uaccess.h>
#ifndef KP_HAVE_FAULT_IN_SAFE_WRITEABLE
#include <linux/sched.h>
static inline size_t fault_in_safe_writeable(const char __user *uaddr,
					     size_t size)
{
	unsigned long start = (unsigned long)uaddr, end, addr;
	struct mm_struct *mm = current->mm;
	bool unlocked = false;

	if (unlikely(size == 0))
		return 0;
	end = PAGE_ALIGN(start + size);
	if (end < start)
		end = 0;
	addr = start & PAGE_MASK;
	mmap_read_lock(mm);
	do {
		if (fixup_user_fault(mm, addr, FAULT_FLAG_WRITE, &unlocked))
			break;
		addr += PAGE_SIZE;
	} while (addr != end);
	mmap_read_unlock(mm);
	if (addr == end)
		return 0;
	return size - (max(addr, start) - start);
}
#endif

/*
 * Dumpability (ptrace's "dumpable" rule): up to 7.1 the mm's flags
 * (get_dumpable(mm) == SUID_DUMP_USER) and the mm's user namespace; in
 * 7.2 both moved to task->exec_state (b092062cb6d7, "exec: introduce
 * struct task_exec_state", and 6b1c66c9cca9, "exec_state: relocate
 * dumpable information": <linux/sched/exec_state.h>, merged for 7.2 from
 * the vfs tree's kernel-7.2.task_exec_state branch; 7.1 has
 * task->user_dumpable instead, below) and mm->user_ns is gone.  Its
 * accessors are not exported but the structure is public, so read it as
 * kernel/ptrace.c does.  kmod/compat.mk tests for the header and defines
 * KP_HAVE_EXEC_STATE_H (the header, not the version, so a tree with the
 * series backported works too).
 *
 * kp_compat_dumpable(task, mm): @mm is @task's, non-NULL; any context,
 * NMI included.  kp_compat_dump_ns(task, mm): the namespace whose
 * CAP_SYS_PTRACE overrides it; task_lock(@task) held.
 */
#include <linux/rcupdate.h>
#include <linux/sched.h>
#ifdef KP_HAVE_EXEC_STATE_H
#include <linux/sched/exec_state.h>
static inline bool kp_compat_dumpable(struct task_struct *task,
				      struct mm_struct *mm)
{
	const struct task_exec_state *es;
	bool owner;

	rcu_read_lock();
	es = rcu_dereference(task->exec_state);
	owner = READ_ONCE(es->dumpable) == TASK_DUMPABLE_OWNER;
	rcu_read_unlock();
	return owner;
}

static inline struct user_namespace *
kp_compat_dump_ns(struct task_struct *task, struct mm_struct *mm)
{
	const struct task_exec_state *es;

	/* task_exec_state_replace() runs under task_lock(). */
	es = rcu_dereference_protected(task->exec_state,
				       lockdep_is_held(&task->alloc_lock));
	return es->user_ns;
}

/* A task without an mm: its exec state says, as for any task. */
#define kp_compat_dumpable_nomm(task)	kp_compat_dumpable(task, NULL)
#define kp_compat_dump_ns_nomm(task)	kp_compat_dump_ns(task, NULL)
#else
#include <linux/sched/coredump.h>
static inline bool kp_compat_dumpable(struct task_struct *task,
				      struct mm_struct *mm)
{
	return get_dumpable(mm) == SUID_DUMP_USER;
}

static inline struct user_namespace *
kp_compat_dump_ns(struct task_struct *task, struct mm_struct *mm)
{
	return mm->user_ns;
}

/*
 * A task without an mm (a kernel thread, or past exit_mm()): since
 * task->user_dumpable, dumpable as that flag says, overridden by
 * CAP_SYS_PTRACE in the initial namespace (task_still_dumpable()); before,
 * the kernel counted such a task as dumpable.  The flag came in 7.1
 * (31e62c2ebbfd, "ptrace: slightly saner 'get_dumpable()' logic") and was
 * backported to stable trees at different points (6.18.31, 6.1.192 has
 * it, 5.10.255; 5.10.223 and early 6.1.y do not), so no version can tell:
 * kmod/compat.mk greps the tree's <linux/sched.h> and defines
 * KP_HAVE_USER_DUMPABLE.
 */
#ifdef KP_HAVE_USER_DUMPABLE
#define kp_compat_dumpable_nomm(task)	((bool)(task)->user_dumpable)
#else
#define kp_compat_dumpable_nomm(task)	true
#endif
#define kp_compat_dump_ns_nomm(task)	(&init_user_ns)
#endif

/*
 * Tracepoint probes ran with preemption off (an RCU read side) until 6.19;
 * since 7.0 (a46023d5616e, "tracing: Guard __DECLARE_TRACE() use of
 * __DO_TRACE_CALL() with SRCU-fast") they run preemptible wherever the
 * call site is (sched_process_fork, _exec, _exit).  No shim: every probe
 * takes the RCU read side and preemption-off section it needs itself,
 * which on older kernels nests harmlessly in the tracepoint's own; the
 * rule for the module's probes is written once, in sched_hooks.h ("Probe
 * contexts").
 */

/*
 * for_each_thread() under rcu_read_lock().  In 6.7 the macro gained a
 * lockdep condition (4de7b17fd05d, "sched: Assert for_each_thread() is
 * properly locked"), lockdep_is_held(&tasklist_lock), which with
 * CONFIG_PROVE_RCU_LIST references tasklist_lock, a symbol modules cannot
 * link against (modpost: "tasklist_lock" undefined).  Walk the same RCU
 * list without that condition: callers hold rcu_read_lock(), which
 * list_for_each_entry_rcu() checks by itself.
 */
#include <linux/rculist.h>
#include <linux/sched/signal.h>
#define kp_compat_for_each_thread_rcu(p, t)				\
	list_for_each_entry_rcu(t, &(p)->signal->thread_head, thread_node)

/*
 * Planted uses of an API the oldest or the newest kernel of the matrix
 * lacks, for testing/matrix/plant.sh only (never defined otherwise): the
 * build against that kernel must fail, which proves the matrix's build
 * lines catch such a use.  An undeclared function or identifier is a
 * compile error (-Werror=implicit-function-declaration is the kernel's
 * default), whatever modpost would say about an unexported symbol.
 *   510: X86_FEATURE_HYBRID_CPU, 5.13+ (a161545ab53b, above; used
 *	  directly, not through kp_compat_has_hybrid_cpu());
 *   702: no_llseek, gone in 6.12 (cb787f4ac0c2, "[tree-wide] finally
 *	  take no_llseek out").
 */
#if defined(KP_PLANT_MISSING_API) && KP_PLANT_MISSING_API == 510
static inline bool kp_plant_missing_api(void)
{
	return boot_cpu_has(X86_FEATURE_HYBRID_CPU);
}
#elif defined(KP_PLANT_MISSING_API) && KP_PLANT_MISSING_API == 702
static inline const void *kp_plant_missing_api(void)
{
	return (const void *)no_llseek;
}
#endif

#endif /* _KPROFILE_COMPAT_H */

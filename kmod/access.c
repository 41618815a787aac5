// SPDX-License-Identifier: GPL-2.0
/*
 * access.c - may the caller inspect another process?  perf_event_open()
 * allows a task event when the caller is perfmon_capable() or
 * ptrace_may_access(task, PTRACE_MODE_READ_REALCREDS) holds
 * (kernel/events/core.c, perf_check_permission()).  kprofile applies the
 * same rule to profiles of another process and to thread profiling.
 *
 * ptrace_may_access() is not exported to modules, and neither is
 * security_ptrace_access_check(), the LSM hook it ends with.  So the rule
 * is applied in two parts:
 *
 * 1. The kernel's rule is reproduced here (kp_access_thread_creds()):
 *    __ptrace_may_access() (the caller's real uid and gid equal the
 *    target's real, effective and saved ids, or CAP_SYS_PTRACE over the
 *    target's user namespace; then the target is dumpable, or
 *    CAP_SYS_PTRACE over its mm's user namespace, and a task without an
 *    mm is dumpable only as its user_dumpable says) and commoncap's
 *    cap_ptrace_access_check() (the same user namespace and the target's
 *    permitted capabilities a subset of the caller's, or CAP_SYS_PTRACE
 *    over the target's user namespace), which every kernel runs.
 *
 * 2. The LSMs' ptrace hooks (SELinux, AppArmor, Smack, Landlock, ...) are
 *    reached through an exported path that ends in ptrace_may_access():
 *    opening /proc/TID/maps runs mm_access(task, PTRACE_MODE_READ_FSCREDS)
 *    (fs/proc/task_mmu.c, proc_maps_open()).  The module mounts a private
 *    procfs instance at load (kern_mount(), so the caller's mount
 *    namespace and any hidepid= option do not matter) and opens TID/maps
 *    there with the caller's credentials, its filesystem ids set to its
 *    real ids (FSCREDS then checks the ids REALCREDS would).  The open
 *    reads nothing; it only asks the kernel.  One difference remains and
 *    is on the strict side: FSCREDS gives commoncap the caller's effective
 *    capabilities where REALCREDS gives the permitted ones.  Without such
 *    a mount (no procfs), access to another process is refused.
 *
 * Every thread of the target process is checked, since a profile covers
 * the whole thread group and threads may hold different credentials.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mount.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/proc_fs.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/user_namespace.h>

#include "access.h"
#include "compat.h"
#include "kprofile.h"

/* The private procfs instance, and the pid namespace it shows. */
static struct vfsmount *kp_proc_mnt;
static struct pid_namespace *kp_proc_ns;

/* Threads checked at most: a larger process is refused (-E2BIG). */
#define KP_ACCESS_MAX_THREADS	BIT(20)

/**
 * kp_access_init() - mount the private procfs instance the LSM check uses,
 *	and say what this kernel does not let the module check.
 *
 * A failure is not fatal: the module loads and refuses access to other
 * processes (it cannot ask the LSMs).  A kernel without
 * CONFIG_MMU_NOTIFIER cannot have a started profile's buffer watched
 * (profile_buf.c): that is reported here, once, at load.
 * Context: process (module init).
 *
 * Return: 0.
 */
int kp_access_init(void)
{
	struct file_system_type *fs = get_fs_type("proc");
	struct vfsmount *mnt;

	if (!IS_ENABLED(CONFIG_MMU_NOTIFIER))
		pr_warn(KP_NAME ": this kernel has no CONFIG_MMU_NOTIFIER: a profile buffer unmapped or replaced while its profile runs is not detected (no BUFFER_LOST; counts may go to pages the process no longer sees)\n");

	if (!fs) {
		pr_info(KP_NAME ": no procfs: profiles of other processes are refused\n");
		return 0;
	}
	mnt = kern_mount(fs);
	module_put(fs->owner);
	if (IS_ERR(mnt)) {
		pr_warn(KP_NAME ": mounting procfs failed (%ld): profiles of other processes are refused\n",
			PTR_ERR(mnt));
		return 0;
	}
	kp_proc_mnt = mnt;
	kp_proc_ns = proc_pid_ns(mnt->mnt_sb);
	return 0;
}

/**
 * kp_access_exit() - unmount the private procfs instance.
 */
void kp_access_exit(void)
{
	if (kp_proc_mnt)
		kern_unmount(kp_proc_mnt);
	kp_proc_mnt = NULL;
	kp_proc_ns = NULL;
}

/**
 * kp_access_thread_creds() - the credential, capability and dumpability
 *	parts of ptrace_may_access(@t, PTRACE_MODE_READ_REALCREDS).
 * @t: a thread of another process (a reference held).
 *
 * Return: 0 when allowed, -EACCES when not.
 */
int kp_access_thread_creds(struct task_struct *t)
{
	const struct cred *cred = current_cred(), *tcred;
	struct user_namespace *ns;
	bool ok;

	task_lock(t);
	rcu_read_lock();
	tcred = __task_cred(t);
	/* __ptrace_may_access(): the ids, or CAP_SYS_PTRACE. */
	ok = (uid_eq(cred->uid, tcred->euid) &&
	      uid_eq(cred->uid, tcred->suid) &&
	      uid_eq(cred->uid, tcred->uid) &&
	      gid_eq(cred->gid, tcred->egid) &&
	      gid_eq(cred->gid, tcred->sgid) &&
	      gid_eq(cred->gid, tcred->gid)) ||
	     ns_capable(tcred->user_ns, CAP_SYS_PTRACE);
	/* cap_ptrace_access_check(): no capability the caller lacks. */
	if (ok)
		ok = (cred->user_ns == tcred->user_ns &&
		      cap_issubset(tcred->cap_permitted, cred->cap_permitted)) ||
		     ns_capable(tcred->user_ns, CAP_SYS_PTRACE);
	rcu_read_unlock();
	/* Dumpability after the credentials (pairs with commit_creds()). */
	smp_rmb();
	if (ok && !kp_task_dumpable(t)) {
		ns = t->mm ? kp_compat_dump_ns(t, t->mm) :
			     kp_compat_dump_ns_nomm(t);
		ok = ns_capable(ns, CAP_SYS_PTRACE);
	}
	task_unlock(t);
	return ok ? 0 : -EACCES;
}
EXPORT_SYMBOL_IF_KUNIT(kp_access_thread_creds);

/*
 * The LSMs' verdict on @t: open TID/maps on the private procfs with the
 * caller's credentials, filesystem ids set to its real ids.  0 also for a
 * thread without an mm (nothing to ask about: it runs no user code) or
 * one that is gone.
 */
static int kp_access_thread_lsm(struct task_struct *t)
{
	const struct cred *old;
	char name[32];
	struct cred *c;
	struct file *f;
	pid_t nr;

	if (!kp_proc_mnt)
		return -EACCES;
	nr = task_pid_nr_ns(t, kp_proc_ns);
	if (!nr)
		return -EACCES;
	c = prepare_creds();
	if (!c)
		return -ENOMEM;
	c->fsuid = c->uid;
	c->fsgid = c->gid;
	old = override_creds(c);
	snprintf(name, sizeof(name), "%d/maps", nr);
	f = file_open_root_mnt(kp_proc_mnt, name, O_RDONLY, 0);
	revert_creds(old);
	put_cred(c);
	if (!IS_ERR(f)) {
		fput(f);
		return 0;
	}
	switch (PTR_ERR(f)) {
	case -ESRCH:		/* no mm */
	case -ENOENT:		/* gone */
		return 0;
	case -EPERM:
	case -EACCES:
		return -EACCES;
	default:
		return PTR_ERR(f);
	}
}

/* References to the threads of @task's group (at least @task itself). */
static int kp_access_threads(struct task_struct *task,
			     struct task_struct ***out, unsigned int *nr)
{
	unsigned int room = get_nr_threads(task) + 8, n;
	struct task_struct **v, *t;
	bool full;

	for (;;) {
		if (room > KP_ACCESS_MAX_THREADS)
			return -E2BIG;
		v = kvmalloc_array(room, sizeof(*v), GFP_KERNEL);
		if (!v)
			return -ENOMEM;
		n = 0;
		full = false;
		rcu_read_lock();
		kp_compat_for_each_thread_rcu(task, t) {
			if (n == room) {
				full = true;
				break;
			}
			get_task_struct(t);
			v[n++] = t;
		}
		rcu_read_unlock();
		if (!full)
			break;
		while (n)
			put_task_struct(v[--n]);
		kvfree(v);
		room *= 2;
	}
	if (!n) {
		get_task_struct(task);
		v[n++] = task;
	}
	*out = v;
	*nr = n;
	return 0;
}

/**
 * kp_may_access_task() - may the caller profile @task's process?
 * @task: any thread of it (a reference held).
 *
 * Its own process always.  Otherwise, as perf_event_open(): with
 * CAP_PERFMON (or CAP_SYS_ADMIN), or when ptrace_may_access(thread,
 * PTRACE_MODE_READ_REALCREDS) holds for every thread of the process (see
 * the file comment for how that is determined).
 * Context: process; sleeps.
 *
 * Return: 0; -EACCES; -ENOMEM, -EINTR (killed while the target execs),
 * -E2BIG (more than a million threads).
 */
int kp_may_access_task(struct task_struct *task)
{
	struct task_struct **threads;
	unsigned int n, i;
	int ret;

	if (same_thread_group(task, current) || perfmon_capable())
		return 0;
	ret = kp_access_threads(task, &threads, &n);
	if (ret)
		return ret;
	for (i = 0; i < n && !ret; i++) {
		ret = kp_access_thread_creds(threads[i]);
		if (!ret)
			ret = kp_access_thread_lsm(threads[i]);
	}
	for (i = 0; i < n; i++)
		put_task_struct(threads[i]);
	kvfree(threads);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(kp_may_access_task);

/* kernel.perf_event_paranoid when it cannot be read: upstream's default. */
#define KP_PARANOID_DEFAULT	2

/**
 * kp_perf_event_paranoid() - the kernel.perf_event_paranoid sysctl.
 *
 * sysctl_perf_event_paranoid is not exported; the value is read from
 * sys/kernel/perf_event_paranoid of the private procfs instance.
 * Context: process; sleeps.
 *
 * Return: its value, or KP_PARANOID_DEFAULT (2) when it cannot be read.
 */
int kp_perf_event_paranoid(void)
{
	char buf[16] = "";
	struct file *f;
	loff_t pos = 0;
	ssize_t n;
	int val;

	if (!kp_proc_mnt)
		return KP_PARANOID_DEFAULT;
	f = file_open_root_mnt(kp_proc_mnt, "sys/kernel/perf_event_paranoid",
			       O_RDONLY, 0);
	if (IS_ERR(f))
		return KP_PARANOID_DEFAULT;
	n = kernel_read(f, buf, sizeof(buf) - 1, &pos);
	fput(f);
	if (n <= 0)
		return KP_PARANOID_DEFAULT;
	buf[n] = '\0';
	if (kstrtoint(strim(buf), 10, &val))
		return KP_PARANOID_DEFAULT;
	return val;
}
EXPORT_SYMBOL_IF_KUNIT(kp_perf_event_paranoid);

/**
 * kp_perf_allowed() - what kernel.perf_event_paranoid lets an
 *	unprivileged caller do, as perf_event_open() gates it.
 * @kernel_mode: the request counts kernel-mode events.
 *
 * A caller with CAP_PERFMON (or CAP_SYS_ADMIN) may do anything.  Others:
 * paranoid > 2 (Debian's default 3) forbids every profile, as Debian's
 * perf_event_open() does; paranoid > 1 (upstream's default 2) forbids
 * counting kernel-mode events (perf_allow_kernel()).  Lower values gate
 * nothing more here: system-wide profiles and kernel ranges always need
 * CAP_PERFMON (kernel addresses are secret under KASLR).
 * Context: process; sleeps.
 *
 * Return: 0 or -EACCES.
 */
int kp_perf_allowed(bool kernel_mode)
{
	int paranoid;

	if (perfmon_capable())
		return 0;
	paranoid = kp_perf_event_paranoid();
	if (paranoid > 2 || (kernel_mode && paranoid > 1))
		return -EACCES;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kp_perf_allowed);

/**
 * kp_access_dumpable_only() - whether a new profile or stream must ignore
 *	its target while the target is not dumpable.
 * @target: its enum kprofile_target, accepted by kp_access_check().
 * @tgid:   the target kp_access_check() found (NULL: system-wide).
 *
 * Access to another process is checked once, at creation, as
 * perf_event_open() does.  A process that later becomes non-dumpable (it
 * executes a set-user-ID program, or calls prctl(PR_SET_DUMPABLE, 0)) is
 * one its profiler may no longer inspect, unless the profiler could
 * inspect any process (CAP_SYS_PTRACE, CAP_PERFMON or CAP_SYS_ADMIN):
 * such a profile or stream stops counting it.  A process profiling itself
 * keeps counting, whether it names itself by KPROFILE_TARGET_SELF or by
 * its own pid (the buckets are its own memory, and ptrace lets a thread
 * group inspect itself), and system-wide ones need the capabilities
 * anyway.
 *
 * Return: true when it must count its target only while it is dumpable.
 */
bool kp_access_dumpable_only(u32 target, const struct pid *tgid)
{
	if (target != KPROFILE_TARGET_PID || tgid == task_tgid(current))
		return false;
	return !ns_capable_noaudit(&init_user_ns, CAP_SYS_PTRACE) &&
	       !ns_capable_noaudit(&init_user_ns, CAP_PERFMON) &&
	       !ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN);
}
EXPORT_SYMBOL_IF_KUNIT(kp_access_dumpable_only);

static int kp_access_find_target(pid_t nr, struct pid **tgid)
{
	struct task_struct *task;
	struct pid *pid;
	int ret = 0;

	pid = find_get_pid(nr);
	if (!pid)
		return -ESRCH;
	task = get_pid_task(pid, PIDTYPE_PID);
	put_pid(pid);
	if (!task)
		return -ESRCH;
	ret = kp_may_access_task(task);
	if (!ret)
		*tgid = get_pid(task_tgid(task));
	put_task_struct(task);
	return ret;
}

/**
 * kp_access_check() - the privilege rules of a new profile or stream, and
 *	its target.
 * @ar:	  what it would see.
 * @tgid: out: a reference to the target's thread-group pid, or NULL for a
 *	  system-wide one.
 *
 * The calling process may always be profiled in user space.  Another
 * process (@ar->pid, in the caller's pid namespace; a thread's id selects
 * its whole process) needs CAP_PERFMON or ptrace-read access to every
 * thread of it (kp_may_access_task()).  System-wide profiles and ranges
 * reaching kernel addresses need CAP_PERFMON or CAP_SYS_ADMIN: kernel
 * addresses are secret under KASLR.  So do counter sources: starting one
 * arms a counter that interrupts every task on every CPU (machine-wide,
 * like the interval).  Without those capabilities
 * kernel.perf_event_paranoid applies (kp_perf_allowed()): above 2 no
 * profile, above 1 only user mode.  The checks run in that order
 * (profile_check.c and stream.c list their errors).
 *
 * Return: 0, -EPERM, -ESRCH or -EACCES (or, rarely, -ENOMEM, -EINTR,
 * -E2BIG from kp_may_access_task()).
 */
int kp_access_check(const struct kp_access_request *ar, struct pid **tgid)
{
	int ret;

	*tgid = NULL;
	if ((ar->target == KPROFILE_TARGET_SYSTEM || ar->kernel_range) &&
	    !perfmon_capable())
		return -EPERM;
	/* A counter source samples every task on every CPU: machine-wide. */
	if (ar->counter && !perfmon_capable())
		return -EPERM;
	ret = kp_perf_allowed(ar->kernel_mode);
	if (ret)
		return ret;
	switch (ar->target) {
	case KPROFILE_TARGET_SELF:
		*tgid = get_pid(task_tgid(current));
		return 0;
	case KPROFILE_TARGET_PID:
		return kp_access_find_target(ar->pid, tgid);
	default:
		return 0;
	}
}
EXPORT_SYMBOL_IF_KUNIT(kp_access_check);

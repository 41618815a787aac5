// SPDX-License-Identifier: GPL-2.0
/*
 * thread_fd.c - EnableThreadProfiling from user space: the
 * KPROFILE_IOC_THREAD_ENABLE ioctl, the file descriptor it returns
 * (KPROFILE_IOC_THREAD_READ, KPROFILE_IOC_THREAD_LIST, close), and the
 * scheduler hooks that drive the accounting in thread.c.
 *
 * Hooks: the sched_switch, sched_process_fork, sched_process_exit and
 * sched_process_exec tracepoints (sched_hooks.h), registered with the
 * client as their data while the client lives.  Preempt notifiers were
 * the alternative; they are per task and can only be unregistered by the
 * task itself, so a client closed while its threads run (or sleep
 * forever) could not take them back, and the KUnit kernels lack
 * CONFIG_PREEMPT_NOTIFIERS.  The probes take no sleeping lock and never
 * allocate (fork takes a preallocated entry: thread_reserve.c).  In the
 * probes' context (sched_hooks.h) they take the RCU read side (fork's
 * lookup) and the preemption-off section (exit's and exec's accounting,
 * on this CPU) themselves.
 */
#include <linux/anon_inodes.h>
#include <linux/binfmts.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "access.h"
#include "compat.h"
#include "device.h"
#include "kprofile.h"
#include "sched_hooks.h"
#include "thread.h"

static KP_SCHED_SWITCH_PROBE(kp_thread_on_switch)
{
	struct kp_thread_client *c = data;
	struct kp_thread_task *out, *in;
	u64 tsc;

	out = kp_thread_find(c, prev);
	in = kp_thread_find(c, next);
	if (!out && !in)
		return;
	tsc = c->threads->clock();
	if (out)
		kp_thread_switch_out(c, out, tsc);
	if (in)
		kp_thread_switch_in(c, in, tsc);
}

static void kp_thread_on_fork(void *data, struct task_struct *parent,
			      struct task_struct *child)
{
	struct kp_thread_client *c = data;
	bool profiled;

	rcu_read_lock();
	profiled = kp_thread_find(c, parent);
	rcu_read_unlock();
	if (profiled)
		kp_thread_join(c, child, GFP_ATOMIC);
}

static KP_SCHED_EXIT_PROBE(kp_thread_on_exit)
{
	struct kp_thread_client *c = data;

	/* The clock read and the charge on one CPU, with no switch between. */
	preempt_disable();
	kp_thread_exited(c, task, c->threads->clock());
	preempt_enable();
}

/*
 * An exec that left the thread non-dumpable (set-user-ID, set-group-ID,
 * file capabilities) ends its profiling, as perf tears its task events
 * down there: it is charged up to now and counts no more.  Any other exec
 * starts the counts of a thread enabled with KPROFILE_THREAD_START_ON_EXEC.
 */
static void kp_thread_on_exec(void *data, struct task_struct *task,
			      pid_t old_pid, struct linux_binprm *bprm)
{
	struct kp_thread_client *c = data;

	/* As the exit probe: clock and charge on one CPU. */
	preempt_disable();
	if (kp_task_dumpable(task))
		kp_thread_exec_started(c, task, c->threads->clock());
	else
		kp_thread_exec_stopped(c, task, c->threads->clock());
	preempt_enable();
}

/*
 * The probes, in the order they are registered; fork, last, only with
 * KPROFILE_THREAD_INHERIT.
 */
static const struct kp_sched_probe kp_thread_probes[] = {
	{ KP_SCHED_SWITCH, kp_thread_on_switch },
	{ KP_SCHED_EXIT, kp_thread_on_exit },
	{ KP_SCHED_EXEC, kp_thread_on_exec },
	{ KP_SCHED_FORK, kp_thread_on_fork },
};

/* The probes @c registers: all, or all but fork. */
static unsigned int kp_thread_nr_probes(const struct kp_thread_client *c)
{
	unsigned int n = ARRAY_SIZE(kp_thread_probes);

	return c->flags & KPROFILE_THREAD_INHERIT ? n : n - 1;
}

static void kp_thread_unhook(struct kp_thread_client *c)
{
	if (!c->hooked)
		return;
	/* No probe runs with @c after this. */
	kp_sched_hooks_unregister(kp_thread_probes, kp_thread_nr_probes(c), c);
	c->hooked = false;
}

static int kp_thread_hook(struct kp_thread_client *c, char *reason,
			  size_t len)
{
	unsigned int i;
	int ret;

	/* All four must exist, fork even without INHERIT. */
	for (i = 0; i < ARRAY_SIZE(kp_thread_probes); i++) {
		if (!kp_sched_hook_found(kp_thread_probes[i].hook)) {
			scnprintf(reason, len,
				  "the kernel has no sched_switch/sched_process_* tracepoints (CONFIG_TRACEPOINTS)");
			return -EOPNOTSUPP;
		}
	}
	ret = kp_sched_hooks_register(kp_thread_probes, kp_thread_nr_probes(c),
				      c);
	if (ret) {
		scnprintf(reason, len,
			  "registering the scheduler hooks failed: %d", ret);
		return ret;
	}
	c->hooked = true;
	return 0;
}

/**
 * struct kp_thread_file - what a thread-profiling fd owns.
 * @client: the client.
 */
struct kp_thread_file {
	struct kp_thread_client *client;
};

static long kp_thread_ioctl_read(struct kp_thread_client *c,
				 void __user *argp)
{
	struct kprofile_thread_data *d;
	long ret = 0;

	d = kmalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	kp_thread_read(c, d);
	if (copy_to_user(argp, d, sizeof(*d)))
		ret = -EFAULT;
	kfree(d);
	return ret;
}

static long kp_thread_ioctl_list(struct kp_thread_client *c,
				 void __user *argp)
{
	struct kprofile_thread_entry *buf = NULL;
	struct kprofile_thread_list req;
	u32 room, n;
	long ret = 0;

	if (copy_from_user(&req, argp, sizeof(req)))
		return -EFAULT;
	if (req.flags)
		return -EINVAL;
	room = min_t(u32, req.count, KP_THREAD_MAX);
	if (room) {
		buf = kvcalloc(room, sizeof(*buf), GFP_KERNEL);
		if (!buf)
			return -ENOMEM;
	}
	n = kp_thread_list(c, buf, room);
	if (copy_to_user(u64_to_user_ptr(req.entries), buf,
			 min(n, room) * sizeof(*buf))) {
		ret = -EFAULT;
		goto out;
	}
	req.count = n;
	if (copy_to_user(argp, &req, sizeof(req)))
		ret = -EFAULT;
	else if (n > room)
		ret = -ENOSPC;
out:
	kvfree(buf);
	return ret;
}

static long kp_thread_fd_ioctl(struct file *file, unsigned int cmd,
			       unsigned long arg)
{
	struct kp_thread_file *f = file->private_data;
	void __user *argp = (void __user *)arg;

	switch (cmd) {
	case KPROFILE_IOC_THREAD_READ:
		return kp_thread_ioctl_read(f->client, argp);
	case KPROFILE_IOC_THREAD_LIST:
		return kp_thread_ioctl_list(f->client, argp);
	default:
		return -ENOTTY;
	}
}

static int kp_thread_fd_release(struct inode *inode, struct file *file)
{
	struct kp_thread_file *f = file->private_data;

	kp_thread_unhook(f->client);
	kp_thread_client_free(f->client);
	kfree(f);
	return 0;
}

static const struct file_operations kp_thread_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = kp_thread_fd_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.release = kp_thread_fd_release,
};

/*
 * May the caller profile @task's threads?  As for a profile of another
 * process (access.c): its own process always, others with CAP_PERFMON or
 * ptrace-read access to every thread.  -EPERM when not.
 */
static int kp_thread_may_profile(struct task_struct *task)
{
	int ret = kp_may_access_task(task);

	return ret == -EACCES ? -EPERM : ret;
}

static struct task_struct *kp_thread_target(pid_t pid)
{
	struct task_struct *task;
	struct pid *p;

	if (!pid) {
		get_task_struct(current);
		return current;
	}
	p = find_get_pid(pid);
	task = p ? get_pid_task(p, PIDTYPE_PID) : NULL;
	put_pid(p);
	return task;
}

/**
 * kp_ioctl_thread_enable() - KPROFILE_IOC_THREAD_ENABLE
 *	(EnableThreadProfiling).
 * @dev:  the device.
 * @argp: struct kprofile_thread_enable.
 *
 * Needs CAP_PERFMON (or CAP_SYS_ADMIN): there is one client for the
 * machine, and its counters are the machine-wide configuration's.
 * Becomes the client, hooks the scheduler, then adds the thread (which
 * starts counting now when it is the caller, at its next switch-in
 * otherwise).  The reason of a failure is logged at debug level.
 *
 * Return: a new fd, or -EFAULT, -EINVAL, -ESRCH, -EPERM, -EBUSY (another
 * client), -EOPNOTSUPP (no scheduler tracepoints), -ENOMEM.
 */
long kp_ioctl_thread_enable(struct kp_device *dev, void __user *argp)
{
	char reason[KPROFILE_REASON_LEN] = "";
	struct kprofile_thread_enable req;
	struct kp_thread_client *c;
	struct kp_thread_task *e;
	struct task_struct *task;
	struct kp_thread_file *f;
	unsigned int i;
	long ret;

	if (copy_from_user(&req, argp, sizeof(req)))
		return -EFAULT;
	for (i = 0; i < ARRAY_SIZE(req.reserved); i++)
		if (req.reserved[i])
			return -EINVAL;
	if (req.pid < 0)
		return -EINVAL;
	/* One client for the machine: taking the slot is machine-wide. */
	if (!perfmon_capable())
		return -EPERM;
	task = kp_thread_target(req.pid);
	if (!task)
		return -ESRCH;
	ret = kp_thread_may_profile(task);
	if (ret)
		goto out_task;
	ret = -ENOMEM;
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		goto out_task;
	c = kp_thread_client_new(&dev->threads, req.flags, req.counter_mask,
				 reason, sizeof(reason));
	if (IS_ERR(c)) {
		ret = PTR_ERR(c);
		goto out_f;
	}
	f->client = c;
	ret = kp_thread_hook(c, reason, sizeof(reason));
	if (ret)
		goto out_client;
	e = kp_thread_join(c, task, GFP_KERNEL);
	if (!e) {
		ret = -ENOMEM;
		goto out_hooks;
	}
	if (req.flags & KPROFILE_THREAD_START_ON_EXEC)
		kp_thread_wait_exec(c, e);
	if (task == current)
		kp_thread_start_current(c, e);
	ret = anon_inode_getfd("[kprofile-thread]", &kp_thread_fops, f,
			       O_RDWR | O_CLOEXEC);
	if (ret < 0)
		goto out_hooks;
	put_task_struct(task);
	return ret;

out_hooks:
	kp_thread_unhook(c);
out_client:
	kp_thread_client_free(c);
out_f:
	kfree(f);
out_task:
	put_task_struct(task);
	if (reason[0])
		pr_debug(KP_NAME ": thread enable: %s\n", reason);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * sched_hooks.c - the scheduler hooks (sched_hooks.h): the four sched
 * tracepoints, looked up once at load with for_each_kernel_tracepoint()
 * (they are not exported to modules by name), and registering and
 * unregistering the consumers' probes on them, one at a time or a
 * consumer's set at once with the unwinding done here.
 *
 * Without CONFIG_TRACEPOINTS (or with a kernel that lacks one of them)
 * a hook is not found: registering on it fails with -ENOENT, a set with
 * -EOPNOTSUPP, and each consumer says what it does without (the timers
 * run on every CPU, the exec hook warns, streams write no task records
 * and refuse INHERIT, thread profiling is refused).
 */
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "compat.h"
#include "sched_hooks.h"

static const char *const kp_sched_hook_names[KP_SCHED_HOOKS] = {
	[KP_SCHED_SWITCH] = "sched_switch",
	[KP_SCHED_FORK] = "sched_process_fork",
	[KP_SCHED_EXEC] = "sched_process_exec",
	[KP_SCHED_EXIT] = "sched_process_exit",
};

/* Found at load, before any consumer starts (kp_sched_hooks_init()). */
static struct tracepoint *kp_sched_tps[KP_SCHED_HOOKS];

static void kp_sched_tp_match(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < KP_SCHED_HOOKS; i++)
		if (!strcmp(tp->name, kp_sched_hook_names[i]))
			kp_sched_tps[i] = tp;
}

/**
 * kp_sched_hooks_init() - find the scheduler tracepoints.
 *
 * Context: process, at module load, before any probe is registered.
 */
void kp_sched_hooks_init(void)
{
	memset(kp_sched_tps, 0, sizeof(kp_sched_tps));
	for_each_kernel_tracepoint(kp_sched_tp_match, NULL);
}

/**
 * kp_sched_hook_found() - whether the kernel has a scheduler tracepoint.
 * @hook: the tracepoint.
 *
 * Context: any.
 *
 * Return: true when probes can be registered on it.
 */
bool kp_sched_hook_found(enum kp_sched_hook hook)
{
	return hook < KP_SCHED_HOOKS && kp_sched_tps[hook];
}
EXPORT_SYMBOL_IF_KUNIT(kp_sched_hook_found);

/**
 * kp_sched_hook_register() - put a probe on a scheduler tracepoint.
 * @hook:  the tracepoint.
 * @probe: the function, with the tracepoint's prototype (sched_hooks.h).
 * @data:  its first argument.
 *
 * Context: process; takes the tracepoint mutexes: not under
 * cpus_read_lock() (locking.h).
 *
 * Return: 0; -ENOENT when the kernel lacks the tracepoint; an error of
 * tracepoint_probe_register() (-ENOMEM, -EEXIST for a probe and data
 * registered already).
 */
int kp_sched_hook_register(enum kp_sched_hook hook, void *probe, void *data)
{
	if (!kp_sched_hook_found(hook))
		return -ENOENT;
	return tracepoint_probe_register(kp_sched_tps[hook], probe, data);
}
EXPORT_SYMBOL_IF_KUNIT(kp_sched_hook_register);

/**
 * kp_sched_hook_unregister() - take a probe off a scheduler tracepoint.
 * @hook:  the tracepoint.
 * @probe: as registered.
 * @data:  as registered.
 *
 * The probe may still be running on another CPU on return: call
 * kp_sched_hooks_sync() before freeing what it uses.
 * Context: process; takes the tracepoint mutexes, as registering.
 */
void kp_sched_hook_unregister(enum kp_sched_hook hook, void *probe,
			      void *data)
{
	if (kp_sched_hook_found(hook))
		tracepoint_probe_unregister(kp_sched_tps[hook], probe, data);
}

/**
 * kp_sched_hooks_sync() - wait until no probe unregistered before this
 *	call runs.
 *
 * Context: process; sleeps (a grace period of every flavour the
 * tracepoint code uses).
 */
void kp_sched_hooks_sync(void)
{
	tracepoint_synchronize_unregister();
}

/**
 * kp_sched_hooks_register() - put a consumer's probes on, all or none.
 * @probes: the probes, registered in this order.
 * @nr:	    entries in @probes.
 * @data:   the first argument of each.
 *
 * When one fails, those registered before it are unregistered (in the
 * reverse order) and waited for.
 * Context: process; takes the tracepoint mutexes, as
 * kp_sched_hook_register().
 *
 * Return: 0; -EOPNOTSUPP when the kernel lacks one of the tracepoints
 * (nothing registered); an error of tracepoint_probe_register().
 */
int kp_sched_hooks_register(const struct kp_sched_probe *probes,
			    unsigned int nr, void *data)
{
	unsigned int i;
	int ret;

	for (i = 0; i < nr; i++)
		if (!kp_sched_hook_found(probes[i].hook))
			return -EOPNOTSUPP;
	for (i = 0; i < nr; i++) {
		ret = kp_sched_hook_register(probes[i].hook, probes[i].probe,
					     data);
		if (ret)
			goto err;
	}
	return 0;

err:
	if (!i)
		return ret;
	kp_sched_hooks_unregister(probes, i, data);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(kp_sched_hooks_register);

/**
 * kp_sched_hooks_unregister() - take a consumer's probes off.
 * @probes: as given to kp_sched_hooks_register(); unregistered in the
 *	    reverse order.
 * @nr:	    as given to kp_sched_hooks_register().
 * @data:   as given to kp_sched_hooks_register().
 *
 * On return no probe of the set runs.
 * Context: process; sleeps; takes the tracepoint mutexes.
 */
void kp_sched_hooks_unregister(const struct kp_sched_probe *probes,
			       unsigned int nr, void *data)
{
	while (nr--)
		kp_sched_hook_unregister(probes[nr].hook, probes[nr].probe,
					 data);
	kp_sched_hooks_sync();
}
EXPORT_SYMBOL_IF_KUNIT(kp_sched_hooks_unregister);

// SPDX-License-Identifier: GPL-2.0
/*
 * errnos.c - what the ABI promises, as the fuzzer checks it: the one table
 * of documented errnos per ioctl, and the checks of what the module writes
 * back (reserved fields zero, string tails zero, no kernel address).
 *
 * The table is include/uapi/linux/kprofile.h's comments and
 * docs/profiles.md's error tables, ioctl by ioctl.  Every ioctl that takes
 * a pointer may fail with EFAULT ("the request itself cannot be read"),
 * every unknown number with ENOTTY (the header's rules), and the ones that
 * return a new fd with ENOMEM and EMFILE.  EPERM on the machine-wide
 * setters is perf's rule for CAP_PERFMON.  Anything else is
 * a failure: either the module or its documentation is wrong.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kpfuzz.h"

#define E(...) ((const int[]){ __VA_ARGS__, 0 })

struct kpf_doc {
	unsigned long cmd;
	const char *name;
	enum kpf_kind on;
	const int *errs;
};

static const struct kpf_doc docs[] = {
	/* On /dev/kprofile. */
	{ KPROFILE_IOC_INFO, "INFO", KPF_DEV, E(EFAULT) },
	/* unknown source: EINVAL */
	{ KPROFILE_IOC_QUERY_SOURCE, "QUERY_SOURCE", KPF_DEV, E(EFAULT, EINVAL) },
	/* nonzero flags: EINVAL; too small: ENOSPC with the count needed */
	{ KPROFILE_IOC_LIST_SOURCES, "LIST_SOURCES", KPF_DEV,
	  E(EFAULT, EINVAL, ENOSPC, ENOMEM) },
	/* unknown source EINVAL, unsupported EOPNOTSUPP; machine-wide: EPERM */
	{ KPROFILE_IOC_SET_INTERVAL, "SET_INTERVAL", KPF_DEV,
	  E(EFAULT, EINVAL, EOPNOTSUPP, EPERM) },
	{ KPROFILE_IOC_GET_INTERVAL, "GET_INTERVAL", KPF_DEV,
	  E(EFAULT, EINVAL, EOPNOTSUPP) },
	/* nr_sources > KPROFILE_MAX_COUNTERS or unknown sources: EINVAL */
	{ KPROFILE_IOC_SCHEDULE, "SCHEDULE", KPF_DEV, E(EFAULT, EINVAL) },
	/* CAP_PERFMON; EBUSY held; EOPNOTSUPP no PMU or EVENT_BUFFER */
	{ KPROFILE_IOC_RESERVE, "RESERVE", KPF_DEV,
	  E(EFAULT, EINVAL, EPERM, EBUSY, EOPNOTSUPP, ENOMEM, EMFILE) },
	/* docs/profiles.md "Errors, in the order they are checked" */
	{ KPROFILE_IOC_CREATE_PROFILE, "CREATE_PROFILE", KPF_DEV,
	  E(EFAULT, EINVAL, ENOSPC, EOVERFLOW, EOPNOTSUPP, EPERM, ESRCH,
	    EACCES, ENOMEM, EMFILE) },
	/* EINVAL, EOPNOTSUPP, EBUSY; machine-wide: EPERM */
	{ KPROFILE_IOC_SET_HW_CONFIG, "SET_HW_CONFIG", KPF_DEV,
	  E(EFAULT, EINVAL, EOPNOTSUPP, EBUSY, EPERM) },
	{ KPROFILE_IOC_SET_HW_CONFIG_EX, "SET_HW_CONFIG_EX", KPF_DEV,
	  E(EFAULT, EINVAL, EOPNOTSUPP, EBUSY, EPERM) },
	{ KPROFILE_IOC_QUERY_HW_CONFIG, "QUERY_HW_CONFIG", KPF_DEV, E(EFAULT) },
	/* EBUSY, ESRCH, EPERM, EINVAL (+ new fd; EOPNOTSUPP: no hooks) */
	{ KPROFILE_IOC_THREAD_ENABLE, "THREAD_ENABLE", KPF_DEV,
	  E(EFAULT, EBUSY, ESRCH, EPERM, EACCES, EINVAL, EOPNOTSUPP, ENOMEM,
	    EMFILE) },
	/* On a profile fd (header, "On a profile fd"; docs tables). */
	{ KPROFILE_IOC_START, "START", KPF_PROFILE,
	  E(EBUSY, EXDEV, ENOMEM, EFAULT, EOPNOTSUPP, EINVAL, EPERM) },
	{ KPROFILE_IOC_STOP, "STOP", KPF_PROFILE, E(EALREADY) },
	{ KPROFILE_IOC_PROFILE_STATS, "PROFILE_STATS", KPF_PROFILE, E(EFAULT) },
	{ KPROFILE_IOC_PROFILE_STATS_EX, "PROFILE_STATS_EX", KPF_PROFILE, E(EFAULT) },
	/* On a thread-profiling fd. */
	{ KPROFILE_IOC_THREAD_READ, "THREAD_READ", KPF_THREAD, E(EFAULT, ENOMEM) },
	{ KPROFILE_IOC_THREAD_LIST, "THREAD_LIST", KPF_THREAD,
	  E(EFAULT, EINVAL, ENOSPC, ENOMEM) },
};

#define NDOCS (sizeof(docs) / sizeof(docs[0]))

static struct kpf_totals local_totals;
struct kpf_totals *kpf_totals = &local_totals;

static const struct kpf_doc *find_doc(unsigned long cmd)
{
	size_t i;

	for (i = 0; i < NDOCS; i++)
		if (docs[i].cmd == cmd)
			return &docs[i];
	return NULL;
}

/**
 * kpf_ioctl_name() - the ioctl's name, or "unknown".
 * @cmd: the request number.
 *
 * Return: a static string.
 */
const char *kpf_ioctl_name(unsigned long cmd)
{
	const struct kpf_doc *d = find_doc(cmd);

	return d ? d->name : "unknown";
}

static int listed(const int *errs, int err)
{
	for (; *errs; errs++)
		if (*errs == err)
			return 1;
	return 0;
}

/**
 * kpf_errno_ok() - whether @err is a documented result of @cmd on a @kind fd.
 * @c:    the worker (racy workers may see EBADF, and ENOTTY or another
 *        kind's errnos on a reused fd number).
 * @kind: what the fd is.
 * @cmd:  the request number.
 * @err:  the errno.
 *
 * Return: 1 when documented.
 */
int kpf_errno_ok(const struct kpf_ctx *c, enum kpf_kind kind,
		 unsigned long cmd, int err)
{
	const struct kpf_doc *d = find_doc(cmd);
	size_t i;

	if (c->racy && err == EBADF)
		return 1;
	if (err == EINTR)	/* a signal: the watchdog or a test's kill */
		return 1;
	if (kind == KPF_ANY) {
		if (err == ENOTTY)
			return 1;
		for (i = 0; i < NDOCS; i++)
			if (docs[i].cmd == cmd && listed(docs[i].errs, err))
				return 1;
		return 0;
	}
	if (!d || d->on != kind)
		return err == ENOTTY;
	return listed(d->errs, err);
}

/**
 * kpf_fail() - report an invariant violation with the seed that found it.
 * @c:   the worker.
 * @fmt: printf format.
 */
void kpf_fail(struct kpf_ctx *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	c->fails++;
	__atomic_add_fetch(&kpf_totals->fails, 1, __ATOMIC_RELAXED);
	/* write(2), not stdio: safe in forked children of threaded parents */
	dprintf(2, "FAIL seed=%llu phase=%s worker=%d step=%llu: %s\n",
		(unsigned long long)c->seed, c->phase, c->worker,
		(unsigned long long)c->step, msg);
}

/**
 * kpf_note() - an informational key=value line on stdout.
 * @fmt: printf format.
 */
void kpf_note(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dprintf(1, "%s\n", msg);
}

/* Zero after the NUL of a string field; no hex that looks like an address. */
static void check_string(struct kpf_ctx *c, const char *what, const char *s,
			 size_t len)
{
	size_t i, n = strnlen(s, len);

	if (n == len) {
		kpf_fail(c, "%s: not NUL-terminated", what);
		return;
	}
	for (i = n; i < len; i++)
		if (s[i]) {
			kpf_fail(c, "%s: byte %zu after the NUL is 0x%02x", what,
				 i, (unsigned char)s[i]);
			return;
		}
	if (strstr(s, "ffff8") || strstr(s, "ffffffff8") ||
	    strstr(s, "ffffc9") || strstr(s, "ffffea"))
		kpf_fail(c, "%s: looks like a kernel address: \"%s\"", what, s);
}

static void check_zero(struct kpf_ctx *c, const char *what, const void *p,
		       size_t len)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i]) {
			kpf_fail(c, "%s: reserved byte %zu is 0x%02x", what, i,
				 b[i]);
			return;
		}
}

/* A counter must not be a kernel address (the upper half, not -1). */
static void check_u64(struct kpf_ctx *c, const char *what, uint64_t v)
{
	if (v >= 0xffff800000000000ULL && v < 0xfffffffffffff000ULL)
		kpf_fail(c, "%s = 0x%llx looks like a kernel address", what,
			 (unsigned long long)v);
}

static void check_source_info(struct kpf_ctx *c,
			      const struct kprofile_source_info *si)
{
	check_zero(c, "source_info.reserved", si->reserved, sizeof(si->reserved));
	check_string(c, "source_info.name", si->name, sizeof(si->name));
	check_string(c, "source_info.reason", si->reason, sizeof(si->reason));
}

/**
 * kpf_check_output() - check what a successful ioctl wrote back.
 * @c:   the worker.
 * @cmd: the request number.
 * @arg: the request (as the module left it).
 */
void kpf_check_output(struct kpf_ctx *c, unsigned long cmd, const void *arg)
{
	size_t i;

	switch (cmd) {
	case KPROFILE_IOC_INFO: {
		const struct kprofile_info *in = arg;

		check_zero(c, "info.reserved", in->reserved, sizeof(in->reserved));
		check_string(c, "info.vendor", in->vendor, sizeof(in->vendor));
		check_string(c, "info.reason", in->reason, sizeof(in->reason));
		break;
	}
	case KPROFILE_IOC_QUERY_SOURCE:
		check_source_info(c, arg);
		break;
	case KPROFILE_IOC_LIST_SOURCES: {
		const struct kprofile_source_list *l = arg;
		const struct kprofile_source_info *e =
			(const void *)(uintptr_t)l->entries;

		for (i = 0; i < l->count && i < 512; i++)
			check_source_info(c, &e[i]);
		break;
	}
	case KPROFILE_IOC_SCHEDULE: {
		const struct kprofile_schedule *s = arg;

		check_string(c, "schedule.reason", s->reason, sizeof(s->reason));
		break;
	}
	case KPROFILE_IOC_SET_HW_CONFIG_EX: {
		const struct kprofile_hw_config_set *s = arg;

		check_string(c, "hw_config_set.reason", s->reason,
			     sizeof(s->reason));
		break;
	}
	case KPROFILE_IOC_QUERY_HW_CONFIG: {
		const struct kprofile_hw_config *h = arg;

		check_zero(c, "hw_config.flags", &h->flags, sizeof(h->flags));
		break;
	}
	case KPROFILE_IOC_PROFILE_STATS_EX: {
		const struct kprofile_profile_stats_ex *x = arg;

		check_zero(c, "stats_ex.reserved0", &x->reserved0,
			   sizeof(x->reserved0));
		check_zero(c, "stats_ex.reserved", x->reserved, sizeof(x->reserved));
		if (x->flags & ~(uint32_t)(KPROFILE_PROFILE_EXEC_STOPPED |
					   KPROFILE_PROFILE_BUFFER_LOST))
			kpf_fail(c, "stats_ex.flags 0x%x has undocumented bits",
				 x->flags);
		check_u64(c, "stats_ex.not_dumpable", x->not_dumpable);
		kpf_check_output(c, KPROFILE_IOC_PROFILE_STATS, &x->stats);
		break;
	}
	case KPROFILE_IOC_PROFILE_STATS: {
		const struct kprofile_profile_stats *st = arg;

		check_zero(c, "stats.reserved", st->reserved, sizeof(st->reserved));
		check_u64(c, "stats.hits", st->hits);
		check_u64(c, "stats.outside", st->outside);
		check_u64(c, "stats.unavailable", st->unavailable);
		check_u64(c, "stats.wrong_mode", st->wrong_mode);
		break;
	}
	case KPROFILE_IOC_THREAD_READ: {
		const struct kprofile_thread_data *d = arg;

		check_zero(c, "thread_data.reserved", &d->reserved,
			   sizeof(d->reserved));
		check_string(c, "thread_data.reason", d->reason,
			     sizeof(d->reason));
		check_u64(c, "thread_data.cycle_time", d->cycle_time);
		check_u64(c, "thread_data.context_switches",
			  d->context_switches);
		for (i = 0; i < KPROFILE_MAX_COUNTERS; i++)
			check_u64(c, "thread_data.hw_counters", d->hw_counters[i]);
		break;
	}
	case KPROFILE_IOC_THREAD_LIST: {
		const struct kprofile_thread_list *l = arg;
		const struct kprofile_thread_entry *e =
			(const void *)(uintptr_t)l->entries;

		for (i = 0; i < l->count && i < 64; i++) {
			check_zero(c, "thread_entry.reserved", &e[i].reserved,
				   sizeof(e[i].reserved));
			check_string(c, "thread_entry.comm", e[i].comm,
				     sizeof(e[i].comm));
			check_u64(c, "thread_entry.cycle_time", e[i].cycle_time);
		}
		break;
	}
	}
}

/**
 * kpf_ioctl() - make one ioctl and check its result against the table.
 * @c:    the worker.
 * @fd:   the file descriptor.
 * @kind: what @fd is.
 * @cmd:  the request number.
 * @arg:  the argument.
 *
 * On success the output is checked (kpf_check_output()) when @arg points
 * to readable memory the fuzzer owns (the caller passes only such
 * pointers for ioctls that can succeed with a bad one: none can).
 *
 * Return: the ioctl's return value, or -errno.
 */
long kpf_ioctl(struct kpf_ctx *c, int fd, enum kpf_kind kind,
	       unsigned long cmd, void *arg)
{
	long ret;
	int err;

	c->calls++;
	__atomic_add_fetch(&kpf_totals->calls, 1, __ATOMIC_RELAXED);
	ret = ioctl(fd, cmd, arg);
	if (ret >= 0) {
		if (kind != KPF_ANY && find_doc(cmd) &&
		    find_doc(cmd)->on == kind && arg)
			kpf_check_output(c, cmd, arg);
		else if (kind != KPF_ANY && (!find_doc(cmd) ||
					     find_doc(cmd)->on != kind))
			kpf_fail(c, "%s (0x%lx) on a kind-%d fd succeeded",
				 kpf_ioctl_name(cmd), cmd, kind);
		return ret;
	}
	err = errno;
	if (!kpf_errno_ok(c, kind, cmd, err))
		kpf_fail(c, "%s (0x%lx) on a kind-%d fd: undocumented errno %d (%s)",
			 kpf_ioctl_name(cmd), cmd, kind, err, strerror(err));
	return -err;
}

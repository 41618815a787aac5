/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kp_test.h - what kprofile's test programs share, as kselftest.h does
 * for the kernel's selftests: opening /dev/kprofile with a message that
 * says what to do, naming an errno the way the guest scripts compare
 * it, and dying with the reason.  Header-only (static inline), for the
 * programs of testing/guest/progs, testing/hwtest, testing/bench/progs
 * and testing/fuzz, built with -I include/uapi -I testing/lib.
 */
#ifndef KP_TEST_H
#define KP_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/kprofile.h>

/*
 * glibc's, declared by its headers only under _GNU_SOURCE, which a
 * program defines (or not) before it includes anything.
 */
extern char *program_invocation_short_name;
const char *strerrorname_np(int errnum);

/* The exit status of a program that could not open the device. */
#define KPT_EXIT_NODEV	2

/* What to do about a failed open of /dev/kprofile, by errno. */
static inline const char *kpt_dev_hint(int e)
{
	switch (e) {
	case ENOENT:
		return " (is kprofile.ko loaded? insmod kprofile.ko)";
	case EACCES:
	case EPERM:
		return " (run as root, or as a member of the device's group)";
	default:
		return "";
	}
}

/*
 * kpt_try_open_dev - open /dev/kprofile read-write, close-on-exec.
 * Return: the fd, or -1 with errno set and the reason on stderr.
 */
static inline int kpt_try_open_dev(void)
{
	int fd = open("/dev/" KPROFILE_DEVICE_NAME, O_RDWR | O_CLOEXEC);
	int e = errno;

	if (fd < 0) {
		fprintf(stderr, "%s: /dev/%s: %s%s\n", program_invocation_short_name,
			KPROFILE_DEVICE_NAME, strerror(e), kpt_dev_hint(e));
		errno = e;
	}
	return fd;
}

/* kpt_open_dev - kpt_try_open_dev(), exiting KPT_EXIT_NODEV on failure. */
static inline int kpt_open_dev(void)
{
	int fd = kpt_try_open_dev();

	if (fd < 0)
		exit(KPT_EXIT_NODEV);
	return fd;
}

/*
 * kpt_errname - "EINVAL" for EINVAL, "OK" for 0, "E<n>" for an errno
 * glibc has no name for: the words the guest scripts compare.
 */
static inline const char *kpt_errname(int e)
{
	static __thread char buf[16];
	const char *n;

	if (!e)
		return "OK";
	n = strerrorname_np(e);
	if (n)
		return n;
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

/* kpt_die_status - "prog: WHAT: strerror(errno)" on stderr, exit STATUS. */
static inline void __attribute__((noreturn))
kpt_die_status(int status, const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, what,
		strerror(errno));
	exit(status);
}

/* kpt_die - kpt_die_status(1, WHAT). */
static inline void __attribute__((noreturn)) kpt_die(const char *what)
{
	kpt_die_status(1, what);
}

#endif /* KP_TEST_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * priv.c - kp-profile's privilege and buffer commands, for
 * testing/guest/35-privileges.sh:
 *
 *   kp-profile [PRIV] exec-watch PROG [ARGS]
 *	a SELF profile of the hot function (shared buffer), started; a
 *	forked observer keeps it while this process execs PROG; once PROG
 *	is gone the observer prints hits= buckets= flags= not_dumpable=
 *   kp-profile [PRIV] lost dontneed|munmap|mremap|none
 *	a started SELF profile whose buffer is zapped, unmapped or moved
 *	while the hot loop runs; prints visible= (the buffer's sum, at its
 *	new place for mremap), hits=, unavailable=, flags=
 *   kp-profile [PRIV] machine
 *	the machine-wide calls: set_interval= hw_config= thread_enable=
 *   kp-profile [PRIV] thread-try
 *	try to take the thread-profiling slot: thread_enable=
 *   kp-profile [PRIV] thread-hold SECONDS
 *	take it, print held= and pid= (as this process's pid namespace
 *	sees it), keep it SECONDS or until killed
 *   kp-profile spin-mixed SECONDS
 *	as root: one thread becomes uid 1000, the main thread uid 65534
 *	(per-thread credentials, raw setresuid), the process dumpable; then
 *	spin in the hot function
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kp_profile.h"

static void hot_profile(struct create *c, const char *buffer)
{
	create_defaults(c);
	c->range = "hot";
	c->req.bucket_shift = 2;
	c->req.mode = KPROFILE_MODE_USER;
	c->buffer = buffer;
}

int cmd_exec_watch(int argc, char **argv)
{
	struct create c;
	pid_t parent = getpid(), obs;
	int fd, e;

	if (argc < 1)
		return fprintf(stderr, "kp-profile: exec-watch PROG\n"), 2;
	hot_profile(&c, "shared");
	fd = create(&c);
	printf("result=%s\n", fd < 0 ? kpt_errname(-fd) : "OK");
	if (fd < 0)
		return 0;
	e = xioctl(fd, KPROFILE_IOC_START, NULL);
	printf("start=%s\n", res(e));
	if (e)
		return 0;
	fflush(stdout);
	obs = fork();
	if (obs < 0)
		die("fork");
	if (!obs) {
		/* The observer: wait until PROG has run and exited. */
		while (getppid() == parent)
			usleep(20000);
		print_stats(fd, "");
		printf("buckets=%llu\n",
		       (unsigned long long)sum(&c, 0, c.req.buffer_size / 4 - 1));
		return 0;
	}
	close(dev);
	execv(argv[0], argv);
	die(argv[0]);
	return 2;
}

int cmd_lost(int argc, char **argv)
{
	const char *how = argc > 0 ? argv[0] : "none";
	struct kprofile_profile_stats st;
	uint32_t *moved = NULL;
	struct create c;
	uint64_t visible;
	int fd, e;

	hot_profile(&c, "ok");
	fd = create(&c);
	printf("result=%s\n", fd < 0 ? kpt_errname(-fd) : "OK");
	if (fd < 0)
		return 0;
	e = xioctl(fd, KPROFILE_IOC_START, NULL);
	printf("start=%s\n", res(e));
	if (e)
		return 0;
	kp_profile_hot(20000000);
	if (!strcmp(how, "dontneed")) {
		if (madvise(c.buckets, c.map_size, MADV_DONTNEED))
			die("madvise");
	} else if (!strcmp(how, "munmap")) {
		if (munmap(c.buckets, c.map_size))
			die("munmap");
		/* A new, empty mapping at the same place: nothing shows. */
		if (mmap(c.buckets, c.map_size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
		    MAP_FAILED)
			die("mmap");
	} else if (!strcmp(how, "mremap")) {
		moved = mremap(c.buckets, c.map_size, c.map_size,
			       MREMAP_MAYMOVE | MREMAP_FIXED,
			       (char *)c.buckets + 64 * 1024 * 1024);
		if (moved == MAP_FAILED)
			die("mremap");
		c.buckets = moved;
	} else if (strcmp(how, "none")) {
		return fprintf(stderr, "kp-profile: lost HOW\n"), 2;
	}
	kp_profile_hot(100000000);
	if (ioctl(fd, KPROFILE_IOC_PROFILE_STATS, &st))
		die("KPROFILE_IOC_PROFILE_STATS");
	visible = sum(&c, 0, c.req.buffer_size / 4 - 1);
	printf("visible=%llu\nhits=%llu\nunavailable=%llu\n",
	       (unsigned long long)visible, (unsigned long long)st.hits,
	       (unsigned long long)st.unavailable);
	print_stats_ex(fd, "");
	printf("stop=%s\n", res(xioctl(fd, KPROFILE_IOC_STOP, NULL)));
	close(fd);
	return 0;
}

int cmd_machine(void)
{
	struct kprofile_interval iv = { .source = KPROFILE_SOURCE_TIME };
	struct kprofile_hw_config_set hw;
	struct kprofile_thread_enable te;
	int fd;

	if (ioctl(dev, KPROFILE_IOC_GET_INTERVAL, &iv))
		die("KPROFILE_IOC_GET_INTERVAL");
	printf("set_interval=%s\n",
	       res(xioctl(dev, KPROFILE_IOC_SET_INTERVAL, &iv)));
	memset(&hw, 0, sizeof(hw));
	printf("hw_config=%s\n",
	       res(xioctl(dev, KPROFILE_IOC_SET_HW_CONFIG_EX, &hw)));
	printf("hw_config_reason=%s\n", hw.reason);
	memset(&te, 0, sizeof(te));
	fd = ioctl(dev, KPROFILE_IOC_THREAD_ENABLE, &te);
	printf("thread_enable=%s\n", fd < 0 ? kpt_errname(errno) : "OK");
	if (fd >= 0)
		close(fd);
	return 0;
}

int cmd_thread_try(void)
{
	struct kprofile_thread_enable te;
	int fd;

	memset(&te, 0, sizeof(te));
	fd = ioctl(dev, KPROFILE_IOC_THREAD_ENABLE, &te);
	printf("thread_enable=%s\n", fd < 0 ? kpt_errname(errno) : "OK");
	if (fd >= 0)
		close(fd);
	return 0;
}

int cmd_thread_hold(int argc, char **argv)
{
	struct kprofile_thread_enable te;
	int fd, secs = argc > 0 ? atoi(argv[0]) : 30;

	memset(&te, 0, sizeof(te));
	fd = ioctl(dev, KPROFILE_IOC_THREAD_ENABLE, &te);
	printf("held=%s\npid=%d\n", fd < 0 ? kpt_errname(errno) : "OK", getpid());
	fflush(stdout);
	if (fd < 0)
		return 0;
	sleep(secs);
	close(fd);
	return 0;
}

static volatile int mixed_ready;

static void *mixed_thread(void *arg)
{
	(void)arg;
	if (syscall(SYS_setresgid, 1000, 1000, 1000) ||
	    syscall(SYS_setresuid, 1000, 1000, 1000))
		die("setresuid (thread)");
	__atomic_store_n(&mixed_ready, 1, __ATOMIC_SEQ_CST);
	for (;;)
		pause();
	return NULL;
}

int cmd_spin_mixed(int argc, char **argv)
{
	double end = cpu_seconds() + (argc > 0 ? atof(argv[0]) : 1);
	pthread_t t;

	close(dev);
	if (pthread_create(&t, NULL, mixed_thread, NULL))
		die("pthread_create");
	while (!__atomic_load_n(&mixed_ready, __ATOMIC_SEQ_CST))
		usleep(1000);
	if (syscall(SYS_setresgid, 65534, 65534, 65534) ||
	    syscall(SYS_setresuid, 65534, 65534, 65534))
		die("setresuid");
	if (prctl(PR_SET_DUMPABLE, 1))
		die("PR_SET_DUMPABLE");
	printf("ready\n");
	fflush(stdout);
	while (cpu_seconds() < end)
		kp_profile_hot(200000);
	return 0;
}

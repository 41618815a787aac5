// SPDX-License-Identifier: GPL-2.0
/*
 * kp-thread - thread profiling through the raw ioctls, for
 * testing/guest/60-thread.sh.  Prints key=value lines; exits 0 when every
 * call behaved as the mode expects it to be checked by the script.
 *
 *   kp-thread self N     enable for the caller, sleep N times 20 ms, read:
 *                        switches= cycles= threads= valid= count= reason=
 *   kp-thread second     a second client while one is active:
 *                        second=<errno name>, again=<0 or errno> after close
 *   kp-thread inherit    enable with INHERIT, run a thread that sleeps 3
 *                        times and a child process, then list:
 *                        threads= exited= thread_switches= child_tgid_ok=
 *                        sum_ok= (per-thread sums equal the totals)
 *   kp-thread config     hardware-counter configuration errors:
 *                        too_many=<errno> empty=<errno or 0> reason=
 *   kp-thread exec-child PROG [ARGS]
 *                        enable with INHERIT, fork a child that becomes
 *                        uid 65534 and execs PROG, wait for it, list:
 *                        child_found= child_exec_stopped= child_cycles=
 *                        exec_stopped= (the totals' flag)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/kprofile.h>
#include "kp_test.h"

static int enable(int dev, __u32 flags)
{
	struct kprofile_thread_enable te = {
		.flags = flags, .counter_mask = 0xffff,
	};

	return ioctl(dev, KPROFILE_IOC_THREAD_ENABLE, &te);
}

/*
 * Each nap must really switch out: under TCG on a busy host a 1 ms
 * hrtimer can expire before do_nanosleep() reaches schedule(), and that
 * sleep never leaves the CPU (the 60-thread flake of the portability
 * review, section 2.8).  20 ms leaves a wide margin.
 */
static void nap(int n)
{
	struct timespec ts = { 0, 20 * 1000000 };

	while (n--)
		nanosleep(&ts, NULL);
}

static int mode_self(int n)
{
	struct kprofile_thread_data d;
	int dev = kpt_open_dev(), tp = enable(dev, 0);

	if (tp < 0) {
		printf("enable=%s\n", kpt_errname(errno));
		return 1;
	}
	nap(n);
	if (ioctl(tp, KPROFILE_IOC_THREAD_READ, &d)) {
		printf("read=%s\n", kpt_errname(errno));
		return 1;
	}
	printf("switches=%llu\ncycles=%llu\nthreads=%llu\nvalid=%d\ncount=%u\nreason=%s\n",
	       (unsigned long long)d.context_switches,
	       (unsigned long long)d.cycle_time,
	       (unsigned long long)d.threads,
	       !!(d.flags & KPROFILE_THREAD_COUNTERS_VALID),
	       d.hw_counter_count, d.reason);
	return 0;
}

static int mode_second(void)
{
	int a = kpt_open_dev(), b = kpt_open_dev(), tp, tp2;

	tp = enable(a, 0);
	if (tp < 0) {
		printf("first=%s\n", kpt_errname(errno));
		return 1;
	}
	tp2 = enable(b, 0);
	printf("second=%s\n", tp2 < 0 ? kpt_errname(errno) : "0");
	close(tp);
	tp2 = enable(b, 0);
	printf("again=%s\n", tp2 < 0 ? kpt_errname(errno) : "0");
	return 0;
}

static pid_t worker_tid;

static void *worker(void *arg)
{
	(void)arg;
	worker_tid = syscall(SYS_gettid);
	nap(3);
	return NULL;
}

static int mode_inherit(void)
{
	struct kprofile_thread_entry ent[16];
	struct kprofile_thread_list lst = {
		.count = 16, .entries = (uintptr_t)ent,
	};
	struct kprofile_thread_data d;
	unsigned long long sw = 0, wsw = 0;
	int dev = kpt_open_dev(), tp, exited = 0, child_ok = 0;
	pthread_t t;
	pid_t child;
	__u32 i;

	tp = enable(dev, KPROFILE_THREAD_INHERIT);
	if (tp < 0) {
		printf("enable=%s\n", kpt_errname(errno));
		return 1;
	}
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	child = fork();
	if (child == 0) {
		nap(2);
		_exit(0);
	}
	waitpid(child, NULL, 0);
	if (ioctl(tp, KPROFILE_IOC_THREAD_LIST, &lst) ||
	    ioctl(tp, KPROFILE_IOC_THREAD_READ, &d)) {
		printf("read=%s\n", kpt_errname(errno));
		return 1;
	}
	for (i = 0; i < lst.count && i < 16; i++) {
		sw += ent[i].context_switches;
		exited += !!(ent[i].flags & KPROFILE_THREAD_EXITED);
		if (ent[i].tid == worker_tid)
			wsw = ent[i].context_switches;
		if (ent[i].tgid == child && ent[i].tid == child)
			child_ok = 1;
	}
	printf("threads=%u\nexited=%d\nthread_switches=%llu\nchild_tgid_ok=%d\n",
	       lst.count, exited, wsw, child_ok);
	/* Read after the list: the totals can only have grown since. */
	printf("sum_ok=%d\n", sw <= d.context_switches &&
	       d.threads == lst.count);
	return 0;
}

static int mode_config(void)
{
	struct kprofile_hw_config_set cs;
	int dev = kpt_open_dev();

	memset(&cs, 0, sizeof(cs));
	cs.config.count = KPROFILE_MAX_COUNTERS + 1;
	printf("too_many=%s\n",
	       ioctl(dev, KPROFILE_IOC_SET_HW_CONFIG_EX, &cs) ? kpt_errname(errno) : "0");
	memset(&cs, 0, sizeof(cs));
	printf("empty=%s\n",
	       ioctl(dev, KPROFILE_IOC_SET_HW_CONFIG_EX, &cs) ? kpt_errname(errno) : "0");
	printf("reason=%s\n", cs.reason);
	return 0;
}

static int mode_exec_child(char **argv)
{
	struct kprofile_thread_entry ent[16];
	struct kprofile_thread_list lst = {
		.count = 16, .entries = (uintptr_t)ent,
	};
	struct kprofile_thread_data d;
	int dev = kpt_open_dev(), tp, found = 0;
	unsigned long long cycles = 0;
	__u32 i, flags = 0;
	pid_t child;

	tp = enable(dev, KPROFILE_THREAD_INHERIT);
	if (tp < 0) {
		printf("enable=%s\n", kpt_errname(errno));
		return 1;
	}
	child = fork();
	if (child == 0) {
		if (setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(3);
		execv(argv[0], argv);
		_exit(4);
	}
	waitpid(child, NULL, 0);
	if (ioctl(tp, KPROFILE_IOC_THREAD_LIST, &lst) ||
	    ioctl(tp, KPROFILE_IOC_THREAD_READ, &d)) {
		printf("read=%s\n", kpt_errname(errno));
		return 1;
	}
	for (i = 0; i < lst.count && i < 16; i++) {
		if (ent[i].tid != child)
			continue;
		found = 1;
		flags = ent[i].flags;
		cycles = ent[i].cycle_time;
	}
	printf("child_found=%d\nchild_exec_stopped=%d\nchild_cycles=%llu\n"
	       "exec_stopped=%d\n", found,
	       !!(flags & KPROFILE_THREAD_EXEC_STOPPED), cycles,
	       !!(d.flags & KPROFILE_THREAD_EXEC_STOPPED));
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 2 && !strcmp(argv[1], "self"))
		return mode_self(atoi(argv[2]));
	if (argc > 1 && !strcmp(argv[1], "second"))
		return mode_second();
	if (argc > 1 && !strcmp(argv[1], "inherit"))
		return mode_inherit();
	if (argc > 1 && !strcmp(argv[1], "config"))
		return mode_config();
	if (argc > 2 && !strcmp(argv[1], "exec-child"))
		return mode_exec_child(argv + 2);
	fprintf(stderr, "usage: kp-thread self N | second | inherit | config | exec-child PROG...\n");
	return 2;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * kp-profile - drive profile objects (KPROFILE_IOC_CREATE_PROFILE, START,
 * STOP, PROFILE_STATS) for the guest tests, and print what happened as
 * key=value lines.
 *
 *   kp-profile [PRIV] try [CREATE...]     create only: result=ERRNO|OK
 *   kp-profile [PRIV] self [--seconds S]  ProfileTime on this program's
 *	text with 128-byte buckets while it spins in its hot function,
 *	reading the buffer live
 *   kp-profile [PRIV] pid PID [--seconds S] [--undump] [CREATE...]
 *	profile another process (default range: spin's hot function,
 *	KP_SPIN_RANGE=START:END as spin --where prints it); --undump makes
 *	a "kp-profile spin" target non-dumpable between create and start
 *   kp-profile [PRIV] child [CREATE...] -- PROG [ARGS]
 *	profile a child from before it execs PROG until after it exited
 *   kp-profile [PRIV] system [--seconds S]  system-wide, kernel range
 *   kp-profile states                      start/stop state errors
 *   kp-profile close-mid                   close a running profile
 *   kp-profile hold SECONDS                keep a started profile open
 *   kp-profile hotplug                     CPU 1 offline and online while
 *	a profile of CPU 1 runs
 *   kp-profile [PRIV] spin SECONDS          spin in the hot function;
 *	SIGUSR1 makes it non-dumpable
 *   kp-profile [PRIV] exec PROG [ARGS]     run PROG (after PRIV)
 *   exec-watch, lost, machine, thread-try, thread-hold, spin-mixed: see
 *	priv.c
 *
 * PRIV (after /dev/kprofile is opened): --drop-caps removes CAP_PERFMON,
 * CAP_SYS_ADMIN and CAP_SYS_PTRACE; --uid N becomes uid and gid N (which
 * makes the process non-dumpable); --keep-cap (before --uid) keeps
 * CAP_NET_RAW, and only it, through that change; --dumpable makes it
 * dumpable again; --userns moves it into a new user namespace.
 * CREATE: --target self|system|pid:N|pid:self,
 * --range text|kernel|hot|spin|BASE:SIZE
 * (hex), --shift N, --buffer-size N (default: exactly what is needed),
 * --buffer-short (4 bytes less), --buffer ok|shared|misaligned|readonly|
 * unmapped|kernel|file:PATH (MAP_SHARED of PATH, a regular file grown to
 * fit or a device), --source N, --mode N, --reserved, --cpus HEXMASK.
 * The exit status is 0 unless the program itself failed (usage, setup).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sched.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kp_profile.h"

static int cmd_try(int argc, char **argv)
{
	struct create c;
	int i, fd;

	create_defaults(&c);
	for (i = 0; i < argc; i++)
		if (!parse_create(&c, argc, argv, &i)) {
			fprintf(stderr, "kp-profile: bad option %s\n", argv[i]);
			return 2;
		}
	fd = create(&c);
	printf("result=%s\n", fd >= 0 ? "OK" : kpt_errname(-fd));
	if (fd >= 0)
		close(fd);
	return 0;
}

/* self: the live-buffer and 90% test. */
static int cmd_self(int argc, char **argv)
{
	double secs = 2, end, mid;
	uint64_t first, last, nb, loop, all, live_mid = 0, live_end;
	int i, fd, e, got_mid = 0;
	struct create c;

	create_defaults(&c);
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			secs = atof(argv[++i]);
		else if (!parse_create(&c, argc, argv, &i))
			return fprintf(stderr, "kp-profile: bad option\n"), 2;
	}
	fd = create(&c);
	if (fd < 0)
		return printf("result=%s\n", kpt_errname(-fd)), 0;
	nb = c.req.buffer_size / 4;
	buckets_of(&c, (uintptr_t)__start_kp_phot, (uintptr_t)__stop_kp_phot,
		   &first, &last);
	e = xioctl(fd, KPROFILE_IOC_START, NULL);
	printf("start=%s\n", res(e));
	if (e)
		return 0;
	mid = cpu_seconds() + secs / 2;
	end = cpu_seconds() + secs;
	while (cpu_seconds() < end) {
		kp_profile_hot(200000);
		if (!got_mid && cpu_seconds() >= mid) {
			live_mid = sum(&c, first, last);
			got_mid = 1;
		}
	}
	live_end = sum(&c, first, last);
	print_stats(fd, "");
	e = xioctl(fd, KPROFILE_IOC_STOP, NULL);
	printf("stop=%s\n", res(e));
	loop = sum(&c, first, last);
	all = sum(&c, 0, nb - 1);
	kp_profile_hot(20000000);	/* after stop: must not count */
	printf("live_mid=%llu\nlive_end=%llu\nloop=%llu\nin_range=%llu\n"
	       "after_stop=%llu\nloop_buckets=%llu\n",
	       (unsigned long long)live_mid, (unsigned long long)live_end,
	       (unsigned long long)loop, (unsigned long long)all,
	       (unsigned long long)sum(&c, 0, nb - 1),
	       (unsigned long long)(last - first + 1));
	print_stats(fd, "final_");
	close(fd);
	return 0;
}

/* spin's SIGUSR1: become non-dumpable, as after a set-user-ID exec. */
static void undump(int sig)
{
	(void)sig;
	prctl(PR_SET_DUMPABLE, 0);
}

/* Signal @pid to become non-dumpable; wait until its /proc files are root's. */
static void make_undumpable(pid_t pid)
{
	char path[40];
	struct stat st;
	int i;

	snprintf(path, sizeof(path), "%d/status", pid);
	if (kill(pid, SIGUSR1))
		die("kill");
	for (i = 0; i < 200; i++) {
		if (!fstatat(proc, path, &st, 0) && st.st_uid == 0)
			return;
		usleep(10000);
	}
	fprintf(stderr, "kp-profile: %d did not become non-dumpable\n", pid);
	exit(2);
}

enum watch { WATCH_PID, WATCH_SYSTEM, WATCH_CHILD };

/*
 * pid/system/child: profile for a while; a child (PROG after "--") is
 * profiled from before its exec until after it exited.
 */
static int cmd_watch(int argc, char **argv, enum watch kind)
{
	int i, fd, e, go[2] = { -1, -1 }, status, undump_target = 0;
	pid_t child = 0;
	double secs = 1;
	struct timespec ts;
	struct create c;

	create_defaults(&c);
	if (kind == WATCH_SYSTEM) {
		c.req.target = KPROFILE_TARGET_SYSTEM;
		c.range = "kernel";
		c.req.bucket_shift = 20;
	} else {
		c.req.target = KPROFILE_TARGET_PID;
		c.range = "spin";
	}
	if (kind == WATCH_PID) {
		if (argc < 1)
			return fprintf(stderr, "kp-profile: pid PID\n"), 2;
		c.req.pid = atoi(argv[0]);
		argc--;
		argv++;
	}
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			secs = atof(argv[++i]);
		else if (!strcmp(argv[i], "--undump") && kind == WATCH_PID)
			undump_target = 1;
		else if (!strcmp(argv[i], "--") && kind == WATCH_CHILD)
			break;
		else if (!parse_create(&c, argc, argv, &i))
			return fprintf(stderr, "kp-profile: bad option\n"), 2;
	}
	if (kind == WATCH_CHILD) {
		if (i + 1 >= argc)
			return fprintf(stderr, "kp-profile: child -- PROG\n"), 2;
		if (pipe(go))
			die("pipe");
		child = fork();
		if (child < 0)
			die("fork");
		if (!child) {
			char b;

			close(dev);
			close(go[1]);
			if (read(go[0], &b, 1) != 1)
				_exit(3);
			execvp(argv[i + 1], argv + i + 1);
			_exit(4);
		}
		close(go[0]);
		c.req.pid = child;
	}
	fd = create(&c);
	printf("result=%s\n", fd < 0 ? kpt_errname(-fd) : "OK");
	if (fd >= 0 && undump_target)
		make_undumpable(c.req.pid);
	e = fd < 0 ? 0 : xioctl(fd, KPROFILE_IOC_START, NULL);
	if (fd >= 0)
		printf("start=%s\n", res(e));
	if (child) {
		/* Run the child either way, then reap it. */
		if (write(go[1], "g", 1) != 1)
			die("write");
		close(go[1]);
		waitpid(child, &status, 0);
		printf("target_exited=%d\n", WIFEXITED(status));
	}
	if (fd < 0 || e)
		return 0;
	/* Keep running after the target is gone (or for --seconds). */
	if (child)
		secs = 0.2;
	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
	print_stats(fd, "");
	printf("buckets=%llu\n",
	       (unsigned long long)sum(&c, 0, c.req.buffer_size / 4 - 1));
	printf("stop=%s\n", res(xioctl(fd, KPROFILE_IOC_STOP, NULL)));
	printf("close=%s\n", close(fd) ? kpt_errname(errno) : "OK");
	return 0;
}

static int cmd_states(void)
{
	struct kprofile_profile_stats st;
	struct create c;
	int fd, status;
	pid_t child;

	create_defaults(&c);
	fd = create(&c);
	if (fd < 0)
		return printf("result=%s\n", kpt_errname(-fd)), 0;
	printf("stop_stopped=%s\n",
	       res(xioctl(fd, KPROFILE_IOC_STOP, NULL)));
	child = fork();
	if (child == 0) {
		int e = xioctl(fd, KPROFILE_IOC_START, NULL);

		printf("start_child=%s\n", res(e));
		fflush(stdout);
		_exit(0);
	}
	waitpid(child, &status, 0);
	printf("start=%s\n", res(xioctl(fd, KPROFILE_IOC_START, NULL)));
	printf("start_started=%s\n",
	       res(xioctl(fd, KPROFILE_IOC_START, NULL)));
	xioctl(fd, KPROFILE_IOC_PROFILE_STATS, &st);
	printf("started=%u\n", st.started);
	printf("stop=%s\n", res(xioctl(fd, KPROFILE_IOC_STOP, NULL)));
	printf("stop_again=%s\n", res(xioctl(fd, KPROFILE_IOC_STOP, NULL)));
	xioctl(fd, KPROFILE_IOC_PROFILE_STATS, &st);
	printf("started_after=%u\n", st.started);
	printf("restart=%s\n", res(xioctl(fd, KPROFILE_IOC_START, NULL)));
	printf("bad_ioctl=%s\n",
	       res(xioctl(fd, _IO(KPROFILE_IOC_MAGIC, 0x4f), NULL)));
	close(fd);
	return 0;
}

static int cmd_close_mid(void)
{
	struct create c;
	int fd;

	create_defaults(&c);
	fd = create(&c);
	if (fd < 0)
		return printf("result=%s\n", kpt_errname(-fd)), 0;
	printf("start=%s\n", res(xioctl(fd, KPROFILE_IOC_START, NULL)));
	kp_profile_hot(50000000);
	print_stats(fd, "");
	printf("close=%s\n", close(fd) ? kpt_errname(errno) : "OK");
	/* The buckets stay, and nothing writes them any more. */
	printf("in_range=%llu\n",
	       (unsigned long long)sum(&c, 0, c.req.buffer_size / 4 - 1));
	kp_profile_hot(50000000);
	printf("in_range_later=%llu\n",
	       (unsigned long long)sum(&c, 0, c.req.buffer_size / 4 - 1));
	return 0;
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok ? 0 : -1;
}

static unsigned long long hits_now(int fd)
{
	struct kprofile_profile_stats st;

	if (ioctl(fd, KPROFILE_IOC_PROFILE_STATS, &st))
		die("KPROFILE_IOC_PROFILE_STATS");
	return st.hits;
}

/* Wait (up to 10 s) until @fd's hits exceed @than; its hits then. */
static unsigned long long wait_hits(int fd, unsigned long long than)
{
	struct kprofile_profile_stats st;
	int i;

	for (i = 0; i < 200; i++) {
		if (ioctl(fd, KPROFILE_IOC_PROFILE_STATS, &st))
			die("KPROFILE_IOC_PROFILE_STATS");
		if (st.hits > than)
			break;
		usleep(50000);
	}
	return st.hits;
}

/*
 * hotplug: a system-wide kernel profile of CPU 1 only; CPU 1 goes offline
 * and comes back while it runs: its timer must run again.
 */
static int cmd_hotplug(void)
{
	static const char *online = "/sys/devices/system/cpu/cpu1/online";
	unsigned long long before, after;
	struct create c;
	int fd;

	create_defaults(&c);
	c.req.target = KPROFILE_TARGET_SYSTEM;
	c.range = "kernel";
	c.req.bucket_shift = 20;
	c.cpus = 2;
	fd = create(&c);
	if (fd < 0)
		return printf("result=%s\n", kpt_errname(-fd)), 0;
	printf("start=%s\n", res(xioctl(fd, KPROFILE_IOC_START, NULL)));
	printf("hits_cpu1=%llu\n", wait_hits(fd, 0));
	printf("offline=%s\n", write_file(online, "0") ? kpt_errname(errno) : "OK");
	before = hits_now(fd);
	usleep(300000);
	printf("hits_while_offline=%llu\n", hits_now(fd) - before);
	before = hits_now(fd);
	printf("online=%s\n", write_file(online, "1") ? kpt_errname(errno) : "OK");
	after = wait_hits(fd, before);
	printf("hits_after_online=%llu\n", after - before);
	printf("stop=%s\n", res(xioctl(fd, KPROFILE_IOC_STOP, NULL)));
	close(fd);
	return 0;
}

static int cmd_hold(int argc, char **argv)
{
	struct create c;
	int fd;

	create_defaults(&c);
	fd = create(&c);
	if (fd < 0)
		return printf("result=%s\n", kpt_errname(-fd)), 0;
	printf("start=%s\n", res(xioctl(fd, KPROFILE_IOC_START, NULL)));
	close(dev);	/* only the profile fd holds the module now */
	fflush(stdout);
	sleep(argc > 0 ? atoi(argv[0]) : 10);
	return 0;
}

int main(int argc, char **argv)
{
	int i = 1, keep_cap = 0;
	char *s = getenv("KP_SPIN_RANGE");	/* "BASE:END" from spin --where */

	if (s) {
		unsigned long long b, e;

		if (sscanf(s, "%llx:%llx", &b, &e) == 2 && e > b) {
			spin_base = b;
			spin_size = e - b;
		}
	}
	dev = open("/dev/" KPROFILE_DEVICE_NAME, O_RDWR | O_CLOEXEC);
	/* spin needs no device (it may run unprivileged, after an exec). */
	if (dev < 0 && !(argc > 1 && !strcmp(argv[1], "spin")))
		die("/dev/" KPROFILE_DEVICE_NAME);
	proc = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (proc < 0)
		die("/proc");
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--drop-caps")) {
			drop_caps();
		} else if (!strcmp(argv[i], "--dumpable")) {
			if (prctl(PR_SET_DUMPABLE, 1))
				die("PR_SET_DUMPABLE");
		} else if (!strcmp(argv[i], "--keep-cap")) {
			keep_cap = 1;
			if (prctl(PR_SET_KEEPCAPS, 1))
				die("PR_SET_KEEPCAPS");
		} else if (!strcmp(argv[i], "--userns")) {
			if (unshare(CLONE_NEWUSER))
				die("unshare(CLONE_NEWUSER)");
		} else if (!strcmp(argv[i], "--uid") && i + 1 < argc) {
			int id = atoi(argv[++i]);

			if (setresgid(id, id, id) || setresuid(id, id, id))
				die("setresuid");
			if (keep_cap)
				keep_only_cap(CAP_NET_RAW);
		} else {
			break;
		}
	}
	if (i >= argc)
		return fprintf(stderr, "kp-profile: no command\n"), 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[i], "try"))
		return cmd_try(argc - i - 1, argv + i + 1);
	if (!strcmp(argv[i], "self"))
		return cmd_self(argc - i - 1, argv + i + 1);
	if (!strcmp(argv[i], "pid"))
		return cmd_watch(argc - i - 1, argv + i + 1, WATCH_PID);
	if (!strcmp(argv[i], "system"))
		return cmd_watch(argc - i - 1, argv + i + 1, WATCH_SYSTEM);
	if (!strcmp(argv[i], "child"))
		return cmd_watch(argc - i - 1, argv + i + 1, WATCH_CHILD);
	if (!strcmp(argv[i], "states"))
		return cmd_states();
	if (!strcmp(argv[i], "close-mid"))
		return cmd_close_mid();
	if (!strcmp(argv[i], "hotplug"))
		return cmd_hotplug();
	if (!strcmp(argv[i], "hold"))
		return cmd_hold(argc - i - 1, argv + i + 1);
	if (!strcmp(argv[i], "exec-watch"))
		return cmd_exec_watch(argc - i - 1, argv + i + 1);
	if (!strcmp(argv[i], "lost"))
		return cmd_lost(argc - i - 1, argv + i + 1);
	if (!strcmp(argv[i], "machine"))
		return cmd_machine();
	if (!strcmp(argv[i], "thread-try"))
		return cmd_thread_try();
	if (!strcmp(argv[i], "thread-hold"))
		return cmd_thread_hold(argc - i - 1, argv + i + 1);
	if (!strcmp(argv[i], "spin-mixed"))
		return cmd_spin_mixed(argc - i - 1, argv + i + 1);
	if (!strcmp(argv[i], "spin")) {
		double end = cpu_seconds() + (i + 1 < argc ? atof(argv[i + 1]) : 1);

		if (dev >= 0)
			close(dev);
		signal(SIGUSR1, undump);
		while (cpu_seconds() < end)
			kp_profile_hot(200000);
		return 0;
	}
	if (!strcmp(argv[i], "exec") && i + 1 < argc) {
		close(dev);
		execvp(argv[i + 1], argv + i + 1);
		die(argv[i + 1]);
	}
	fprintf(stderr, "kp-profile: unknown command %s\n", argv[i]);
	return 2;
}

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
 *
 * PRIV (after /dev/kprofile is opened): --drop-caps removes CAP_PERFMON,
 * CAP_SYS_ADMIN and CAP_SYS_PTRACE; --uid N becomes uid and gid N (which
 * makes the process non-dumpable); --dumpable makes it dumpable again.
 * CREATE: --target self|system|pid:N, --range text|kernel|hot|spin|BASE:SIZE
 * (hex), --shift N, --buffer-size N (default: exactly what is needed),
 * --buffer-short (4 bytes less), --buffer ok|misaligned|readonly|unmapped|
 * kernel, --source N, --mode N, --reserved, --cpus HEXMASK.
 * The exit status is 0 unless the program itself failed (usage, setup).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/kprofile.h>
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern const char __executable_start[], etext[];
extern const char __start_kp_phot[], __stop_kp_phot[];

/* The hot function, alone in its section so its range is exact. */
__attribute__((noinline, section("kp_phot")))
uint64_t kp_profile_hot(uint64_t n)
{
	volatile uint64_t x = 0;

	while (n--)
		x = x * 2862933555777941757ULL + 3037000493ULL;
	return x;
}

/* spin's hot function (testing/guest/progs/spin.c): static, not PIE. */
static uint64_t spin_base, spin_size;

static int dev = -1;
/* /proc, opened before privileges are dropped (the guest's / is 0700). */
static int proc = -1;

static void die(const char *what)
{
	fprintf(stderr, "kp-profile: %s: %s\n", what, strerror(errno));
	exit(2);
}

static const char *errname(int e)
{
	const char *n = strerrorname_np(e);

	return n ? n : "E?";
}

/* "OK" for 0, else the errno's name. */
static const char *res(int e)
{
	return e ? errname(e) : "OK";
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void drop_caps(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];
	static const int caps[] = { CAP_PERFMON, CAP_SYS_ADMIN, CAP_SYS_PTRACE };
	unsigned int i;

	if (syscall(SYS_capget, &h, d))
		die("capget");
	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		uint32_t bit = 1U << (caps[i] % 32);

		d[caps[i] / 32].effective &= ~bit;
		d[caps[i] / 32].permitted &= ~bit;
		d[caps[i] / 32].inheritable &= ~bit;
	}
	if (syscall(SYS_capset, &h, d))
		die("capset");
}

struct create {
	struct kprofile_create_profile req;
	const char *range;
	const char *buffer;
	uint64_t buffer_size;	/* when buffer_size_set */
	int buffer_size_set;
	int buffer_short;	/* 4 bytes fewer than needed */
	uint64_t cpus;
	uint32_t *buckets;	/* the mapping behind req.buffer */
};

static uint64_t needed(const struct kprofile_create_profile *r)
{
	uint64_t n = r->size >> r->bucket_shift;

	if (r->size & ((1ULL << r->bucket_shift) - 1))
		n++;
	return n * 4;
}

static void set_range(struct create *c)
{
	struct kprofile_create_profile *r = &c->req;
	uintptr_t e1 = (uintptr_t)etext, e2 = (uintptr_t)__stop_kp_phot;
	uintptr_t top = e1 > e2 ? e1 : e2;
	unsigned long long b, s;

	if (!strcmp(c->range, "text")) {
		r->base = (uintptr_t)__executable_start;
		r->size = top - r->base;
	} else if (!strcmp(c->range, "hot")) {
		r->base = (uintptr_t)__start_kp_phot;
		r->size = __stop_kp_phot - __start_kp_phot;
	} else if (!strcmp(c->range, "spin")) {
		r->base = spin_base;
		r->size = spin_size;
	} else if (!strcmp(c->range, "kernel")) {
		/* The kernel image and modules: the top 2 GiB. */
		r->base = 0xffffffff80000000ULL;
		r->size = 0x7fffffffULL;
	} else if (sscanf(c->range, "%llx:%llx", &b, &s) == 2) {
		r->base = b;
		r->size = s;
	} else {
		fprintf(stderr, "kp-profile: bad --range %s\n", c->range);
		exit(2);
	}
}

static void set_buffer(struct create *c)
{
	struct kprofile_create_profile *r = &c->req;
	uint64_t size = c->buffer_size_set ? c->buffer_size : needed(r);
	size_t map;
	char *p;

	if (c->buffer_short)
		size -= 4;
	map = (size + 2 * 4096 + 4095) & ~4095UL;

	r->buffer_size = size;
	p = mmap(NULL, map, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		die("mmap");
	c->buckets = (uint32_t *)p;
	r->buffer = (uintptr_t)p;
	if (!strcmp(c->buffer, "misaligned")) {
		r->buffer += 2;
	} else if (!strcmp(c->buffer, "readonly")) {
		if (mprotect(p, map, PROT_READ))
			die("mprotect");
	} else if (!strcmp(c->buffer, "unmapped")) {
		munmap(p, map);
	} else if (!strcmp(c->buffer, "kernel")) {
		r->buffer = 0xffffffff81000000ULL;
	} else if (strcmp(c->buffer, "ok")) {
		fprintf(stderr, "kp-profile: bad --buffer %s\n", c->buffer);
		exit(2);
	}
}

/* Parse CREATE options from argv[*i]; false when argv[*i] is not one. */
static int parse_create(struct create *c, int argc, char **argv, int *i)
{
	const char *o = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;

	if (!strcmp(o, "--reserved")) {
		c->req.reserved[4] = 1;
		return 1;
	}
	if (!strcmp(o, "--buffer-short")) {
		c->buffer_short = 1;
		return 1;
	}
	if (!v || strncmp(o, "--", 2))
		return 0;
	if (!strcmp(o, "--target")) {
		if (!strcmp(v, "self")) {
			c->req.target = KPROFILE_TARGET_SELF;
		} else if (!strcmp(v, "system")) {
			c->req.target = KPROFILE_TARGET_SYSTEM;
		} else if (!strncmp(v, "pid:", 4)) {
			c->req.target = KPROFILE_TARGET_PID;
			c->req.pid = atoi(v + 4);
		} else {
			return 0;
		}
	} else if (!strcmp(o, "--range")) {
		c->range = v;
	} else if (!strcmp(o, "--shift")) {
		c->req.bucket_shift = strtoul(v, NULL, 0);
	} else if (!strcmp(o, "--buffer-size")) {
		c->buffer_size = strtoull(v, NULL, 0);
		c->buffer_size_set = 1;
	} else if (!strcmp(o, "--buffer")) {
		c->buffer = v;
	} else if (!strcmp(o, "--source")) {
		c->req.source = strtoul(v, NULL, 0);
	} else if (!strcmp(o, "--mode")) {
		c->req.mode = strtoul(v, NULL, 0);
	} else if (!strcmp(o, "--cpus")) {
		c->cpus = strtoull(v, NULL, 16);
	} else {
		return 0;
	}
	(*i)++;
	return 1;
}

static void create_defaults(struct create *c)
{
	memset(c, 0, sizeof(*c));
	c->req.target = KPROFILE_TARGET_SELF;
	c->req.bucket_shift = 7;
	c->req.source = KPROFILE_SOURCE_TIME;
	c->req.mode = KPROFILE_MODE_BOTH;
	c->range = "text";
	c->buffer = "ok";
}

/* Create; returns the fd or -errno. */
static int create(struct create *c)
{
	int fd;

	set_range(c);
	set_buffer(c);
	if (c->cpus) {
		c->req.cpus = (uintptr_t)&c->cpus;
		c->req.cpus_size = sizeof(c->cpus);
	}
	fd = ioctl(dev, KPROFILE_IOC_CREATE_PROFILE, &c->req);
	return fd < 0 ? -errno : fd;
}

static int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

static void print_stats(int fd, const char *prefix)
{
	struct kprofile_profile_stats st;

	if (ioctl(fd, KPROFILE_IOC_PROFILE_STATS, &st))
		die("KPROFILE_IOC_PROFILE_STATS");
	printf("%shits=%llu\n%soutside=%llu\n%sunavailable=%llu\n"
	       "%swrong_mode=%llu\n%sstarted=%u\n%ssource=%u\n%sinterval=%u\n",
	       prefix, (unsigned long long)st.hits,
	       prefix, (unsigned long long)st.outside,
	       prefix, (unsigned long long)st.unavailable,
	       prefix, (unsigned long long)st.wrong_mode,
	       prefix, st.started, prefix, st.source, prefix, st.interval);
}

/* Sum of buckets [first, last] (volatile: the kernel writes them). */
static uint64_t sum(const struct create *c, uint64_t first, uint64_t last)
{
	const volatile uint32_t *b = c->buckets;
	uint64_t s = 0, i;

	for (i = first; i <= last; i++)
		s += b[i];
	return s;
}

/* Buckets of [lo, hi) in profile c. */
static void buckets_of(const struct create *c, uintptr_t lo, uintptr_t hi,
		       uint64_t *first, uint64_t *last)
{
	*first = (lo - c->req.base) >> c->req.bucket_shift;
	*last = (hi - 1 - c->req.base) >> c->req.bucket_shift;
}

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
	printf("result=%s\n", fd >= 0 ? "OK" : errname(-fd));
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
		return printf("result=%s\n", errname(-fd)), 0;
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
	printf("result=%s\n", fd < 0 ? errname(-fd) : "OK");
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
	printf("close=%s\n", close(fd) ? errname(errno) : "OK");
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
		return printf("result=%s\n", errname(-fd)), 0;
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
		return printf("result=%s\n", errname(-fd)), 0;
	printf("start=%s\n", res(xioctl(fd, KPROFILE_IOC_START, NULL)));
	kp_profile_hot(50000000);
	print_stats(fd, "");
	printf("close=%s\n", close(fd) ? errname(errno) : "OK");
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
		return printf("result=%s\n", errname(-fd)), 0;
	printf("start=%s\n", res(xioctl(fd, KPROFILE_IOC_START, NULL)));
	printf("hits_cpu1=%llu\n", wait_hits(fd, 0));
	printf("offline=%s\n", write_file(online, "0") ? errname(errno) : "OK");
	before = hits_now(fd);
	usleep(300000);
	printf("hits_while_offline=%llu\n", hits_now(fd) - before);
	before = hits_now(fd);
	printf("online=%s\n", write_file(online, "1") ? errname(errno) : "OK");
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
		return printf("result=%s\n", errname(-fd)), 0;
	printf("start=%s\n", res(xioctl(fd, KPROFILE_IOC_START, NULL)));
	close(dev);	/* only the profile fd holds the module now */
	fflush(stdout);
	sleep(argc > 0 ? atoi(argv[0]) : 10);
	return 0;
}

int main(int argc, char **argv)
{
	int i = 1;
	char *s = getenv("KP_SPIN_RANGE");	/* "BASE:END" from spin --where */

	if (s) {
		unsigned long long b, e;

		if (sscanf(s, "%llx:%llx", &b, &e) == 2 && e > b) {
			spin_base = b;
			spin_size = e - b;
		}
	}
	dev = open("/dev/" KPROFILE_DEVICE_NAME, O_RDWR | O_CLOEXEC);
	if (dev < 0)
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
		} else if (!strcmp(argv[i], "--uid") && i + 1 < argc) {
			int id = atoi(argv[++i]);

			if (setresgid(id, id, id) || setresuid(id, id, id))
				die("setresuid");
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
	if (!strcmp(argv[i], "spin")) {
		double end = cpu_seconds() + (i + 1 < argc ? atof(argv[i + 1]) : 1);

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

// SPDX-License-Identifier: GPL-2.0
/*
 * create.c - kp-profile's profile requests: the CREATE options, the
 * range and buffer they describe, creating the profile, reading it back.
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kp_profile.h"

/* The hot function, alone in its section so its range is exact. */
__attribute__((noinline, section("kp_phot")))
uint64_t kp_profile_hot(uint64_t n)
{
	volatile uint64_t x = 0;

	while (n--)
		x = x * 2862933555777941757ULL + 3037000493ULL;
	return x;
}

uint64_t spin_base, spin_size;

int dev = -1;
/* /proc, opened before privileges are dropped (the guest's / is 0700). */
int proc = -1;

void die(const char *what)
{
	kpt_die_status(2, what);
}

/* "OK" for 0, else the errno's name. */
const char *res(int e)
{
	return e ? kpt_errname(e) : "OK";
}

double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Keep only @cap (permitted and effective), after a uid change. */
void keep_only_cap(int cap)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	d[cap / 32].effective = d[cap / 32].permitted = 1U << (cap % 32);
	if (syscall(SYS_capset, &h, d))
		die("capset");
}

void drop_caps(void)
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


uint64_t needed(const struct kprofile_create_profile *r)
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
	c->map_size = map;
	if (!strncmp(c->buffer, "file:", 5)) {
		/* MAP_SHARED of a file (grown to fit if regular) or device. */
		const char *path = c->buffer + 5;
		struct stat st;
		int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

		if (fd < 0 || fstat(fd, &st))
			die(path);
		if (S_ISREG(st.st_mode) && st.st_size < (off_t)map &&
		    ftruncate(fd, map))
			die("ftruncate");
		p = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		close(fd);
	} else {
		p = mmap(NULL, map, PROT_READ | PROT_WRITE,
			 (strcmp(c->buffer, "shared") ? MAP_PRIVATE :
			  MAP_SHARED) | MAP_ANONYMOUS, -1, 0);
	}
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
	} else if (strcmp(c->buffer, "ok") && strcmp(c->buffer, "shared") &&
		   strncmp(c->buffer, "file:", 5)) {
		fprintf(stderr, "kp-profile: bad --buffer %s\n", c->buffer);
		exit(2);
	}
}

/* Parse CREATE options from argv[*i]; false when argv[*i] is not one. */
int parse_create(struct create *c, int argc, char **argv, int *i)
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
		} else if (!strcmp(v, "pid:self")) {
			c->req.target = KPROFILE_TARGET_PID;
			c->req.pid = getpid();
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

void create_defaults(struct create *c)
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
int create(struct create *c)
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

int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

void print_stats(int fd, const char *prefix)
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
	print_stats_ex(fd, prefix);
}

/* KPROFILE_IOC_PROFILE_STATS_EX: flags= and not_dumpable= (or the errno). */
void print_stats_ex(int fd, const char *prefix)
{
	struct kprofile_profile_stats_ex sx;

	if (ioctl(fd, KPROFILE_IOC_PROFILE_STATS_EX, &sx)) {
		printf("%sflags=%s\n%snot_dumpable=%s\n", prefix,
		       kpt_errname(errno), prefix, kpt_errname(errno));
		return;
	}
	printf("%sflags=%u\n%snot_dumpable=%llu\n", prefix, sx.flags, prefix,
	       (unsigned long long)sx.not_dumpable);
}

/* Sum of buckets [first, last] (volatile: the kernel writes them). */
uint64_t sum(const struct create *c, uint64_t first, uint64_t last)
{
	const volatile uint32_t *b = c->buckets;
	uint64_t s = 0, i;

	for (i = first; i <= last; i++)
		s += b[i];
	return s;
}

/* Buckets of [lo, hi) in profile c. */
void buckets_of(const struct create *c, uintptr_t lo, uintptr_t hi,
		       uint64_t *first, uint64_t *last)
{
	*first = (lo - c->req.base) >> c->req.bucket_shift;
	*last = (hi - 1 - c->req.base) >> c->req.bucket_shift;
}

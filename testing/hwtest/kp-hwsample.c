// SPDX-License-Identifier: GPL-2.0
/*
 * kp-hwsample - sampling checks for make hwtest that a PMU-less machine
 * cannot answer (hardware review, section 5).
 *
 *   kp-hwsample pair SRC1 SRC2 N INTERVAL
 *	two profiles of this process, two sources armed at once at
 *	INTERVAL, over N iterations of a loop of 3 instructions and one
 *	branch; prints events1= events2= (hits x interval) and
 *	expect_instructions= expect_branches=
 *   kp-hwsample rearm SRC SECONDS INTERVAL
 *	start and stop one profile over and over for SECONDS, running the
 *	loop while started; prints rounds= and dead= (rounds without a
 *	sample: sampling stopped)
 *   kp-hwsample hold SRC SECONDS INTERVAL
 *	start one profile and keep it started for SECONDS (CLOCK_MONOTONIC,
 *	which stands still while the machine is suspended), running the
 *	loop; notices a suspend by CLOCK_BOOTTIME pulling ahead of
 *	CLOCK_MONOTONIC; prints resumed= (0 or 1), before= (samples up to
 *	the first loop after the resume) and after= (samples since then)
 *   kp-hwsample exercise SRC N INTERVAL
 *	a profile of this whole process (user and kernel mode) while a mixed
 *	workload runs N rounds: memory streaming and misaligned loads,
 *	prefetches, calls and returns, taken and mispredicted branches,
 *	x87/MMX/SSE arithmetic, CPUID, CLFLUSH, locked operations and
 *	system calls; prints hits= (every sample of this process)
 *
 * Exit status: 0, 1 when an ioctl fails (errno and the source's reason
 * are printed), 2 on a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <cpuid.h>

#include <linux/kprofile.h>
#include "kp_test.h"

static int dev = -1;

static int fail(const char *what, unsigned int source)
{
	struct kprofile_source_info info = { .source = source };
	int e = errno;

	fprintf(stderr, "kp-hwsample: %s: %s\n", what, strerror(e));
	if (dev >= 0 && !ioctl(dev, KPROFILE_IOC_QUERY_SOURCE, &info) &&
	    info.reason[0])
		fprintf(stderr, "kp-hwsample: source 0x%x: %.*s\n", source,
			(int)sizeof(info.reason), info.reason);
	return 1;
}

struct prof {
	unsigned int source;
	int fd;
	uint32_t *buckets;
	size_t nb;
	uint32_t interval;
};

/* A stopped profile of [base, base + size) in 2^shift-byte buckets. */
static int prof_new(struct prof *p, unsigned int source, uintptr_t base,
		    uint64_t size, unsigned int shift, unsigned int mode,
		    uint32_t interval)
{
	struct kprofile_interval iv = { .source = source, .interval = interval };
	struct kprofile_create_profile cp;

	memset(p, 0, sizeof(*p));
	p->source = source;
	if (ioctl(dev, KPROFILE_IOC_SET_INTERVAL, &iv))
		return fail("KPROFILE_IOC_SET_INTERVAL", source);
	p->interval = iv.interval;
	p->nb = (size + (1ULL << shift) - 1) >> shift;
	p->buckets = calloc(p->nb, sizeof(*p->buckets));
	if (!p->buckets)
		return 2;
	memset(&cp, 0, sizeof(cp));
	cp.target = KPROFILE_TARGET_SELF;
	cp.base = base;
	cp.size = size;
	cp.buffer = (uintptr_t)p->buckets;
	cp.buffer_size = p->nb * sizeof(*p->buckets);
	cp.bucket_shift = shift;
	cp.source = source;
	cp.mode = mode;
	p->fd = ioctl(dev, KPROFILE_IOC_CREATE_PROFILE, &cp);
	return p->fd < 0 ? fail("KPROFILE_IOC_CREATE_PROFILE", source) : 0;
}

static uint64_t prof_samples(const struct prof *p)
{
	struct kprofile_profile_stats st = { 0 };

	if (ioctl(p->fd, KPROFILE_IOC_PROFILE_STATS, &st))
		return 0;
	return st.hits + st.outside;
}

extern char kp_sloop_start[], kp_sloop_end[];
asm(".text\n"
    ".globl kp_sloop\n"
    ".type kp_sloop, @function\n"
    ".p2align 6\n"
    "kp_sloop:\n"
    ".globl kp_sloop_start\n"
    "kp_sloop_start:\n"
    "	mov %rdi, %rcx\n"
    "	xor %eax, %eax\n"
    "1:	add $1, %rax\n"
    "	dec %rcx\n"
    "	jnz 1b\n"
    "	ret\n"
    ".globl kp_sloop_end\n"
    "kp_sloop_end:\n"
    ".size kp_sloop, . - kp_sloop\n");
unsigned long kp_sloop(unsigned long n);

static int pair(unsigned int s1, unsigned int s2, unsigned long n,
		uint32_t interval)
{
	uintptr_t base = (uintptr_t)kp_sloop_start;
	uint64_t size = kp_sloop_end - kp_sloop_start;
	struct prof a, b;
	int ret;

	ret = prof_new(&a, s1, base, size, 2, KPROFILE_MODE_USER, interval);
	if (!ret)
		ret = prof_new(&b, s2, base, size, 2, KPROFILE_MODE_USER,
			       interval);
	if (ret)
		return ret;
	if (ioctl(a.fd, KPROFILE_IOC_START))
		return fail("KPROFILE_IOC_START", s1);
	if (ioctl(b.fd, KPROFILE_IOC_START))
		return fail("KPROFILE_IOC_START", s2);
	kp_sloop(n);
	ioctl(a.fd, KPROFILE_IOC_STOP);
	ioctl(b.fd, KPROFILE_IOC_STOP);
	printf("expect_instructions=%lu\nexpect_branches=%lu\n", 3 * n, n);
	printf("interval=%u\n", a.interval);
	printf("events1=%llu\nevents2=%llu\n",
	       (unsigned long long)prof_samples(&a) * a.interval,
	       (unsigned long long)prof_samples(&b) * b.interval);
	return 0;
}

static double clock_s(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double now(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

/* Seconds the machine has spent suspended since it booted. */
static double slept(void)
{
	return clock_s(CLOCK_BOOTTIME) - now();
}

/* A user-mode profile of kp_sloop() in 4-byte buckets. */
static int prof_sloop(struct prof *p, unsigned int src, uint32_t interval)
{
	return prof_new(p, src, (uintptr_t)kp_sloop_start,
			kp_sloop_end - kp_sloop_start, 2, KPROFILE_MODE_USER,
			interval);
}

static int rearm(unsigned int src, double seconds, uint32_t interval)
{
	uint64_t before, rounds = 0, dead = 0;
	double end = now() + seconds;
	struct prof p;
	int ret;

	ret = prof_sloop(&p, src, interval);
	if (ret)
		return ret;
	while (now() < end) {
		before = prof_samples(&p);
		if (ioctl(p.fd, KPROFILE_IOC_START))
			return fail("KPROFILE_IOC_START", src);
		/* At least 20 periods per round. */
		kp_sloop(20ULL * p.interval);
		if (ioctl(p.fd, KPROFILE_IOC_STOP))
			return fail("KPROFILE_IOC_STOP", src);
		rounds++;
		dead += prof_samples(&p) == before;
	}
	printf("rounds=%llu\ndead=%llu\n", (unsigned long long)rounds,
	       (unsigned long long)dead);
	return 0;
}

static int hold(unsigned int src, double seconds, uint32_t interval)
{
	double end = now() + seconds, asleep = slept();
	uint64_t before = 0;
	int resumed = 0;
	struct prof p;
	int ret;

	ret = prof_sloop(&p, src, interval);
	if (ret)
		return ret;
	if (ioctl(p.fd, KPROFILE_IOC_START))
		return fail("KPROFILE_IOC_START", src);
	while (now() < end) {
		kp_sloop(20ULL * p.interval);
		/* A suspend of a second or more: rtcwake's is 5 s. */
		if (!resumed && slept() - asleep >= 1) {
			resumed = 1;
			before = prof_samples(&p);
		}
	}
	if (ioctl(p.fd, KPROFILE_IOC_STOP))
		return fail("KPROFILE_IOC_STOP", src);
	if (!resumed)
		before = prof_samples(&p);
	printf("resumed=%d\nbefore=%llu\nafter=%llu\n", resumed,
	       (unsigned long long)before,
	       (unsigned long long)(prof_samples(&p) - before));
	return 0;
}

static volatile double fsink;
static volatile unsigned long isink;

static __attribute__((noinline)) unsigned long leaf_call(unsigned long x)
{
	return x * 2654435761UL >> 7;
}

/* One round of everything the Amd64 table's events count. */
static void workload(unsigned char *buf, size_t len, unsigned long round)
{
	unsigned int a, b, c, d;
	unsigned long i, acc = round;
	double f = 1.0;

	for (i = 0; i < len; i += 64) {
		acc += buf[i];
		buf[(i * 7919) % len] ^= (unsigned char)i;
		__builtin_prefetch(buf + ((i + 4096) % len), 0, 0);
		__builtin_prefetch(buf + ((i + 8192) % len), 1, 3);
	}
	for (i = 1; i + 8 < len; i += 4093)
		acc += *(volatile uint64_t *)(buf + i);	/* misaligned */
	for (i = 0; i < 4096; i++) {
		acc += leaf_call(i);
		if ((acc ^ (acc >> 3)) & 1)			/* unpredictable */
			acc += 3;
		f = f * 1.0000001 + (double)i;
	}
	asm volatile("fld1\n\tfaddp\n\t" : "+t"(f));
	asm volatile("emms");
	fsink = f;
	__cpuid(0, a, b, c, d);
	acc += a + b + c + d;
	asm volatile("clflush (%0)" : : "r"(buf) : "memory");
	__atomic_fetch_add(&isink, 1, __ATOMIC_SEQ_CST);
	acc += getppid();
	isink += acc;
}

static int exercise(unsigned int src, unsigned long n, uint32_t interval)
{
	size_t len = 64 << 20;
	unsigned char *buf = calloc(1, len);
	unsigned long i;
	struct prof p;
	int ret;

	if (!buf)
		return 2;
	/* User space in 2^31-byte buckets; kernel samples count "outside". */
	ret = prof_new(&p, src, 0, 1ULL << 47, 31, KPROFILE_MODE_BOTH,
		       interval);
	if (ret)
		return ret;
	if (ioctl(p.fd, KPROFILE_IOC_START))
		return fail("KPROFILE_IOC_START", src);
	for (i = 0; i < n; i++)
		workload(buf, len, i);
	ioctl(p.fd, KPROFILE_IOC_STOP);
	printf("hits=%llu\n", (unsigned long long)prof_samples(&p));
	return 0;
}

int main(int argc, char **argv)
{
	dev = argc > 1 ? kpt_try_open_dev() : -1;
	if (argc > 1 && dev < 0)
		return 1;
	if (argc == 6 && !strcmp(argv[1], "pair"))
		return pair(strtoul(argv[2], NULL, 0), strtoul(argv[3], NULL, 0),
			    strtoul(argv[4], NULL, 0), strtoul(argv[5], NULL, 0));
	if (argc == 5 && !strcmp(argv[1], "rearm"))
		return rearm(strtoul(argv[2], NULL, 0), strtod(argv[3], NULL),
			     strtoul(argv[4], NULL, 0));
	if (argc == 5 && !strcmp(argv[1], "hold"))
		return hold(strtoul(argv[2], NULL, 0), strtod(argv[3], NULL),
			    strtoul(argv[4], NULL, 0));
	if (argc == 5 && !strcmp(argv[1], "exercise"))
		return exercise(strtoul(argv[2], NULL, 0),
				strtoul(argv[3], NULL, 0),
				strtoul(argv[4], NULL, 0));
	fprintf(stderr,
		"usage: kp-hwsample pair SRC1 SRC2 N INTERVAL | rearm SRC SECONDS INTERVAL |\n"
		"       hold SRC SECONDS INTERVAL | exercise SRC N INTERVAL\n");
	return 2;
}

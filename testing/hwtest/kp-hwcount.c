// SPDX-License-Identifier: GPL-2.0
/*
 * kp-hwcount - a loop of known instruction and branch counts, counted by
 * kprofile or by perf (make hwtest).
 *
 *   kp-hwcount loop N
 *	run the loop N times and exit (for `perf stat -e instructions:u`)
 *   kp-hwcount kprofile SOURCE N INTERVAL
 *	count user-mode events of SOURCE while the loop runs N times, with
 *	a kprofile profile of this process over the loop's code (4-byte
 *	buckets) at INTERVAL events per interrupt; prints hits= (in the
 *	loop), outside= (this process, elsewhere) and
 *	events=(hits + outside) * INTERVAL
 *
 * The loop is 3 instructions (add, dec, jnz) per iteration with one
 * branch; the program prints expect_instructions= and expect_branches=
 * for the loop alone (startup adds a few thousand more).
 *
 * Exit status: 0 on success, 1 when an ioctl fails (its errno name and
 * the source's reason are printed), 2 on a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/kprofile.h>
#include "kp_test.h"

extern char kp_loop_start[], kp_loop_end[];

/* kp_loop(n): n iterations of add; dec; jnz (3 instructions, 1 branch). */
asm(".text\n"
    ".globl kp_loop\n"
    ".type kp_loop, @function\n"
    ".p2align 6\n"
    "kp_loop:\n"
    ".globl kp_loop_start\n"
    "kp_loop_start:\n"
    "	mov %rdi, %rcx\n"
    "	xor %eax, %eax\n"
    "1:	add $1, %rax\n"
    "	dec %rcx\n"
    "	jnz 1b\n"
    "	ret\n"
    ".globl kp_loop_end\n"
    "kp_loop_end:\n"
    ".size kp_loop, . - kp_loop\n");
unsigned long kp_loop(unsigned long n);

static int fail(const char *what, int fd, unsigned int source)
{
	struct kprofile_source_info info;
	int e = errno;

	fprintf(stderr, "kp-hwcount: %s: %s\n", what, strerror(e));
	memset(&info, 0, sizeof(info));
	info.source = source;
	if (fd >= 0 && !ioctl(fd, KPROFILE_IOC_QUERY_SOURCE, &info) &&
	    info.reason[0])
		fprintf(stderr, "kp-hwcount: source 0x%x: %.*s\n", source,
			(int)sizeof(info.reason), info.reason);
	return 1;
}

static int count_kprofile(unsigned int source, unsigned long n,
			  unsigned int interval)
{
	struct kprofile_create_profile cp;
	struct kprofile_profile_stats st;
	struct kprofile_interval iv = { .source = source, .interval = interval };
	uint32_t *buckets;
	uint64_t hits = 0;
	size_t size, nb, i;
	int fd, pfd;

	fd = kpt_try_open_dev();
	if (fd < 0)
		return 1;
	if (ioctl(fd, KPROFILE_IOC_SET_INTERVAL, &iv))
		return fail("KPROFILE_IOC_SET_INTERVAL", fd, source);
	size = kp_loop_end - kp_loop_start;
	nb = (size + 3) / 4;
	buckets = calloc(nb, sizeof(*buckets));
	if (!buckets)
		return 2;
	memset(&cp, 0, sizeof(cp));
	cp.target = KPROFILE_TARGET_SELF;
	cp.base = (uintptr_t)kp_loop_start;
	cp.size = size;
	cp.buffer = (uintptr_t)buckets;
	cp.buffer_size = nb * sizeof(*buckets);
	cp.bucket_shift = 2;
	cp.source = source;
	cp.mode = KPROFILE_MODE_USER;
	pfd = ioctl(fd, KPROFILE_IOC_CREATE_PROFILE, &cp);
	if (pfd < 0)
		return fail("KPROFILE_IOC_CREATE_PROFILE", fd, source);
	if (ioctl(pfd, KPROFILE_IOC_START))
		return fail("KPROFILE_IOC_START", fd, source);
	kp_loop(n);
	if (ioctl(pfd, KPROFILE_IOC_STOP))
		return fail("KPROFILE_IOC_STOP", fd, source);
	memset(&st, 0, sizeof(st));
	if (ioctl(pfd, KPROFILE_IOC_PROFILE_STATS, &st))
		return fail("KPROFILE_IOC_PROFILE_STATS", fd, source);
	for (i = 0; i < nb; i++)
		hits += buckets[i];
	printf("interval=%u\n", iv.interval);
	printf("hits=%llu\n", (unsigned long long)hits);
	printf("stats_hits=%llu\n", (unsigned long long)st.hits);
	printf("outside=%llu\n", (unsigned long long)st.outside);
	printf("events=%llu\n",
	       (unsigned long long)(hits + st.outside) * iv.interval);
	close(pfd);
	close(fd);
	free(buckets);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long n;

	if (argc == 3 && !strcmp(argv[1], "loop")) {
		n = strtoul(argv[2], NULL, 0);
		printf("expect_instructions=%lu\nexpect_branches=%lu\n",
		       3 * n, n);
		return kp_loop(n) == n ? 0 : 1;
	}
	if (argc == 5 && !strcmp(argv[1], "kprofile"))
		return count_kprofile(strtoul(argv[2], NULL, 0),
				      strtoul(argv[3], NULL, 0),
				      strtoul(argv[4], NULL, 0));
	fprintf(stderr,
		"usage: kp-hwcount loop N | kprofile SOURCE N INTERVAL\n");
	return 2;
}

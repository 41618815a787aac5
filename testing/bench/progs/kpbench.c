// SPDX-License-Identifier: GPL-2.0
/*
 * kpbench - the kernel's cost of one sample, without any record tool: the
 * profiler is driven from inside this process around a timed loop.
 *
 *   kpbench none ITER           the loop alone
 *   kpbench perf ITER           one cpu-clock perf event on this thread at
 *                               ProfileTime's maximum rate, IP|TID|TIME
 *                               samples into a 512 KiB ring buffer (as
 *                               `perf record` sets it up; nobody reads it
 *                               during the loop, so it must hold them all:
 *                               ITER is a fraction of a second)
 *   kpbench kp N OTHER ITER     N started ProfileTime profiles at the
 *                               maximum rate: one over the loop (hits),
 *                               OTHER of another process (pid 1), and
 *                               N-1-OTHER of this process over ranges the
 *                               loop never reaches (misses)
 *
 * Prints one line: kpbench mode=... n=N other=OTHER interval=I ns=LOOP
 * samples=S start_ns=CREATE_AND_START stop_ns=STOP_AND_CLOSE_ALL
 * (samples: the hit profile's hits, or perf's sample records).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/kprofile.h>

static volatile unsigned long sink;

__attribute__((noinline, aligned(4096))) unsigned long kp_hot(unsigned long n,
							      unsigned long x)
{
	while (n--) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "kpbench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static unsigned int max_rate_interval(int dev)
{
	struct kprofile_interval iv = { .source = KPROFILE_SOURCE_TIME, .interval = 1 };

	if (ioctl(dev, KPROFILE_IOC_SET_INTERVAL, &iv))
		die("KPROFILE_IOC_SET_INTERVAL");
	return iv.interval;
}

static int create(int dev, int pid, unsigned long base, unsigned long size)
{
	struct kprofile_create_profile c;
	void *buf;
	size_t bytes = ((size >> 4) * 4 + 4095) & ~4095UL;
	int fd;

	buf = aligned_alloc(4096, bytes);
	if (!buf)
		die("aligned_alloc");
	memset(buf, 0, bytes);
	memset(&c, 0, sizeof(c));
	c.target = pid ? KPROFILE_TARGET_PID : KPROFILE_TARGET_SELF;
	c.pid = pid;
	c.base = base;
	c.size = size;
	c.buffer = (unsigned long)buf;
	c.buffer_size = bytes;
	c.bucket_shift = 4;
	c.source = KPROFILE_SOURCE_TIME;
	c.mode = KPROFILE_MODE_USER;
	fd = ioctl(dev, KPROFILE_IOC_CREATE_PROFILE, &c);
	if (fd < 0)
		die("KPROFILE_IOC_CREATE_PROFILE");
	return fd;
}

static int run_kp(int n, int other, unsigned long iters)
{
	struct kprofile_profile_stats st;
	struct rlimit rl;
	long long t0, t1, t2, t3, t4;
	unsigned int interval;
	int dev, i, *fds;

	if (n < 1 || other < 0 || other > n - 1)
		return 2;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)n + 64) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	dev = open("/dev/kprofile", O_RDWR | O_CLOEXEC);
	if (dev < 0)
		die("/dev/kprofile");
	interval = max_rate_interval(dev);
	fds = calloc(n, sizeof(*fds));
	if (!fds)
		die("calloc");
	t0 = now_ns();
	fds[0] = create(dev, 0, (unsigned long)kp_hot, 4096);
	for (i = 1; i < n; i++)
		fds[i] = create(dev, i <= other ? 1 : 0, 0x10000000UL + i * 8192UL, 4096);
	for (i = 0; i < n; i++)
		if (ioctl(fds[i], KPROFILE_IOC_START))
			die("KPROFILE_IOC_START");
	t1 = now_ns();
	sink = kp_hot(iters, 1);
	t2 = now_ns();
	if (ioctl(fds[0], KPROFILE_IOC_PROFILE_STATS, &st))
		die("KPROFILE_IOC_PROFILE_STATS");
	t3 = now_ns();
	for (i = n - 1; i >= 0; i--)
		if (ioctl(fds[i], KPROFILE_IOC_STOP))
			die("KPROFILE_IOC_STOP");
	for (i = 0; i < n; i++)
		close(fds[i]);
	t4 = now_ns();
	printf("kpbench mode=kp n=%d other=%d interval=%u ns=%lld samples=%llu "
	       "start_ns=%lld stop_ns=%lld\n", n, other, interval, t2 - t1,
	       (unsigned long long)st.hits, t1 - t0, t4 - t3);
	return 0;
}

static int run_perf(unsigned long iters)
{
	/*
	 * perf record's default: 128 data pages.  (A 32 MiB buffer's pages,
	 * freed by RCU after exit, cost the next program ~5 ms of the one
	 * vCPU.)
	 */
	const size_t pages = 128;
	struct perf_event_attr a;
	struct perf_event_mmap_page *meta;
	unsigned long long head, off, samples = 0;
	unsigned int interval;
	long long t1, t2;
	size_t psz = 4096;
	char *ring;
	int dev, fd;

	dev = open("/dev/kprofile", O_RDWR | O_CLOEXEC);
	if (dev < 0)
		die("/dev/kprofile");
	interval = max_rate_interval(dev);
	close(dev);
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = interval * 100ULL;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.disabled = 1;
	a.watermark = 0;
	a.wakeup_events = 0;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0)
		die("perf_event_open");
	ring = mmap(NULL, (pages + 1) * psz, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ring == MAP_FAILED)
		die("mmap ring buffer");
	meta = (void *)ring;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	t1 = now_ns();
	sink = kp_hot(iters, 1);
	t2 = now_ns();
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	for (off = 0; off < head && off < pages * psz;) {
		struct perf_event_header *h = (void *)(ring + psz + off);

		if (!h->size)
			break;
		samples += h->type == PERF_RECORD_SAMPLE;
		off += h->size;
	}
	printf("kpbench mode=perf n=0 other=0 interval=%u ns=%lld samples=%llu "
	       "start_ns=0 stop_ns=0\n", interval, t2 - t1, samples);
	return 0;
}

int main(int argc, char **argv)
{
	long long t1, t2;

	if (argc == 3 && !strcmp(argv[1], "none")) {
		t1 = now_ns();
		sink = kp_hot(strtoul(argv[2], NULL, 0), 1);
		t2 = now_ns();
		printf("kpbench mode=none n=0 other=0 interval=0 ns=%lld samples=0 "
		       "start_ns=0 stop_ns=0\n", t2 - t1);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "perf"))
		return run_perf(strtoul(argv[2], NULL, 0));
	if (argc == 5 && !strcmp(argv[1], "kp"))
		return run_kp(atoi(argv[2]), atoi(argv[3]), strtoul(argv[4], NULL, 0));
	fprintf(stderr, "usage: kpbench none ITER | perf ITER | kp N OTHER ITER\n");
	return 2;
}

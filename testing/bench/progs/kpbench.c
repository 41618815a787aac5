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
 *   kpbench kp N OTHER ITER [WAIT_MS]
 *                               N started ProfileTime profiles at the
 *                               maximum rate: one over the loop (hits),
 *                               OTHER of another process (pid 1), and
 *                               N-1-OTHER of this process over ranges the
 *                               loop never reaches (misses); WAIT_MS:
 *                               sleep that long between the last start
 *                               and the loop, so that the work the starts
 *                               deferred past a grace period (folding
 *                               each replaced index snapshot) is done
 *                               before it: the loop then measures the
 *                               steady state alone (wait_ms= in the line)
 *
 *   kpbench stream CHAIN ITER   a sample stream of this process
 *                               (KPROFILE_IOC_CREATE_STREAM: ProfileTime at
 *                               the maximum rate, user mode, the module's
 *                               default frames and ring pages; CHAIN 1:
 *                               KPROFILE_STREAM_CALLCHAIN), mapped, drained
 *                               between slices of the loop (below)
 *   kpbench kpstream CHAIN ITER the stream beside one profile over the loop
 *                               (kp 1 0's): both take every interrupt
 *   (either with a last argument DEPTH: the loop runs DEPTH calls deeper,
 *   so that a call stack has DEPTH more frames to walk)
 *
 * Prints one line: kpbench mode=... n=N other=OTHER interval=I ns=LOOP
 * samples=S start_ns=CREATE_AND_START stop_ns=STOP_AND_CLOSE_ALL
 * (samples: the hit profile's hits, or perf's sample records).
 *
 * The stream modes add: chain=CHAIN depth=DEPTH hits=H hot=K records=R
 * info_samples=I lost=L frames=F bytes=B drain_ns=D slices=N.  The
 * default ring (16 pages, 64 KiB a CPU) holds well under a second of
 * samples at the maximum rate, so the loop runs in slices of about 4 ms
 * and the rings are drained between them, as a record tool would: ns is
 * the sum of the slices (the loop alone, as in the other modes), drain_ns
 * the rest of the section (the drains and the clock reads around the
 * slices).
 * samples is the profile's hits (kpstream) or the stream's samples whose
 * ip is in the loop (stream): the interrupts whose cost is in ns.  hot:
 * the stream's samples in the loop; records: every sample record read;
 * info_samples, lost: KPROFILE_IOC_STREAM_INFO after the stop; frames:
 * call-stack entries per sample record (mean); bytes: sample record bytes
 * read.
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
#include "kp_test.h"
#include <linux/kprofile_stream.h>

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

/* kp_hot, @depth frames down (each keeps its frame: it is no tail call). */
__attribute__((noinline)) static unsigned long kp_deep(int depth, unsigned long n,
						       unsigned long x)
{
	if (depth <= 0)
		return kp_hot(n, x);
	x = kp_deep(depth - 1, n, x);
	__asm__ volatile("" : "+r"(x));
	return x;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static unsigned int max_rate_interval(int dev)
{
	struct kprofile_interval iv = { .source = KPROFILE_SOURCE_TIME, .interval = 1 };

	if (ioctl(dev, KPROFILE_IOC_SET_INTERVAL, &iv))
		kpt_die("KPROFILE_IOC_SET_INTERVAL");
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
		kpt_die("aligned_alloc");
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
		kpt_die("KPROFILE_IOC_CREATE_PROFILE");
	return fd;
}

static int run_kp(int n, int other, unsigned long iters, int wait_ms)
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
	dev = kpt_open_dev();
	interval = max_rate_interval(dev);
	fds = calloc(n, sizeof(*fds));
	if (!fds)
		kpt_die("calloc");
	t0 = now_ns();
	fds[0] = create(dev, 0, (unsigned long)kp_hot, 4096);
	for (i = 1; i < n; i++)
		fds[i] = create(dev, i <= other ? 1 : 0, 0x10000000UL + i * 8192UL, 4096);
	for (i = 0; i < n; i++)
		if (ioctl(fds[i], KPROFILE_IOC_START))
			kpt_die("KPROFILE_IOC_START");
	if (wait_ms > 0)
		usleep(wait_ms * 1000);
	t1 = now_ns();
	sink = kp_hot(iters, 1);
	t2 = now_ns();
	if (ioctl(fds[0], KPROFILE_IOC_PROFILE_STATS, &st))
		kpt_die("KPROFILE_IOC_PROFILE_STATS");
	t3 = now_ns();
	for (i = n - 1; i >= 0; i--)
		if (ioctl(fds[i], KPROFILE_IOC_STOP))
			kpt_die("KPROFILE_IOC_STOP");
	for (i = 0; i < n; i++)
		close(fds[i]);
	t4 = now_ns();
	printf("kpbench mode=kp n=%d other=%d interval=%u ns=%lld samples=%llu "
	       "start_ns=%lld stop_ns=%lld wait_ms=%d\n", n, other, interval, t2 - t1,
	       (unsigned long long)st.hits, t1 - t0 - wait_ms * 1000000LL, t4 - t3, wait_ms);
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

	dev = kpt_open_dev();
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
		kpt_die("perf_event_open");
	ring = mmap(NULL, (pages + 1) * psz, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ring == MAP_FAILED)
		kpt_die("mmap ring buffer");
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

/* The stream's rings, as mapped, and what was read from them. */
struct stream_reader {
	unsigned char *map;
	size_t map_bytes;
	unsigned int nr_rings, ring_bytes;
	unsigned long long records, hot, frames, bytes;
};

static void drain(struct stream_reader *r)
{
	const unsigned long lo = (unsigned long)kp_hot, hi = lo + 4096;
	unsigned int i;

	for (i = 0; i < r->nr_rings; i++) {
		struct kprofile_stream_page *pg = (void *)(r->map + (size_t)i * r->ring_bytes);
		const unsigned char *data = (const unsigned char *)pg + pg->data_offset;
		unsigned long long head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
		unsigned long long tail = pg->data_tail;

		while (tail < head) {
			const struct kprofile_record_header *h =
				(const void *)(data + tail % pg->data_size);

			if (h->size < sizeof(*h) || h->size % 8 || h->size > head - tail) {
				errno = EPROTO;
				kpt_die("a malformed stream record");
			}
			if (h->type == KPROFILE_RECORD_SAMPLE) {
				const struct kprofile_record_sample *s = (const void *)h;

				r->records++;
				r->hot += s->ip >= lo && s->ip < hi;
				r->frames += s->nr_kernel + s->nr_user;
				r->bytes += h->size;
			}
			tail += h->size;
		}
		__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
	}
}

static int run_stream(int with_profile, int chain, unsigned long iters, int depth)
{
	struct kprofile_create_stream c;
	struct kprofile_stream_info info;
	struct kprofile_profile_stats st;
	struct stream_reader r;
	__u32 source = KPROFILE_SOURCE_TIME;
	unsigned long long loop_ns = 0, slices = 0;
	unsigned long done = 0, slice = 1UL << 16, x = 1;
	long long t0, t1, t2, t3, t4, ta, tb;
	unsigned int interval;
	int dev, sfd, pfd = -1;

	if ((chain != 0 && chain != 1) || depth < 0 || depth > 1000)
		return 2;
	dev = kpt_open_dev();
	interval = max_rate_interval(dev);
	memset(&c, 0, sizeof(c));
	memset(&r, 0, sizeof(r));
	memset(&st, 0, sizeof(st));
	c.target = KPROFILE_TARGET_SELF;
	c.flags = chain ? KPROFILE_STREAM_CALLCHAIN : 0;
	c.mode = KPROFILE_MODE_USER;
	c.nr_sources = 1;
	c.sources = (unsigned long)&source;
	t0 = now_ns();
	if (with_profile)
		pfd = create(dev, 0, (unsigned long)kp_hot, 4096);
	sfd = ioctl(dev, KPROFILE_IOC_CREATE_STREAM, &c);
	if (sfd < 0)
		kpt_die("KPROFILE_IOC_CREATE_STREAM");
	if (ioctl(sfd, KPROFILE_IOC_STREAM_INFO, &info))
		kpt_die("KPROFILE_IOC_STREAM_INFO");
	r.nr_rings = info.nr_rings;
	r.ring_bytes = (1 + info.ring_pages) * info.page_size;
	r.map_bytes = (size_t)r.nr_rings * r.ring_bytes;
	r.map = mmap(NULL, r.map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, sfd, 0);
	if (r.map == MAP_FAILED)
		kpt_die("mmap the stream");
	if (pfd >= 0 && ioctl(pfd, KPROFILE_IOC_START))
		kpt_die("KPROFILE_IOC_START (profile)");
	if (ioctl(sfd, KPROFILE_IOC_START))
		kpt_die("KPROFILE_IOC_START (stream)");
	t1 = now_ns();
	/*
	 * Slices of about 4 ms (the first 65536 iterations, then sized from
	 * the loop's speed so far), each followed by a drain: the ring never
	 * holds more than a few ms of samples.
	 */
	while (done < iters) {
		unsigned long n = iters - done < slice ? iters - done : slice;

		ta = now_ns();
		x = kp_deep(depth, n, x);
		tb = now_ns();
		loop_ns += tb - ta;
		done += n;
		slices++;
		drain(&r);
		if (loop_ns > 0) {
			slice = (unsigned long)((double)done * 4e6 / (double)loop_ns);
			if (slice < 4096)
				slice = 4096;
		}
	}
	t2 = now_ns();
	sink = x;
	if (pfd >= 0 && ioctl(pfd, KPROFILE_IOC_PROFILE_STATS, &st))
		kpt_die("KPROFILE_IOC_PROFILE_STATS");
	t3 = now_ns();
	if (ioctl(sfd, KPROFILE_IOC_STOP))
		kpt_die("KPROFILE_IOC_STOP (stream)");
	if (pfd >= 0 && ioctl(pfd, KPROFILE_IOC_STOP))
		kpt_die("KPROFILE_IOC_STOP (profile)");
	tb = now_ns();
	/* The last records; stop_ns is the stops, unmap and close, not this. */
	drain(&r);
	if (ioctl(sfd, KPROFILE_IOC_STREAM_INFO, &info))
		kpt_die("KPROFILE_IOC_STREAM_INFO");
	ta = now_ns();
	munmap(r.map, r.map_bytes);
	close(sfd);
	if (pfd >= 0)
		close(pfd);
	t4 = now_ns() - ta + tb;
	printf("kpbench mode=%s n=%d other=0 interval=%u ns=%llu samples=%llu "
	       "start_ns=%lld stop_ns=%lld chain=%d depth=%d hits=%llu hot=%llu records=%llu "
	       "info_samples=%llu lost=%llu frames=%.2f bytes=%llu drain_ns=%lld slices=%llu\n",
	       with_profile ? "kpstream" : "stream", with_profile ? 1 : 0, interval, loop_ns,
	       with_profile ? (unsigned long long)st.hits : r.hot, t1 - t0, t4 - t3, chain, depth,
	       (unsigned long long)st.hits, r.hot, r.records,
	       (unsigned long long)info.samples, (unsigned long long)info.lost,
	       r.records ? (double)r.frames / r.records : 0.0, r.bytes,
	       (long long)(t2 - t1) - (long long)loop_ns, slices);
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
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "kp"))
		return run_kp(atoi(argv[2]), atoi(argv[3]), strtoul(argv[4], NULL, 0),
			      argc == 6 ? atoi(argv[5]) : 0);
	if ((argc == 4 || argc == 5) &&
	    (!strcmp(argv[1], "stream") || !strcmp(argv[1], "kpstream")))
		return run_stream(!strcmp(argv[1], "kpstream"), atoi(argv[2]),
				  strtoul(argv[3], NULL, 0), argc == 5 ? atoi(argv[4]) : 0);
	fprintf(stderr, "usage: kpbench none ITER | perf ITER | kp N OTHER ITER | "
		"stream CHAIN ITER [DEPTH] | kpstream CHAIN ITER [DEPTH]\n");
	return 2;
}

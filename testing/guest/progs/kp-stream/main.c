// SPDX-License-Identifier: GPL-2.0
/*
 * kp-stream - the sample stream ABI (include/uapi/linux/kprofile_stream.h)
 * from user space alone, without the kprofile tool, for
 * testing/guest/56-stream-abi.sh.  Each command prints key=value lines.
 *
 *   kp-stream self SECONDS	a stream of itself (ProfileTime, user mode,
 *				call stacks) read by a thread while the main
 *				thread spins in leaf() called by caller()
 *   kp-stream inherit 1|0	with (1) or without (0) INHERIT: a forked
 *				child forks a grandchild, both spin, the
 *				child execs /bin/true; the task records and
 *				whose samples the stream holds
 *   kp-stream kernel SECONDS	two streams of itself, kernel and user mode
 *				and user mode only, while it reads /dev/zero
 *				and spins as long in user mode
 *   kp-stream system		a system-wide stream while a child spins
 *   kp-stream lost SECONDS	one-page rings nobody reads: losses counted
 *   kp-stream exec PROG ARGS	INHERIT: a child spins, then execs PROG; its
 *				samples before and after the exec, the task
 *				records, EXEC_STOPPED (a set-user-ID PROG)
 *   kp-stream errors		the create errors, START/STOP states, mmap
 *   kp-stream spin SECONDS	spin in leaf() (an exec target)
 *
 * Exit status: 0 when the command ran (the script checks the values), 1
 * when it could not, 2 on a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/kprofile.h>
#include "kp_test.h"

#define KADDR	0x8000000000000000ULL	/* kernel addresses have bit 63 */
#define NOINLINE __attribute__((noinline, noclone))

int main(int argc, char **argv);

static volatile unsigned long sink;

/*
 * The hot leaf, and its caller (never a tail call: sink++ after it).  The
 * leaf calls touch() once at its end so that it sets up a frame pointer
 * (gcc 12 omits it in leaf functions whatever -mno-omit-leaf-frame-pointer
 * says): the frame-pointer walk then finds caller().
 */
static NOINLINE void touch(void)
{
	__asm__ volatile("");
}

static NOINLINE void leaf(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		sink += i;
	touch();
}

static NOINLINE void caller(unsigned long n)
{
	leaf(n);
	sink++;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static NOINLINE void spin(double seconds)
{
	double end = now() + seconds;

	while (now() < end)
		caller(20000);
}

/* Function extents: from its address to the next known function's. */
static uintptr_t known[7];

static void know_functions(void)
{
	known[0] = (uintptr_t)leaf;
	known[1] = (uintptr_t)caller;
	known[2] = (uintptr_t)spin;
	known[3] = (uintptr_t)now;
	known[4] = (uintptr_t)know_functions;
	known[5] = (uintptr_t)main;
	known[6] = (uintptr_t)touch;
}

static int in_function(uint64_t addr, void (*fn)(unsigned long))
{
	uintptr_t start = (uintptr_t)fn, end = start + 4096;
	unsigned int i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (known[i] > start && known[i] < end)
			end = known[i];
	return addr >= start && addr < end;
}

/* ---- a stream: create, map, read ------------------------------------ */

struct stream {
	int fd;
	struct kprofile_stream_info info;
	char *map;
	size_t len;
};

static int dev_fd(void)
{
	int fd = open("/dev/" KPROFILE_DEVICE_NAME, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		kpt_die("/dev/" KPROFILE_DEVICE_NAME);
	return fd;
}

/* CREATE_STREAM: the fd, or -errno. */
static int create(int dev, struct kprofile_create_stream *req)
{
	int fd = ioctl(dev, KPROFILE_IOC_CREATE_STREAM, req);

	return fd < 0 ? -errno : fd;
}

static void init_req(struct kprofile_create_stream *req, __u32 target,
		     __u32 flags, __u32 mode, const __u32 *src, __u32 nr)
{
	memset(req, 0, sizeof(*req));
	req->target = target;
	req->flags = flags;
	req->mode = mode;
	req->nr_sources = nr;
	req->sources = (uintptr_t)src;
}

static void info(struct stream *s)
{
	if (ioctl(s->fd, KPROFILE_IOC_STREAM_INFO, &s->info))
		kpt_die("KPROFILE_IOC_STREAM_INFO");
}

static void open_stream(struct stream *s, int dev,
			struct kprofile_create_stream *req)
{
	s->fd = create(dev, req);
	if (s->fd < 0) {
		errno = -s->fd;
		kpt_die("KPROFILE_IOC_CREATE_STREAM");
	}
	info(s);
	s->len = (size_t)s->info.nr_rings * (1 + s->info.ring_pages) *
		 s->info.page_size;
	s->map = mmap(NULL, s->len, PROT_READ | PROT_WRITE, MAP_SHARED,
		      s->fd, 0);
	if (s->map == MAP_FAILED)
		kpt_die("mmap");
}

static struct kprofile_stream_page *ring(struct stream *s, unsigned int i)
{
	return (void *)(s->map + (size_t)i * (1 + s->info.ring_pages) *
			s->info.page_size);
}

/* What the records said. */
#define MAX_TASKS 64
#define MAX_SAMPLES 4096
struct tally {
	unsigned long records, samples, user, kernel, pads, bad;
	unsigned long leaf, leaf_caller, ip_first, truncated, kaddr;
	unsigned long kernel_ok, kernel_user_stack, kernel_frames_bad;
	unsigned long wrong_pid;
	pid_t self;
	unsigned long by_pid_n[MAX_TASKS];
	pid_t by_pid[MAX_TASKS];
	unsigned int nr_pids;
	struct kprofile_record_task tasks[MAX_TASKS];
	unsigned int nr_tasks;
	pid_t sample_pid[MAX_SAMPLES];
	__u64 sample_time[MAX_SAMPLES];
	unsigned int nr_samples;
};

static void count_pid(struct tally *t, pid_t pid)
{
	unsigned int i;

	for (i = 0; i < t->nr_pids; i++) {
		if (t->by_pid[i] == pid) {
			t->by_pid_n[i]++;
			return;
		}
	}
	if (t->nr_pids < MAX_TASKS) {
		t->by_pid[t->nr_pids] = pid;
		t->by_pid_n[t->nr_pids++] = 1;
	}
}

static unsigned long samples_of(const struct tally *t, pid_t pid)
{
	unsigned int i;

	for (i = 0; i < t->nr_pids; i++)
		if (t->by_pid[i] == pid)
			return t->by_pid_n[i];
	return 0;
}

static void sample(struct tally *t, const struct kprofile_record_sample *r)
{
	unsigned int n = r->nr_kernel + r->nr_user, i;

	t->samples++;
	count_pid(t, r->pid);
	if (t->nr_samples < MAX_SAMPLES) {
		t->sample_pid[t->nr_samples] = r->pid;
		t->sample_time[t->nr_samples++] = r->time;
	}
	if (t->self && r->pid != t->self)
		t->wrong_pid++;
	if (r->header.size != sizeof(*r) + n * sizeof(__u64)) {
		t->bad++;
		return;
	}
	if (r->flags & KPROFILE_SAMPLE_TRUNCATED)
		t->truncated++;
	/* Kernel addresses where only user ones may be. */
	if ((r->flags & KPROFILE_SAMPLE_USER) && (r->ip & KADDR))
		t->kaddr++;
	for (i = r->nr_kernel; i < n; i++)
		if (r->frames[i] & KADDR)
			t->kaddr++;
	if (n && r->frames[0] == r->ip)
		t->ip_first++;
	if (r->flags & KPROFILE_SAMPLE_USER) {
		t->user++;
		if (r->nr_kernel)
			t->bad++;
		if (n && in_function(r->frames[0], leaf)) {
			t->leaf++;
			if (n > 1 && in_function(r->frames[1], caller))
				t->leaf_caller++;
		}
		return;
	}
	t->kernel++;
	if (r->nr_kernel && r->frames[0] == r->ip && (r->ip & KADDR))
		t->kernel_ok++;
	for (i = 0; i < r->nr_kernel; i++)
		if (!(r->frames[i] & KADDR))
			t->kernel_frames_bad++;
	if (r->nr_user && !(r->frames[r->nr_kernel] & KADDR))
		t->kernel_user_stack++;
}

static void record(struct tally *t, const struct kprofile_record_header *h)
{
	if (h->type == KPROFILE_RECORD_PAD) {
		t->pads++;
		return;
	}
	t->records++;
	switch (h->type) {
	case KPROFILE_RECORD_SAMPLE:
		sample(t, (const void *)h);
		break;
	case KPROFILE_RECORD_FORK:
	case KPROFILE_RECORD_EXEC:
	case KPROFILE_RECORD_EXIT:
		if (h->size != sizeof(struct kprofile_record_task))
			t->bad++;
		else if (t->nr_tasks < MAX_TASKS)
			memcpy(&t->tasks[t->nr_tasks++], h, h->size);
		break;
	default:
		t->bad++;
	}
}

/* Read every ring from data_tail to data_head, and free the space. */
static void drain(struct stream *s, struct tally *t)
{
	unsigned int i;

	for (i = 0; i < s->info.nr_rings; i++) {
		struct kprofile_stream_page *pg = ring(s, i);
		char *data = (char *)pg + pg->data_offset;
		__u64 size = pg->data_size, head, tail, off;

		head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
		tail = pg->data_tail;
		while (tail < head) {
			const struct kprofile_record_header *h;

			off = tail & (size - 1);
			h = (const void *)(data + off);
			if (h->size < sizeof(*h) || h->size % 8 ||
			    off + h->size > size || tail + h->size > head) {
				t->bad++;
				tail = head;
				break;
			}
			record(t, h);
			tail += h->size;
		}
		__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
	}
}

static void start(struct stream *s)
{
	if (ioctl(s->fd, KPROFILE_IOC_START))
		kpt_die("KPROFILE_IOC_START");
}

static void stop(struct stream *s)
{
	if (ioctl(s->fd, KPROFILE_IOC_STOP))
		kpt_die("KPROFILE_IOC_STOP");
	info(s);
}

static void print_info(const char *p, const struct stream *s)
{
	printf("%sinfo_samples=%llu\n", p, (unsigned long long)s->info.samples);
	printf("%sinfo_lost=%llu\n", p, (unsigned long long)s->info.lost);
	printf("%sinfo_untracked=%llu\n", p,
	       (unsigned long long)s->info.untracked);
	printf("%sinfo_not_dumpable=%llu\n", p,
	       (unsigned long long)s->info.not_dumpable);
	printf("%sinfo_flags=%u\n", p,
	       s->info.flags & ~KPROFILE_STREAM_INFO_POLL);
	printf("%sinfo_poll=%u\n", p,
	       !!(s->info.flags & KPROFILE_STREAM_INFO_POLL));
}

static void print_tally(const char *p, const struct tally *t)
{
	printf("%srecords=%lu\n%ssamples=%lu\n%suser=%lu\n%skernel=%lu\n",
	       p, t->records, p, t->samples, p, t->user, p, t->kernel);
	printf("%sbad=%lu\n%struncated=%lu\n%sip_first=%lu\n", p, t->bad, p,
	       t->truncated, p, t->ip_first);
	printf("%sleaf=%lu\n%sleaf_caller=%lu\n%skaddr=%lu\n", p, t->leaf, p,
	       t->leaf_caller, p, t->kaddr);
	printf("%swrong_pid=%lu\n%spids=%u\n", p, t->wrong_pid, p, t->nr_pids);
}

/* ---- commands -------------------------------------------------------- */

static const __u32 time_src[] = { KPROFILE_SOURCE_TIME };

static volatile int reading = 1;

static void *reader(void *arg)
{
	void **a = arg;

	while (__atomic_load_n(&reading, __ATOMIC_ACQUIRE)) {
		drain(a[0], a[1]);
		usleep(2000);
	}
	return NULL;
}

static int cmd_self(double seconds)
{
	struct kprofile_create_stream req;
	struct tally t = { .self = getpid() };
	struct stream s;
	void *arg[2] = { &s, &t };
	pthread_t th;

	init_req(&req, KPROFILE_TARGET_SELF, KPROFILE_STREAM_CALLCHAIN,
		 KPROFILE_MODE_USER, time_src, 1);
	open_stream(&s, dev_fd(), &req);
	start(&s);
	if (pthread_create(&th, NULL, reader, arg))
		kpt_die("pthread_create");
	spin(seconds);
	stop(&s);
	__atomic_store_n(&reading, 0, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	drain(&s, &t);
	print_tally("", &t);
	print_info("", &s);
	return 0;
}

static int find_task(const struct tally *t, __u32 type, pid_t pid,
		     pid_t ppid)
{
	unsigned int i;

	for (i = 0; i < t->nr_tasks; i++)
		if (t->tasks[i].header.type == type &&
		    t->tasks[i].pid == pid && (!ppid || t->tasks[i].ppid == ppid))
			return i;
	return -1;
}

/*
 * A child that forks a grandchild (which spins and exits), spins, tells
 * the grandchild's pid through @pipe, then execs /bin/true.
 */
static void child_family(int wfd)
{
	pid_t g = fork();

	if (g < 0)
		kpt_die("fork");
	if (!g) {
		spin(0.3);
		_exit(0);
	}
	if (write(wfd, &g, sizeof(g)) != sizeof(g))
		kpt_die("write");
	spin(0.3);
	waitpid(g, NULL, 0);
	execl("/bin/true", "true", (char *)NULL);
	_exit(127);
}

static int cmd_inherit(int inherit)
{
	struct kprofile_create_stream req;
	struct tally t = { 0 };
	struct stream s;
	pid_t self = getpid(), c, g = 0;
	int p[2], e;

	init_req(&req, KPROFILE_TARGET_SELF,
		 KPROFILE_STREAM_CALLCHAIN |
		 (inherit ? KPROFILE_STREAM_INHERIT : 0),
		 KPROFILE_MODE_USER, time_src, 1);
	/* The reader drains after the child is done: room for all of it. */
	req.ring_pages = 256;
	open_stream(&s, dev_fd(), &req);
	if (pipe(p))
		kpt_die("pipe");
	start(&s);
	c = fork();
	if (c < 0)
		kpt_die("fork");
	if (!c) {
		close(p[0]);
		child_family(p[1]);
	}
	close(p[1]);
	if (read(p[0], &g, sizeof(g)) != sizeof(g))
		kpt_die("read");
	spin(0.2);
	waitpid(c, NULL, 0);
	stop(&s);
	drain(&s, &t);
	print_tally("", &t);
	print_info("", &s);
	printf("samples_self=%lu\n", samples_of(&t, self));
	printf("samples_child=%lu\n", samples_of(&t, c));
	printf("samples_grandchild=%lu\n", samples_of(&t, g));
	printf("fork_child=%d\n", find_task(&t, KPROFILE_RECORD_FORK, c,
					    self) >= 0);
	printf("fork_grandchild=%d\n", find_task(&t, KPROFILE_RECORD_FORK, g,
						 c) >= 0);
	e = find_task(&t, KPROFILE_RECORD_EXEC, c, 0);
	printf("exec_child=%s\n", e >= 0 ? t.tasks[e].comm : "");
	printf("exit_child=%d\n", find_task(&t, KPROFILE_RECORD_EXIT, c,
					    0) >= 0);
	printf("exit_grandchild=%d\n", find_task(&t, KPROFILE_RECORD_EXIT, g,
						 0) >= 0);
	printf("tasks=%u\n", t.nr_tasks);
	return 0;
}

static int cmd_exec(char **argv)
{
	struct kprofile_create_stream req;
	struct tally t = { 0 };
	unsigned long before = 0, after = 0;
	__u64 exec_time = ~0ULL;
	struct stream s;
	unsigned int i;
	pid_t c;
	int e;

	init_req(&req, KPROFILE_TARGET_SELF,
		 KPROFILE_STREAM_CALLCHAIN | KPROFILE_STREAM_INHERIT,
		 KPROFILE_MODE_USER, time_src, 1);
	/* The reader drains after the child is done: room for all of it. */
	req.ring_pages = 256;
	open_stream(&s, dev_fd(), &req);
	start(&s);
	c = fork();
	if (c < 0)
		kpt_die("fork");
	if (!c) {
		spin(0.3);
		execv(argv[0], argv);
		_exit(127);
	}
	waitpid(c, NULL, 0);
	stop(&s);
	/* Keep every sample: count the child's around its exec. */
	drain(&s, &t);
	e = find_task(&t, KPROFILE_RECORD_EXEC, c, 0);
	if (e >= 0)
		exec_time = t.tasks[e].time;
	for (i = 0; i < t.nr_samples; i++) {
		if (t.sample_pid[i] != c)
			continue;
		if (t.sample_time[i] < exec_time)
			before++;
		else
			after++;
	}
	print_info("", &s);
	printf("bad=%lu\n", t.bad);
	printf("exec_child=%s\n", e >= 0 ? t.tasks[e].comm : "");
	printf("child_before=%lu\nchild_after=%lu\n", before, after);
	printf("exit_child=%d\n", find_task(&t, KPROFILE_RECORD_EXIT, c,
					    0) >= 0);
	return 0;
}

static int cmd_kernel(double seconds)
{
	struct kprofile_create_stream req;
	struct tally tk = { .self = getpid() }, tu = { .self = getpid() };
	struct stream k, u;
	static char buf[1 << 20];
	double end;
	int dev = dev_fd(), z;

	z = open("/dev/zero", O_RDONLY);
	if (z < 0)
		kpt_die("/dev/zero");
	init_req(&req, KPROFILE_TARGET_SELF, KPROFILE_STREAM_CALLCHAIN,
		 KPROFILE_MODE_BOTH, time_src, 1);
	open_stream(&k, dev, &req);
	init_req(&req, KPROFILE_TARGET_SELF, KPROFILE_STREAM_CALLCHAIN,
		 KPROFILE_MODE_USER, time_src, 1);
	open_stream(&u, dev, &req);
	start(&k);
	start(&u);
	for (end = now() + seconds; now() < end;) {
		double t0 = now();

		if (read(z, buf, sizeof(buf)) < 0)
			kpt_die("read");
		/* As long in user mode as the read took in the kernel. */
		spin(now() - t0);
		drain(&k, &tk);
		drain(&u, &tu);
	}
	stop(&k);
	stop(&u);
	drain(&k, &tk);
	drain(&u, &tu);
	print_tally("", &tk);
	printf("kernel_ok=%lu\nkernel_user_stack=%lu\nkernel_frames_bad=%lu\n",
	       tk.kernel_ok, tk.kernel_user_stack, tk.kernel_frames_bad);
	print_info("", &k);
	print_tally("u_", &tu);
	print_info("u_", &u);
	return 0;
}

static int cmd_system(void)
{
	struct kprofile_create_stream req;
	struct tally t = { 0 };
	struct stream s;
	pid_t c;

	init_req(&req, KPROFILE_TARGET_SYSTEM, KPROFILE_STREAM_CALLCHAIN,
		 KPROFILE_MODE_BOTH, time_src, 1);
	/* The reader drains after the child is done: room for all of it. */
	req.ring_pages = 256;
	open_stream(&s, dev_fd(), &req);
	start(&s);
	c = fork();
	if (c < 0)
		kpt_die("fork");
	if (!c) {
		spin(0.3);
		_exit(0);
	}
	waitpid(c, NULL, 0);
	stop(&s);
	drain(&s, &t);
	print_tally("", &t);
	print_info("", &s);
	printf("samples_child=%lu\n", samples_of(&t, c));
	printf("fork_child=%d\n", find_task(&t, KPROFILE_RECORD_FORK, c,
					    getpid()) >= 0);
	printf("exit_child=%d\n", find_task(&t, KPROFILE_RECORD_EXIT, c,
					    0) >= 0);
	return 0;
}

static int cmd_lost(double seconds)
{
	struct kprofile_create_stream req;
	struct tally t = { 0 };
	unsigned long long lost = 0, records = 0;
	struct stream s;
	unsigned int i;
	int over = 0;

	init_req(&req, KPROFILE_TARGET_SELF, KPROFILE_STREAM_CALLCHAIN,
		 KPROFILE_MODE_USER, time_src, 1);
	req.ring_pages = 1;
	open_stream(&s, dev_fd(), &req);
	start(&s);
	spin(seconds);
	stop(&s);
	for (i = 0; i < s.info.nr_rings; i++) {
		struct kprofile_stream_page *pg = ring(&s, i);

		lost += pg->lost;
		records += pg->records;
		over += pg->data_head - pg->data_tail > pg->data_size;
	}
	drain(&s, &t);
	print_tally("", &t);
	print_info("", &s);
	printf("page_lost=%llu\npage_records=%llu\nover=%d\n", lost, records,
	       over);
	return 0;
}

/* Effective capabilities off (permitted kept), as an unprivileged caller. */
static void drop_caps(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		kpt_die("capget");
	d[0].effective = d[1].effective = 0;
	if (syscall(SYS_capset, &h, d))
		kpt_die("capset");
}

/* Run @fn in a child without capabilities: its errno, as exit status. */
static int unprivileged(int (*fn)(int dev), int dev)
{
	int st;
	pid_t c = fork();

	if (c < 0)
		kpt_die("fork");
	if (!c) {
		drop_caps();
		_exit(fn(dev));
	}
	waitpid(c, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 255;
}

static int try_create(int dev, __u32 target, __u32 mode, const __u32 *src)
{
	struct kprofile_create_stream req;
	int fd;

	init_req(&req, target, 0, mode, src, 1);
	fd = create(dev, &req);
	if (fd >= 0)
		close(fd);
	return fd < 0 ? -fd : 0;
}

static int nocap_kernel(int dev)
{
	return try_create(dev, KPROFILE_TARGET_SELF, KPROFILE_MODE_BOTH,
			  time_src);
}

static int nocap_system(int dev)
{
	return try_create(dev, KPROFILE_TARGET_SYSTEM, KPROFILE_MODE_USER,
			  time_src);
}

static int nocap_user(int dev)
{
	return try_create(dev, KPROFILE_TARGET_SELF, KPROFILE_MODE_USER,
			  time_src);
}

static int nocap_memlock(int dev)
{
	struct rlimit rl = { 4096, 4096 };
	struct kprofile_create_stream req;
	int fd;

	if (setrlimit(RLIMIT_MEMLOCK, &rl))
		return 254;
	init_req(&req, KPROFILE_TARGET_SELF, 0, KPROFILE_MODE_USER, time_src,
		 1);
	req.ring_pages = KPROFILE_STREAM_MAX_PAGES;
	fd = create(dev, &req);
	if (fd >= 0)
		close(fd);
	return fd < 0 ? -fd : 0;
}

/* Create with one field changed: the errno name. */
#define TRY(name, change)						\
	do {								\
		struct kprofile_create_stream r;			\
		int fd;							\
									\
		init_req(&r, KPROFILE_TARGET_SELF, 0,			\
			 KPROFILE_MODE_USER, time_src, 1);		\
		change;							\
		fd = create(dev, &r);					\
		if (fd >= 0)						\
			close(fd);					\
		printf("%s=%s\n", name, kpt_errname(fd < 0 ? -fd : 0));	\
	} while (0)

static int mmap_errno(struct stream *s, size_t len, off_t off, int flags)
{
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, s->fd, off);

	if (m == MAP_FAILED)
		return errno;
	munmap(m, len);
	return 0;
}

static int cmd_errors(void)
{
	static const __u32 dup[] = { KPROFILE_SOURCE_TIME,
				     KPROFILE_SOURCE_TIME };
	static const __u32 unknown[] = { 0x1000 };
	struct kprofile_create_stream req;
	int dev = dev_fd(), ok = 1;
	struct stream s;
	unsigned int i;
	pid_t gone;

	TRY("flags_bad", r.flags = 1U << 5);
	TRY("inherit_system", (r.flags = KPROFILE_STREAM_INHERIT,
			       r.target = KPROFILE_TARGET_SYSTEM));
	TRY("reserved", r.reserved[5] = 1);
	TRY("target_bad", r.target = 3);
	TRY("mode_bad", r.mode = 4);
	TRY("pid_without_target", r.pid = 1);
	TRY("pid_zero", r.target = KPROFILE_TARGET_PID);
	TRY("nr_sources_0", r.nr_sources = 0);
	TRY("nr_sources_9", r.nr_sources = 9);
	TRY("max_frames_128", (r.flags = KPROFILE_STREAM_CALLCHAIN,
			       r.max_frames = 128));
	TRY("max_frames_127", (r.flags = KPROFILE_STREAM_CALLCHAIN,
			       r.max_frames = 127));
	TRY("ring_pages_3", r.ring_pages = 3);
	TRY("ring_pages_2048", r.ring_pages = 2048);
	TRY("stack_without_flag", r.stack_bytes = 8192);
	TRY("stack_unaligned", (r.flags = KPROFILE_STREAM_USER_STACK,
				r.stack_bytes = 12));
	TRY("stack_65536", (r.flags = KPROFILE_STREAM_USER_STACK,
			    r.stack_bytes = 65536));
	TRY("stack_too_big_for_ring", (r.flags = KPROFILE_STREAM_USER_STACK,
				       r.stack_bytes = 65528));
	TRY("stack_65528_64_pages", (r.flags = KPROFILE_STREAM_USER_STACK,
				     r.stack_bytes = 65528,
				     r.ring_pages = 64));
	TRY("stack_default", r.flags = KPROFILE_STREAM_USER_STACK);
	TRY("source_unknown", r.sources = (uintptr_t)unknown);
	TRY("source_repeated", (r.sources = (uintptr_t)dup,
				r.nr_sources = 2));
	TRY("sources_fault", r.sources = 8);
	gone = fork();
	if (gone < 0)
		kpt_die("fork");
	if (!gone)
		_exit(0);
	waitpid(gone, NULL, 0);
	TRY("pid_gone", (r.target = KPROFILE_TARGET_PID, r.pid = gone));
	TRY("pid_self", (r.target = KPROFILE_TARGET_PID, r.pid = getpid()));
	printf("nocap_kernel=%s\n", kpt_errname(unprivileged(nocap_kernel, dev)));
	printf("nocap_system=%s\n", kpt_errname(unprivileged(nocap_system, dev)));
	printf("nocap_user=%s\n", kpt_errname(unprivileged(nocap_user, dev)));
	printf("nocap_memlock=%s\n",
	       kpt_errname(unprivileged(nocap_memlock, dev)));

	init_req(&req, KPROFILE_TARGET_SELF, 0, KPROFILE_MODE_USER, time_src,
		 1);
	s.fd = create(dev, &req);
	if (s.fd < 0) {
		errno = -s.fd;
		kpt_die("KPROFILE_IOC_CREATE_STREAM");
	}
	info(&s);
	printf("nr_rings=%u\nring_pages=%u\npage_size=%u\nstarted=%u\n",
	       s.info.nr_rings, s.info.ring_pages, s.info.page_size,
	       s.info.started);
	printf("info_reserved_zero=%d\n", !s.info.reserved0 &&
	       !s.info.reserved[0] && !s.info.reserved[1] &&
	       !s.info.reserved[2] && !s.info.stack_short);
	printf("cloexec=%d\n", (fcntl(s.fd, F_GETFD) & FD_CLOEXEC) != 0);
	s.len = (size_t)s.info.nr_rings * (1 + s.info.ring_pages) *
		s.info.page_size;
	printf("mmap_short=%s\n", kpt_errname(mmap_errno(&s, s.len -
						     s.info.page_size, 0,
						     MAP_SHARED)));
	printf("mmap_long=%s\n", kpt_errname(mmap_errno(&s, s.len +
						    s.info.page_size, 0,
						    MAP_SHARED)));
	printf("mmap_offset=%s\n", kpt_errname(mmap_errno(&s, s.len,
						      s.info.page_size,
						      MAP_SHARED)));
	printf("mmap_private=%s\n", kpt_errname(mmap_errno(&s, s.len, 0,
						       MAP_PRIVATE)));
	s.map = mmap(NULL, s.len, PROT_READ | PROT_WRITE, MAP_SHARED, s.fd, 0);
	printf("mmap_ok=%s\n", kpt_errname(s.map == MAP_FAILED ? errno : 0));
	if (s.map == MAP_FAILED)
		return 0;
	for (i = 0; i < s.info.nr_rings; i++) {
		struct kprofile_stream_page *pg = ring(&s, i);

		ok &= pg->data_offset == s.info.page_size &&
		      pg->data_size == (__u64)s.info.ring_pages *
				       s.info.page_size &&
		      pg->cpu == i && !pg->data_head && !pg->data_tail &&
		      !pg->lost && !pg->records;
	}
	printf("pages_ok=%d\n", ok);
	printf("stop_stopped=%s\n",
	       kpt_errname(ioctl(s.fd, KPROFILE_IOC_STOP) ? errno : 0));
	printf("start=%s\n",
	       kpt_errname(ioctl(s.fd, KPROFILE_IOC_START) ? errno : 0));
	printf("start_started=%s\n",
	       kpt_errname(ioctl(s.fd, KPROFILE_IOC_START) ? errno : 0));
	info(&s);
	printf("started_now=%u\n", s.info.started);
	printf("stop=%s\n", kpt_errname(ioctl(s.fd, KPROFILE_IOC_STOP) ? errno : 0));
	printf("restart=%s\n",
	       kpt_errname(ioctl(s.fd, KPROFILE_IOC_START) ? errno : 0));
	printf("bad_ioctl=%s\n",
	       kpt_errname(ioctl(s.fd, _IO(KPROFILE_IOC_MAGIC, 0x5f)) ? errno : 0));
	/* Close while started and mapped: the mapping keeps the rings. */
	close(s.fd);
	printf("mapped_after_close=%d\n",
	       ring(&s, 0)->data_size == (__u64)s.info.ring_pages *
					 s.info.page_size);
	munmap(s.map, s.len);
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	double secs = argc > 2 ? atof(argv[2]) : 1.0;

	know_functions();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(cmd, "self"))
		return cmd_self(secs);
	if (!strcmp(cmd, "inherit"))
		return cmd_inherit(argc > 2 && atoi(argv[2]));
	if (!strcmp(cmd, "kernel"))
		return cmd_kernel(secs);
	if (!strcmp(cmd, "system"))
		return cmd_system();
	if (!strcmp(cmd, "lost"))
		return cmd_lost(secs);
	if (!strcmp(cmd, "errors"))
		return cmd_errors();
	if (!strcmp(cmd, "exec") && argc > 2)
		return cmd_exec(argv + 2);
	if (!strcmp(cmd, "spin")) {
		spin(secs);
		return 0;
	}
	fprintf(stderr,
		"usage: kp-stream self|kernel|lost|spin SECONDS | inherit 1|0 | system | errors\n"
		"       kp-stream exec PROG [ARGS]\n");
	return 2;
}

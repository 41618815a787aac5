// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz.c - the structure-aware fuzz loop.  A worker keeps a pool of the
 * objects it created (profiles with their buffers, thread-profiling and
 * reservation fds) and, step by step, draws one operation: a request for
 * any ioctl with fields from edge values or valid by construction, an
 * edge pointer, a random or mis-sized ioctl number, START/STOP/STATS with
 * the state machine checked, close, dup, fork with inherited fds, and
 * games with the buffer of a started profile.
 *
 * Invariants (beyond the errno table, errnos.c):
 *  - START of a stopped profile succeeds (ENOMEM when RLIMIT_MEMLOCK is
 *    0 and the caller has no CAP_IPC_LOCK); START of a started one is
 *    EBUSY, STOP of a stopped one EALREADY; `started` says which;
 *  - a valid self profile is created (user mode only without privilege,
 *    at perf_event_paranoid 2, which main.c sets); a kernel range or a
 *    system-wide profile without privilege is EPERM;
 *  - once stopped, a profile's `hits` equals the sum of its buckets and
 *    neither changes until it starts again; a closed profile's buffer
 *    never changes again;
 *  - in a forked child, START of an inherited profile is EXDEV (EBUSY
 *    when started), and the child's exit does not stop the parent's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kpfuzz.h"

#define POOL		12
#define CLOSED_MAX	4

struct obj {
	int fd;			/* -1: free slot */
	enum kpf_kind kind;
	uint32_t *buf;		/* profiles: the buckets */
	size_t maplen;		/* bytes mapped at buf */
	uint64_t nb;		/* buckets */
	int started;
	int tainted;		/* buffer unmapped/replaced: no sum checks */
	int gone;		/* buffer unmapped: never START again */
	uint64_t stop_hits;	/* hits when last stopped */
};

struct closed {
	uint32_t *buf;
	size_t maplen;
	uint64_t nb;
	uint64_t sum;
};

struct pool {
	struct obj o[POOL];
	struct closed cl[CLOSED_MAX];
};

/**
 * kpf_sum() - the sum of @n buckets.
 * @buf: the buckets.
 * @n:   how many.
 *
 * Return: the sum.
 */
uint64_t kpf_sum(const uint32_t *buf, uint64_t n)
{
	uint64_t s = 0, i;

	for (i = 0; i < n; i++)
		s += buf[i];
	return s;
}

/**
 * kpf_stats() - KPROFILE_IOC_PROFILE_STATS into @st.
 * @c:  the worker.
 * @fd: a profile fd.
 * @st: out.
 *
 * Return: 0 or -errno.
 */
int kpf_stats(struct kpf_ctx *c, int fd, struct kprofile_profile_stats *st)
{
	struct kprofile_profile_stats_ex x;
	int ret;

	if (kpf_chance(&c->rng, 70)) {
		memset(st, 0xa5, sizeof(*st));
		return kpf_ioctl(c, fd, KPF_PROFILE, KPROFILE_IOC_PROFILE_STATS, st);
	}
	memset(&x, 0xa5, sizeof(x));
	ret = kpf_ioctl(c, fd, KPF_PROFILE, KPROFILE_IOC_PROFILE_STATS_EX, &x);
	*st = x.stats;
	return ret;
}

/**
 * kpf_create_self() - a valid ProfileTime profile of the caller over
 *	kpf_hot(), user mode or as the table says.
 * @c:        the worker.
 * @buf:      @nbuckets zeroed buckets.
 * @nbuckets: buckets at @buf (enough for the hot range at @shift).
 * @shift:    bucket_shift.
 * @err:      out: the errno on failure.
 *
 * Return: the profile fd, or -1.
 */
int kpf_create_self(struct kpf_ctx *c, uint32_t *buf, uint64_t nbuckets,
		    unsigned int shift, int *err)
{
	struct kprofile_create_profile req;
	long ret;

	memset(&req, 0, sizeof(req));
	req.target = KPROFILE_TARGET_SELF;
	req.base = kpf_hot_start();
	req.size = kpf_hot_size();
	req.buffer = (uintptr_t)buf;
	req.buffer_size = nbuckets * 4;
	req.bucket_shift = shift;
	req.source = KPROFILE_SOURCE_TIME;
	/* Kernel-mode counting needs CAP_PERFMON at perf_event_paranoid 2. */
	req.mode = c->priv == KPF_ROOT && kpf_below(&c->rng, 2) ?
		   KPROFILE_MODE_TABLE : KPROFILE_MODE_USER;
	ret = kpf_ioctl(c, c->dev, KPF_DEV, KPROFILE_IOC_CREATE_PROFILE, &req);
	if (ret < 0) {
		*err = (int)-ret;
		return -1;
	}
	return (int)ret;
}

static struct obj *free_slot(struct pool *p)
{
	int i;

	for (i = 0; i < POOL; i++)
		if (p->o[i].fd < 0)
			return &p->o[i];
	return NULL;
}

static struct obj *pick(struct kpf_ctx *c, struct pool *p, enum kpf_kind kind)
{
	int i, n = 0, idx[POOL];

	for (i = 0; i < POOL; i++)
		if (p->o[i].fd >= 0 && (kind == KPF_ANY || p->o[i].kind == kind))
			idx[n++] = i;
	return n ? &p->o[idx[kpf_below(&c->rng, n)]] : NULL;
}

/* Closed profiles' buffers must never change again. */
static void check_closed(struct kpf_ctx *c, struct pool *p, int release)
{
	int i;

	for (i = 0; i < CLOSED_MAX; i++) {
		struct closed *cl = &p->cl[i];

		if (!cl->buf)
			continue;
		if (kpf_sum(cl->buf, cl->nb) != cl->sum)
			kpf_fail(c, "a closed profile's buffer changed: sum %llu -> %llu",
				 (unsigned long long)cl->sum,
				 (unsigned long long)kpf_sum(cl->buf, cl->nb));
		if (release) {
			munmap(cl->buf, cl->maplen);
			cl->buf = NULL;
		}
	}
}

static void close_obj(struct kpf_ctx *c, struct pool *p, struct obj *o)
{
	int i;

	close(o->fd);
	o->fd = -1;
	if (!o->buf)
		return;
	if (!o->tainted) {
		for (i = 0; i < CLOSED_MAX && p->cl[i].buf; i++)
			;
		if (i == CLOSED_MAX) {
			check_closed(c, p, 1);
			i = 0;
		}
		p->cl[i] = (struct closed){ o->buf, o->maplen, o->nb,
					    kpf_sum(o->buf, o->nb) };
	} else {
		munmap(o->buf, o->maplen);
	}
	o->buf = NULL;
}

static void op_create_valid(struct kpf_ctx *c, struct pool *p)
{
	struct obj *o = free_slot(p);
	unsigned int shift = 2 + kpf_below(&c->rng, 10);
	uint64_t nb = ((kpf_hot_size() - 1) >> shift) + 1;
	size_t len = (nb * 4 + KPF_PAGE - 1) & ~(KPF_PAGE - 1);
	int fd, err = 0;

	if (!o)
		return;
	o->buf = kpf_map(len);
	if (!o->buf)
		return;
	fd = kpf_create_self(c, o->buf, nb, shift, &err);
	if (fd < 0) {
		if (err != EMFILE && err != ENOMEM)
			kpf_fail(c, "a valid self profile was refused: %s",
				 strerror(err));
		munmap(o->buf, len);
		o->buf = NULL;
		return;
	}
	*o = (struct obj){ .fd = fd, .kind = KPF_PROFILE, .buf = o->buf,
			   .maplen = len, .nb = nb };
}

/* A create request with one or more fields from the edges. */
static void op_create_fuzzed(struct kpf_ctx *c, struct pool *p)
{
	struct kprofile_create_profile *req;
	uint32_t *cpus = kpf_scratch(c, 64);
	int kernel_range = 0, system = 0, mutated = 0;
	uint64_t r;
	long ret;

	cpus[0] = 1;
	req = kpf_scratch(c, sizeof(*req) + 64);
	req = (void *)((char *)req + 64);	/* keep clear of cpus */
	memset(req, 0, sizeof(*req));
	req->target = KPROFILE_TARGET_SELF;
	req->base = kpf_hot_start();
	req->size = kpf_hot_size();
	req->buffer = (uintptr_t)(c->arena + 2 * KPF_PAGE);
	req->buffer_size = KPF_PAGE;
	req->bucket_shift = 8;
	req->source = KPROFILE_SOURCE_TIME;
	if (kpf_chance(&c->rng, 15)) {
		/* only a privilege question: otherwise valid */
		if (kpf_below(&c->rng, 2)) {
			req->target = KPROFILE_TARGET_SYSTEM;
			system = 1;
		} else {
			req->base = 0xffffffff81000000ULL;
			req->size = 1 << 20;
			req->buffer_size = (1 << 12) * 4;
			req->buffer = (uintptr_t)kpf_map(req->buffer_size);
			kernel_range = 1;
		}
	} else {
		mutated = 1;
	}
	while (mutated) {
		r = kpf_edge(&c->rng);
		switch (kpf_below(&c->rng, 12)) {
		case 0: req->target = kpf_below(&c->rng, 2) ? r : kpf_below(&c->rng, 4); break;
		case 1: req->pid = kpf_below(&c->rng, 2) ? (int32_t)r : (int32_t)getpid(); break;
		case 2: req->base = r; break;
		case 3: req->size = r; break;
		case 4: req->buffer = (uintptr_t)kpf_edge_ptr(c, KPF_PAGE); break;
		case 5: req->buffer_size = r; break;
		case 6: req->bucket_shift = kpf_below(&c->rng, 2) ? r : kpf_below(&c->rng, 42); break;
		case 7: req->source = kpf_below(&c->rng, 2) ? r : kpf_below(&c->rng, 0x40); break;
		case 8: req->mode = kpf_below(&c->rng, 2) ? r : kpf_below(&c->rng, 5); break;
		case 9: req->flags = r; break;
		case 10: req->cpus = kpf_below(&c->rng, 2) ? (uintptr_t)cpus :
			 (uintptr_t)kpf_edge_ptr(c, 64); req->cpus_size = kpf_edge(&c->rng) & 0xffff; break;
		default: req->reserved[kpf_below(&c->rng, 5)] = r ? r : 1; break;
		}
		if (!kpf_chance(&c->rng, 20))
			break;
	}
	ret = kpf_ioctl(c, c->dev, KPF_DEV, KPROFILE_IOC_CREATE_PROFILE, req);
	if (!mutated && c->priv != KPF_ROOT && ret != -EPERM)
		kpf_fail(c, "%s profile without privilege: %s, want EPERM",
			 system ? "system-wide" : "kernel-range",
			 ret >= 0 ? "created" : strerror((int)-ret));
	if (ret >= 0)
		close((int)ret);
	if (kernel_range && req->buffer)
		munmap((void *)(uintptr_t)req->buffer, req->buffer_size);
	(void)p;
}

/* A tainted profile's state is whatever the module says it is. */
static void resync(struct kpf_ctx *c, struct obj *o)
{
	struct kprofile_profile_stats st;

	if (kpf_stats(c, o->fd, &st) == 0)
		o->started = st.started;
}

static void op_start(struct kpf_ctx *c, struct obj *o)
{
	long ret;

	if (o->gone && !o->started)
		return;
	ret = kpf_ioctl(c, o->fd, KPF_PROFILE, KPROFILE_IOC_START, NULL);
	if (o->tainted) {	/* the module may have stopped it: docs/profiles.md */
		resync(c, o);
		return;
	}

	if (o->started) {
		if (ret != -EBUSY)
			kpf_fail(c, "START of a started profile: %ld, want EBUSY", ret);
		return;
	}
	if (ret == 0) {
		if (c->memlock0 && c->priv != KPF_ROOT)
			kpf_fail(c, "START succeeded with RLIMIT_MEMLOCK 0");
		o->started = 1;
		return;
	}
	if (c->memlock0 && c->priv != KPF_ROOT && ret == -ENOMEM)
		return;
	kpf_fail(c, "START of a stopped profile: %s", strerror((int)-ret));
}

static void op_stop(struct kpf_ctx *c, struct obj *o)
{
	struct kprofile_profile_stats st;
	long ret = kpf_ioctl(c, o->fd, KPF_PROFILE, KPROFILE_IOC_STOP, NULL);

	if (o->tainted) {
		resync(c, o);
		return;
	}

	if (!o->started) {
		if (ret != -EALREADY)
			kpf_fail(c, "STOP of a stopped profile: %ld, want EALREADY", ret);
		return;
	}
	if (ret) {
		kpf_fail(c, "STOP of a started profile: %s", strerror((int)-ret));
		return;
	}
	o->started = 0;
	if (kpf_stats(c, o->fd, &st) == 0)
		o->stop_hits = st.hits;
}

static void op_stats(struct kpf_ctx *c, struct obj *o)
{
	struct kprofile_profile_stats st;
	uint64_t sum;

	if (kpf_stats(c, o->fd, &st))
		return;
	if (o->tainted) {
		o->started = st.started;
		return;
	}
	if (st.started != (uint32_t)o->started)
		kpf_fail(c, "stats.started=%u, the profile is %s", st.started,
			 o->started ? "started" : "stopped");
	if (o->started || o->tainted)
		return;
	sum = kpf_sum(o->buf, o->nb);
	if (st.hits != sum)
		kpf_fail(c, "stopped profile: hits=%llu, buckets sum to %llu",
			 (unsigned long long)st.hits, (unsigned long long)sum);
	if (st.hits != o->stop_hits)
		kpf_fail(c, "counted after STOP: hits %llu -> %llu",
			 (unsigned long long)o->stop_hits,
			 (unsigned long long)st.hits);
}

/*
 * Replace, zap, protect or unmap a started profile's buffer (docs/profiles.md,
 * "The buffer's mapping").  Never
 * munmap() and map again: another thread may get the gap in between, and
 * MAP_FIXED would then clobber its memory.  An unmapped buffer is gone
 * for good: its profile is never started again (START would pin whatever
 * another thread maps at that address later).
 */
static void op_memgame(struct kpf_ctx *c, struct obj *o)
{
	void *p;

	kpf_hot(2000);
	switch (kpf_below(&c->rng, 5)) {
	case 0:	/* replaced by new pages, in one step */
		p = mmap(o->buf, o->maplen, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		if (p == MAP_FAILED)
			kpf_fail(c, "mmap(MAP_FIXED) over a buffer failed");
		break;
	case 1:
		mprotect(o->buf, o->maplen, PROT_NONE);
		kpf_hot(20000);
		mprotect(o->buf, o->maplen, PROT_READ | PROT_WRITE);
		return;	/* the same pages: still consistent */
	case 2:
		mprotect(o->buf, o->maplen, PROT_READ);
		kpf_hot(20000);
		mprotect(o->buf, o->maplen, PROT_READ | PROT_WRITE);
		return;
	case 3:	/* zapped: the process sees zeros from here on */
		madvise(o->buf, o->maplen, MADV_DONTNEED);
		break;
	default: /* unmapped while started */
		munmap(o->buf, o->maplen);
		o->buf = NULL;
		o->gone = 1;
		kpf_hot(20000);
	}
	o->tainted = 1;
}

static void op_dup(struct kpf_ctx *c, struct obj *o)
{
	struct kprofile_profile_stats st;
	int d = dup(o->fd);

	if (d < 0)
		return;
	if (o->kind == KPF_PROFILE) {
		kpf_stats(c, d, &st);
		close(d);
		if (kpf_stats(c, o->fd, &st) == 0 && st.started != (uint32_t)o->started)
			kpf_fail(c, "closing a dup changed started to %u", st.started);
		return;
	}
	close(d);
}

static void op_thread_enable(struct kpf_ctx *c, struct pool *p)
{
	struct kprofile_thread_enable *req = kpf_scratch(c, sizeof(*req));
	struct obj *o = free_slot(p);
	long ret;

	memset(req, 0, sizeof(*req));
	if (kpf_chance(&c->rng, 30))
		req->pid = kpf_below(&c->rng, 2) ? (int32_t)kpf_edge(&c->rng) : 1;
	if (kpf_chance(&c->rng, 50))
		req->flags = kpf_chance(&c->rng, 70) ? KPROFILE_THREAD_INHERIT :
						       (uint32_t)kpf_edge(&c->rng);
	if (kpf_chance(&c->rng, 20))
		req->counter_mask = kpf_edge(&c->rng);
	if (kpf_chance(&c->rng, 10))
		req->reserved[kpf_below(&c->rng, 5)] = 1;
	ret = kpf_ioctl(c, c->dev, KPF_DEV, KPROFILE_IOC_THREAD_ENABLE,
			kpf_chance(&c->rng, 10) ? kpf_edge_ptr(c, sizeof(*req)) : req);
	if (ret < 0)
		return;
	if (!o) {
		close((int)ret);
		return;
	}
	*o = (struct obj){ .fd = (int)ret, .kind = KPF_THREAD };
}

static void op_thread_io(struct kpf_ctx *c, struct obj *o)
{
	struct kprofile_thread_list *l;
	void *arg;

	if (kpf_below(&c->rng, 2)) {
		arg = kpf_chance(&c->rng, 70) ?
		      kpf_scratch(c, sizeof(struct kprofile_thread_data)) :
		      kpf_edge_ptr(c, sizeof(struct kprofile_thread_data));
		kpf_ioctl(c, o->fd, KPF_THREAD, KPROFILE_IOC_THREAD_READ, arg);
		return;
	}
	l = kpf_scratch(c, sizeof(*l) + 4 * sizeof(struct kprofile_thread_entry));
	l->count = kpf_chance(&c->rng, 70) ? kpf_below(&c->rng, 5) :
					    (uint32_t)kpf_edge(&c->rng);
	l->flags = kpf_chance(&c->rng, 90) ? 0 : (uint32_t)kpf_edge(&c->rng);
	l->entries = kpf_chance(&c->rng, 70) ? (uintptr_t)(l + 1) :
					      (uintptr_t)kpf_edge_ptr(c, 256);
	if (l->count > 4 && l->entries == (uintptr_t)(l + 1))
		l->count = 4;
	kpf_ioctl(c, o->fd, KPF_THREAD, KPROFILE_IOC_THREAD_LIST,
		  kpf_chance(&c->rng, 90) ? (void *)l : kpf_edge_ptr(c, sizeof(*l)));
}

/* fork: the child inherits every fd; START there is EXDEV (EBUSY). */
static void op_fork(struct kpf_ctx *c, struct pool *p)
{
	pid_t pid = fork();
	int i, st;

	if (pid < 0)
		return;
	if (pid == 0) {
		c->phase = "fork-child";
		c->fails = 0;
		for (i = 0; i < POOL; i++) {
			struct obj *o = &p->o[i];
			struct kprofile_profile_stats s;
			long ret;

			if (o->fd < 0 || o->kind != KPF_PROFILE || o->tainted)
				continue;
			ret = kpf_ioctl(c, o->fd, KPF_PROFILE, KPROFILE_IOC_START, NULL);
			if (ret != (o->started ? -EBUSY : -EXDEV))
				kpf_fail(c, "START in a forked child: %ld, want %s",
					 ret, o->started ? "EBUSY" : "EXDEV");
			if (kpf_stats(c, o->fd, &s) == 0 &&
			    s.started != (uint32_t)o->started)
				kpf_fail(c, "child sees started=%u", s.started);
		}
		for (i = 0; i < 100; i++)
			kpf_dev_query(c);
		_exit(c->fails ? 1 : 0);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	for (i = 0; i < POOL; i++)
		if (p->o[i].fd >= 0 && p->o[i].kind == KPF_PROFILE)
			op_stats(c, &p->o[i]);
}

/**
 * kpf_fuzz() - run one worker's fuzz loop until its call budget is spent.
 * @c: the worker (dev open, seeded).
 * @b: the budget and what is allowed.
 */
void kpf_fuzz(struct kpf_ctx *c, const struct kpf_budget *b)
{
	struct pool p;
	struct obj *o;
	int i;

	memset(&p, 0, sizeof(p));
	for (i = 0; i < POOL; i++)
		p.o[i].fd = -1;
	if (!c->arena)
		kpf_arena_init(c);
	if (!c->arena)
		return;
	while (c->calls < b->calls) {
		unsigned int op = kpf_below(&c->rng, 100);

		c->step++;
		if (b->cheap && op >= 14)
			op = 60 + op % 40;	/* no starts, closes or forks */
		if (op < 8) {
			op_create_valid(c, &p);
		} else if (op < 14) {
			op_create_fuzzed(c, &p);
		} else if (op < 22) {
			if ((o = pick(c, &p, KPF_PROFILE)))
				op_start(c, o);
		} else if (op < 30) {
			if ((o = pick(c, &p, KPF_PROFILE)))
				op_stop(c, o);
		} else if (op < 34) {
			if ((o = pick(c, &p, KPF_ANY)))
				close_obj(c, &p, o);
			check_closed(c, &p, 0);
		} else if (op < 37) {
			op_thread_enable(c, &p);
		} else if (op < 39) {
			if ((o = pick(c, &p, KPF_ANY)))
				op_dup(c, o);
		} else if (op < 41) {
			o = pick(c, &p, KPF_PROFILE);
			if (b->memgames && o && o->started && o->buf)
				op_memgame(c, o);
		} else if (op < 42) {
			if (b->fork)
				op_fork(c, &p);
		} else if (op < 45) {
			/* thread fds are machine-wide singletons: let go soon */
			if ((o = pick(c, &p, KPF_THREAD)))
				close_obj(c, &p, o);
		} else if (op < 60) {
			kpf_hot(5000);
		} else if (op < 72) {
			if ((o = pick(c, &p, KPF_PROFILE)))
				op_stats(c, o);
		} else if (op < 78) {
			if ((o = pick(c, &p, KPF_THREAD)))
				op_thread_io(c, o);
			else
				kpf_dev_query(c);
		} else if (op < 82) {
			if ((o = pick(c, &p, KPF_ANY)))
				kpf_random_cmd(c, o->fd, o->kind);
		} else {
			kpf_dev_query(c);
		}
	}
	for (i = 0; i < POOL; i++) {
		o = &p.o[i];
		if (o->fd < 0)
			continue;
		if (o->kind == KPF_PROFILE && o->started)
			op_stop(c, o);
		if (o->kind == KPF_PROFILE)
			op_stats(c, o);
		close_obj(c, &p, o);
	}
	kpf_hot(100000);
	check_closed(c, &p, 1);
}

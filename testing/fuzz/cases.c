// SPDX-License-Identifier: GPL-2.0
/*
 * cases.c - the targeted cases: integrity under spinning threads (hits ==
 * the buckets' sum, nothing counted after STOP or close), close racing
 * START/STOP from other threads, and a set-user-ID exec under a profile.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kpfuzz.h"

#define SHIFT 2

static volatile int spinning;

static void *spinner(void *arg)
{
	(void)arg;
	while (__atomic_load_n(&spinning, __ATOMIC_RELAXED))
		kpf_hot(10000);
	return NULL;
}

struct prof {
	int fd;
	uint32_t *buf;
	size_t len;
	uint64_t nb;
	int started;
};

static int prof_new(struct kpf_ctx *c, struct prof *p, int shared)
{
	int err = 0;

	p->nb = ((kpf_hot_size() - 1) >> SHIFT) + 1;
	p->len = (p->nb * 4 + KPF_PAGE - 1) & ~(KPF_PAGE - 1);
	p->buf = mmap(NULL, p->len, PROT_READ | PROT_WRITE,
		      (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);
	p->started = 0;
	if (p->buf == MAP_FAILED) {
		p->buf = NULL;
		return -1;
	}
	p->fd = kpf_create_self(c, p->buf, p->nb, SHIFT, &err);
	if (p->fd < 0) {
		kpf_fail(c, "creating a profile: %s", strerror(err));
		munmap(p->buf, p->len);
		p->buf = NULL;
		return -1;
	}
	return 0;
}

/* After STOP: hits == sum, and nothing moves while we spin on. */
static void prof_check_stopped(struct kpf_ctx *c, struct prof *p)
{
	struct kprofile_profile_stats a, b;
	uint64_t s1, s2;

	if (kpf_stats(c, p->fd, &a))
		return;
	s1 = kpf_sum(p->buf, p->nb);
	if (a.hits != s1)
		kpf_fail(c, "integrity: hits=%llu but the buckets sum to %llu",
			 (unsigned long long)a.hits, (unsigned long long)s1);
	kpf_spin_ms(30);
	if (kpf_stats(c, p->fd, &b))
		return;
	s2 = kpf_sum(p->buf, p->nb);
	if (b.hits != a.hits || s2 != s1)
		kpf_fail(c, "integrity: counted after STOP (hits %llu -> %llu, sum %llu -> %llu)",
			 (unsigned long long)a.hits, (unsigned long long)b.hits,
			 (unsigned long long)s1, (unsigned long long)s2);
}

/**
 * kpf_case_integrity() - profiles of kpf_hot() started and stopped at
 *	random while threads spin in it.  After each STOP, and at the end:
 *	hits == the buckets' sum and nothing counted after STOP; after
 *	close, the buffer never changes again.
 * @c:        the worker.
 * @spinners: spinning threads.
 * @rounds:   start/stop operations.
 *
 * Return: the total hits seen (0 means nothing was counted at all).
 */
int kpf_case_integrity(struct kpf_ctx *c, int spinners, int rounds)
{
	pthread_t th[8];
	struct prof p[6];
	uint64_t total = 0, sum[6];
	int i, r, n = 6;

	if (spinners > 8)
		spinners = 8;
	for (i = 0; i < n; i++)
		if (prof_new(c, &p[i], i & 1))
			return 0;
	spinning = 1;
	for (i = 0; i < spinners; i++)
		pthread_create(&th[i], NULL, spinner, NULL);
	for (r = 0; r < rounds; r++) {
		struct prof *q = &p[kpf_below(&c->rng, n)];
		long ret;

		c->step++;
		if (!q->started) {
			ret = kpf_ioctl(c, q->fd, KPF_PROFILE, KPROFILE_IOC_START, NULL);
			if (ret)
				kpf_fail(c, "integrity: START: %s", strerror((int)-ret));
			else
				q->started = 1;
		} else {
			ret = kpf_ioctl(c, q->fd, KPF_PROFILE, KPROFILE_IOC_STOP, NULL);
			if (ret)
				kpf_fail(c, "integrity: STOP: %s", strerror((int)-ret));
			q->started = 0;
			prof_check_stopped(c, q);
		}
		kpf_spin_ms(kpf_below(&c->rng, 20));
	}
	for (i = 0; i < n; i++) {
		if (p[i].started)
			kpf_ioctl(c, p[i].fd, KPF_PROFILE, KPROFILE_IOC_STOP, NULL);
		prof_check_stopped(c, &p[i]);
		total += kpf_sum(p[i].buf, p[i].nb);
		/* half of them closed while started */
		if (i & 1)
			kpf_ioctl(c, p[i].fd, KPF_PROFILE, KPROFILE_IOC_START, NULL);
		close(p[i].fd);
		sum[i] = kpf_sum(p[i].buf, p[i].nb);
	}
	kpf_spin_ms(100);
	__atomic_store_n(&spinning, 0, __ATOMIC_RELAXED);
	for (i = 0; i < spinners; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < n; i++) {
		if (kpf_sum(p[i].buf, p[i].nb) != sum[i])
			kpf_fail(c, "integrity: counted after close (sum %llu -> %llu)",
				 (unsigned long long)sum[i],
				 (unsigned long long)kpf_sum(p[i].buf, p[i].nb));
		munmap(p[i].buf, p[i].len);
	}
	return total > 0x7fffffff ? 0x7fffffff : (int)total;
}

/* --- close racing START/STOP */

#define RACE_SLOTS 6

struct race {
	struct kpf_ctx *base;
	volatile int fds[RACE_SLOTS];
	volatile int stop;
	uint64_t calls;
};

struct race_worker {
	struct kpf_ctx c;
	struct race *r;
	pthread_t th;
};

static void *race_io(void *arg)
{
	struct race_worker *w = arg;
	struct kprofile_profile_stats st;
	static const unsigned long ops[] = {
		KPROFILE_IOC_START, KPROFILE_IOC_STOP, KPROFILE_IOC_PROFILE_STATS,
	};

	while (!__atomic_load_n(&w->r->stop, __ATOMIC_RELAXED) &&
	       w->c.calls < w->r->calls) {
		unsigned long cmd = ops[kpf_below(&w->c.rng, 3)];
		int fd = w->r->fds[kpf_below(&w->c.rng, RACE_SLOTS)];
		long ret;

		w->c.step++;
		memset(&st, 0xa5, sizeof(st));
		ret = kpf_ioctl(&w->c, fd, KPF_PROFILE, cmd, &st);
		/* a started or stopped profile, by another thread or not */
		(void)ret;
		if (kpf_chance(&w->c.rng, 30))
			kpf_hot(3000);
	}
	return NULL;
}

/**
 * kpf_case_race() - close racing START/STOP: three threads START, STOP and
 *	STAT the profiles in six slots while this one closes them and
 *	creates new ones under the same fd numbers.
 * @c:     the worker (its phase, seed and device).
 * @calls: calls per I/O thread.
 *
 * Return: close-and-recreate cycles done.
 */
int kpf_case_race(struct kpf_ctx *c, uint64_t calls)
{
	struct race r = { .base = c, .calls = calls };
	struct race_worker w[3];
	struct prof p[RACE_SLOTS];
	int i, cycles = 0, done;

	c->racy = 1;
	for (i = 0; i < RACE_SLOTS; i++) {
		if (prof_new(c, &p[i], 0))
			return 0;
		r.fds[i] = p[i].fd;
	}
	for (i = 0; i < 3; i++) {
		w[i].c = *c;
		w[i].c.calls = 0;
		w[i].c.fails = 0;
		w[i].c.worker = c->worker + 1 + i;
		kpf_seed(&w[i].c.rng, c->seed, c->phase, w[i].c.worker);
		w[i].r = &r;
		pthread_create(&w[i].th, NULL, race_io, &w[i]);
	}
	do {
		int s = kpf_below(&c->rng, RACE_SLOTS);

		c->step++;
		kpf_hot(kpf_below(&c->rng, 50000));
		close(p[s].fd);
		/* A START in flight on the old profile pins its buffer or
		 * fails with EFAULT: both are fine. */
		munmap(p[s].buf, p[s].len);
		if (prof_new(c, &p[s], 0))
			break;
		r.fds[s] = p[s].fd;
		cycles++;
		for (done = 1, i = 0; i < 3; i++)
			done &= w[i].c.calls >= calls;
	} while (!done);
	r.stop = 1;
	for (i = 0; i < 3; i++) {
		pthread_join(w[i].th, NULL);
		c->calls += w[i].c.calls;
		c->fails += w[i].c.fails;
	}
	c->racy = 0;
	for (i = 0; i < RACE_SLOTS; i++) {
		kpf_ioctl(c, p[i].fd, KPF_PROFILE, KPROFILE_IOC_STOP, NULL);
		prof_check_stopped(c, &p[i]);
		close(p[i].fd);
	}
	return cycles;
}

/* --- set-user-ID exec */

/**
 * kpf_suid_child() - "kpfuzz suid-spin MS" as exec'd through the
 *	set-user-ID copy: spin in kpf_hot() for MS milliseconds.
 * @argc: argument count.
 * @argv: "suid-spin" MS.
 *
 * Return: 0, or 3 when the program did not run set-user-ID.
 */
int kpf_suid_child(int argc, char **argv)
{
	unsigned int ms = argc > 2 ? (unsigned int)atoi(argv[2]) : 1000;

	if (geteuid() == getuid())
		return 3;
	kpf_spin_ms(ms);
	return 0;
}

/**
 * kpf_case_suid() - a process (uid 65534) profiling itself execs a
 *	set-user-ID-root program that runs the same hot function: nothing
 *	may be counted after the exec (perf tears its events down
 *	there).  The profile counts before the exec, so the case
 *	cannot pass by counting nothing.
 * @c:         the worker (device open as root).
 * @suid_path: a root-owned mode 4755 copy of this program.
 *
 * Return: 0, or -1 when the case could not run.
 */
int kpf_case_suid(struct kpf_ctx *c, const char *suid_path)
{
	struct prof p;
	uint64_t before = 0, after;
	int pfd[2], st;
	pid_t pid;

	if (access(suid_path, X_OK) || pipe(pfd))
		return -1;
	p.nb = ((kpf_hot_size() - 1) >> SHIFT) + 1;
	p.len = (p.nb * 4 + KPF_PAGE - 1) & ~(KPF_PAGE - 1);
	p.buf = mmap(NULL, p.len, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p.buf == MAP_FAILED)
		return -1;
	pid = fork();
	if (pid == 0) {
		struct kprofile_profile_stats s = { 0 };
		char ms[16];
		int err = 0, i, keep;

		close(pfd[0]);
		if (kpf_drop_privileges())
			_exit(4);
		p.fd = kpf_create_self(c, p.buf, p.nb, SHIFT, &err);
		if (p.fd < 0 ||
		    kpf_ioctl(c, p.fd, KPF_PROFILE, KPROFILE_IOC_START, NULL))
			_exit(5);
		for (i = 0; i < 500 && !s.hits; i++) {
			kpf_spin_ms(20);
			kpf_stats(c, p.fd, &s);
		}
		/* out of kpf_hot() from here on: later hits are the exec's */
		before = kpf_sum(p.buf, p.nb);
		if (write(pfd[1], &before, sizeof(before)) != sizeof(before))
			_exit(6);
		keep = dup(p.fd);	/* without O_CLOEXEC: survives exec */
		(void)keep;
		snprintf(ms, sizeof(ms), "%u", 1500);
		execl(suid_path, suid_path, "suid-spin", ms, (char *)NULL);
		_exit(7);
	}
	close(pfd[1]);
	if (read(pfd[0], &before, sizeof(before)) != sizeof(before))
		before = ~0ULL;
	close(pfd[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	after = kpf_sum(p.buf, p.nb);
	if (!WIFEXITED(st) || WEXITSTATUS(st) || before == ~0ULL) {
		kpf_fail(c, "suid: the case did not run (status 0x%x)", st);
	} else if (before == 0) {
		kpf_fail(c, "suid: the profile counted nothing before the exec");
	} else if (after != before) {
		kpf_fail(c, "suid: counted the set-user-ID program: %llu hits after the exec",
			 (unsigned long long)(after - before));
	}
	kpf_note("suid_before=%llu suid_after=%llu", (unsigned long long)before,
		 (unsigned long long)after);
	munmap(p.buf, p.len);
	return 0;
}

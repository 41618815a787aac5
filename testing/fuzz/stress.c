// SPDX-License-Identifier: GPL-2.0
/*
 * stress.c - the stress modes: threads churning profiles for a fixed time
 * (create, start, spin, stop, check, close; thread profiling on and off),
 * and a holder of every kind of object for the insmod/rmmod cycles.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kpfuzz.h"

/*
 * One churning thread.  @created, @started and @stopped count the
 * profiles that got that far (stopped: by STOP, or by the close of a
 * started one); @ops the full cycles (created, started, stopped, checked,
 * closed).
 */
struct churner {
	struct kpf_ctx c;
	pthread_t th;
	time_t end;
	uint64_t ops, created, started, stopped;
};

static void *churn(void *arg)
{
	struct churner *w = arg;
	struct kpf_ctx *c = &w->c;
	unsigned int shift = 2;
	uint64_t nb = ((kpf_hot_size() - 1) >> shift) + 1;
	size_t len = (nb * 4 + KPF_PAGE - 1) & ~(KPF_PAGE - 1);
	struct kprofile_profile_stats st;
	struct kprofile_thread_enable te;
	struct kprofile_thread_data td;
	struct kprofile_interval iv;

	while (time(NULL) < w->end) {
		uint32_t *buf = kpf_map(len);
		int fd, err = 0, tfd;

		int started = 0;

		c->step++;
		if (!buf) {
			kpf_fail(c, "churn: mmap of %zu bytes failed", len);
			break;
		}
		fd = kpf_create_self(c, buf, nb, shift, &err);
		if (fd < 0) {
			kpf_fail(c, "churn: create: %s", strerror(err));
			munmap(buf, len);
			break;
		}
		w->created++;
		if (kpf_ioctl(c, fd, KPF_PROFILE, KPROFILE_IOC_START, NULL) == 0) {
			started = 1;
			kpf_spin_ms(kpf_below(&c->rng, 6));
			if (kpf_chance(&c->rng, 80)) {
				if (kpf_ioctl(c, fd, KPF_PROFILE,
					      KPROFILE_IOC_STOP, NULL))
					kpf_fail(c, "churn: STOP failed");
			}
		} else {
			kpf_fail(c, "churn: START failed");
		}
		if (kpf_stats(c, fd, &st) == 0 && !st.started &&
		    st.hits != kpf_sum(buf, nb))
			kpf_fail(c, "churn: hits=%llu, buckets sum to %llu",
				 (unsigned long long)st.hits,
				 (unsigned long long)kpf_sum(buf, nb));
		close(fd);	/* stops it when still started */
		munmap(buf, len);
		if (started) {
			w->started++;
			w->stopped++;	/* by STOP, or by the close */
			w->ops++;
		}
		if (kpf_chance(&c->rng, 10)) {
			memset(&te, 0, sizeof(te));
			te.flags = kpf_below(&c->rng, 2) ? KPROFILE_THREAD_INHERIT : 0;
			tfd = kpf_ioctl(c, c->dev, KPF_DEV,
					KPROFILE_IOC_THREAD_ENABLE, &te);
			if (tfd >= 0) {
				kpf_spin_ms(2);
				kpf_ioctl(c, tfd, KPF_THREAD,
					  KPROFILE_IOC_THREAD_READ, &td);
				close(tfd);
			} else if (tfd != -EBUSY) {
				kpf_fail(c, "churn: THREAD_ENABLE: %s",
					 strerror((int)-tfd));
			}
		}
		if (kpf_chance(&c->rng, 10)) {
			iv.source = KPROFILE_SOURCE_TIME;
			kpf_ioctl(c, c->dev, KPF_DEV, KPROFILE_IOC_GET_INTERVAL, &iv);
		}
	}
	return NULL;
}

/**
 * kpf_churn() - @threads threads churn profiles for @seconds.
 * @seed:    the seed.
 * @threads: how many (at most 16).
 * @seconds: how long.
 * @ops:     out: profiles created, started, stopped and closed.
 *
 * A churn in which no profile was created, started or stopped at all
 * (the device refused everything, or no thread got to run) is a failure:
 * it would prove nothing.
 *
 * Return: the failures seen.
 */
int kpf_churn(uint64_t seed, int threads, int seconds, uint64_t *ops)
{
	struct churner w[16];
	int i, dev = kpt_try_open_dev();
	uint64_t fails = 0, created = 0, started = 0, stopped = 0;

	*ops = 0;
	if (dev < 0)
		return 1;
	if (threads > 16)
		threads = 16;
	for (i = 0; i < threads; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].c.dev = dev;
		w[i].c.seed = seed;
		w[i].c.phase = "churn";
		w[i].c.worker = i;
		kpf_seed(&w[i].c.rng, seed, "churn", i);
		w[i].end = time(NULL) + seconds;
		pthread_create(&w[i].th, NULL, churn, &w[i]);
	}
	for (i = 0; i < threads; i++) {
		pthread_join(w[i].th, NULL);
		*ops += w[i].ops;
		created += w[i].created;
		started += w[i].started;
		stopped += w[i].stopped;
		fails += w[i].c.fails;
	}
	close(dev);
	kpf_note("churn_created=%llu churn_started=%llu churn_stopped=%llu",
		 (unsigned long long)created, (unsigned long long)started,
		 (unsigned long long)stopped);
	if (!created || !started || !stopped || !*ops) {
		fprintf(stderr,
			"FAIL churn: %llu profiles created, %llu started, %llu stopped in %d s by %d threads: the churn did nothing\n",
			(unsigned long long)created, (unsigned long long)started,
			(unsigned long long)stopped, seconds, threads);
		fails++;
	}
	return (int)fails;
}

static int note_errno(const char *what, long ret)
{
	kpf_note("%s=%s", what, ret >= 0 ? "OK" : strerror((int)-ret));
	return ret >= 0;
}

/**
 * kpf_hold() - hold one of every kind of object, then write @ready_path
 *	and sleep until killed (the insmod/rmmod cycles of the debug layer):
 *	a started and a stopped profile, a thread-profiling fd, a
 *	reservation (EOPNOTSUPP without a PMU), a dup of the device fd, a
 *	child (uid 65534) with a started profile of its own, a profile of
 *	that child, and a child holding a profile its parent created.
 * @dev:        /dev/kprofile, open.
 * @ready_path: file to create when everything is held.
 *
 * Return: 1 on a setup failure (it does not return otherwise).
 */
int kpf_hold(int dev, const char *ready_path)
{
	static uint32_t bufs[4][1024] __attribute__((aligned(4096)));
	struct kpf_ctx c = { .dev = dev, .phase = "hold" };
	struct kprofile_create_profile req;
	struct kprofile_thread_enable te = { 0 };
	struct kprofile_reserve rs = { 0 };
	int fd0, fd1, ok = 1, err, sync[2];
	pid_t kid, kid2;
	char b;

	setpgid(0, 0);
	if (pipe(sync))
		return 1;
	kpf_arena_init(&c);
	fd0 = kpf_create_self(&c, bufs[0], 1024, 2, &err);
	ok &= note_errno("profile_started", fd0 < 0 ? -err :
			 kpf_ioctl(&c, fd0, KPF_PROFILE, KPROFILE_IOC_START, NULL));
	fd1 = kpf_create_self(&c, bufs[1], 1024, 2, &err);
	ok &= note_errno("profile_created", fd1 < 0 ? -err : fd1);
	te.flags = KPROFILE_THREAD_INHERIT;
	ok &= note_errno("thread_fd", kpf_ioctl(&c, dev, KPF_DEV,
						KPROFILE_IOC_THREAD_ENABLE, &te));
	note_errno("reserve", kpf_ioctl(&c, dev, KPF_DEV, KPROFILE_IOC_RESERVE, &rs));
	ok &= note_errno("dup_dev", dup(dev));
	kid = fork();
	if (kid == 0) {	/* an unprivileged user's started profile */
		int f;

		if (kpf_drop_privileges())
			_exit(1);
		c.priv = KPF_USER;
		f = kpf_create_self(&c, bufs[2], 1024, 2, &err);
		if (f < 0 || kpf_ioctl(&c, f, KPF_PROFILE, KPROFILE_IOC_START, NULL))
			_exit(1);
		if (write(sync[1], "k", 1) != 1)
			_exit(1);
		for (;;)
			kpf_spin_ms(50), usleep(100000);
	}
	ok &= read(sync[0], &b, 1) == 1;
	memset(&req, 0, sizeof(req));
	req.target = KPROFILE_TARGET_PID;
	req.pid = kid;
	req.base = kpf_hot_start();
	req.size = kpf_hot_size();
	req.buffer = (uintptr_t)bufs[3];
	req.buffer_size = sizeof(bufs[3]);
	req.bucket_shift = 2;
	ok &= note_errno("profile_of_child",
			 kpf_ioctl(&c, dev, KPF_DEV, KPROFILE_IOC_CREATE_PROFILE, &req));
	kid2 = fork();
	if (kid2 == 0) {	/* holds fd1 (made by the parent) and the rest */
		for (;;)
			pause();
	}
	ok &= kid > 0 && kid2 > 0;
	if (!ok)
		return 1;
	close(open(ready_path, O_WRONLY | O_CREAT | O_TRUNC, 0644));
	for (;;)
		pause();
}

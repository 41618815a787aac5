// SPDX-License-Identifier: GPL-2.0
/*
 * kp-stress - thread profiling under load, for testing/guest/80-stress.sh:
 * the scheduler hooks (sched_switch, sched_process_fork with its GFP_ATOMIC
 * allocation, sched_process_exit) run many times on both CPUs while
 * profiling is enabled and disabled again and again, once with the
 * threads still running.  Made to be run on PREEMPT_RT, where a hook that
 * sleeps or takes a sleeping lock with preemption off is a bug the
 * console shows.
 *
 *   kp-stress THREADS ROUNDS CYCLES
 *	CYCLES times: enable thread profiling with INHERIT, start THREADS
 *	threads in pairs that ping-pong over pipes ROUNDS times, each
 *	round also creating and joining a short-lived thread and every 16th
 *	forking a child; odd cycles close the profiling fd while the
 *	threads still run, even ones read the totals after joining them.
 *	Prints key=value lines:
 *	  cycles=      cycles completed
 *	  created=     threads and processes created while profiled, summed
 *		       over the cycles that were read (the workers included)
 *	  threads=     threads the module accounted in those cycles
 *	  switches=    context switches it counted in those cycles
 *	  errors=      failed system calls (0 expected)
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/kprofile.h>
#include "kp_test.h"

struct pair_end {
	int rd, wr;
	int rounds;
};

static atomic_ulong created;
static atomic_ulong errors;

static void *nothing(void *arg)
{
	return arg;
}

static void *worker(void *arg)
{
	struct pair_end *pe = arg;
	char b = 'x';
	pthread_t t;
	pid_t pid;
	int i;

	for (i = 0; i < pe->rounds; i++) {
		/* Ping-pong: the read blocks until the partner writes. */
		if (write(pe->wr, &b, 1) != 1 || read(pe->rd, &b, 1) != 1)
			atomic_fetch_add(&errors, 1);
		if (pthread_create(&t, NULL, nothing, NULL) == 0) {
			atomic_fetch_add(&created, 1);
			pthread_join(t, NULL);
		} else {
			atomic_fetch_add(&errors, 1);
		}
		if (i % 16 == 0) {
			pid = fork();
			if (pid == 0)
				_exit(0);
			if (pid > 0) {
				atomic_fetch_add(&created, 1);
				waitpid(pid, NULL, 0);
			} else {
				atomic_fetch_add(&errors, 1);
			}
		}
	}
	return NULL;
}

static int enable(int dev)
{
	struct kprofile_thread_enable te = {
		.flags = KPROFILE_THREAD_INHERIT, .counter_mask = 0xffff,
	};

	return ioctl(dev, KPROFILE_IOC_THREAD_ENABLE, &te);
}

int main(int argc, char **argv)
{
	unsigned long long threads = 0, switches = 0, made = 0;
	int nthreads, rounds, cycles, dev, cycle, i, done = 0;
	struct kprofile_thread_data d;
	struct pair_end *pe;
	pthread_t *tids;
	int p[2][2];

	if (argc != 4) {
		fprintf(stderr, "usage: kp-stress THREADS ROUNDS CYCLES\n");
		return 2;
	}
	nthreads = atoi(argv[1]) & ~1;
	rounds = atoi(argv[2]);
	cycles = atoi(argv[3]);
	if (nthreads < 2 || rounds < 1 || cycles < 1) {
		fprintf(stderr, "kp-stress: need THREADS >= 2, ROUNDS and CYCLES >= 1\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	dev = kpt_open_dev();
	pe = calloc(nthreads, sizeof(*pe));
	tids = calloc(nthreads, sizeof(*tids));
	if (!pe || !tids)
		return 2;

	for (cycle = 0; cycle < cycles; cycle++) {
		int tp = enable(dev);

		if (tp < 0) {
			printf("enable=%s\n", strerror(errno));
			atomic_fetch_add(&errors, 1);
			break;
		}
		atomic_store(&created, 0);
		for (i = 0; i < nthreads; i += 2) {
			if (pipe(p[0]) || pipe(p[1]))
				return 2;
			pe[i] = (struct pair_end){ p[0][0], p[1][1], rounds };
			pe[i + 1] = (struct pair_end){ p[1][0], p[0][1], rounds };
		}
		for (i = 0; i < nthreads; i++) {
			if (pthread_create(&tids[i], NULL, worker, &pe[i]))
				return 2;
			atomic_fetch_add(&created, 1);
		}
		if (cycle & 1) {
			/* Disable while the hooks fire on both CPUs. */
			usleep(20000);
			close(tp);
		}
		for (i = 0; i < nthreads; i++)
			pthread_join(tids[i], NULL);
		for (i = 0; i < nthreads; i++) {
			close(pe[i].rd);
			close(pe[i].wr);
		}
		if (!(cycle & 1)) {
			if (ioctl(tp, KPROFILE_IOC_THREAD_READ, &d)) {
				printf("read=%s\n", strerror(errno));
				atomic_fetch_add(&errors, 1);
			} else {
				/* The caller itself is accounted too. */
				made += atomic_load(&created) + 1;
				threads += d.threads;
				switches += d.context_switches;
			}
			close(tp);
		}
		done++;
	}
	printf("cycles=%d\ncreated=%llu\nthreads=%llu\nswitches=%llu\nerrors=%lu\n",
	       done, made, threads, switches, atomic_load(&errors));
	return 0;
}

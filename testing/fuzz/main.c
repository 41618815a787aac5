// SPDX-License-Identifier: GPL-2.0
/*
 * kpfuzz - structure-aware fuzzer and stress for /dev/kprofile and every
 * fd it returns (testing/notes/debugvm.md; run by
 * testing/debugvm/run.sh).
 *
 *   kpfuzz check [--seed S] [--scale N]   the fixed-seed run of make check:
 *                      every phase once (N/100 of the budget), >= 200,000
 *                      ioctls at --scale 100 (the default)
 *   kpfuzz fuzz --seconds T [--seed S]    rounds of every phase with seeds
 *                      S, S+1, ... until T seconds have passed
 *   kpfuzz churn [--threads N] [--seconds T] [--seed S]
 *   kpfuzz hold READY_FILE                hold every kind of object
 *   kpfuzz suid-spin MS                   (the set-user-ID copy's part)
 *
 * Output: key=value lines; each failure is a line "FAIL seed=S phase=P
 * worker=W step=N: what" on stderr, and the exit status is 1.  The last
 * line is "calls=N failures=M seed=S seconds=T".
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kpfuzz.h"

#define NOBODY 65534

static uint64_t seed = 20261123;
static int scale = 100;
static const char *suid_path = "/kp/bin/kpfuzz-suid";
static const char *phases;	/* --phases "a b": only these */
static const char *volatile current_phase = "start";

static int wanted(const char *phase)
{
	const char *p = phases;
	size_t n = strlen(phase);

	if (!p)
		return 1;
	while ((p = strstr(p, phase))) {
		if ((p == phases || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return 1;
		p += n;
	}
	return 0;
}

/* A line every 30 s, so a slow or stuck run shows where it is. */
static void *progress(void *arg)
{
	(void)arg;
	for (;;) {
		sleep(30);
		kpf_note("progress phase=%s calls=%llu failures=%llu",
			 current_phase, (unsigned long long)kpf_totals->calls,
			 (unsigned long long)kpf_totals->fails);
	}
	return NULL;
}

/**
 * kpf_drop_privileges() - become uid/gid 65534 with no capabilities (the
 *	device fd stays open, as when root passes it on).
 *
 * Return: 0 or -1.
 */
int kpf_drop_privileges(void)
{
	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		return -1;
	return 0;
}

struct worker {
	struct kpf_ctx c;
	struct kpf_budget b;
	pthread_t th;
};

static void *fuzz_thread(void *arg)
{
	struct worker *w = arg;

	kpf_fuzz(&w->c, &w->b);
	return NULL;
}

static struct kpf_ctx ctx_for(int dev, const char *phase, int worker,
			      enum kpf_priv priv)
{
	struct kpf_ctx c;

	memset(&c, 0, sizeof(c));
	c.dev = dev;
	c.seed = seed;
	c.phase = phase;
	c.worker = worker;
	c.priv = priv;
	kpf_seed(&c.rng, seed, phase, worker);
	return c;
}

/* N fuzz threads in this process. */
static void fuzz_threads(int dev, const char *phase, enum kpf_priv priv,
			 int memlock0, int n, const struct kpf_budget *b)
{
	struct worker w[4];
	int i;

	for (i = 0; i < n && i < 4; i++) {
		w[i].c = ctx_for(dev, phase, i, priv);
		w[i].c.memlock0 = memlock0;
		w[i].b = *b;
		pthread_create(&w[i].th, NULL, fuzz_thread, &w[i]);
	}
	for (i = 0; i < n && i < 4; i++)
		pthread_join(w[i].th, NULL);
}

/* Run @fn in a child that dropped to uid 65534 (and more, per @how). */
enum how { AS_USER, AS_MEMLOCK0, AS_USERNS };

static void in_child(int dev, const char *phase, enum how how, int n,
		     const struct kpf_budget *b)
{
	struct kpf_ctx c = ctx_for(dev, phase, 0, KPF_USER);
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		struct rlimit zero = { 0, 0 };

		if (kpf_drop_privileges()) {
			kpf_fail(&c, "cannot drop privileges");
			_exit(1);
		}
		if (how == AS_MEMLOCK0 && setrlimit(RLIMIT_MEMLOCK, &zero)) {
			kpf_fail(&c, "setrlimit(RLIMIT_MEMLOCK, 0): %s", strerror(errno));
			_exit(1);
		}
		if (how == AS_USERNS && unshare(CLONE_NEWUSER)) {
			kpf_fail(&c, "unshare(CLONE_NEWUSER): %s", strerror(errno));
			_exit(1);
		}
		fuzz_threads(dev, phase, how == AS_USERNS ? KPF_USERNS : KPF_USER,
			     how == AS_MEMLOCK0, n, b);
		_exit(0);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		kpf_fail(&c, "the %s child ended with status 0x%x", phase, st);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void phase_done(const char *phase, uint64_t calls0, uint64_t fails0,
		       double t0)
{
	kpf_note("phase=%s calls=%llu failures=%llu seconds=%.0f", phase,
		 (unsigned long long)(kpf_totals->calls - calls0),
		 (unsigned long long)(kpf_totals->fails - fails0), now() - t0);
}

#define B(n) ((uint64_t)(n) * scale / 100)

/* Every phase once, with this seed. */
static void all_phases(int dev)
{
	/*
	 * Most calls are cheap (queries, invalid requests, unknown numbers:
	 * 190,000 at --scale 100); the structured ones (START/STOP wait for
	 * an RCU grace period each, memory games, forks) are about 15,000.
	 */
	struct kpf_budget full = { .calls = B(2000), .memgames = 1 };
	struct kpf_budget forking = { .calls = B(1000), .fork = 1, .memgames = 1 };
	struct kpf_budget cheap = { .calls = B(50000), .cheap = 1 };
	struct kpf_budget user_cheap = { .calls = B(45000), .cheap = 1 };
	struct kpf_budget small = { .calls = B(800), .memgames = 1 };
	struct kpf_budget userns = { .calls = B(1200), .fork = 1 };
	struct kpf_ctx c;
	uint64_t c0, f0;
	double t0;
	int r;

#define PHASE(name, body) do { \
		if (!wanted(name)) \
			break; \
		current_phase = name; \
		c0 = kpf_totals->calls; f0 = kpf_totals->fails; t0 = now(); \
		body; \
		phase_done(name, c0, f0, t0); \
	} while (0)

	PHASE("root", fuzz_threads(dev, "root", KPF_ROOT, 0, 2, &full));
	PHASE("root-fork", fuzz_threads(dev, "root-fork", KPF_ROOT, 0, 1, &forking));
	PHASE("integrity", {
		c = ctx_for(dev, "integrity", 0, KPF_ROOT);
		r = kpf_case_integrity(&c, 2, 24);
		kpf_note("integrity_hits=%d", r);
		if (!r)
			kpf_fail(&c, "integrity: nothing was counted at all");
	});
	PHASE("race", {
		c = ctx_for(dev, "race", 0, KPF_ROOT);
		r = kpf_case_race(&c, B(1500));
		kpf_note("race_close_cycles=%d", r);
	});
	PHASE("user", in_child(dev, "user", AS_USER, 2, &full));
	PHASE("memlock0", in_child(dev, "memlock0", AS_MEMLOCK0, 1, &small));
	PHASE("userns", in_child(dev, "userns", AS_USERNS, 1, &userns));
	PHASE("suid", {
		c = ctx_for(dev, "suid", 0, KPF_USER);
		if (kpf_case_suid(&c, suid_path))
			kpf_fail(&c, "suid: %s is missing or not executable", suid_path);
	});
	PHASE("cheap-root", fuzz_threads(dev, "cheap-root", KPF_ROOT, 0, 2, &cheap));
	PHASE("cheap-user", in_child(dev, "cheap-user", AS_USER, 2, &user_cheap));
#undef PHASE
}

static int usage(void)
{
	fprintf(stderr, "usage: kpfuzz check [--seed S] [--scale N] | "
		"fuzz --seconds T [--seed S] [--phases \"P...\"] | churn [--threads N] [--seconds T] | "
		"hold READY_FILE | suid-spin MS\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int seconds = 60, threads = 8, dev, i;
	double t0 = now();
	uint64_t ops;

	if (!strcmp(mode, "suid-spin"))
		return kpf_suid_child(argc, argv);
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--scale") && i + 1 < argc)
			scale = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			seconds = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
			threads = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--phases") && i + 1 < argc)
			phases = argv[++i];
		else if (!strcmp(argv[i], "--suid") && i + 1 < argc)
			suid_path = argv[++i];
		else if (strcmp(mode, "hold"))
			return usage();
	}
	kpf_totals = mmap(NULL, sizeof(*kpf_totals), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (kpf_totals == MAP_FAILED)
		return 1;
	memset(kpf_totals, 0, sizeof(*kpf_totals));
	setvbuf(stdout, NULL, _IOLBF, 0);
	/*
	 * perf_event_paranoid 2 (upstream's default): unprivileged self
	 * profiles of user mode are allowed, kernel mode is not (the guest
	 * tests may have left another value).
	 */
	if (strcmp(mode, "suid-spin") && strcmp(mode, "hold")) {
		int pfd = open("/proc/sys/kernel/perf_event_paranoid", O_WRONLY);

		if (pfd >= 0) {
			if (write(pfd, "2\n", 2) != 2)
				perror("perf_event_paranoid");
			close(pfd);
		}
	}
	dev = kpt_try_open_dev();
	if (dev < 0)
		return 1;
	if (!strcmp(mode, "hold"))
		return argc > 2 ? kpf_hold(dev, argv[2]) : usage();
	if (!strcmp(mode, "churn")) {
		int f = kpf_churn(seed, threads, seconds, &ops);

		kpf_note("churn_threads=%d churn_seconds=%d churn_profiles=%llu failures=%d",
			 threads, seconds, (unsigned long long)ops, f);
		return f ? 1 : 0;
	}
	if (!strcmp(mode, "check") || !strcmp(mode, "fuzz")) {
		pthread_t th;

		pthread_create(&th, NULL, progress, NULL);
		pthread_detach(th);
	}
	if (!strcmp(mode, "check")) {
		kpf_note("seed=%llu scale=%d", (unsigned long long)seed, scale);
		all_phases(dev);
	} else if (!strcmp(mode, "fuzz")) {
		uint64_t first = seed;

		scale = 25;
		while (now() - t0 < seconds) {
			uint64_t f0 = kpf_totals->fails;

			kpf_note("round seed=%llu", (unsigned long long)seed);
			all_phases(dev);
			if (kpf_totals->fails != f0)
				kpf_note("failing seed=%llu (make fuzz SEED=%llu)",
					 (unsigned long long)seed,
					 (unsigned long long)seed);
			seed++;
		}
		seed = first;
	} else {
		return usage();
	}
	kpf_note("calls=%llu failures=%llu seed=%llu seconds=%.0f",
		 (unsigned long long)kpf_totals->calls,
		 (unsigned long long)kpf_totals->fails,
		 (unsigned long long)seed, now() - t0);
	return kpf_totals->fails ? 1 : 0;
}

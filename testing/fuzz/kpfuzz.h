/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kpfuzz.h - the kprofile ioctl fuzzer (testing/fuzz/): shared types.
 *
 * Everything is deterministic from a seed: each worker has its own
 * generator seeded from (seed, phase, worker), so a failure's seed and
 * phase reproduce its sequence of calls (the interleaving of threads and
 * the kernel's timing do not repeat exactly).
 */
#ifndef KPFUZZ_H
#define KPFUZZ_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/kprofile.h>
#include "kp_test.h"

/* What a file descriptor is, for the errno table. */
enum kpf_kind {
	KPF_DEV,	/* /dev/kprofile */
	KPF_PROFILE,	/* from KPROFILE_IOC_CREATE_PROFILE */
	KPF_THREAD,	/* from KPROFILE_IOC_THREAD_ENABLE */
	KPF_RESERVE,	/* from KPROFILE_IOC_RESERVE */
	KPF_ANY,	/* unknown: the fd may have been closed and reused */
	KPF_KINDS,
};

/* The caller's privilege, for the invariants that depend on it. */
enum kpf_priv {
	KPF_ROOT,	/* uid 0, all capabilities */
	KPF_USER,	/* uid 65534, no capabilities (fd opened by root) */
	KPF_USERNS,	/* uid 65534 in a new user namespace */
};

struct kpf_rng {
	uint64_t s;
};

/* One worker's state. */
struct kpf_ctx {
	struct kpf_rng rng;
	uint64_t seed;		/* the run's seed, printed with failures */
	const char *phase;
	int worker;
	enum kpf_priv priv;
	int memlock0;		/* RLIMIT_MEMLOCK is 0 */
	int racy;		/* other workers close fds: EBADF/ENOTTY allowed */
	int dev;		/* a /dev/kprofile fd */
	uint64_t calls;		/* ioctls made by this worker */
	uint64_t fails;		/* invariant violations seen by this worker */
	uint64_t step;
	unsigned char *arena;	/* KPF_ARENA_PAGES pages with holes, see mem.c */
};

#define KPF_PAGE	4096UL
#define KPF_ARENA_PAGES	8

/* rng.c */
uint64_t kpf_rand(struct kpf_rng *r);
void kpf_seed(struct kpf_rng *r, uint64_t seed, const char *phase, int worker);
uint64_t kpf_below(struct kpf_rng *r, uint64_t n);
int kpf_chance(struct kpf_rng *r, unsigned int percent);
uint64_t kpf_edge(struct kpf_rng *r);

/* errnos.c: the one table of documented errnos, and the output checks */
const char *kpf_ioctl_name(unsigned long cmd);
int kpf_errno_ok(const struct kpf_ctx *c, enum kpf_kind kind,
		 unsigned long cmd, int err);
void kpf_check_output(struct kpf_ctx *c, unsigned long cmd, const void *arg);
long kpf_ioctl(struct kpf_ctx *c, int fd, enum kpf_kind kind,
	       unsigned long cmd, void *arg);
void kpf_fail(struct kpf_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void kpf_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Totals, in memory shared with forked children (main.c maps it). */
struct kpf_totals {
	uint64_t calls;
	uint64_t fails;
};
extern struct kpf_totals *kpf_totals;

/* mem.c: argument memory, edge pointers, the hot function */
void kpf_arena_init(struct kpf_ctx *c);
void *kpf_scratch(struct kpf_ctx *c, size_t len);
void *kpf_edge_ptr(struct kpf_ctx *c, size_t len);
void *kpf_map(size_t len);
uint64_t kpf_hot(uint64_t n);
uint64_t kpf_hot_start(void);
uint64_t kpf_hot_size(void);
void kpf_spin_ms(unsigned int ms);

/* fuzz.c: the structure-aware fuzz loop */
struct kpf_budget {
	uint64_t calls;		/* stop after this many calls (per worker) */
	int fork;		/* allow fork() with inherited fds */
	int cheap;		/* queries and invalid requests only */
	int memgames;		/* unmap/protect buffers of started profiles */
};
void kpf_fuzz(struct kpf_ctx *c, const struct kpf_budget *b);

/* dev.c: one request on /dev/kprofile or a random number on any fd */
void kpf_dev_query(struct kpf_ctx *c);
void kpf_random_cmd(struct kpf_ctx *c, int fd, enum kpf_kind kind);

/* cases.c: the targeted cases */
int kpf_case_integrity(struct kpf_ctx *c, int spinners, int rounds);
int kpf_case_race(struct kpf_ctx *c, uint64_t calls);
int kpf_case_memlock0(struct kpf_ctx *c);
int kpf_case_unmap(struct kpf_ctx *c);
int kpf_case_privilege(struct kpf_ctx *c);
int kpf_case_suid(struct kpf_ctx *c, const char *suid_path);
int kpf_suid_child(int argc, char **argv);

/* stress.c */
int kpf_churn(uint64_t seed, int threads, int seconds, uint64_t *ops);
int kpf_hold(int dev, const char *ready_path);

/* helpers shared by the cases (fuzz.c) */
int kpf_create_self(struct kpf_ctx *c, uint32_t *buf, uint64_t nbuckets,
		    unsigned int shift, int *err);
int kpf_stats(struct kpf_ctx *c, int fd, struct kprofile_profile_stats *st);
uint64_t kpf_sum(const uint32_t *buf, uint64_t n);
int kpf_drop_privileges(void);

#endif

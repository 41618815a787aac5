/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kp_profile.h - kp-profile's shared helpers: building and creating a
 * profile request (create.c), and the state both files use.
 */
#ifndef KP_PROFILE_H
#define KP_PROFILE_H

#include <stdint.h>
#include <linux/kprofile.h>
#include "kp_test.h"

extern const char __executable_start[], etext[];
extern const char __start_kp_phot[], __stop_kp_phot[];

/* spin's hot function (testing/guest/progs/spin.c): static, not PIE. */
extern uint64_t spin_base, spin_size;
/* /dev/kprofile, and /proc opened before privileges are dropped. */
extern int dev, proc;

struct create {
	struct kprofile_create_profile req;
	const char *range;
	const char *buffer;
	uint64_t buffer_size;	/* when buffer_size_set */
	int buffer_size_set;
	int buffer_short;	/* 4 bytes fewer than needed */
	uint64_t cpus;
	uint32_t *buckets;	/* the mapping behind req.buffer */
	size_t map_size;	/* bytes mapped there */
};

uint64_t kp_profile_hot(uint64_t n);
void die(const char *what);
const char *res(int e);
double cpu_seconds(void);
void drop_caps(void);
void keep_only_cap(int cap);
void print_stats_ex(int fd, const char *prefix);

/* priv.c */
int cmd_exec_watch(int argc, char **argv);
int cmd_lost(int argc, char **argv);
int cmd_machine(void);
int cmd_thread_try(void);
int cmd_thread_hold(int argc, char **argv);
int cmd_spin_mixed(int argc, char **argv);
uint64_t needed(const struct kprofile_create_profile *r);
void create_defaults(struct create *c);
int parse_create(struct create *c, int argc, char **argv, int *i);
int create(struct create *c);
int xioctl(int fd, unsigned long cmd, void *arg);
void print_stats(int fd, const char *prefix);
uint64_t sum(const struct create *c, uint64_t first, uint64_t last);
void buckets_of(const struct create *c, uintptr_t lo, uintptr_t hi,
		uint64_t *first, uint64_t *last);

#endif /* KP_PROFILE_H */

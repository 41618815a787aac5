/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile_fixture.h - a private sampler (struct kp_sampler, sampler.h) over a
 * fake Intel machine's hardware layer (pmu_fixture.h), with profiles whose
 * buckets are kernel memory, for the kprofile_profile_* KUnit suites.
 *
 * The fake machine has perfmon v3, four 48-bit counters and every
 * architectural event, so counter sources (KP_PROF_COUNTER) arm without
 * raising real interrupts: a suite calls kp_profile_hit() itself, or
 * simulates an NMI with kp_pmu_fix_nmi().  ProfileTime profiles run real
 * per-CPU hrtimers.
 *
 * Suites set .exit = kp_prof_fix_exit: every profile is freed (stopped
 * first), the sampler taken down, then the hardware layer.
 */
#ifndef _KPROFILE_PROFILE_FIXTURE_H
#define _KPROFILE_PROFILE_FIXTURE_H

#include <kunit/test.h>

#include "../kmod/profile.h"
#include "pmu_fixture.h"

#define KP_PROF_FIX_MAX		320
#define KP_PROF_COUNTER		KPROFILE_SOURCE_BRANCH_MISPREDICTIONS

/**
 * struct kp_prof_fix - one test's profiles.
 * @test:     the test.
 * @pmu:      the hardware layer's fixture.
 * @set:      the sampler under test.
 * @profiles: profiles to free at exit.
 * @nr:	      entries in @profiles.
 */
struct kp_prof_fix {
	struct kunit *test;
	struct kp_pmu_fix *pmu;
	struct kp_sampler set;
	struct kp_profile *profiles[KP_PROF_FIX_MAX];
	unsigned int nr;
};

struct kp_prof_fix *kp_prof_fix_new(struct kunit *test);
struct kp_prof_fix *kp_prof_fix_on(struct kunit *test, struct kp_pmu_fix *pmu);
void kp_prof_fix_exit(struct kunit *test);
void kp_prof_req(struct kprofile_create_profile *req, u32 source, u32 target,
		 enum kprofile_mode mode, u64 base, u64 size, u32 shift);
struct kp_profile *kp_prof_new(struct kp_prof_fix *f, u32 source, u32 target,
			       enum kprofile_mode mode, u64 base, u64 size,
			       u32 shift, const struct cpumask *cpus);
u32 *kp_prof_start_at(struct kp_prof_fix *f, struct kp_profile *p,
		      unsigned int offset);
u32 *kp_prof_start(struct kp_prof_fix *f, struct kp_profile *p);
void kp_prof_hit(struct kp_prof_fix *f, u32 source, unsigned int cpu,
		 const struct pid *tgid, unsigned long ip, bool user);
u64 kp_prof_stat(struct kp_profile *p, const char *which);

#endif /* _KPROFILE_PROFILE_FIXTURE_H */

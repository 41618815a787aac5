/* SPDX-License-Identifier: GPL-2.0 */
/*
 * thread_fixture.h - thread-profiling state (struct kp_threads) over a
 * pmu_fixture.h hardware layer, for the kprofile_thread_config and
 * kprofile_thread_account suites.  The cycle clock is a variable the test
 * sets.
 * Suites use .exit = kp_thread_fix_exit: the client and configuration go
 * first, then the hardware layer.
 */
#ifndef _KPROFILE_THREAD_FIXTURE_H
#define _KPROFILE_THREAD_FIXTURE_H

#include "../kmod/thread.h"
#include "pmu_fixture.h"

/**
 * struct kp_thread_fix - one test's thread-profiling state.
 * @pmu:     the hardware-layer fixture (test->priv).
 * @threads: the state under test.
 */
struct kp_thread_fix {
	struct kp_pmu_fix *pmu;
	struct kp_threads threads;
};

extern u64 kp_thread_fix_now;

struct kp_thread_fix *kp_thread_fix_new(struct kunit *test,
					struct kp_pmu_fix *pmu);
void kp_thread_fix_exit(struct kunit *test);

#endif /* _KPROFILE_THREAD_FIXTURE_H */

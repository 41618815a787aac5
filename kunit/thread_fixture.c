// SPDX-License-Identifier: GPL-2.0
/*
 * thread_fixture.c - see thread_fixture.h.
 */
#include <kunit/test.h>

#include "thread_fixture.h"

/* The fake cycle clock: what kp_threads.clock returns. */
u64 kp_thread_fix_now;

/* Tests run one at a time: the state the suite exit tears down. */
static struct kp_thread_fix *kp_thread_fix_cur;

static u64 kp_thread_fix_clock(void)
{
	return kp_thread_fix_now;
}

/**
 * kp_thread_fix_new() - thread profiling over a hardware-layer fixture.
 * @test: the test.
 * @pmu:  from kp_pmu_fix_intel(), kp_pmu_fix_amd() or kp_pmu_fix_build().
 *
 * Return: the fixture, empty configuration, no client, clock at 0.
 */
struct kp_thread_fix *kp_thread_fix_new(struct kunit *test,
					struct kp_pmu_fix *pmu)
{
	struct kp_thread_fix *fix;

	fix = kunit_kzalloc(test, sizeof(*fix), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fix);
	fix->pmu = pmu;
	kp_threads_init(&fix->threads, &pmu->pmu);
	fix->threads.clock = kp_thread_fix_clock;
	kp_thread_fix_now = 0;
	kp_thread_fix_cur = fix;
	return fix;
}

/**
 * kp_thread_fix_exit() - suite exit: free a client left behind, give the
 *	configuration's counters back, then take the hardware layer down.
 * @test: the test.
 */
void kp_thread_fix_exit(struct kunit *test)
{
	struct kp_thread_fix *fix = kp_thread_fix_cur;

	if (fix) {
		if (fix->threads.client)
			kp_thread_client_free(fix->threads.client);
		kp_threads_exit(&fix->threads);
		kp_thread_fix_cur = NULL;
	}
	kp_pmu_fix_exit(test);
}

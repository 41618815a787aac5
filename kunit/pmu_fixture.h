/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmu_fixture.h - a private hardware layer (struct kp_pmu) over a fake
 * processor, for the kprofile_pmu_* KUnit suites.
 *
 * A fixture owns a fake (fake_hw.h), the detected description, a source
 * model and a kp_pmu built with kp_pmu_setup(), whose arbitration with
 * perf is faked too: @perf names counters "perf holds", and @held records
 * what kprofile reserved.  Suites set .exit = kp_pmu_fix_exit so the layer
 * is taken down even when a test aborts.
 */
#ifndef _KPROFILE_PMU_FIXTURE_H
#define _KPROFILE_PMU_FIXTURE_H

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/ptrace.h>
#include <asm/nmi.h>

#include "../kmod/pmu.h"
#include "fake_hw.h"

/**
 * struct kp_pmu_fix - one test's hardware layer.
 * @test:    the test.
 * @fake:    the fake processor.
 * @desc:    what kp_detect() found on it.
 * @sources: the source model.
 * @pmu:     the layer under test.
 * @held:    counters the fake arbiter gave kprofile (bit per counter).
 * @perf:    counters the fake arbiter refuses: "perf holds them".
 * @perf_grabs: counters perf reserves the moment kprofile releases them
 *	     (a perf_event_open() racing with the release): they join @perf.
 * @reserves: calls of the fake arbiter's reserve (each one, on silicon,
 *	     can make a concurrent perf reservation fail).
 * @perf_all: perf holds the whole PMU, as reserve_pmc_hardware() takes it
 *	     for perf's first hardware event (all or nothing): every
 *	     reservation fails (kp_pmu_fix_perf_open()).
 * @up:      kp_pmu_fix_up() ran and kp_pmu_fix_down() did not.
 * @hotplug: the layer is an instance of kprofile's CPU hotplug state
 *	     (kp_pmu_hotplug_add()); the exit removes it.
 */
struct kp_pmu_fix {
	struct kunit *test;
	struct kp_fake *fake;
	struct kp_pmu_desc desc;
	struct kp_sources sources;
	struct kp_pmu pmu;
	unsigned long held;
	unsigned long perf;
	unsigned long perf_grabs;
	atomic_t reserves;
	bool perf_all;
	bool up;
	bool hotplug;
};

/**
 * struct kp_test_consumer - an overflow consumer that records calls.
 * @c:      the consumer.
 * @calls:  overflows received.
 * @source: the last source.
 * @regs:   the last registers pointer.
 */
struct kp_test_consumer {
	struct kp_overflow_consumer c;
	atomic_t calls;
	u32 source;
	struct pt_regs *regs;
};

struct kp_pmu_fix *kp_pmu_fix_intel(struct kunit *test, u32 version,
				    u32 counters, u32 width);
struct kp_pmu_fix *kp_pmu_fix_amd(struct kunit *test, u32 family,
				  bool perfmon_v2);
struct kp_pmu_fix *kp_pmu_fix_build(struct kunit *test, struct kp_fake *fake);
struct kp_pmu_fix *kp_pmu_fix_build_pt(struct kunit *test,
				       struct kp_fake *fake);
void kp_pmu_fix_up(struct kp_pmu_fix *fix);
void kp_pmu_fix_down(struct kp_pmu_fix *fix);
void kp_pmu_fix_cpu_up(struct kp_pmu_fix *fix, unsigned int cpu);
void kp_pmu_fix_cpu_down(struct kp_pmu_fix *fix, unsigned int cpu);
void kp_pmu_fix_resume(struct kp_pmu_fix *fix, unsigned int cpu);
int kp_pmu_fix_nmi(struct kp_pmu_fix *fix, unsigned int cpu,
		   struct pt_regs *regs);
unsigned int kp_pmu_fix_deliver(struct kp_pmu_fix *fix, unsigned int cpu,
				unsigned int max, struct pt_regs *regs);
void kp_pmu_fix_exit(struct kunit *test);
u32 kp_pmu_fix_interval(struct kp_pmu_fix *fix, u32 source, u32 interval);
void kp_test_consumer_init(struct kp_test_consumer *tc);
int kp_pmu_fix_perf_open(struct kp_pmu_fix *fix);
void kp_pmu_fix_perf_close(struct kp_pmu_fix *fix);
void kp_pmu_fix_arm_ok(struct kunit *test, struct kp_pmu_fix *fix, u32 source);

#endif /* _KPROFILE_PMU_FIXTURE_H */

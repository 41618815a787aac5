// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_fixture.c - see pmu_fixture.h.
 *
 * Per-CPU bring-up and take-down run as the module's CPU hotplug
 * callbacks do: in process context bound to the CPU (work_on_cpu()), with
 * the layer's lock held.  The NMI path and resume run with interrupts off
 * on the CPU (smp_call_function_single()), as in an NMI and in syscore
 * resume.
 */
#include <linux/bitops.h>
#include <linux/cpu.h>
#include <linux/jiffies.h>
#include <linux/smp.h>
#include <linux/workqueue.h>
#include <asm/nmi.h>

#include "pmu_fixture.h"

static bool kp_fix_reserve(struct kp_pmu *pmu, unsigned int idx)
{
	struct kp_pmu_fix *fix = container_of(pmu, struct kp_pmu_fix, pmu);

	atomic_inc(&fix->reserves);
	if (READ_ONCE(fix->perf_all) || test_bit(idx, &fix->perf))
		return false;
	return !test_and_set_bit(idx, &fix->held);
}

/**
 * kp_pmu_fix_perf_open() - perf opens its first hardware event (the NMI
 *	watchdog, perf stat): reserve_pmc_hardware() takes every counter or
 *	none.
 * @fix: the fixture.
 *
 * Return: 0, perf now holds the whole PMU; -EBUSY when kprofile holds any
 * counter (perf_event_open() fails, and perf holds nothing).
 */
int kp_pmu_fix_perf_open(struct kp_pmu_fix *fix)
{
	if (READ_ONCE(fix->held))
		return -EBUSY;
	WRITE_ONCE(fix->perf_all, true);
	return 0;
}

/**
 * kp_pmu_fix_arm_ok() - arm @source in table mode; the test stops, with
 *	the layer's reason, if that fails.
 * @test: the running test.
 * @fix:  the fixture.
 * @source: a KPROFILE_SOURCE_* value.
 */
void kp_pmu_fix_arm_ok(struct kunit *test, struct kp_pmu_fix *fix, u32 source)
{
	char reason[KPROFILE_REASON_LEN] = "";

	KUNIT_ASSERT_EQ_MSG(test, kp_pmu_arm(&fix->pmu, source,
					     KPROFILE_MODE_TABLE, NULL,
					     reason, sizeof(reason)), 0,
			    "arming 0x%x: %s", source, reason);
}

/**
 * kp_pmu_fix_perf_close() - perf's last hardware event goes: it releases
 *	every counter (release_pmc_hardware()).
 * @fix: the fixture.
 */
void kp_pmu_fix_perf_close(struct kp_pmu_fix *fix)
{
	WRITE_ONCE(fix->perf_all, false);
}

static void kp_fix_release(struct kp_pmu *pmu, unsigned int idx)
{
	struct kp_pmu_fix *fix = container_of(pmu, struct kp_pmu_fix, pmu);

	KUNIT_EXPECT_TRUE_MSG(fix->test, test_bit(idx, &fix->held),
			      "counter %u released but not held", idx);
	clear_bit(idx, &fix->held);
	if (test_bit(idx, &fix->perf_grabs))
		set_bit(idx, &fix->perf);
}

static const struct kp_pmu_arbiter kp_fix_arbiter = {
	.reserve = kp_fix_reserve,
	.release = kp_fix_release,
};

/* kprofile's NMI_LOCAL handler, as the fake's NMI code calls it. */
static int kp_fix_nmi_handler(struct kp_fake *fake, void *data,
			      struct pt_regs *regs)
{
	return kp_pmu_handle_overflow(data, regs);
}

/**
 * kp_pmu_fix_build_pt() - kp_pmu_fix_build() with perf's PMI handler (Intel
 *	PT active) on the NMI list before kprofile's, as at boot.
 * @test: the test.
 * @fake: an Intel v2+ fake processor.
 *
 * Return: the fixture.
 */
struct kp_pmu_fix *kp_pmu_fix_build_pt(struct kunit *test,
				       struct kp_fake *fake)
{
	kp_fake_nmi_register(fake, kp_fake_perf_pt_nmi, NULL);
	return kp_pmu_fix_build(test, fake);
}

/**
 * kp_pmu_fix_build() - a fixture over a prepared fake.
 * @test: the test; test->priv becomes the fixture.
 * @fake: a fake processor.
 *
 * kprofile's PMI handler is registered with the fake's NMI code, after
 * any handler already there.  The late-PMI window is a minute long, so
 * no test depends on how fast it runs.
 *
 * Return: the fixture, its layer set up but no CPU brought up.
 */
struct kp_pmu_fix *kp_pmu_fix_build(struct kunit *test, struct kp_fake *fake)
{
	struct kp_pmu_fix *fix;

	fix = kunit_kzalloc(test, sizeof(*fix), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fix);
	fix->test = test;
	fix->fake = fake;
	kp_detect(kp_fake_hw(fake), &fix->desc);
	kp_sources_init(&fix->sources, &fix->desc);
	KUNIT_ASSERT_EQ(test, kp_pmu_setup(&fix->pmu, kp_fake_hw(fake),
					   &fix->desc, &fix->sources), 0);
	fix->pmu.arbiter = &kp_fix_arbiter;
	fix->pmu.nmi_window = 60 * HZ;
	kp_fake_nmi_register(fake, kp_fix_nmi_handler, &fix->pmu);
	test->priv = fix;
	return fix;
}

/**
 * kp_pmu_fix_intel() - a fixture on an Intel processor, all CPUs up.
 * @test:     the test.
 * @version:  perfmon version.
 * @counters: general-purpose counters.
 * @width:    their width.
 *
 * EBX reports every architectural event (7 meaningful bits, none set).
 *
 * Return: the fixture.
 */
struct kp_pmu_fix *kp_pmu_fix_intel(struct kunit *test, u32 version,
				    u32 counters, u32 width)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_fix *fix;

	kp_fake_intel(fake, version, counters, width, 7, 0);
	fix = kp_pmu_fix_build(test, fake);
	KUNIT_ASSERT_EQ(test, fix->desc.iface, KPROFILE_INTERFACE_EMON);
	kp_pmu_fix_up(fix);
	return fix;
}

/**
 * kp_pmu_fix_amd() - a fixture on an AMD processor, all CPUs up.
 * @test:       the test.
 * @family:     display family.
 * @perfmon_v2: Zen 4 PerfMonV2.
 *
 * Return: the fixture.
 */
struct kp_pmu_fix *kp_pmu_fix_amd(struct kunit *test, u32 family,
				  bool perfmon_v2)
{
	struct kp_fake *fake = kp_fake_new(test);
	struct kp_pmu_fix *fix;

	kp_fake_amd(fake, family, perfmon_v2);
	fix = kp_pmu_fix_build(test, fake);
	KUNIT_ASSERT_EQ(test, fix->desc.iface, KPROFILE_INTERFACE_AMD64);
	kp_pmu_fix_up(fix);
	return fix;
}

static long kp_fix_cpu_up_fn(void *arg)
{
	struct kp_pmu *pmu = arg;

	mutex_lock(&pmu->lock);
	kp_pmu_cpu_up(pmu);
	mutex_unlock(&pmu->lock);
	return 0;
}

static long kp_fix_cpu_down_fn(void *arg)
{
	struct kp_pmu *pmu = arg;

	mutex_lock(&pmu->lock);
	kp_pmu_cpu_down(pmu);
	mutex_unlock(&pmu->lock);
	return 0;
}

/**
 * kp_pmu_fix_cpu_up() - the CPU-online callback, on @cpu.
 * @fix: the fixture.
 * @cpu: an online CPU.
 */
void kp_pmu_fix_cpu_up(struct kp_pmu_fix *fix, unsigned int cpu)
{
	work_on_cpu(cpu, kp_fix_cpu_up_fn, &fix->pmu);
}

/**
 * kp_pmu_fix_cpu_down() - the CPU-offline callback, on @cpu.
 * @fix: the fixture.
 * @cpu: an online CPU.
 */
void kp_pmu_fix_cpu_down(struct kp_pmu_fix *fix, unsigned int cpu)
{
	work_on_cpu(cpu, kp_fix_cpu_down_fn, &fix->pmu);
}

/**
 * kp_pmu_fix_up() - bring every online CPU up, as module load does.
 * @fix: the fixture.
 */
void kp_pmu_fix_up(struct kp_pmu_fix *fix)
{
	unsigned int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu)
		kp_pmu_fix_cpu_up(fix, cpu);
	cpus_read_unlock();
	fix->up = true;
}

/**
 * kp_pmu_fix_down() - take every online CPU down, as rmmod does.
 * @fix: the fixture.
 */
void kp_pmu_fix_down(struct kp_pmu_fix *fix)
{
	unsigned int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu)
		kp_pmu_fix_cpu_down(fix, cpu);
	cpus_read_unlock();
	fix->up = false;
}

static void kp_fix_resume_fn(void *arg)
{
	kp_pmu_resume_cpu(arg);
}

/**
 * kp_pmu_fix_resume() - the syscore resume callback, on @cpu.
 * @fix: the fixture.
 * @cpu: an online CPU.
 */
void kp_pmu_fix_resume(struct kp_pmu_fix *fix, unsigned int cpu)
{
	smp_call_function_single(cpu, kp_fix_resume_fn, &fix->pmu, 1);
}

struct kp_fix_nmi {
	struct kp_pmu *pmu;
	struct pt_regs *regs;
	int ret;
};

static void kp_fix_nmi_fn(void *arg)
{
	struct kp_fix_nmi *n = arg;

	n->ret = kp_pmu_handle_overflow(n->pmu, n->regs);
}

/**
 * kp_pmu_fix_nmi() - run the PMI handler on @cpu, interrupts off.
 * @fix:  the fixture.
 * @cpu:  an online CPU.
 * @regs: the "interrupted" registers handed to consumers.
 *
 * Return: NMI_HANDLED or NMI_DONE.
 */
int kp_pmu_fix_nmi(struct kp_pmu_fix *fix, unsigned int cpu,
		   struct pt_regs *regs)
{
	struct kp_fix_nmi n = { .pmu = &fix->pmu, .regs = regs, .ret = -1 };

	smp_call_function_single(cpu, kp_fix_nmi_fn, &n, 1);
	return n.ret;
}

/**
 * kp_pmu_fix_deliver() - take the PMIs pending on @cpu through the fake's
 *	NMI code (every registered handler, kprofile's among them).
 * @fix:  the fixture.
 * @cpu:  an online CPU.
 * @max:  at most this many NMIs (0: all pending).
 * @regs: the "interrupted" registers handed to consumers.
 *
 * Return: the NMIs delivered.
 */
unsigned int kp_pmu_fix_deliver(struct kp_pmu_fix *fix, unsigned int cpu,
				unsigned int max, struct pt_regs *regs)
{
	return kp_fake_nmi_deliver(fix->fake, cpu, max, regs);
}

/**
 * kp_pmu_fix_interval() - set a source's interval in the fixture's model.
 * @fix:      the fixture.
 * @source:   a supported source.
 * @interval: requested.
 *
 * Return: the interval used.
 */
u32 kp_pmu_fix_interval(struct kp_pmu_fix *fix, u32 source, u32 interval)
{
	KUNIT_EXPECT_EQ(fix->test,
			kp_source_set_interval(&fix->sources, source,
					       &interval), 0);
	return interval;
}

static void kp_test_consumer_overflow(struct kp_overflow_consumer *c,
				      u32 source, struct pt_regs *regs)
{
	struct kp_test_consumer *tc =
		container_of(c, struct kp_test_consumer, c);

	WRITE_ONCE(tc->source, source);
	WRITE_ONCE(tc->regs, regs);
	atomic_inc(&tc->calls);
}

/**
 * kp_test_consumer_init() - a recording consumer, not yet added.
 * @tc: the consumer.
 */
void kp_test_consumer_init(struct kp_test_consumer *tc)
{
	memset(tc, 0, sizeof(*tc));
	tc->c.overflow = kp_test_consumer_overflow;
	tc->source = ~0U;
}

/**
 * kp_pmu_fix_exit() - suite exit: take the fixture's layer down.
 * @test: the test.
 *
 * Every CPU is taken down and the layer torn down; counters still held
 * fail the test (a leak of the code under test or of the test).
 */
void kp_pmu_fix_exit(struct kunit *test)
{
	struct kp_pmu_fix *fix = test->priv;
	unsigned long held;

	if (!fix)
		return;
	if (fix->up)
		kp_pmu_fix_down(fix);
	if (fix->hotplug)
		kp_pmu_hotplug_remove(&fix->pmu);
	held = fix->held;
	kp_pmu_teardown(&fix->pmu);
	KUNIT_EXPECT_EQ_MSG(test, held, 0UL,
			    "counters still reserved at the end of the test");
	test->priv = NULL;
}

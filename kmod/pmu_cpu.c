// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_cpu.c - the hardware layer on each CPU: bring-up (save what is
 * there, LVTPC to NMI, re-program what is armed), take-down (stop and put
 * back what was found), CPU hotplug (a dynamic multi-instance cpuhp
 * state, as arch/x86/kernel/msr.c uses a dynamic one) and suspend/resume (syscore ops), and the
 * module's kp_pmu_init()/kp_pmu_exit().
 *
 * Save and restore: when a CPU comes up kprofile saves every event select,
 * every counter and the global control; when it goes down (offline, or
 * rmmod, which takes every CPU down through kp_pmu_hotplug_remove()) it puts
 * back the counters that perf does not hold at that moment, and in the
 * global control only their bits, so it never clobbers perf's state.
 */
#include <linux/bitops.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/lockdep.h>
#include <linux/printk.h>
#include <linux/syscore_ops.h>

#include "compat.h"
#include "kprofile.h"

static u32 kp_pmu_global_msr(const struct kp_pmu *pmu)
{
	const struct kp_pmu_desc *d = pmu->desc;

	if (d->iface == KPROFILE_INTERFACE_EMON && d->perfmon_version >= 2)
		return KP_MSR_IA32_PERF_GLOBAL_CTRL;
	if (d->iface == KPROFILE_INTERFACE_AMD64 && d->amd_perfmon_v2)
		return KP_MSR_AMD_GLOBAL_CTL;
	return 0;
}

static void kp_pmu_save_cpu(struct kp_pmu *pmu, struct kp_pmu_cpu *c)
{
	const struct kp_pmu_desc *d = pmu->desc;
	u32 global = kp_pmu_global_msr(pmu);
	unsigned int i;

	for (i = 0; i < d->num_counters; i++) {
		kp_rdmsr(pmu->hw, d->evtsel_base + i, &c->saved_evtsel[i]);
		kp_rdmsr(pmu->hw, d->counter_base + i, &c->saved_counter[i]);
	}
	if (global)
		kp_rdmsr(pmu->hw, global, &c->saved_global);
	c->saved_valid = true;
}

/* Put back the counters in @mask as found, and their global bits. */
static void kp_pmu_restore_cpu(struct kp_pmu *pmu, struct kp_pmu_cpu *c,
			       u64 mask)
{
	const struct kp_pmu_desc *d = pmu->desc;
	u32 global = kp_pmu_global_msr(pmu);
	unsigned int i;
	u64 ctrl;

	if (!c->saved_valid)
		return;
	c->saved_valid = false;
	if (!mask)
		return;
	if (global && !kp_rdmsr(pmu->hw, global, &ctrl))
		kp_wrmsr(pmu->hw, global, ctrl & ~mask);
	for (i = 0; i < d->num_counters; i++) {
		if (!(mask & BIT_ULL(i)))
			continue;
		kp_wrmsr(pmu->hw, d->counter_base + i, c->saved_counter[i]);
		kp_wrmsr(pmu->hw, d->evtsel_base + i, c->saved_evtsel[i]);
	}
	if (global && !kp_rdmsr(pmu->hw, global, &ctrl))
		kp_wrmsr(pmu->hw, global,
			 (ctrl & ~mask) | (c->saved_global & mask));
}

static bool kp_pmu_armed_here(const struct kp_counter *k, unsigned int cpu)
{
	return k->kind == KP_HOLDER_SOURCE &&
	       (k->all_cpus || cpumask_test_cpu(cpu, k->cpus));
}

/**
 * kp_pmu_cpu_up() - bring the hardware layer up on this CPU.
 * @pmu: the layer; @pmu->lock held.
 *
 * Saves the registers as found (first time since the CPU's last
 * kp_pmu_cpu_down()), InitializeProfiling (LVTPC delivers NMI), and arms
 * every source armed on all CPUs or on this one.  Counting counters are
 * left to their user's next kp_pmu_start_counting().
 * Context: on the CPU concerned, not migratable (CPU hotplug callback, or
 * an IPI).
 */
void kp_pmu_cpu_up(struct kp_pmu *pmu)
{
	struct kp_pmu_cpu *c = this_cpu_ptr(pmu->cpu);
	unsigned int i, cpu = smp_processor_id();

	lockdep_assert_held(&pmu->lock);
	if (!pmu->ops)
		return;
	if (!c->saved_valid)
		kp_pmu_save_cpu(pmu, c);
	kp_pmu_cpu_check(pmu);
	pmu->ops->initialize(pmu);
	WRITE_ONCE(c->armed, 0);
	WRITE_ONCE(c->counting, 0);
	for (i = 0; i < pmu->desc->num_counters; i++) {
		struct kp_counter *k = &pmu->counters[i];

		if (!kp_pmu_armed_here(k, cpu))
			continue;
		if (!(c->present & BIT_ULL(i)))
			pr_warn_ratelimited("kprofile: CPU %u lacks counter %u (CPUID 0xA/0x23 there): %s is not armed on it\n",
					    cpu, i,
					    kp_pmu_source_name(pmu, k->source));
		kp_pmu_program_cpu(pmu, i, k->source, k->select);
	}
}
EXPORT_SYMBOL_IF_KP_TEST(kp_pmu_cpu_up);

/**
 * kp_pmu_cpu_down() - take the hardware layer down on this CPU.
 * @pmu: the layer; @pmu->lock held.
 *
 * Disables every counter armed or counting here, then restores the
 * registers saved by kp_pmu_cpu_up() for each counter perf does not hold
 * (kprofile's own and free ones).
 * Context: as kp_pmu_cpu_up().
 */
void kp_pmu_cpu_down(struct kp_pmu *pmu)
{
	struct kp_pmu_cpu *c = this_cpu_ptr(pmu->cpu);
	u64 stop, mask = 0;
	unsigned int i;

	lockdep_assert_held(&pmu->lock);
	if (!pmu->ops)
		return;
	stop = c->armed | c->counting;
	for (i = 0; i < pmu->desc->num_counters; i++) {
		if (stop & BIT_ULL(i))
			pmu->ops->disable_monitoring(pmu, i);
		if (pmu->counters[i].kind != KP_HOLDER_FREE) {
			mask |= BIT_ULL(i);
		} else if (pmu->arbiter->reserve(pmu, i)) {
			pmu->arbiter->release(pmu, i);
			mask |= BIT_ULL(i);
		}
	}
	WRITE_ONCE(c->armed, 0);
	WRITE_ONCE(c->counting, 0);
	kp_pmu_restore_cpu(pmu, c, mask);
}
EXPORT_SYMBOL_IF_KP_TEST(kp_pmu_cpu_down);

/**
 * kp_pmu_resume_cpu() - re-program this CPU after the firmware reset its
 *	registers (resume from suspend).
 * @pmu: the layer.
 *
 * InitializeProfiling, then every counter armed or counting here gets its
 * select back (armed ones a fresh period too), from the per-CPU state: no
 * lock is taken.
 * Context: syscore resume (the boot CPU, interrupts off, other CPUs down).
 */
void kp_pmu_resume_cpu(struct kp_pmu *pmu)
{
	struct kp_pmu_cpu *c = this_cpu_ptr(pmu->cpu);
	unsigned int i;

	if (!pmu->ops)
		return;
	pmu->ops->initialize(pmu);
	for (i = 0; i < pmu->desc->num_counters; i++) {
		if (c->armed & BIT_ULL(i)) {
			pmu->ops->set_interval(pmu, i,
					       kp_source_interval(pmu->sources,
								  c->source[i]));
			pmu->ops->enable_monitoring(pmu, i, c->select[i]);
		} else if (c->counting & BIT_ULL(i)) {
			pmu->ops->enable_monitoring(pmu, i, c->select[i]);
		}
	}
}
EXPORT_SYMBOL_IF_KP_TEST(kp_pmu_resume_cpu);

/*
 * The dynamic CPU hotplug state, with one instance per hardware layer:
 * the module's, and any a KUnit suite adds over a fake processor.  Set up
 * by kp_pmu_init() (even without a profile interface), removed by
 * kp_pmu_exit().
 */
static int kp_pmu_hp_state = -1;

static int kp_pmu_online(unsigned int cpu, struct hlist_node *node)
{
	struct kp_pmu *pmu = hlist_entry(node, struct kp_pmu, hp_node);

	mutex_lock(&pmu->lock);
	kp_pmu_cpu_up(pmu);
	mutex_unlock(&pmu->lock);
	return 0;
}

static int kp_pmu_offline(unsigned int cpu, struct hlist_node *node)
{
	struct kp_pmu *pmu = hlist_entry(node, struct kp_pmu, hp_node);

	mutex_lock(&pmu->lock);
	kp_pmu_cpu_down(pmu);
	mutex_unlock(&pmu->lock);
	return 0;
}

/**
 * kp_pmu_hotplug_add() - bring a layer up on every online CPU, and on
 *	every CPU that comes online until kp_pmu_hotplug_remove().
 * @pmu: the layer (with a profile interface).
 *
 * Context: process; takes the CPU hotplug lock, then @pmu->lock on each
 * CPU in its hotplug thread.
 *
 * Return: 0 or the errno of cpuhp_state_add_instance().
 */
int kp_pmu_hotplug_add(struct kp_pmu *pmu)
{
	if (kp_pmu_hp_state < 0)
		return -ENODEV;
	return cpuhp_state_add_instance(kp_pmu_hp_state, &pmu->hp_node);
}
EXPORT_SYMBOL_IF_KP_TEST(kp_pmu_hotplug_add);

/**
 * kp_pmu_hotplug_remove() - take a layer down on every online CPU (its
 *	registers restored) and stop following hotplug.
 * @pmu: a layer kp_pmu_hotplug_add() added.
 */
void kp_pmu_hotplug_remove(struct kp_pmu *pmu)
{
	cpuhp_state_remove_instance(kp_pmu_hp_state, &pmu->hp_node);
}
EXPORT_SYMBOL_IF_KP_TEST(kp_pmu_hotplug_remove);

static KP_SYSCORE_RESUME(kp_pmu_resume)
{
	kp_pmu_resume_cpu(&kp_dev.pmu);
}

KP_DEFINE_SYSCORE(kp_pmu_syscore, kp_pmu_resume);

/**
 * kp_pmu_init() - bring up the module's hardware layer.
 * @dev: the device; @dev->hw, @dev->desc and @dev->sources are set up.
 *
 * Sets up @dev->pmu and the CPU hotplug state; with a profile interface
 * also registers the NMI handler, then brings every CPU up (and later
 * ones) and re-programs after resume.
 *
 * Return: 0 or a negative errno; on failure nothing is left registered.
 */
int kp_pmu_init(struct kp_device *dev)
{
	struct kp_pmu *pmu = &dev->pmu;
	int ret;

	ret = kp_pmu_setup(pmu, dev->hw, &dev->desc, &dev->sources);
	if (ret)
		return ret;
	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN,
				      "x86/kprofile:online", kp_pmu_online,
				      kp_pmu_offline);
	if (ret < 0)
		goto err_teardown;
	kp_pmu_hp_state = ret;
	if (!pmu->ops)
		return 0;
	ret = kp_nmi_register(pmu);
	if (ret)
		goto err_state;
	ret = kp_pmu_hotplug_add(pmu);
	if (ret)
		goto err_nmi;
	kp_compat_register_syscore(&kp_pmu_syscore);
	return 0;

err_nmi:
	kp_nmi_unregister(pmu);
err_state:
	cpuhp_remove_multi_state(kp_pmu_hp_state);
	kp_pmu_hp_state = -1;
err_teardown:
	kp_pmu_teardown(pmu);
	return ret;
}

/**
 * kp_pmu_exit() - take the module's hardware layer down.
 * @dev: the device; every profile, reservation and counting user is gone.
 *
 * Every CPU is taken down (counters stopped, registers restored), the
 * NMI handler unregistered and the state freed.
 */
void kp_pmu_exit(struct kp_device *dev)
{
	struct kp_pmu *pmu = &dev->pmu;

	if (pmu->ops) {
		kp_compat_unregister_syscore(&kp_pmu_syscore);
		kp_pmu_hotplug_remove(pmu);
		kp_nmi_unregister(pmu);
	}
	cpuhp_remove_multi_state(kp_pmu_hp_state);
	kp_pmu_hp_state = -1;
	kp_pmu_teardown(pmu);
}

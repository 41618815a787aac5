// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_cpu.c - the hardware layer on each CPU: bring-up (LVTPC to NMI,
 * re-program what is armed), take-down (stop what kprofile programmed),
 * CPU hotplug (a dynamic multi-instance cpuhp state, as
 * arch/x86/kernel/msr.c uses a dynamic one), suspend/resume (syscore
 * ops), reboot and kexec (a reboot notifier and syscore shutdown), and
 * the module's kp_pmu_init()/kp_pmu_exit().
 *
 * Teardown touches only what kprofile programmed: when a CPU goes down
 * (offline, or rmmod, which takes every CPU down through
 * kp_pmu_hotplug_remove()) the counters armed or counting there are
 * disabled (global bit, then EN and INT, then their status acknowledged)
 * and nothing else is written.  Registers kprofile never programmed are
 * never read back into the machine: what was there at load (perf's
 * watchdog select with EN and INT, say) may belong to someone who has
 * since let it go, and restoring it would start a counter nobody owns.
 */
#include <linux/bitops.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/irqflags.h>
#include <linux/lockdep.h>
#include <linux/notifier.h>
#include <linux/printk.h>
#include <linux/reboot.h>
#include <linux/smp.h>
#include <linux/syscore_ops.h>

#include "compat.h"
#include "pmu.h"

static bool kp_pmu_armed_here(const struct kp_counter *k, unsigned int cpu)
{
	return k->kind == KP_HOLDER_SOURCE &&
	       (k->all_cpus || cpumask_test_cpu(cpu, k->cpus));
}

/**
 * kp_pmu_cpu_up() - bring the hardware layer up on this CPU.
 * @pmu: the layer; @pmu->lock held.
 *
 * Records the counters and events this CPU has (kp_pmu_cpu_check(),
 * docs/hardware.md F7), InitializeProfiling (LVTPC delivers NMI), then arms
 * every source armed on all CPUs or on this one, warning for a counter this CPU
 * lacks (it is left alone).  Nothing is saved.  Counting counters are left to
 * their user's next kp_pmu_start_counting().  The per-CPU work runs with
 * interrupts off, so no IPI or context-switch probe interleaves with the
 * global-control updates.
 * Context: on the CPU concerned, not migratable (CPU hotplug callback, or
 * an IPI).
 */
void kp_pmu_cpu_up(struct kp_pmu *pmu)
{
	struct kp_pmu_cpu *c;
	unsigned long flags;
	unsigned int i, cpu;

	lockdep_assert_held(&pmu->lock);
	if (!pmu->ops)
		return;
	local_irq_save(flags);
	c = this_cpu_ptr(pmu->cpu);
	cpu = smp_processor_id();
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
					    kp_source_name(pmu->desc->iface, k->source));
		kp_pmu_program_cpu(pmu, i, k->source, k->select);
	}
	local_irq_restore(flags);
}
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_cpu_up);

/* Disable every counter kprofile programmed on this CPU; interrupts off. */
static void kp_pmu_stop_cpu(struct kp_pmu *pmu)
{
	struct kp_pmu_cpu *c = this_cpu_ptr(pmu->cpu);
	u64 stop = c->armed | c->counting;
	unsigned int i;

	for (i = 0; i < pmu->desc->num_counters; i++)
		if (stop & BIT_ULL(i))
			pmu->ops->disable_monitoring(pmu, i);
	WRITE_ONCE(c->armed, 0);
	WRITE_ONCE(c->counting, 0);
}

/**
 * kp_pmu_cpu_down() - take the hardware layer down on this CPU.
 * @pmu: the layer; @pmu->lock held.
 *
 * Disables every counter armed or counting here (DisableMonitoring) and
 * writes nothing else: counters kprofile did not program are not touched,
 * and Linux's arbitration is not asked about them.
 * Context: as kp_pmu_cpu_up().
 */
void kp_pmu_cpu_down(struct kp_pmu *pmu)
{
	unsigned long flags;

	lockdep_assert_held(&pmu->lock);
	if (!pmu->ops)
		return;
	local_irq_save(flags);
	kp_pmu_stop_cpu(pmu);
	local_irq_restore(flags);
}
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_cpu_down);

static void kp_pmu_ipi_shutdown(void *info)
{
	kp_pmu_stop_cpu(info);
}

/**
 * kp_pmu_shutdown() - stop everything kprofile runs, for good: the
 *	machine is rebooting, or kexec'ing into another kernel.
 * @pmu: the layer.
 *
 * Every counter armed or counting is disabled on every online CPU, and
 * nothing is programmed afterwards (arming, CPU online, resume and thread
 * switch-in do nothing), so no counter with INT runs into the next
 * kernel: it would report "BIOS has corrupted hw-PMU resources" and take
 * the PMIs as unknown NMIs.  Takes no lock (a reboot may come while a
 * task holds @pmu->lock).
 * Context: process (reboot notifier); interrupts on.
 */
void kp_pmu_shutdown(struct kp_pmu *pmu)
{
	if (!pmu->ops)
		return;
	WRITE_ONCE(pmu->shut_down, true);
	on_each_cpu(kp_pmu_ipi_shutdown, pmu, 1);
}
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_shutdown);

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

	if (!pmu->ops || READ_ONCE(pmu->shut_down))
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
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_resume_cpu);

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
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_hotplug_add);

/**
 * kp_pmu_hotplug_remove() - take a layer down on every online CPU (its
 *	counters stopped) and stop following hotplug.
 * @pmu: a layer kp_pmu_hotplug_add() added.
 */
void kp_pmu_hotplug_remove(struct kp_pmu *pmu)
{
	cpuhp_state_remove_instance(kp_pmu_hp_state, &pmu->hp_node);
}
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_hotplug_remove);

/*
 * The layer kp_pmu_init() brought up, which resume, reboot and kexec act
 * on: their callbacks take no argument of their own (syscore callbacks
 * take one only since 6.19).  Set before they are registered, cleared
 * after they are unregistered.
 */
static struct kp_pmu *kp_pmu_machine;

static KP_SYSCORE_RESUME(kp_pmu_resume)
{
	kp_pmu_resume_cpu(kp_pmu_machine);
}

/* syscore shutdown: the CPU that reboots or kexecs, interrupts off. */
static KP_SYSCORE_SHUTDOWN(kp_pmu_syscore_shutdown)
{
	WRITE_ONCE(kp_pmu_machine->shut_down, true);
	kp_pmu_stop_cpu(kp_pmu_machine);
}

KP_DEFINE_SYSCORE(kp_pmu_syscore, kp_pmu_resume, kp_pmu_syscore_shutdown);

/* Reboot, halt, power-off and kexec: every CPU is still online here. */
static int kp_pmu_reboot(struct notifier_block *nb, unsigned long action,
			 void *data)
{
	kp_pmu_shutdown(kp_pmu_machine);
	return NOTIFY_DONE;
}

static struct notifier_block kp_pmu_reboot_nb = {
	.notifier_call = kp_pmu_reboot,
};

/**
 * kp_pmu_init() - bring up the module's hardware layer, the one that
 *	takes the machine's PMIs, CPU hotplug, resume and reboot.
 * @pmu:     the layer to set up.
 * @hw:      the processor seam; must outlive @pmu.
 * @desc:    the detected profile interface; must outlive @pmu.
 * @sources: the source model; must outlive @pmu.
 *
 * Sets up @pmu (kp_pmu_setup()) and the CPU hotplug state; with a
 * profile interface also registers the NMI handler, then brings every
 * CPU up (and later ones) and re-programs after resume.  One layer at a
 * time: KUnit suites build theirs with kp_pmu_setup().
 *
 * Return: 0 or a negative errno; on failure nothing is left registered.
 */
int kp_pmu_init(struct kp_pmu *pmu, const struct kp_hw *hw,
		const struct kp_pmu_desc *desc,
		const struct kp_sources *sources)
{
	int ret;

	ret = kp_pmu_setup(pmu, hw, desc, sources);
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
	kp_pmu_machine = pmu;
	kp_compat_register_syscore(&kp_pmu_syscore);
	register_reboot_notifier(&kp_pmu_reboot_nb);
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
 * @pmu: the layer kp_pmu_init() set up; every profile, reservation and
 *	 counting user is gone.
 *
 * Every CPU is taken down (kprofile's counters stopped, nothing else
 * touched), the NMI handler unregistered and the state freed.
 */
void kp_pmu_exit(struct kp_pmu *pmu)
{
	if (pmu->ops) {
		unregister_reboot_notifier(&kp_pmu_reboot_nb);
		kp_compat_unregister_syscore(&kp_pmu_syscore);
		kp_pmu_machine = NULL;
		kp_pmu_hotplug_remove(pmu);
		kp_nmi_unregister(pmu);
	}
	cpuhp_remove_multi_state(kp_pmu_hp_state);
	kp_pmu_hp_state = -1;
	kp_pmu_teardown(pmu);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_regs: checks of the performance-monitoring MSRs that Linux's perf
 * driver never exercises (it writes only valid values), for the emulated
 * PMU of testing/qemu-pmu.  Loading the module runs them on the CPU it
 * loads on, with interrupts off, and prints one line per check:
 *
 *	pmu_regs: ok: DESCRIPTION
 *	pmu_regs: not ok: DESCRIPTION: WHAT HAPPENED
 *	pmu_regs: skip: DESCRIPTION: WHY
 *
 * then "pmu_regs: done N" (N lines); testing/pmu/guest/60-regs.sh turns
 * them into TAP.  Every register it writes is put back.  Load it with no
 * perf event and the NMI watchdog off: it borrows counter 0.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/irqflags.h>
#include <linux/smp.h>
#include <asm/cpufeature.h>
#include <asm/msr.h>
#include <asm/perf_event.h>
#include <asm/processor.h>

#define EVTSEL_USR		BIT_ULL(16)
#define EVTSEL_OS		BIT_ULL(17)
#define EVTSEL_EN		BIT_ULL(22)
#define EVENT_INSTRUCTIONS	0xc0	/* architectural: instructions retired */

/* The checks, in the order they print. */
static const char D_PMC[] = "counter 0 written with 0xffff reads back 0xffff";
static const char D_SEL32[] = "IA32_PERFEVTSEL0: writing reserved bit 32 raises GP(0)";
static const char D_SEL63[] = "IA32_PERFEVTSEL0: writing reserved bit 63 raises GP(0)";
static const char D_CTRL_GP[] =
	"IA32_PERF_GLOBAL_CTRL: writing the bit of a counter not in CPUID raises GP(0)";
static const char D_CTRL_FIXED[] =
	"IA32_PERF_GLOBAL_CTRL: writing the bit of a fixed counter not in CPUID raises GP(0)";
static const char D_STATUS_RO[] = "IA32_PERF_GLOBAL_STATUS: a write raises GP(0) (read-only)";
static const char D_OVF[] = "an overflow of PMC0 sets IA32_PERF_GLOBAL_STATUS bit 0";
static const char D_OVF_CLEAR[] = "IA32_PERF_GLOBAL_OVF_CTRL bit 0 clears that status bit";
#define N_CHECKS 8
/* AMD, in the second line. */
static const char D_CORE5[] = "PerfCtrExtCore counter 5 written with 0xffff reads back 0xffff";

static int n_results;

static __printf(2, 3) void result(int ok, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info("pmu_regs: %s: %pV\n", ok ? "ok" : "not ok", &vaf);
	va_end(args);
	n_results++;
}

static void skip_check(const char *desc, const char *why)
{
	pr_info("pmu_regs: skip: %s -- %s\n", desc, why);
	n_results++;
}

/* A write of @val to @msr must raise #GP and leave the register as it was. */
static void expect_gp(const char *desc, u32 msr, u64 val)
{
	u64 before, after;
	int err_before, err, err_after;

	err_before = rdmsrl_safe(msr, &before);
	err = wrmsrl_safe(msr, val);
	err_after = rdmsrl_safe(msr, &after);
	if (err_before || err_after)
		result(0, "%s -- reading MSR 0x%x faults", desc, msr);
	else if (!err)
		result(0, "%s -- writing 0x%llx to MSR 0x%x did not fault (0x%llx, was 0x%llx)",
		       desc, val, msr, after, before);
	else if (after != before)
		result(0, "%s -- the faulting write changed MSR 0x%x from 0x%llx to 0x%llx",
		       desc, msr, before, after);
	else
		result(1, "%s", desc);
	if (!err_before && after != before)
		wrmsrl_safe(msr, before);
}

/* Some work that retires well over 10,000 instructions. */
static noinline void spin(void)
{
	int i;

	for (i = 0; i < 10000; i++)
		barrier();
}

static void intel_checks(void)
{
	unsigned int eax, ebx, ecx, edx, version, n_gp, n_fixed;
	u64 ctrl, evtsel, pmc, status, after_ovf, val;
	int err = 0;

	cpuid(0xa, &eax, &ebx, &ecx, &edx);
	version = eax & 0xff;
	n_gp = (eax >> 8) & 0xff;
	n_fixed = version > 1 ? edx & 0x1f : 0;
	pr_info("pmu_regs: CPUID.0AH: version %u, %u counters of %u bits, %u fixed, EBX 0x%x\n",
		version, n_gp, (eax >> 16) & 0xff, n_fixed, ebx);

	/* Counter 0, as perf's check_hw_exists() uses one: 0xffff sticks. */
	err |= rdmsrl_safe(MSR_ARCH_PERFMON_EVENTSEL0, &evtsel);
	err |= rdmsrl_safe(MSR_ARCH_PERFMON_PERFCTR0, &pmc);
	err |= wrmsrl_safe(MSR_ARCH_PERFMON_EVENTSEL0, 0);
	err |= wrmsrl_safe(MSR_ARCH_PERFMON_PERFCTR0, 0xffff);
	err |= rdmsrl_safe(MSR_ARCH_PERFMON_PERFCTR0, &val);
	if (err)
		result(0, "%s -- an access faults", D_PMC);
	else if (val != 0xffff)
		result(0, "%s -- reads 0x%llx", D_PMC, val);
	else
		result(1, "%s", D_PMC);

	expect_gp(D_SEL32, MSR_ARCH_PERFMON_EVENTSEL0, BIT_ULL(32));
	expect_gp(D_SEL63, MSR_ARCH_PERFMON_EVENTSEL0, BIT_ULL(63) | EVENT_INSTRUCTIONS);

	if (version < 2) {
		skip_check(D_CTRL_GP, "perfmon v1 has no global MSRs");
		skip_check(D_CTRL_FIXED, "perfmon v1 has no global MSRs");
		skip_check(D_STATUS_RO, "perfmon v1 has no global MSRs");
		skip_check(D_OVF, "perfmon v1 has no global MSRs");
		skip_check(D_OVF_CLEAR, "perfmon v1 has no global MSRs");
		goto out;
	}

	if (n_gp < 32)
		expect_gp(D_CTRL_GP, MSR_CORE_PERF_GLOBAL_CTRL, BIT_ULL(n_gp));
	else
		skip_check(D_CTRL_GP, "32 counters: no such bit");
	if (n_fixed < 16)
		expect_gp(D_CTRL_FIXED, MSR_CORE_PERF_GLOBAL_CTRL, BIT_ULL(32 + n_fixed));
	else
		skip_check(D_CTRL_FIXED, "16 fixed counters: no such bit");

	/* Read-only: even writing what it holds (0 here) faults. */
	expect_gp(D_STATUS_RO, MSR_CORE_PERF_GLOBAL_STATUS, 0);

	/*
	 * An overflow: counter 0 counts instructions from 1000 below the
	 * wrap, with no interrupt (INT clear), so only the status shows it.
	 */
	err = rdmsrl_safe(MSR_CORE_PERF_GLOBAL_CTRL, &ctrl);
	err |= wrmsrl_safe(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	err |= wrmsrl_safe(MSR_CORE_PERF_GLOBAL_OVF_CTRL, 1);
	err |= wrmsrl_safe(MSR_ARCH_PERFMON_PERFCTR0, (u32)-1000);
	err |= wrmsrl_safe(MSR_ARCH_PERFMON_EVENTSEL0,
			   EVENT_INSTRUCTIONS | EVTSEL_USR | EVTSEL_OS | EVTSEL_EN);
	err |= wrmsrl_safe(MSR_CORE_PERF_GLOBAL_CTRL, 1);
	spin();
	err |= wrmsrl_safe(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	err |= wrmsrl_safe(MSR_ARCH_PERFMON_EVENTSEL0, 0);
	err |= rdmsrl_safe(MSR_ARCH_PERFMON_PERFCTR0, &val);
	err |= rdmsrl_safe(MSR_CORE_PERF_GLOBAL_STATUS, &status);
	if (err) {
		result(0, "%s -- an access faults", D_OVF);
		skip_check(D_OVF_CLEAR, "no overflow");
		goto restore;
	}
	if (!(status & 1)) {
		result(0, "%s -- status 0x%llx, PMC0 0x%llx", D_OVF, status, val);
		skip_check(D_OVF_CLEAR, "no overflow");
		goto restore;
	}
	result(1, "%s", D_OVF);
	err = wrmsrl_safe(MSR_CORE_PERF_GLOBAL_OVF_CTRL, 1);
	err |= rdmsrl_safe(MSR_CORE_PERF_GLOBAL_STATUS, &after_ovf);
	if (err)
		result(0, "%s -- an access faults", D_OVF_CLEAR);
	else if (after_ovf & 1)
		result(0, "%s -- status 0x%llx after, 0x%llx before", D_OVF_CLEAR,
		       after_ovf, status);
	else
		result(1, "%s", D_OVF_CLEAR);
restore:
	wrmsrl_safe(MSR_CORE_PERF_GLOBAL_CTRL, ctrl);
out:
	wrmsrl_safe(MSR_ARCH_PERFMON_PERFCTR0, pmc);
	wrmsrl_safe(MSR_ARCH_PERFMON_EVENTSEL0, evtsel);
}

/* A counter written with 0xffff (its select cleared first) reads it back. */
static void amd_counter_sticks(const char *desc, u32 sel_msr, u32 ctr_msr)
{
	u64 evtsel, pmc, val;
	int err = 0;

	err |= rdmsrl_safe(sel_msr, &evtsel);
	err |= rdmsrl_safe(ctr_msr, &pmc);
	err |= wrmsrl_safe(sel_msr, 0);
	err |= wrmsrl_safe(ctr_msr, 0xffff);
	err |= rdmsrl_safe(ctr_msr, &val);
	if (err)
		result(0, "%s -- an access faults", desc);
	else if (val != 0xffff)
		result(0, "%s -- reads 0x%llx", desc, val);
	else
		result(1, "%s", desc);
	wrmsrl_safe(ctr_msr, pmc);
	wrmsrl_safe(sel_msr, evtsel);
}

static void amd_checks(void)
{
	int i;

	amd_counter_sticks(D_PMC, MSR_K7_EVNTSEL0, MSR_K7_PERFCTR0);
	if (boot_cpu_has(X86_FEATURE_PERFCTR_CORE))
		amd_counter_sticks(D_CORE5, MSR_F15H_PERF_CTL5, MSR_F15H_PERF_CTR5);
	else
		skip_check(D_CORE5, "no PerfCtrExtCore");
	/* As many lines as on Intel: the script's plan is fixed. */
	for (i = 2; i < N_CHECKS; i++)
		skip_check("an Intel architectural-PMU MSR check", "not on AMD");
}

static int __init pmu_regs_init(void)
{
	unsigned long flags;
	int cpu, i;

	local_irq_save(flags);
	cpu = smp_processor_id();
	if (boot_cpu_data.x86_vendor == X86_VENDOR_INTEL &&
	    boot_cpu_has(X86_FEATURE_ARCH_PERFMON)) {
		intel_checks();
	} else if (boot_cpu_data.x86_vendor == X86_VENDOR_AMD) {
		amd_checks();
	} else {
		result(0, "CPUID has an architectural PMU -- no ARCH_PERFMON, and not AMD");
		for (i = 1; i < N_CHECKS; i++)
			skip_check("an architectural-PMU MSR check", "no PMU");
	}
	local_irq_restore(flags);
	pr_info("pmu_regs: done %d on CPU %d\n", n_results, cpu);
	return 0;
}

static void __exit pmu_regs_exit(void)
{
}

module_init(pmu_regs_init);
module_exit(pmu_regs_exit);
MODULE_DESCRIPTION("Checks of the PMU MSRs for the emulated PMU");
MODULE_LICENSE("GPL");

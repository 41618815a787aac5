# SPDX-License-Identifier: GPL-2.0
# compat.mk - the kernel-interface tests kmod/compat.h needs that a version
# number cannot answer, as -D flags.  Included by kmod/Kbuild and
# kunit/Kbuild (both compile compat.h).  Each test reads the target
# kernel's own headers ($(srctree)).

# struct syscore (compat.h): 6.19, and backported to 6.12.y (6.12.117 has
# it, 6.12.95 not), so a version test cannot tell: ask the header.
ifneq ($(shell grep -sl 'register_syscore.struct syscore ' $(srctree)/include/linux/syscore_ops.h),)
ccflags-y += -DKP_HAVE_STRUCT_SYSCORE
endif

# task->user_dumpable (compat.h): 7.1, and backported to stable trees at
# different points (6.1.192 has it, 5.10.223 not), so ask the header.
ifneq ($(shell grep -sl 'unsigned[[:space:]]*user_dumpable:1' $(srctree)/include/linux/sched.h),)
ccflags-y += -DKP_HAVE_USER_DUMPABLE
endif

# hrtimer_setup() (compat.h): 6.13; timer API changes reach stable trees
# with the fixes that use them, so ask the header.
ifneq ($(shell grep -slw 'hrtimer_setup' $(srctree)/include/linux/hrtimer.h),)
ccflags-y += -DKP_HAVE_HRTIMER_SETUP
endif

# fault_in_safe_writeable() (compat.h): 5.16, and backported with the
# filesystem fixes that use it to some stable trees, so ask the header.
ifneq ($(shell grep -slw 'fault_in_safe_writeable' $(srctree)/include/linux/pagemap.h),)
ccflags-y += -DKP_HAVE_FAULT_IN_SAFE_WRITEABLE
endif

# Headers that appeared without a version one can name (compat.h; a
# Kbuild test rather than __has_include, which sparse 0.6.4 cannot parse).
ifneq ($(wildcard $(srctree)/arch/x86/include/asm/cpuid/api.h),)
ccflags-y += -DKP_HAVE_ASM_CPUID_API_H
endif
ifneq ($(wildcard $(srctree)/include/linux/sched/exec_state.h),)
ccflags-y += -DKP_HAVE_EXEC_STATE_H
endif
# <kunit/visibility.h>: 6.2, and backported to 6.1.y.
ifneq ($(wildcard $(srctree)/include/kunit/visibility.h),)
ccflags-y += -DKP_HAVE_KUNIT_VISIBILITY_H
endif

# perf_get_x86_pmu_capability() not exported to every module: since the
# 6.19 cycle it is EXPORT_SYMBOL_FOR_KVM, a "module:kvm,..." namespace in
# Module.symvers that no other module may import (Debian's 7.2), and not
# exported at all in a kernel without KVM (the KUnit kernels).  compat.h
# asks perf another way then.  Without a Module.symvers (5.10's
# modules_prepare tree), assume the old export.
KP_SYMVERS := $(objtree)/Module.symvers
ifneq ($(wildcard $(KP_SYMVERS)),)
ifeq ($(shell awk -F'\t' '$$2 == "perf_get_x86_pmu_capability" && $$5 == ""' $(KP_SYMVERS)),)
ccflags-y += -DKP_NO_PERF_CAPS_EXPORT
endif
endif

# SPDX-License-Identifier: GPL-2.0
# kprofile: the one entry point.  `make help` lists the targets; README.md
# says what they are for.  (Kbuild, not this file, drives kernel builds.)

# The kernel to build the module for: the running kernel's build tree
# (its headers package), or KDIR=.  Nothing else is guessed: a module
# built against other headers would not load (`make module` says what to
# install instead).
KVER ?= $(shell uname -r)
KDIR ?= $(patsubst %/Makefile,%,$(wildcard /lib/modules/$(KVER)/build/Makefile))

# The project version: the one file VERSION (MODULE_VERSION, the tool,
# the Python package and DKMS read it).
KP_VERSION := $(strip $(file <$(CURDIR)/VERSION))

BUILD := $(CURDIR)/build
TOOL_DIR := $(BUILD)/tool
# The module is built in a copy of the sources per kernel (testing/kbuild.sh).
KBUILD := $(CURDIR)/testing/kbuild.sh
CPU ?= intel
SHARE ?=
# The machine of make vm-run and make demo: emulated (QEMU with the
# emulated PMU of testing/qemu-pmu, built and cached on first use, and
# Debian's perf in the guest) or none (no PMU, Debian's QEMU).
PMU ?= emulated
JOBS ?= 2
export JOBS CMD

.PHONY: all module tool man installvm check demo vm-run tool-to-stderr vmtest kunit debugvm fuzz \
	bench load unload install hwtest checkpatch sparse deps clean help

all: module tool

module:
	@test -n "$(KDIR)" || { \
		echo "make module: no build tree for the running kernel $(KVER)" >&2; \
		echo "  (/lib/modules/$(KVER)/build).  Install its headers:" >&2; \
		echo "    Debian, Ubuntu: sudo apt install linux-headers-$(KVER)" >&2; \
		echo "    Fedora:         sudo dnf install kernel-devel-$(KVER)" >&2; \
		echo "  or build for another kernel: make module KDIR=/path/to/its/build" >&2; \
		exit 1; }
	@out=$$($(KBUILD) $(KDIR)) && dir=$$(printf '%s\n' "$$out" | tail -n1) && mkdir -p $(BUILD) && \
		ln -sf $$dir/kmod/kprofile.ko $(BUILD)/kprofile.ko && \
		echo "module: $(BUILD)/kprofile.ko (for $(KDIR))"

# The tool, when tools/ has its CMake project (KP_CCACHE=1: through ccache,
# as make check builds it; debug info and __FILE__ name paths relative to the
# tree, so that with CCACHE_BASEDIR a clone at another path hits too).
tool:
	@if [ -f tools/CMakeLists.txt ]; then \
		cmake -S tools -B $(TOOL_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
			$(if $(KP_CCACHE),-DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
				-DCMAKE_CXX_FLAGS=-ffile-prefix-map=$(CURDIR)=.) >/dev/null && \
		cmake --build $(TOOL_DIR) -j$(JOBS); \
	else \
		echo "tool: no tools/CMakeLists.txt yet; skipped"; \
	fi

tool-to-stderr:
	@$(MAKE) --no-print-directory tool >&2

# Man pages: one scdoc source per page, man/NAME.SECTION.scd ->
# build/man/NAME.SECTION (docs/install.md says why scdoc).
MAN_SRC := $(wildcard man/*.scd)
MAN_PAGES := $(patsubst man/%.scd,%,$(MAN_SRC))
MAN_OUT := $(addprefix $(BUILD)/man/,$(MAN_PAGES))
man: $(MAN_OUT)
$(BUILD)/man/%: man/%.scd VERSION
	@mkdir -p $(dir $@)
	sed 's/@VERSION@/$(KP_VERSION)/g' $< | scdoc > $@.tmp && mv $@.tmp $@

deps:
	testing/deps.sh

# Every test layer; ends with "N passed, M failed".  KP_LAYERS= selects
# layers (build tool host kunit vm bench debugvm installvm matrix static),
# see testing/check.sh.
check: deps
	@testing/check.sh

# Debian's kernel in QEMU, Intel then AMD CPU model: load the module and
# run the tool's commands (the list: DEMO_CMDS in testing/demo.sh).
demo: deps tool
	@testing/demo.sh --pmu $(PMU)

# make vm-run CMD='kprofile info' [CPU=intel|amd] [SHARE=DIR] [PMU=emulated|none]
# The tool is built with its output on stderr (tool-to-stderr): stdout is
# CMD's alone, as the README promises (cmake's "Built target" lines were
# in `make -s vm-run ... > x.json`).
vm-run: tool-to-stderr
	@testing/vm/vm.sh --cpu $(CPU) --pmu $(PMU) $(if $(SHARE),--share $(SHARE)) --cmd "$$CMD"

# The guest tests alone (both CPU models) and the KUnit suites alone.
vmtest:
	@for cpu in intel amd; do testing/vm/vm.sh --cpu $$cpu --tests || exit 1; done
kunit:
	@testing/kunit/run.sh plain && testing/kunit/run.sh debug

# The debug-kernel layer alone (CPU=intel: guest tests, fuzzer, stress,
# kmemleak), and the fuzzer for longer: make fuzz SECONDS=600 SEED=42 runs
# rounds with seeds SEED, SEED+1, ... and prints the seed of any failure.
SEED ?= 20261123
debugvm:
	@testing/debugvm/run.sh --cpu $(CPU)
fuzz:
	@testing/debugvm/run.sh --cpu $(CPU) --fuzz $(or $(SECONDS),300) --seed $(SEED)

# kprofile and Linux perf side by side in Debian's kernel under TCG, two
# boots (icount, 2-vCPU), about 20 minutes: tables on stdout, figures in
# build/bench/bench.json (docs/performance.md).  make check runs it once
# in a smoke mode (the bench layer).
bench: deps
	@testing/bench/run.sh

# Bare metal (root).
load: module
	insmod $(BUILD)/kprofile.ko
unload:
	rmmod kprofile
# make install / uninstall [DESTDIR=] [PREFIX=]: install.mk; through
# DKMS: dkms.mk.
include install.mk
include dkms.mk

# make install on a real Debian 12 system (debootstrap root, systemd,
# udev) in QEMU, booted twice; also make check's installvm layer
# (testing/notes/installvm.md).
installvm: deps
	@testing/installvm/run.sh

# Real counts on a machine with a PMU; skips (and says why) elsewhere.
# Without the running kernel's build tree the module is not built and the
# tests that load it skip, saying so (hwtest.sh): that is an answer too.
hwtest: tool
	@if [ -n "$(KDIR)" ]; then $(MAKE) --no-print-directory module; \
	else echo "hwtest: no build tree for $(KVER): kprofile.ko is not built (sudo apt install linux-headers-$(KVER), or KDIR=)"; fi
	@testing/hwtest.sh

checkpatch:
	@testing/static/checkpatch.sh
sparse:
	@testing/static/sparse.sh

clean:
	rm -rf $(BUILD)
	@# Objects of in-place builds (make -C KDIR M=$(CURDIR)), if any.
	find kmod kunit \( -name '*.o' -o -name '*.ko' -o -name '*.mod' -o -name '*.mod.c' \
		-o -name '.*.cmd' -o -name '*.d' -o -name modules.order \) -delete
	rm -f Module.symvers modules.order .*.cmd

help:
	@echo "make               the module (for KDIR=$(or $(KDIR),?: no build tree for $(KVER))) and the tool"
	@echo "make module|tool   one of them"
	@echo "make check         every test layer (installs what it needs)"
	@echo "make demo [PMU=emulated|none]   the module and tool in Debian's kernel under QEMU"
	@echo "make vm-run CMD='...' [CPU=intel|amd] [SHARE=DIR] [PMU=emulated|none]"
	@echo "make load|unload   bare metal, as root"
	@echo "make install|uninstall [DESTDIR=] [PREFIX=/usr/local]   module, tool, udev rule,"
	@echo "                   group kprofile, modules-load.d, man pages, completion, Python"
	@echo "make dkms-install|dkms-remove   the module through DKMS (then: make install-userspace)"
	@echo "make man           the man pages (build/man)"
	@echo "make installvm     make install, reboot, use as a group member: Debian 12 in QEMU"
	@echo "make hwtest        real-PMU tests (bare metal)"
	@echo "make checkpatch|sparse|kunit|vmtest|debugvm   one test layer"
	@echo "make fuzz [SECONDS=300] [SEED=N]   the ioctl fuzzer in the debug kernel"
	@echo "make bench         kprofile vs perf under QEMU (about 20 min; docs/performance.md)"
	@echo "make clean"

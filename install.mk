# SPDX-License-Identifier: GPL-2.0
# install.mk - `make install` and `make uninstall` (included by Makefile).
#
# As root on the machine itself: the module into /lib/modules/KREL/extra
# (then depmod), the tool, the udev rule (group kprofile, mode 0660; the
# group is created when missing), modules-load.d/kprofile.conf (the module
# loads at boot), the man pages, bash and zsh completion and the Python
# package.  DESTDIR=DIR stages the same files under DIR for a package and
# touches nothing on the running system (no group, no depmod, no udev
# reload: a package's scripts do those).  PREFIX (default /usr/local)
# places the tool, man pages, completions and Python package; the udev
# rule and modules-load file go under SYSCONFDIR (/etc), which is where
# udev and systemd look whatever the prefix.  `make uninstall` (same
# variables) removes every file and the group if install created it.

PREFIX ?= /usr/local
SYSCONFDIR ?= /etc
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
UDEVRULESDIR ?= $(SYSCONFDIR)/udev/rules.d
MODLOADDIR ?= $(SYSCONFDIR)/modules-load.d
# The interpreter the package is for: the distribution's, not a virtual
# environment's; its site directory under PREFIX (Debian:
# /usr/local/lib/python3.11/dist-packages, /usr/lib/python3/dist-packages).
PYTHON3 ?= $(firstword $(wildcard /usr/bin/python3) python3)
PYTHONDIR ?= $(or $(shell $(PYTHON3) -c 'import site, sys; \
	print(next((d for d in site.getsitepackages() if d.startswith(sys.argv[1] + "/lib")), ""))' \
	$(PREFIX) 2>/dev/null),$(PREFIX)/lib/python3/dist-packages)
# The release the module is for: KDIR's, not necessarily the running one.
KREL ?= $(or $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' \
	$(KDIR)/include/generated/utsrelease.h 2>/dev/null),$(KVER))
MODDIR ?= /lib/modules/$(KREL)/extra
# What is installed; install-files takes them as built (the tests point
# KO at a stand-in).
KO ?= $(BUILD)/kprofile.ko
TOOL_BIN ?= $(TOOL_DIR)/kprofile
GROUP_MARK := /var/lib/kprofile/created-group

.PHONY: install install-prereqs install-userspace install-files install-userspace-files \
	uninstall install-ko-force

# make install builds what is missing or older than its sources, as
# `make` would (the module for KREL, the tool, the man pages), and takes
# what is up to date as it is: `make` as the user, then `sudo make
# install`, needs no compiler or headers for the second step (make
# installvm runs it so, on a Debian system without either).  A module
# built for another kernel than KREL (its vermagic) is rebuilt.  The
# module and the tool are touched after their build: their own build
# systems leave an output alone whose sources changed in mtime only.
KO_SRCS := $(wildcard Kbuild Kconfig kmod/Kbuild kmod/*.[ch] include/uapi/linux/*.h) VERSION
TOOL_SRCS := $(if $(wildcard tools/CMakeLists.txt),$(shell find tools/CMakeLists.txt tools/cmake tools/src \
	include/uapi -type f 2>/dev/null) VERSION)
MODINFO := $(firstword $(wildcard /sbin/modinfo /usr/sbin/modinfo) modinfo)
ifneq ($(filter install install-prereqs,$(MAKECMDGOALS)),)
KO_VERMAGIC := $(firstword $(shell $(MODINFO) -F vermagic $(BUILD)/kprofile.ko 2>/dev/null))
endif
install-ko-force:
$(BUILD)/kprofile.ko: $(KO_SRCS) $(if $(filter-out $(KREL),$(KO_VERMAGIC)),install-ko-force)
	@$(MAKE) --no-print-directory module
	@touch -c $@
$(TOOL_DIR)/kprofile: $(TOOL_SRCS)
	@$(MAKE) --no-print-directory tool
	@touch -c $@

install: install-prereqs
	@$(MAKE) --no-print-directory install-files
install-prereqs: $(BUILD)/kprofile.ko $(TOOL_DIR)/kprofile $(MAN_OUT)
# Everything but the module (which DKMS installs: make dkms-install).
install-userspace: $(TOOL_DIR)/kprofile $(MAN_OUT)
	@$(MAKE) --no-print-directory install-userspace-files

install-files:
	@test -f $(KO) || { echo "install: no $(KO) (make module)" >&2; exit 1; }
	install -D -m 0644 $(KO) $(DESTDIR)$(MODDIR)/kprofile.ko
	@$(MAKE) --no-print-directory install-userspace-files

install-userspace-files:
	@test -x $(TOOL_BIN) || { echo "install: no $(TOOL_BIN) (make tool)" >&2; exit 1; }
	@test -n "$(MAN_OUT)" || { echo "install: no man pages (make man)" >&2; exit 1; }
	install -D -m 0755 $(TOOL_BIN) $(DESTDIR)$(BINDIR)/kprofile
	install -D -m 0644 udev/60-kprofile.rules $(DESTDIR)$(UDEVRULESDIR)/60-kprofile.rules
	install -D -m 0644 modules-load.d/kprofile.conf $(DESTDIR)$(MODLOADDIR)/kprofile.conf
	@for page in $(MAN_OUT); do \
		sec=$${page##*.}; \
		echo "install -D -m 0644 $$page $(DESTDIR)$(MANDIR)/man$$sec/$${page##*/}"; \
		install -D -m 0644 $$page $(DESTDIR)$(MANDIR)/man$$sec/$${page##*/} || exit 1; \
	done
	install -D -m 0644 completions/kprofile.bash $(DESTDIR)$(BASHCOMPDIR)/kprofile
	install -D -m 0644 completions/_kprofile $(DESTDIR)$(ZSHCOMPDIR)/_kprofile
	install -d $(DESTDIR)$(PYTHONDIR)/kprofile
	install -m 0644 tools/python/kprofile/*.py $(DESTDIR)$(PYTHONDIR)/kprofile/
	install -m 0644 VERSION $(DESTDIR)$(PYTHONDIR)/kprofile/VERSION
	@if [ -n "$(DESTDIR)" ]; then \
		echo "install: staged in $(DESTDIR): the package creates group kprofile," \
			"runs depmod $(KREL) and reloads udev"; \
	else \
		if getent group kprofile >/dev/null; then \
			echo "install: group kprofile exists"; \
		else \
			groupadd --system kprofile && mkdir -p $(dir $(GROUP_MARK)) && \
			touch $(GROUP_MARK) && echo "install: created group kprofile"; \
		fi && \
		{ [ ! -f $(DESTDIR)$(MODDIR)/kprofile.ko ] || depmod -a $(KREL); } && \
		if command -v udevadm >/dev/null && [ -d /run/udev ]; then \
			udevadm control --reload && \
			udevadm trigger --action=change --subsystem-match=misc --sysname-match=kprofile; \
		fi && \
		echo "install: done.  Load it now with: sudo modprobe kprofile (it loads at boot from now on);" && \
		echo "  let a user open /dev/kprofile: sudo usermod -aG kprofile USER (then log in again)"; \
	fi

uninstall:
	rm -f $(DESTDIR)$(MODDIR)/kprofile.ko $(DESTDIR)$(BINDIR)/kprofile \
		$(DESTDIR)$(UDEVRULESDIR)/60-kprofile.rules $(DESTDIR)$(MODLOADDIR)/kprofile.conf \
		$(foreach p,$(MAN_PAGES),$(DESTDIR)$(MANDIR)/man$(subst .,,$(suffix $(p)))/$(p)) \
		$(DESTDIR)$(BASHCOMPDIR)/kprofile $(DESTDIR)$(ZSHCOMPDIR)/_kprofile
	rm -rf $(DESTDIR)$(PYTHONDIR)/kprofile
	@if [ -z "$(DESTDIR)" ]; then \
		depmod -a $(KREL); \
		if [ -f $(GROUP_MARK) ]; then \
			groupdel kprofile && rm -f $(GROUP_MARK) && rmdir --ignore-fail-on-non-empty $(dir $(GROUP_MARK)) && \
			echo "uninstall: removed group kprofile (install had created it)"; \
		fi; \
		if grep -q '^kprofile ' /proc/modules; then \
			echo "uninstall: kprofile.ko is still loaded: sudo rmmod kprofile"; \
		fi; \
	fi

# SPDX-License-Identifier: GPL-2.0
# dkms.mk - `make dkms-install` and `make dkms-remove` (included by
# Makefile): the module through DKMS, rebuilt for every kernel installed
# later (dkms.conf, AUTOINSTALL).  As root.
#
#   sudo make dkms-install          # /usr/src/kprofile-VERSION, dkms add,
#                                   # build and install for DKMS_KREL
#   sudo make install-userspace     # the rest of make install
#   sudo make dkms-remove           # every kernel's, and the source copy
#
# DKMS_FLAGS passes options to every dkms call (the test uses --dkmstree,
# --sourcetree and --installtree to stay out of the system's trees).

DKMS ?= dkms
DKMS_FLAGS ?=
DKMS_SOURCETREE ?= /usr/src
DKMS_KREL ?= $(KVER)
DKMS_SRC := $(DKMS_SOURCETREE)/kprofile-$(KP_VERSION)
# What a module build needs, nothing else (no KUnit, no tools).
DKMS_FILES := dkms.conf VERSION Kbuild Kconfig kmod include

.PHONY: dkms-source dkms-install dkms-remove

dkms-source:
	rm -rf $(DKMS_SRC)
	install -d $(DKMS_SRC)
	cp -r $(DKMS_FILES) $(DKMS_SRC)/
	find $(DKMS_SRC) \( -name '*.o' -o -name '*.ko' -o -name '*.mod' -o -name '*.mod.c' \
		-o -name '.*.cmd' -o -name '*.d' -o -name modules.order \) -delete

dkms-install: dkms-source
	$(DKMS) add $(DKMS_FLAGS) -m kprofile -v $(KP_VERSION)
	$(DKMS) build $(DKMS_FLAGS) -m kprofile -v $(KP_VERSION) -k $(DKMS_KREL)
	$(DKMS) install $(DKMS_FLAGS) -m kprofile -v $(KP_VERSION) -k $(DKMS_KREL)

dkms-remove:
	-$(DKMS) remove $(DKMS_FLAGS) -m kprofile -v $(KP_VERSION) --all
	rm -rf $(DKMS_SRC)

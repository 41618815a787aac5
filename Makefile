# SPDX-License-Identifier: GPL-2.0
# kprofile: the one entry point.  See README.md.

KVER ?= $(shell uname -r)
KDIR ?= $(firstword $(wildcard /lib/modules/$(KVER)/build) \
	$(lastword $(sort $(wildcard /usr/src/linux-headers-*-amd64))))

.PHONY: all module
all: module

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

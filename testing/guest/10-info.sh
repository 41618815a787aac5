#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 10-info: the module is loaded, /dev/kprofile is there with mode 0600,
# the info ioctl answers (raw and through the tool), an unknown ioctl
# fails with ENOTTY, the module's version (MODULE_VERSION, the version
# ioctl) is the tool's, and the module unloads and loads again.
. "$KP_GUEST/lib.sh"
plan 21

check "kprofile.ko is loaded" module_loaded
check "/dev/kprofile is a character device" test -c /dev/kprofile
is "$(stat -c %a /dev/kprofile 2>&1)" 600 "/dev/kprofile has mode 0600"

info=$(kp-ioctl info 2>&1)
check "KPROFILE_IOC_INFO succeeds" kp-ioctl info
is "$(kv abi_version "$info")" "$(kv header_abi_version "$info")" \
	"the module's ABI version is the header's"
is "$(kv reserved_zero "$info")" 1 "reserved fields are zero"
is "$(kv num_cpus "$info")" "$(grep -c ^processor /proc/cpuinfo)" \
	"num_cpus is the number of online CPUs"

case $KP_CPU in
intel)	vendor=GenuineIntel
	# TCG's Skylake model has no architectural perfmon in CPUID 0xA.
	why='CPUID leaf 0xA' ;;
amd)	vendor=AuthenticAMD
	# TCG does not keep what is written to the AMD counters.
	why='not available due to virtualization' ;;
*)	vendor=$(sed -n 's/^vendor_id[[:space:]]*: //p' /proc/cpuinfo | head -n1)
	why=. ;;
esac
reason=$(kv reason "$info")
is "$(kv vendor "$info")" "$vendor" "vendor is $vendor"
is "$(kv interface "$info")" None "interface is None under TCG"
like "$reason" "$why" "the reason says why ($why)"

check "an unknown ioctl fails with ENOTTY" kp-ioctl bad-ioctl

if have_tool; then
	out=$(kprofile info 2>&1)
	check "kprofile info exits 0" kprofile info
	like "$out" "None" "kprofile info shows interface None"
	json=$(kprofile info --json 2>&1)
	like "$json" '^[[:space:]]*\{' "kprofile info --json prints a JSON object"
	like "$json" "\"$vendor\"" "kprofile info --json has the vendor"
	# Module and tool are built from one tree, so from one VERSION.
	tv=$(kprofile --version 2>&1 | sed -n '1s/^kprofile \([^ ]*\) .*/\1/p')
	tv=${tv:-"(no version in kprofile --version)"}
	is "$(cat /sys/module/kprofile/version 2>&1)" "$tv" \
		"the module's MODULE_VERSION is the tool's version ($tv)"
	like "$(kprofile --version 2>&1)" "^module: $tv \\(ABI [0-9]+\\), /dev/kprofile$" \
		"kprofile --version shows the module's version from KPROFILE_IOC_VERSION"
else
	skip "kprofile info exits 0" "tool not built"
	skip "kprofile info shows interface None" "tool not built"
	skip "kprofile info --json prints a JSON object" "tool not built"
	skip "kprofile info --json has the vendor" "tool not built"
	skip "the module's MODULE_VERSION is the tool's version" "tool not built"
	skip "kprofile --version shows the module's version" "tool not built"
fi

check "rmmod kprofile" rmmod kprofile
check "/dev/kprofile is gone after rmmod" test ! -e /dev/kprofile
check "insmod kprofile.ko again" insmod "$KP_MODULE"
check "/dev/kprofile is back" test -c /dev/kprofile

# SPDX-License-Identifier: GPL-2.0
# console.sh - the one definition of "the kernel reported a problem"
# (POSIX sh).  Sourced by the host (testing/lib/common.sh: every console
# a guest leaves is scanned) and by the guest (lib.sh: a test's own look
# at dmesg), so that both sides judge a kernel log by the same patterns.

# Kernel messages that mean something went wrong, whatever the tests said.
KP_BAD_CONSOLE='BUG:|WARNING:|Oops|general protection|Kernel panic|'\
'KASAN|UBSAN:|kmemleak: .*suspected memory leak|unreferenced object|'\
'possible circular locking|inconsistent lock state|possible recursive locking|'\
'possible irq lock inversion|bad unlock balance|suspicious RCU usage|'\
'lockdep is turned off|locking correctness validator|'\
'held when returning to user space|blocked for more than|cut here|Call Trace:'

# Boot messages that match the above but are harmless: the CPU
# vulnerability notes Debian's kernel prints for the emulated CPU models.
KP_OK_CONSOLE='(RETBleed|Speculative Return Stack Overflow|Spectre V[12]|MDS|'\
'MMIO Stale Data|TAA|GDS|SRBDS|ITS|L1TF|Register File Data Sampling|'\
'Transient Scheduler Attacks|VMSCAPE): WARNING: '

# kp_console_problems: read a kernel log on stdin, print its offending
# lines (numbered, at most 40); prints nothing for a clean log.
kp_console_problems() {
	tr -d '\r' | grep -nE "$KP_BAD_CONSOLE" | grep -vE "$KP_OK_CONSOLE" | head -n 40
}

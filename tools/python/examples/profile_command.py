#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Worked example: profile a command with ProfileTime and print its
hottest buckets (kernrate-style), using only the kprofile binding.

    profile_command.py [--bucket-shift N] [--top N] -- CMD [ARGS...]

The command is started stopped at its exec (PTRACE_TRACEME), so its
memory map is known before it runs a single instruction; a ProfileTime
profile of that process over its executable's code is created and
started, the command is released, and when it exits the buckets are
printed as offsets into the executable.
"""
import argparse
import ctypes
import os
import signal
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
import kprofile  # noqa: E402
from kprofile import abi  # noqa: E402

PTRACE_TRACEME = 0
PTRACE_DETACH = 17

libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p,
                        ctypes.c_void_p]
libc.ptrace.restype = ctypes.c_long


def start_stopped(argv):
    """fork + PTRACE_TRACEME + exec: the child stops with SIGTRAP right
    after exec.  Returns its pid."""
    pid = os.fork()
    if pid == 0:
        try:
            if libc.ptrace(PTRACE_TRACEME, 0, None, None) != 0:
                os._exit(126)
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    _, status = os.waitpid(pid, 0)
    if not os.WIFSTOPPED(status):
        sys.exit("%s did not start (status 0x%x)" % (argv[0], status))
    return pid


def code_range(pid):
    """The executable's first r-x mapping: (start, end, path, offset)."""
    exe = os.readlink("/proc/%d/exe" % pid)
    with open("/proc/%d/maps" % pid) as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 6 and fields[5] == exe and "x" in fields[1]:
                start, end = (int(x, 16) for x in fields[0].split("-"))
                return start, end, exe, int(fields[2], 16)
    sys.exit("no executable mapping of %s in pid %d" % (exe, pid))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bucket-shift", type=int, default=8,
                    help="log2 of the bucket size in bytes (default 8)")
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--device", default=abi.DEVICE)
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cmd = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not cmd:
        ap.error("no command given")

    with kprofile.Device(args.device) as dev:
        pid = start_stopped(cmd)
        start, end, exe, off = code_range(pid)
        try:
            profile = dev.create_profile(start, end - start,
                                         args.bucket_shift,
                                         source="ProfileTime",
                                         target=abi.TARGET_PID, pid=pid)
        except kprofile.KprofileError as e:
            os.kill(pid, signal.SIGKILL)
            sys.exit("kprofile: %s" % e)
        with profile:
            interval = dev.get_interval("ProfileTime")
            profile.start()
            libc.ptrace(PTRACE_DETACH, pid, None, None)
            _, status = os.waitpid(pid, 0)
            profile.stop()
            stats = profile.stats()
            top = profile.top(args.top)

    print("%s: exit %d, %d ProfileTime hits (interval %d x 100 ns), "
          "%d outside %s" % (cmd[0], os.waitstatus_to_exitcode(status),
                             stats.hits, interval, stats.outside,
                             os.path.basename(exe)))
    print("%8s  %6s  %s" % ("hits", "share", "bucket"))
    for addr, hits in top:
        print("%8d  %5.1f%%  %s+0x%x (0x%x)"
              % (hits, 100.0 * hits / stats.hits, os.path.basename(exe),
                 addr - start + off, addr))
    return 0 if stats.hits else 1


if __name__ == "__main__":
    sys.exit(main())

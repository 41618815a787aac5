# SPDX-License-Identifier: GPL-2.0
"""The ctypes layouts of kprofile.abi against the C header.

A C program, generated from the Python structs and compiled with cc against
include/uapi, prints sizeof/offsetof of every struct and field, every
request number and the constants; each must equal the Python side.  The
header is also scanned so that a struct or ioctl added in C but not in
Python fails the test.  Runs on the host: needs only cc and python3.
"""
import ctypes
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from kprofile import abi  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
# KPROFILE_UAPI: another include/uapi (to check that the test can fail).
UAPI = os.environ.get("KPROFILE_UAPI",
                      os.path.join(ROOT, "include", "uapi"))
HEADER = os.path.join(UAPI, "linux", "kprofile.h")
# Headers kprofile.h includes whose structs the binding mirrors too.
HEADERS = [HEADER, os.path.join(UAPI, "linux", "kprofile_stream.h")]

# Python constant -> C expression.
CONSTANTS = {
    "ABI_VERSION": "KPROFILE_ABI_VERSION",
    "NAME_LEN": "KPROFILE_NAME_LEN",
    "REASON_LEN": "KPROFILE_REASON_LEN",
    "VENDOR_LEN": "KPROFILE_VENDOR_LEN",
    "MAX_COUNTERS": "KPROFILE_MAX_COUNTERS",
    "NO_COUNTER": "KPROFILE_NO_COUNTER",
    "VERSION_LEN": "KPROFILE_VERSION_LEN",
    "INTERFACE_NONE": "KPROFILE_INTERFACE_NONE",
    "INTERFACE_EMON": "KPROFILE_INTERFACE_EMON",
    "INTERFACE_AMD64": "KPROFILE_INTERFACE_AMD64",
    "INFO_AMD_PERFMON_V2": "KPROFILE_INFO_AMD_PERFMON_V2",
    "INFO_HYPERVISOR": "KPROFILE_INFO_HYPERVISOR",
    "INFO_X2APIC": "KPROFILE_INFO_X2APIC",
    "SOURCE_SUPPORTED": "KPROFILE_SOURCE_SUPPORTED",
    "SOURCE_TIMER": "KPROFILE_SOURCE_TIMER",
    "SOURCE_GENERIC": "KPROFILE_SOURCE_GENERIC",
    "SOURCE_IN_TABLE": "KPROFILE_SOURCE_IN_TABLE",
    "SOURCE_TIME": "KPROFILE_SOURCE_TIME",
    "SOURCE_FIRST_SPECIFIC": "KPROFILE_SOURCE_FIRST_SPECIFIC",
    "MODE_TABLE": "KPROFILE_MODE_TABLE",
    "MODE_USER": "KPROFILE_MODE_USER",
    "MODE_KERNEL": "KPROFILE_MODE_KERNEL",
    "MODE_BOTH": "KPROFILE_MODE_BOTH",
    "SCHED_FITS": "KPROFILE_SCHED_FITS",
    "COUNTER_SINGLE": "KPROFILE_COUNTER_SINGLE",
    "COUNTER_RANGE": "KPROFILE_COUNTER_RANGE",
    "COUNTER_OVERFLOW": "KPROFILE_COUNTER_OVERFLOW",
    "COUNTER_EVENT_BUFFER": "KPROFILE_COUNTER_EVENT_BUFFER",
    "TARGET_SELF": "KPROFILE_TARGET_SELF",
    "TARGET_PID": "KPROFILE_TARGET_PID",
    "TARGET_SYSTEM": "KPROFILE_TARGET_SYSTEM",
    "HW_COUNTER_PMC": "KPROFILE_HW_COUNTER_PMC",
    "THREAD_INHERIT": "KPROFILE_THREAD_INHERIT",
    "THREAD_COUNTERS_VALID": "KPROFILE_THREAD_COUNTERS_VALID",
    "THREAD_EXITED": "KPROFILE_THREAD_EXITED",
    "THREAD_EXEC_STOPPED": "KPROFILE_THREAD_EXEC_STOPPED",
    "PROFILE_EXEC_STOPPED": "KPROFILE_PROFILE_EXEC_STOPPED",
    "PROFILE_BUFFER_LOST": "KPROFILE_PROFILE_BUFFER_LOST",
    "IOC_MAGIC": "KPROFILE_IOC_MAGIC",
    "STREAM_MAX_SOURCES": "KPROFILE_STREAM_MAX_SOURCES",
    "STREAM_MAX_FRAMES": "KPROFILE_STREAM_MAX_FRAMES",
    "STREAM_DEFAULT_FRAMES": "KPROFILE_STREAM_DEFAULT_FRAMES",
    "STREAM_DEFAULT_PAGES": "KPROFILE_STREAM_DEFAULT_PAGES",
    "STREAM_MAX_PAGES": "KPROFILE_STREAM_MAX_PAGES",
    "COMM_LEN": "KPROFILE_COMM_LEN",
    "STREAM_DEFAULT_STACK": "KPROFILE_STREAM_DEFAULT_STACK",
    "STREAM_MAX_STACK": "KPROFILE_STREAM_MAX_STACK",
    "USER_REGS": "KPROFILE_USER_REGS",
    "STREAM_USER_STACK": "KPROFILE_STREAM_USER_STACK",
    "SAMPLE_STACK": "KPROFILE_SAMPLE_STACK",
    "SAMPLE_STACK_SHORT": "KPROFILE_SAMPLE_STACK_SHORT",
    "STREAM_INHERIT": "KPROFILE_STREAM_INHERIT",
    "STREAM_CALLCHAIN": "KPROFILE_STREAM_CALLCHAIN",
    "RECORD_PAD": "KPROFILE_RECORD_PAD",
    "RECORD_SAMPLE": "KPROFILE_RECORD_SAMPLE",
    "RECORD_FORK": "KPROFILE_RECORD_FORK",
    "RECORD_EXEC": "KPROFILE_RECORD_EXEC",
    "RECORD_EXIT": "KPROFILE_RECORD_EXIT",
    "SAMPLE_USER": "KPROFILE_SAMPLE_USER",
    "SAMPLE_TRUNCATED": "KPROFILE_SAMPLE_TRUNCATED",
}

# Python constant -> C expression, for values that are not macros.
EXPRESSIONS = {
    # frames[] starts right after the fixed part the ctypes struct mirrors.
    "SAMPLE_FRAMES_OFFSET": "offsetof(struct kprofile_record_sample, frames)",
}


def c_program():
    out = ["#include <stddef.h>", "#include <stdio.h>",
           "#include <linux/kprofile.h>", "int main(void)", "{"]
    for name, cls in abi.STRUCTS.items():
        out.append('\tprintf("S %s %%zu\\n", sizeof(struct %s));'
                   % (name, name))
        for fname, _ in cls._fields_:
            out.append('\tprintf("F %s.%s %%zu %%zu\\n", '
                       'offsetof(struct %s, %s), '
                       'sizeof(((struct %s *)0)->%s));'
                       % (name, fname, name, fname, name, fname))
    for name in abi.IOCTLS:
        out.append('\tprintf("I %s %%lu\\n", (unsigned long)KPROFILE_IOC_%s);'
                   % (name, name))
    for py, c in list(CONSTANTS.items()) + list(EXPRESSIONS.items()):
        out.append('\tprintf("C %s %%llu\\n", (unsigned long long)(%s));'
                   % (py, c))
    out += ["\treturn 0;", "}", ""]
    return "\n".join(out)


class LayoutTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cc = os.environ.get("CC", "cc")
        if not shutil.which(cc):
            raise unittest.SkipTest("no C compiler (%s)" % cc)
        cls.values = {}
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "layout.c")
            exe = os.path.join(tmp, "layout")
            with open(src, "w") as f:
                f.write(c_program())
            subprocess.run([cc, "-Wall", "-Werror", "-I", UAPI, "-o", exe,
                            src], check=True)
            lines = subprocess.run([exe], check=True, capture_output=True,
                                   text=True).stdout.splitlines()
        for line in lines:
            kind, key, *vals = line.split()
            cls.values[(kind, key)] = [int(v) for v in vals]
        cls.header = ""
        for path in HEADERS:
            with open(path) as f:
                cls.header += f.read()

    def test_struct_sizes(self):
        for name, cls in abi.STRUCTS.items():
            with self.subTest(struct=name):
                self.assertEqual(ctypes.sizeof(cls),
                                 self.values[("S", name)][0])

    def test_field_offsets_and_sizes(self):
        for name, cls in abi.STRUCTS.items():
            for fname, _ in cls._fields_:
                with self.subTest(field="%s.%s" % (name, fname)):
                    desc = getattr(cls, fname)
                    self.assertEqual([desc.offset, desc.size],
                                     self.values[("F", "%s.%s"
                                                  % (name, fname))])

    def test_fields_cover_struct(self):
        # No hole or trailing field in C that Python lacks: the fields'
        # sizes add up to the struct (uapi structs have no implicit pad).
        for name, cls in abi.STRUCTS.items():
            with self.subTest(struct=name):
                total = sum(getattr(cls, f).size for f, _ in cls._fields_)
                self.assertEqual(total, self.values[("S", name)][0])

    def test_request_numbers(self):
        for name, val in abi.IOCTLS.items():
            with self.subTest(ioctl=name):
                self.assertEqual(val, self.values[("I", name)][0])

    def test_constants(self):
        for py, c in CONSTANTS.items():
            with self.subTest(constant=c):
                self.assertEqual(getattr(abi, py), self.values[("C", py)][0])

    def test_sample_frames_follow_the_fixed_part(self):
        self.assertEqual(ctypes.sizeof(abi.kprofile_record_sample),
                         self.values[("C", "SAMPLE_FRAMES_OFFSET")][0])

    def test_every_header_struct_is_mirrored(self):
        in_c = set(re.findall(r"^struct (kprofile_\w+) \{", self.header,
                              re.M))
        self.assertTrue(in_c)
        self.assertEqual(in_c, set(abi.STRUCTS))

    def test_every_header_ioctl_is_mirrored(self):
        in_c = set(re.findall(r"^#define KPROFILE_IOC_(\w+)\s+_IO",
                              self.header, re.M))
        self.assertTrue(in_c)
        self.assertEqual(in_c, set(abi.IOCTLS))


if __name__ == "__main__":
    unittest.main()

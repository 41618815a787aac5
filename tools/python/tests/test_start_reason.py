# SPDX-License-Identifier: GPL-2.0
"""Profile.start() and KPROFILE_IOC_START_EX, without the module: a
refused start raises KprofileError with the reason the module wrote into
struct kprofile_start_result (the kernel writes it before returning the
error, and fcntl.ioctl copies a mutable argument back before raising); a
module without START_EX (ENOTTY) is started with START.  test_device.py
checks the same against the real module."""
import ctypes
import errno
import fcntl
import os
import sys
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import kprofile  # noqa: E402
from kprofile import abi  # noqa: E402


class FakeModule:
    """fcntl.ioctl for one profile fd: START_EX as a module that has it
    (or not: @start_ex False), refusing with @err and @reason."""

    def __init__(self, err=0, reason=b"", start_ex=True):
        self.err, self.reason, self.start_ex = err, reason, start_ex
        self.calls = []

    def __call__(self, fd, req, arg=0, mutate=False):
        self.calls.append(req)
        if req == abi.IOC_START_EX:
            if not self.start_ex:
                raise OSError(errno.ENOTTY, os.strerror(errno.ENOTTY))
            # What the kernel does: the whole struct zeroed, then the
            # reason, into the caller's (mutable) buffer.
            ctypes.memset(ctypes.addressof(arg), 0, ctypes.sizeof(arg))
            arg.reason = self.reason
            self.assertion_mutable = mutate
        elif req != abi.IOC_START:
            raise OSError(errno.ENOTTY, os.strerror(errno.ENOTTY))
        if self.err:
            raise OSError(self.err, os.strerror(self.err))
        return 0


def profile():
    return kprofile.Profile(-1, (ctypes.c_uint32 * 1)(), 0, 4)


class StartReasonTest(unittest.TestCase):
    def test_start_ex_request(self):
        # _IOR: the module writes the struct back (the binding passes it
        # mutable); number 0x44 of the profile fd's range.
        self.assertEqual(abi.IOC_START_EX >> 30, 2)
        self.assertEqual((abi.IOC_START_EX >> 16) & 0x3fff,
                         ctypes.sizeof(abi.kprofile_start_result))
        self.assertEqual(abi.IOC_START_EX & 0xffff,
                         (abi.IOC_MAGIC << 8) | 0x44)
        self.assertEqual(abi.kprofile_start_result.reason.offset, 0)
        self.assertEqual(abi.kprofile_start_result.reason.size,
                         abi.REASON_LEN)

    def test_refusal_carries_the_reason(self):
        why = b"4 of 4 counters in use: 0:perf 1:perf 2:perf 3:perf"
        fake = FakeModule(errno.EBUSY, why)
        with mock.patch.object(fcntl, "ioctl", fake):
            with self.assertRaises(kprofile.KprofileError) as cm:
                profile().start()
        e = cm.exception
        self.assertEqual(e.errno, errno.EBUSY)
        self.assertEqual(e.request, "START_EX")
        self.assertEqual(e.reason, why.decode())
        self.assertIn(why.decode(), str(e))
        self.assertTrue(fake.assertion_mutable)
        self.assertEqual(fake.calls, [abi.IOC_START_EX])

    def test_success_is_one_call(self):
        fake = FakeModule()
        with mock.patch.object(fcntl, "ioctl", fake):
            profile().start()
        self.assertEqual(fake.calls, [abi.IOC_START_EX])

    def test_old_module_falls_back_to_start(self):
        fake = FakeModule(start_ex=False)
        with mock.patch.object(fcntl, "ioctl", fake):
            profile().start()
        self.assertEqual(fake.calls, [abi.IOC_START_EX, abi.IOC_START])

    def test_old_module_refusal_has_no_reason(self):
        fake = FakeModule(errno.ENOMEM, start_ex=False)
        with mock.patch.object(fcntl, "ioctl", fake):
            with self.assertRaises(kprofile.KprofileError) as cm:
                profile().start()
        self.assertEqual(cm.exception.errno, errno.ENOMEM)
        self.assertEqual(cm.exception.request, "START")
        self.assertEqual(cm.exception.reason, "")


if __name__ == "__main__":
    unittest.main()

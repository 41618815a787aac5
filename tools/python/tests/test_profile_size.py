# SPDX-License-Identifier: GPL-2.0
"""create_profile()'s size check, without the module:
create_profile(0, 1 << 47, 16), the user half in 64 KiB buckets (2^31 of
them), used to end in an empty MemoryError after trying to allocate 8 GiB
of counters (the UX review's I3); it is refused first, saying what to do."""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import kprofile  # noqa: E402
from kprofile import device  # noqa: E402


class ProfileSizeTest(unittest.TestCase):
    def test_bucket_count(self):
        self.assertEqual(device.bucket_count(0x1000, 4), 0x100)
        self.assertEqual(device.bucket_count(0x1001, 4), 0x101)
        self.assertEqual(device.bucket_count(1 << 47, 31), 1 << 16)
        # Invalid shifts are the module's to refuse (EINVAL, with a reason).
        self.assertEqual(device.bucket_count(0x1000, 1), 1)
        self.assertEqual(device.bucket_count(0x1000, 40), 1)

    def test_too_many_buckets_is_refused_with_the_fix(self):
        with self.assertRaises(ValueError) as cm:
            device.bucket_count(1 << 47, 4)
        msg = str(cm.exception)
        self.assertIn("%d buckets" % (1 << 43), msg)
        self.assertIn("MAX_BUCKETS", msg)
        self.assertIn("bucket_shift >= 21", msg)  # 2^47 / 2^21 = 2^26

    def test_create_profile_refuses_before_allocating(self):
        # No device: the check comes before any allocation or ioctl.
        dev = kprofile.Device.__new__(kprofile.Device)
        with self.assertRaises(ValueError) as cm:
            dev.create_profile(0, 1 << 47, 16)
        self.assertIn("bucket_shift >= 21", str(cm.exception))

    def test_the_limit_can_be_raised(self):
        self.assertEqual(device.bucket_count(1 << 30, 2, max_buckets=1 << 28), 1 << 28)


if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: GPL-2.0
"""guest_bundle.py must keep every link inside the stage it fills.

An absolute link in the stage (lib/x86_64-linux-gnu/libexpat.so.1 ->
/usr/lib/...) names the host's file: testing/vm/image.sh then copied its
extra files over the stage through such links and overwrote the host's
libexpat, liblzma and libbz2 in place, and running processes that had
them mapped died of SIGSEGV.
"""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BUNDLE = os.path.join(HERE, "..", "guest_bundle.py")


class GuestBundleTest(unittest.TestCase):
    def test_links_stay_inside_the_stage(self):
        with tempfile.TemporaryDirectory() as stage:
            subprocess.run([sys.executable, BUNDLE, stage], check=True,
                           stdout=subprocess.DEVNULL)
            links = 0
            for root, dirs, files in os.walk(stage):
                for name in dirs + files:
                    path = os.path.join(root, name)
                    if not os.path.islink(path):
                        continue
                    links += 1
                    target = os.readlink(path)
                    self.assertFalse(os.path.isabs(target),
                                     "%s -> %s names a host path"
                                     % (path[len(stage):], target))
                    real = os.path.realpath(path)
                    self.assertTrue(real.startswith(stage + os.sep),
                                    "%s leaves the stage" % path)
                    self.assertTrue(os.path.exists(real),
                                    "%s dangles" % path)
            # python3 itself is reached through links (/usr/bin/python3).
            self.assertGreater(links, 0)


if __name__ == "__main__":
    unittest.main()

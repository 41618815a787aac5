#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Put a Python interpreter and the kprofile binding into a guest image.

    guest_bundle.py STAGE

STAGE is the root of an initramfs being built (testing/vm/image.sh).  The
host's Debian python3 (/usr/bin/python3, which runs this script), the
shared libraries it and its extension modules need,
and exactly the standard-library modules the binding's tests and example
import (found by importing them here, on the host) are copied to the same
paths under STAGE, so the guest runs /usr/bin/python3 with no PYTHONHOME.
The binding, its tests and examples go to STAGE/kp/python.
"""
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))

# Imported lazily by the code the guest runs (tracebacks, diffs, the
# example), so importing the test modules alone would miss them.
EXTRA = ["runpy", "tokenize", "token", "linecache", "pprint", "difflib",
         "argparse", "signal", "subprocess", "tempfile", "shutil", "ctypes",
         "fcntl", "dataclasses", "threading", "unittest.mock",
         "encodings.latin_1", "encodings.ascii", "encodings.utf_8",
         "encodings.aliases"]


def used_modules():
    """Files of every module the tests and example import."""
    sys.path.insert(0, HERE)
    sys.path.insert(0, os.path.join(HERE, "tests"))
    unittest.defaultTestLoader.discover(os.path.join(HERE, "tests"))
    spec = importlib.util.spec_from_file_location(
        "profile_command",
        os.path.join(HERE, "examples", "profile_command.py"))
    spec.loader.exec_module(importlib.util.module_from_spec(spec))
    for name in EXTRA:
        __import__(name)
    files = set()
    for mod in list(sys.modules.values()):
        f = getattr(mod, "__file__", None)
        if f:
            files.add(os.path.realpath(f))
    return files


def copy(path, stage):
    dest = stage + path
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    if not os.path.exists(dest):
        shutil.copy2(path, dest)


def stage_link(stage, target, name):
    """Make stage+name a symlink to stage+target, relative: an absolute
    link would name the host's file, and a later copy into the stage
    (image.sh's extra files) would write through it into the host's
    library, under every process that has it mapped."""
    link = stage + name
    os.makedirs(os.path.dirname(link), exist_ok=True)
    if not os.path.lexists(link):
        os.symlink(os.path.relpath(stage + target, os.path.dirname(link)),
                   link)


def copy_with_libs(path, stage):
    copy(path, stage)
    out = subprocess.run(["ldd", path], capture_output=True, text=True).stdout
    for line in out.splitlines():
        for word in line.split():
            if word.startswith("/") and os.path.exists(word):
                real = os.path.realpath(word)
                copy(real, stage)
                if real != word:  # keep the name the loader looks for
                    stage_link(stage, real, word)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    stage = os.path.abspath(sys.argv[1])
    exe = os.path.realpath(sys.executable)
    copy_with_libs(exe, stage)
    for name in ("/usr/bin/python3", sys.executable):
        stage_link(stage, exe, name)
    stdlib = os.path.realpath(sysconfig.get_paths()["stdlib"])
    for f in sorted(used_modules()):
        if f.startswith(stdlib + os.sep):
            if f.endswith(".so"):
                copy_with_libs(f, stage)
            else:
                copy(f, stage)
    # The prefix landmark, and what `python3 -m unittest` runs (importing
    # it here would run it).
    for rel in ("os.py", "unittest/__main__.py"):
        copy(os.path.join(stdlib, rel), stage)
    dest = os.path.join(stage, "kp", "python")
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(HERE, dest, ignore=shutil.ignore_patterns(
        "__pycache__", "*.pyc", "guest_bundle.py"))


if __name__ == "__main__":
    main()

# SPDX-License-Identifier: GPL-2.0
"""kprofile: scripting over /dev/kprofile (stdlib only: fcntl + ctypes).

    import kprofile
    with kprofile.Device() as dev:
        for s in dev.sources():
            print(s.value, s.name, s.supported)
"""
import os as _os

from . import abi
from .device import (Device, HwCounter, Info, InfoEx, KprofileError, Profile,
                     Reservation, Schedule, Source, ThreadData, ThreadEntry,
                     ThreadProfile, Version)
from .stream import Ring, RecordError, Sample, Stream, StreamInfo, Task


def _version():
    """The project version: the file VERSION (in the source tree a link to
    the top-level one; an installed package carries a copy)."""
    try:
        with open(_os.path.join(_os.path.dirname(__file__), "VERSION"),
                  encoding="ascii") as f:
            return f.read().strip()
    except OSError:
        return "unknown"


__version__ = _version()

__all__ = ["abi", "Device", "HwCounter", "Info", "InfoEx", "KprofileError",
           "Profile", "Reservation", "Schedule", "Source", "ThreadData", "ThreadEntry",
           "ThreadProfile", "Version", "Ring", "RecordError", "Sample", "Stream",
           "StreamInfo", "Task", "__version__"]

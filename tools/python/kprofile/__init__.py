# SPDX-License-Identifier: GPL-2.0
"""kprofile: scripting over /dev/kprofile (stdlib only: fcntl + ctypes).

    import kprofile
    with kprofile.Device() as dev:
        for s in dev.sources():
            print(s.value, s.name, s.supported)
"""
from . import abi
from .device import (Device, HwCounter, Info, InfoEx, KprofileError, Profile,
                     Reservation, Schedule, Source, ThreadData, ThreadEntry,
                     ThreadProfile)

__all__ = ["abi", "Device", "HwCounter", "Info", "InfoEx", "KprofileError",
           "Profile", "Reservation", "Schedule", "Source", "ThreadData", "ThreadEntry",
           "ThreadProfile"]

# SPDX-License-Identifier: GPL-2.0
"""The Linux ioctl request encoding (include/uapi/asm-generic/ioctl.h).

x86 uses the generic layout: 8 bits of number, 8 of type, 14 of size and
2 of direction, from the low bits up.  Request numbers are computed from
the structure sizes here, never pasted, so a struct that changes size
changes its request number the way the C macros do.
"""
import ctypes

_IOC_NRBITS = 8
_IOC_TYPEBITS = 8
_IOC_SIZEBITS = 14
_IOC_DIRBITS = 2

_IOC_NRSHIFT = 0
_IOC_TYPESHIFT = _IOC_NRSHIFT + _IOC_NRBITS
_IOC_SIZESHIFT = _IOC_TYPESHIFT + _IOC_TYPEBITS
_IOC_DIRSHIFT = _IOC_SIZESHIFT + _IOC_SIZEBITS

_IOC_NONE = 0
_IOC_WRITE = 1
_IOC_READ = 2


def _IOC(direction, typ, nr, size):
    if not 0 <= size < (1 << _IOC_SIZEBITS):
        raise ValueError("ioctl argument too large: %d bytes" % size)
    return ((direction << _IOC_DIRSHIFT) | (typ << _IOC_TYPESHIFT) |
            (nr << _IOC_NRSHIFT) | (size << _IOC_SIZESHIFT))


def _IO(typ, nr):
    return _IOC(_IOC_NONE, typ, nr, 0)


def _IOR(typ, nr, struct):
    return _IOC(_IOC_READ, typ, nr, ctypes.sizeof(struct))


def _IOW(typ, nr, struct):
    return _IOC(_IOC_WRITE, typ, nr, ctypes.sizeof(struct))


def _IOWR(typ, nr, struct):
    return _IOC(_IOC_READ | _IOC_WRITE, typ, nr, ctypes.sizeof(struct))

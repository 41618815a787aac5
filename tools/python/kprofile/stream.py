# SPDX-License-Identifier: GPL-2.0
"""The sample stream (<linux/kprofile_stream.h>): one record per interrupt
of a source, with the interrupted task and its call stack, read from
per-CPU rings mapped into memory.

    with kprofile.Device() as dev:
        with dev.create_stream(["ProfileTime"]) as st:
            st.start()
            work()
            st.stop()
            for rec in st.records():
                if isinstance(rec, kprofile.Sample):
                    print(rec.pid, hex(rec.ip), [hex(f) for f in rec.frames])

Memory ordering: the module publishes data_head with a store-release and
reads data_tail with a load-acquire.  Python has no barriers; the reader
loads data_head before the records and stores data_tail after decoding
them, and x86-64 (the only architecture the module runs on) orders plain
loads with loads and stores after loads, which is what acquire and
release ask for.
"""
import ctypes
import mmap
import struct
from dataclasses import dataclass, field
from typing import List

from . import abi
from .device import _FdObject, _ioctl, _own_interval

_HEADER = struct.Struct("<II")
_SAMPLE = struct.Struct("<IIQIiiIQIHH")
_TASK = struct.Struct("<IIQIiii8x%ds" % abi.COMM_LEN)
_STACK = struct.Struct("<%dQII" % abi.USER_REGS)
_TASK_KINDS = {abi.RECORD_FORK: "fork", abi.RECORD_EXEC: "exec",
               abi.RECORD_EXIT: "exit"}


@dataclass
class Sample:
    """struct kprofile_record_sample: frames innermost first, the
    nr_kernel kernel entries before the nr_user user ones."""
    time: int
    cpu: int
    pid: int
    tid: int
    source: int
    ip: int
    flags: int
    nr_kernel: int
    nr_user: int
    frames: List[int] = field(default_factory=list)
    # SAMPLE_STACK: the user registers (DWARF numbering: rax, rdx, rcx,
    # rbx, rsi, rdi, rbp, rsp, r8..r15, rip) and the stack copied from
    # rsp up.
    regs: List[int] = field(default_factory=list)
    stack: bytes = b""

    @property
    def user(self):
        return bool(self.flags & abi.SAMPLE_USER)

    @property
    def truncated(self):
        return bool(self.flags & abi.SAMPLE_TRUNCATED)

    @property
    def kernel_frames(self):
        return self.frames[:self.nr_kernel]

    @property
    def user_frames(self):
        return self.frames[self.nr_kernel:]


@dataclass
class Task:
    """struct kprofile_record_task: kind is "fork", "exec" or "exit"."""
    kind: str
    time: int
    cpu: int
    pid: int
    tid: int
    ppid: int
    comm: str


class RecordError(ValueError):
    """Bytes that are not a valid record (a ring stops there)."""


def decode_record(buf, off, avail):
    """The record at @off of @buf, of which @avail bytes may be read:
    (size, record) with record a Sample, a Task, or None for a PAD or a
    type this binding does not know.  Raises RecordError."""
    if avail < _HEADER.size:
        raise RecordError("%d bytes left, less than a record header" % avail)
    rtype, size = _HEADER.unpack_from(buf, off)
    if size < _HEADER.size or size % 8:
        raise RecordError("record of type %d has size %d: not a multiple of 8 "
                          "of at least 8" % (rtype, size))
    if size > avail:
        raise RecordError("record of type %d has size %d, more than the %d "
                          "bytes there are" % (rtype, size, avail))
    if rtype == abi.RECORD_SAMPLE:
        if size < _SAMPLE.size:
            raise RecordError("sample record of %d bytes" % size)
        (_, _, time, cpu, pid, tid, source, ip, flags, nr_kernel,
         nr_user) = _SAMPLE.unpack_from(buf, off)
        n = nr_kernel + nr_user
        if n > (size - _SAMPLE.size) // 8:
            raise RecordError("sample record of %d bytes claims %d frames"
                              % (size, n))
        frames = list(struct.unpack_from("<%dQ" % n, buf, off + _SAMPLE.size))
        regs, stack = [], b""
        if flags & abi.SAMPLE_STACK:
            at = _SAMPLE.size + 8 * n
            if size - at < _STACK.size:
                raise RecordError("sample record of %d bytes has no room for "
                                  "its user registers" % size)
            *regs, nbytes, _ = _STACK.unpack_from(buf, off + at)
            at += _STACK.size
            if nbytes > size - at:
                raise RecordError("sample record of %d bytes claims %d stack "
                                  "bytes" % (size, nbytes))
            stack = bytes(buf[off + at:off + at + nbytes])
        return size, Sample(time, cpu, pid, tid, source, ip, flags, nr_kernel,
                            nr_user, frames, regs, stack)
    if rtype in _TASK_KINDS:
        if size < _TASK.size:
            raise RecordError("task record of %d bytes" % size)
        _, _, time, cpu, pid, tid, ppid, comm = _TASK.unpack_from(buf, off)
        return size, Task(_TASK_KINDS[rtype], time, cpu, pid, tid, ppid,
                          comm.split(b"\0", 1)[0].decode("utf-8", "replace"))
    return size, None   # PAD, or a newer module's record


class Ring:
    """One ring of @buf (an mmap, or a bytearray in tests): a struct
    kprofile_stream_page at @offset, its data area @ring_bytes on."""

    def __init__(self, buf, offset, ring_bytes, index=0):
        self.page = abi.kprofile_stream_page.from_buffer(buf, offset)
        self.buf = buf
        self.index = index
        self.error = ""
        self.unknown = 0
        p = self.page
        if (p.data_offset < ctypes.sizeof(abi.kprofile_stream_page)
                or p.data_offset % 8 or p.data_size == 0 or p.data_size % 8
                or p.data_offset + p.data_size > ring_bytes):
            self._fail("its header places the data area at %d + %d bytes, "
                       "outside the %d bytes mapped"
                       % (p.data_offset, p.data_size, ring_bytes))
        self.data = offset + p.data_offset
        self.size = p.data_size

    def _fail(self, why):
        self.error = ("ring %d (CPU %d): %s; the ring is no longer read"
                      % (self.index, self.page.cpu, why))

    @property
    def broken(self):
        return bool(self.error)

    @property
    def lost(self):
        """Records this ring dropped because it was full."""
        return self.page.lost

    @property
    def cpu(self):
        return self.page.cpu

    def records(self):
        """Yield the records between data_tail and data_head, freeing each
        one's space once decoded.  A record that is not valid stops the
        ring for good (.broken, .error)."""
        if self.broken:
            return
        head = self.page.data_head   # once, before the records
        tail = self.page.data_tail
        if head < tail or head - tail > self.size:
            self._fail("data_head %d and data_tail %d are %d bytes apart, the "
                       "area has %d" % (head, tail, head - tail, self.size))
            return
        while tail < head:
            off = tail % self.size
            avail = min(head - tail, self.size - off)
            try:
                size, rec = decode_record(self.buf, self.data + off, avail)
            except RecordError as e:
                self._fail("at byte %d of its data: %s" % (off, e))
                return
            if rec is None and _HEADER.unpack_from(
                    self.buf, self.data + off)[0] != abi.RECORD_PAD:
                self.unknown += 1
            tail += size
            # Only now, with the record copied out, may the module reuse
            # its bytes.
            self.page.data_tail = tail
            if rec is not None:
                yield rec


@dataclass
class StreamInfo:
    nr_rings: int
    ring_pages: int
    page_size: int
    started: bool
    samples: int
    lost: int
    untracked: int
    not_dumpable: int
    flags: int
    stack_short: int = 0    # USER_STACK samples whose copy stopped short


class Stream(_FdObject):
    """A stream fd (KPROFILE_IOC_CREATE_STREAM) and its mapped rings.
    Created stopped; start() and stop() arm and disarm its sources;
    records() drains what the rings hold now."""

    def __init__(self, fd):
        super().__init__(fd)
        self._map = None
        self.rings = []
        try:
            info = self.info()
            ring = (info.ring_pages + 1) * info.page_size
            self._map = mmap.mmap(fd, ring * info.nr_rings, mmap.MAP_SHARED,
                                  mmap.PROT_READ | mmap.PROT_WRITE)
            self.rings = [Ring(self._map, i * ring, ring, i)
                          for i in range(info.nr_rings)]
        except BaseException:
            self.close()
            raise

    def info(self):
        si = abi.kprofile_stream_info()
        _ioctl(self.fd, "STREAM_INFO", si)
        return StreamInfo(si.nr_rings, si.ring_pages, si.page_size,
                          bool(si.started), si.samples, si.lost, si.untracked,
                          si.not_dumpable, si.flags, si.stack_short)

    def start(self):
        _ioctl(self.fd, "START")

    def stop(self):
        _ioctl(self.fd, "STOP")

    def set_interval(self, interval):
        """This stopped stream's own ProfileTime interval (as
        Profile.set_interval()); EOPNOTSUPP without ProfileTime among its
        sources."""
        return _own_interval(self.fd, interval)

    def records(self):
        """Every record the rings hold now, ring after ring (a generator:
        each record's space is freed as it is decoded)."""
        for ring in self.rings:
            yield from ring.records()

    def samples(self):
        """The Sample records of records()."""
        return (r for r in self.records() if isinstance(r, Sample))

    @property
    def problems(self):
        return [r.error for r in self.rings if r.broken]

    def close(self):
        # The ctypes views into the mapping go first, then the mapping,
        # then the fd.
        for r in self.rings:
            r.page = None
        self.rings = []
        if self._map is not None:
            self._map.close()
            self._map = None
        super().close()

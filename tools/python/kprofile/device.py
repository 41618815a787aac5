# SPDX-License-Identifier: GPL-2.0
"""Device: /dev/kprofile, one method per ioctl, and the objects (profiles,
reservations, thread profiling) whose file descriptors the ioctls return.

Every failure raises KprofileError, an OSError carrying the errno and,
where the module gave one, its reason.
"""
import ctypes
import errno as _errno
import fcntl
import mmap
import os
from dataclasses import dataclass, field
from typing import List, Optional

from . import abi


class KprofileError(OSError):
    """An ioctl failed: .errno as the module returned it, .reason the
    module's explanation (empty when it has none), .request the ioctl."""

    def __init__(self, err, request, reason=""):
        self.reason = reason
        self.request = request
        msg = "%s: %s" % (request, os.strerror(err))
        if reason:
            msg += ": " + reason
        super().__init__(err, msg)


def _text(raw):
    return raw.decode("utf-8", errors="replace")


def _ioctl(fd, request_name, arg=0, reason=None):
    """fcntl.ioctl() that turns OSError into KprofileError; @reason is a
    callable that extracts the module's reason from the argument."""
    req = abi.IOCTLS[request_name]
    try:
        return fcntl.ioctl(fd, req, arg, True) if not isinstance(arg, int) \
            else fcntl.ioctl(fd, req, arg)
    except OSError as e:
        why = reason() if reason else ""
        raise KprofileError(e.errno, request_name, why) from None


# The most buckets create_profile() allocates: 2^26 (256 MiB of 32-bit
# counters, which the module pins while the profile runs; RLIMIT_MEMLOCK
# is 8 MiB by default).  create_profile(0, 1 << 47, 16) would ask for 2^31
# buckets (8 GiB) and end in a bare MemoryError.  Raise it to go beyond.
MAX_BUCKETS = 1 << 26


def bucket_count(size, bucket_shift, max_buckets=None):
    """The buckets a profile of @size bytes with 2^@bucket_shift-byte
    buckets has; ValueError, saying what to change, when that is above
    @max_buckets (MAX_BUCKETS).  An invalid @bucket_shift or @size gives 1:
    the module refuses the request (EINVAL) and create_profile() says why."""
    limit = MAX_BUCKETS if max_buckets is None else max_buckets
    if not 2 <= bucket_shift <= 31 or size <= 0:
        return 1  # the module refuses it (EINVAL), with the reason
    n = -(-size // (1 << bucket_shift))
    if n > limit:
        shift = bucket_shift
        while shift < 31 and -(-size // (1 << shift)) > limit:
            shift += 1
        raise ValueError(
            "a profile of %#x bytes in %d-byte buckets needs %d buckets "
            "(%d MiB of counters, pinned while it runs); the limit is %d "
            "(kprofile.device.MAX_BUCKETS): use bucket_shift >= %d or a "
            "smaller range" % (size, 1 << bucket_shift, n, n * 4 >> 20,
                               limit, shift))
    return n


def _cpu_bitmap(cpus):
    """A sched_setaffinity-style bitmap of @cpus (iterable of ints), as a
    ctypes array kept alive by the caller, or None for "all online"."""
    if cpus is None:
        return None
    cpus = list(cpus)
    if not cpus:
        return None
    nbits = ctypes.sizeof(ctypes.c_ulong) * 8
    words = (max(cpus) // nbits) + 1
    bitmap = (ctypes.c_ulong * words)()
    for cpu in cpus:
        if cpu < 0:
            raise ValueError("negative CPU %d" % cpu)
        bitmap[cpu // nbits] |= 1 << (cpu % nbits)
    return bitmap


@dataclass
class Info:
    abi_version: int
    interface: int
    interface_name: str
    perfmon_version: int
    num_counters: int
    counter_width: int
    ebx_mask: int
    ebx_length: int
    num_cpus: int
    num_possible_cpus: int
    family: int
    model: int
    flags: int
    vendor: str
    reason: str

    @classmethod
    def from_c(cls, i):
        return cls(i.abi_version, i.interface,
                   abi.INTERFACE_NAMES.get(i.interface, "?"),
                   i.perfmon_version, i.num_counters, i.counter_width,
                   i.ebx_mask, i.ebx_length, i.num_cpus,
                   i.num_possible_cpus, i.family, i.model, i.flags,
                   _text(i.vendor), _text(i.reason))


@dataclass
class InfoEx:
    """KPROFILE_IOC_INFO_EX: can the counters be used now, and what
    limits them."""
    info: Info
    pmu_state: int
    pmu_state_name: str
    flags: int
    amd_family: int
    amd_family_name: str
    busy_mask: int
    counter_mask: int
    state_reason: str


@dataclass
class Version:
    abi_version: int
    major: int
    minor: int
    patch: int
    version: str


@dataclass
class Source:
    value: int
    name: str
    flags: int
    interval: int
    default_interval: int
    min_interval: int
    max_interval: int
    select: int
    ebx_bit: Optional[int]
    reason: str

    @property
    def supported(self):
        return bool(self.flags & abi.SOURCE_SUPPORTED)

    @classmethod
    def from_c(cls, s):
        return cls(s.source, _text(s.name), s.flags, s.interval,
                   s.default_interval, s.min_interval, s.max_interval,
                   s.select, None if s.ebx_bit < 0 else s.ebx_bit,
                   _text(s.reason))


@dataclass
class Schedule:
    fits: bool
    busy_mask: int
    num_counters: int
    counters: List[Optional[int]]
    reason: str


@dataclass
class HwCounter:
    """One entry of the hardware-counter configuration."""
    source: int
    mode: int = abi.MODE_TABLE
    index: Optional[int] = None


@dataclass
class ThreadData:
    """ReadThreadProfilingData: totals over the profiled threads."""
    context_switches: int
    cycle_time: int
    threads: int
    counters_valid: bool
    hw_counters: List[Optional[int]]
    reason: str


@dataclass
class ThreadEntry:
    tid: int
    tgid: int
    comm: str
    exited: bool
    context_switches: int
    cycle_time: int
    hw_counters: List[Optional[int]] = field(default_factory=list)


def _bucket_buffer(nbuckets):
    """A zeroed array of @nbuckets 32-bit counters in a mapping of its own.

    Not a ctypes array: malloc puts large blocks in private anonymous
    mappings that Linux merges with their neighbours, and freeing a
    neighbour splits the merged mapping, which the kernel announces as a
    clear of the 2 MiB around the split (vma_adjust_trans_huge()): the
    module took that for the buffer going away and counted the profile's
    later hits as unavailable (BUFFER_LOST, as kprofile record
    did before e66aa16).  A shared anonymous mapping (mmap's default with no
    file) merges with nothing; the array keeps it alive."""
    mem = mmap.mmap(-1, max(nbuckets * 4, 1),
                    flags=mmap.MAP_SHARED | mmap.MAP_ANONYMOUS)
    return (ctypes.c_uint32 * nbuckets).from_buffer(mem)


def _own_interval(fd, interval):
    """KPROFILE_IOC_SET_INTERVAL on a stopped profile or stream fd: its
    own ProfileTime interval (100 ns units), without CAP_PERFMON; returns
    the interval used (clamped).  The machine-wide interval is
    Device.set_interval()."""
    iv = abi.kprofile_interval(source=abi.SOURCE_TIME, interval=interval)
    _ioctl(fd, "SET_INTERVAL", iv)
    return iv.interval


class _FdObject:
    """An object the module returned as a file descriptor (a Profile, a
    Reservation, a ThreadProfile, a stream.Stream); closed on close(), at
    the end of a with block, or when collected."""

    def __init__(self, fd):
        self.fd = fd

    def close(self):
        if self.fd is not None and self.fd >= 0:
            os.close(self.fd)
            self.fd = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        # BufferError: stream.Stream's close() found its mapping still
        # exported (a view of it kept elsewhere).
        try:
            self.close()
        except (OSError, BufferError):
            pass


class Profile(_FdObject):
    """NtCreateProfile: buckets of 32-bit hit counts over [base, base+size).

    .buckets is the ctypes array the module updates while the profile runs
    (and that keeps its counts after stop)."""

    def __init__(self, fd, buckets, base, bucket_shift):
        super().__init__(fd)
        self.buckets = buckets
        self.base = base
        self.bucket_shift = bucket_shift

    def start(self):
        """NtStartProfile.  A refusal raises KprofileError with the
        module's reason (KPROFILE_IOC_START_EX: the counters' holder, the
        RLIMIT_MEMLOCK that the buffer would exceed, ...); a module
        without START_EX (ENOTTY) is started with START, without one."""
        res = abi.kprofile_start_result()
        try:
            _ioctl(self.fd, "START_EX", res, lambda: _text(res.reason))
        except KprofileError as e:
            if e.errno != _errno.ENOTTY:
                raise
            _ioctl(self.fd, "START")

    def stop(self):
        _ioctl(self.fd, "STOP")

    def set_interval(self, interval):
        """This stopped ProfileTime profile's own interval (100 ns units)
        from its next start, without CAP_PERFMON: returns the interval
        used (clamped).  EINVAL for 0, EBUSY while started, EOPNOTSUPP
        for a counter source.  The machine-wide interval does not
        change."""
        return _own_interval(self.fd, interval)

    def stats(self):
        """The statistics (struct kprofile_profile_stats), and why counting
        stopped: .flags (abi.PROFILE_EXEC_STOPPED: the target executed a
        set-user-ID program; abi.PROFILE_BUFFER_LOST: the buffer was
        unmapped or replaced, later hits are unavailable) and
        .not_dumpable (interrupts hidden because the target was not
        dumpable).  Both 0 from a module without PROFILE_STATS_EX."""
        st = abi.kprofile_profile_stats()
        _ioctl(self.fd, "PROFILE_STATS", st)
        sx = abi.kprofile_profile_stats_ex()
        try:
            _ioctl(self.fd, "PROFILE_STATS_EX", sx)
            st = sx.stats
        except KprofileError as e:
            if e.errno != _errno.ENOTTY:
                raise
        st.flags = sx.flags
        st.not_dumpable = sx.not_dumpable
        return st

    def bucket_address(self, index):
        return self.base + (index << self.bucket_shift)

    def top(self, n=10):
        """The @n fullest buckets as (address, hits), fullest first."""
        hits = [(c, i) for i, c in enumerate(self.buckets) if c]
        hits.sort(reverse=True)
        return [(self.bucket_address(i), c) for c, i in hits[:n]]


class Reservation(_FdObject):
    """HalAllocateHardwareCounters: counters held until close."""

    def __init__(self, fd, counter_mask):
        super().__init__(fd)
        self.counter_mask = counter_mask


class ThreadProfile(_FdObject):
    """EnableThreadProfiling: read with read(), per thread with threads();
    close() disables it."""

    def __init__(self, fd, counter_mask):
        super().__init__(fd)
        self.counter_mask = counter_mask

    def read(self):
        d = abi.kprofile_thread_data()
        _ioctl(self.fd, "THREAD_READ", d)
        valid = bool(d.flags & abi.THREAD_COUNTERS_VALID)
        hw = [d.hw_counters[i] if valid else None
              for i in range(d.hw_counter_count)]
        return ThreadData(d.context_switches, d.cycle_time, d.threads,
                          valid, hw, _text(d.reason))

    def threads(self):
        n = 64
        while True:
            arr = (abi.kprofile_thread_entry * n)()
            lst = abi.kprofile_thread_list(count=n,
                                           entries=ctypes.addressof(arr))
            try:
                _ioctl(self.fd, "THREAD_LIST", lst)
            except KprofileError as e:
                if e.errno == _errno.ENOSPC and lst.count > n:
                    n = lst.count
                    continue
                raise
            out = []
            for e in arr[:lst.count]:
                valid = bool(e.flags & abi.THREAD_COUNTERS_VALID)
                out.append(ThreadEntry(
                    e.tid, e.tgid, _text(e.comm),
                    bool(e.flags & abi.THREAD_EXITED), e.context_switches,
                    e.cycle_time,
                    [e.hw_counters[i] if valid else None
                     for i in range(abi.MAX_COUNTERS)]))
            return out


class Device:
    """/dev/kprofile.  Use as a context manager::

        with kprofile.Device() as dev:
            print(dev.info().interface_name)
    """

    def __init__(self, path=abi.DEVICE):
        self.path = path
        self.fd = os.open(path, os.O_RDWR | os.O_CLOEXEC)
        self._names = None

    def close(self):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- the machine -----------------------------------------------------

    def info(self):
        i = abi.kprofile_info()
        _ioctl(self.fd, "INFO", i)
        return Info.from_c(i)

    def info_ex(self):
        """The PMU's state now (available, busy, none) and why; raises
        KprofileError with ENOTTY from a module older than INFO_EX."""
        x = abi.kprofile_info_ex()
        _ioctl(self.fd, "INFO_EX", x)
        return InfoEx(Info.from_c(x.info), x.pmu_state,
                      abi.PMU_STATE_NAMES.get(x.pmu_state, "?"), x.flags,
                      x.amd_family, _text(x.amd_family_name), x.busy_mask,
                      x.counter_mask, _text(x.state_reason))

    def version(self):
        """The module's release (KPROFILE_IOC_VERSION); raises
        KprofileError with ENOTTY from a module older than it."""
        v = abi.kprofile_version()
        _ioctl(self.fd, "VERSION", v)
        return Version(v.abi_version, v.major, v.minor, v.patch,
                       _text(v.version))

    # --- sources ---------------------------------------------------------

    def sources(self):
        """EventTraceProfileSourceListInformation: every source of the
        running interface."""
        n = 256
        while True:
            arr = (abi.kprofile_source_info * n)()
            lst = abi.kprofile_source_list(count=n,
                                           entries=ctypes.addressof(arr))
            try:
                _ioctl(self.fd, "LIST_SOURCES", lst)
            except KprofileError as e:
                if e.errno == _errno.ENOSPC and lst.count > n:
                    n = lst.count
                    continue
                raise
            return [Source.from_c(s) for s in arr[:lst.count]]

    def source_id(self, source):
        """A source value from an int, a number string (hex or decimal) or
        a name as the module lists it, with or without the "Profile"
        prefix, case-insensitively."""
        if isinstance(source, int):
            return source
        text = source.strip()
        try:
            return int(text, 0)
        except ValueError:
            pass
        if self._names is None:
            self._names = {}
            for s in self.sources():
                self._names[s.name.lower()] = s.value
                if s.name.startswith("Profile"):
                    self._names.setdefault(s.name[7:].lower(), s.value)
        try:
            return self._names[text.lower()]
        except KeyError:
            raise KprofileError(_errno.EINVAL, "source_id",
                                "no source named %r on this interface"
                                % source) from None

    def query_source(self, source):
        """HalProfileSourceInformation for one source."""
        s = abi.kprofile_source_info(source=self.source_id(source))
        _ioctl(self.fd, "QUERY_SOURCE", s, lambda: _text(s.reason))
        return Source.from_c(s)

    def get_interval(self, source):
        """NtQueryIntervalProfile."""
        iv = abi.kprofile_interval(source=self.source_id(source))
        _ioctl(self.fd, "GET_INTERVAL", iv)
        return iv.interval

    def set_interval(self, source, interval):
        """NtSetIntervalProfile: returns the interval actually used."""
        iv = abi.kprofile_interval(source=self.source_id(source),
                                   interval=interval)
        _ioctl(self.fd, "SET_INTERVAL", iv)
        return iv.interval

    def schedule(self, sources):
        """Can these sources be armed together now, and on which
        counters?"""
        ids = [self.source_id(s) for s in sources]
        if len(ids) > abi.MAX_COUNTERS:
            raise KprofileError(_errno.EINVAL, "SCHEDULE",
                                "at most %d sources" % abi.MAX_COUNTERS)
        sc = abi.kprofile_schedule(nr_sources=len(ids))
        for i, v in enumerate(ids):
            sc.sources[i] = v
        _ioctl(self.fd, "SCHEDULE", sc, lambda: _text(sc.reason))
        return Schedule(bool(sc.flags & abi.SCHED_FITS), sc.busy_mask,
                        sc.num_counters,
                        [None if c == abi.NO_COUNTER else c
                         for c in sc.counters[:len(ids)]],
                        _text(sc.reason))

    # --- counters --------------------------------------------------------

    def reserve(self, descs=None, cpus=None):
        """HalAllocateHardwareCounters.  @descs: None (the whole PMU) or a
        list of (type, begin, end) tuples (abi.COUNTER_*)."""
        descs = descs or []
        darr = (abi.kprofile_counter_desc * max(len(descs), 1))()
        for i, (typ, begin, end) in enumerate(descs):
            darr[i].type, darr[i].begin, darr[i].end = typ, begin, end
        bitmap = _cpu_bitmap(cpus)
        r = abi.kprofile_reserve(nr_descs=len(descs),
                                 descs=ctypes.addressof(darr) if descs else 0)
        if bitmap is not None:
            r.cpus = ctypes.addressof(bitmap)
            r.cpus_size = ctypes.sizeof(bitmap)
        fd = _ioctl(self.fd, "RESERVE", r)
        return Reservation(fd, r.counter_mask)

    def set_hw_config(self, counters):
        """KeSetHardwareCounterConfiguration.  @counters: HwCounter, or
        source values / names.  Returns the counter index of each entry."""
        entries = [c if isinstance(c, HwCounter) else HwCounter(c)
                   for c in counters]
        cs = abi.kprofile_hw_config_set()
        if len(entries) > abi.MAX_COUNTERS:
            cs.config.count = len(entries)  # the module says EINVAL
        else:
            cs.config.count = len(entries)
            for i, e in enumerate(entries):
                c = cs.config.counters[i]
                c.type = abi.HW_COUNTER_PMC
                c.source = self.source_id(e.source)
                c.mode = e.mode
        _ioctl(self.fd, "SET_HW_CONFIG_EX", cs, lambda: _text(cs.reason))
        return [cs.config.counters[i].index for i in range(len(entries))]

    def query_hw_config(self):
        """KeQueryHardwareCounterConfiguration."""
        c = abi.kprofile_hw_config()
        _ioctl(self.fd, "QUERY_HW_CONFIG", c)
        return [HwCounter(e.source, e.mode, e.index)
                for e in c.counters[:c.count]]

    # --- profiles --------------------------------------------------------

    def create_profile(self, base, size, bucket_shift, source=0,
                       target=abi.TARGET_SELF, pid=0, mode=abi.MODE_TABLE,
                       cpus=None):
        """NtCreateProfileEx.  Returns a stopped Profile whose .buckets the
        module fills.  Raises ValueError, before any allocation, for a
        profile of more than MAX_BUCKETS buckets (bucket_count())."""
        nbuckets = bucket_count(size, bucket_shift)
        buckets = _bucket_buffer(nbuckets)
        bitmap = _cpu_bitmap(cpus)
        cp = abi.kprofile_create_profile(
            target=target, pid=pid, base=base, size=size,
            buffer=ctypes.addressof(buckets),
            buffer_size=ctypes.sizeof(buckets), bucket_shift=bucket_shift,
            source=self.source_id(source), mode=mode)
        if bitmap is not None:
            cp.cpus = ctypes.addressof(bitmap)
            cp.cpus_size = ctypes.sizeof(bitmap)
        try:
            fd = _ioctl(self.fd, "CREATE_PROFILE", cp)
        except KprofileError as e:
            if e.errno == _errno.EINVAL and not e.reason and \
                    not 2 <= bucket_shift <= 31:
                raise KprofileError(e.errno, e.request,
                                    "bucket_shift %d is outside 2..31 (buckets "
                                    "of 4 bytes to 2 GiB)" % bucket_shift) from None
            # EOPNOTSUPP: the source is not supported here; the module
            # says why in the source's own record.
            if e.errno != _errno.EOPNOTSUPP or e.reason:
                raise
            raise KprofileError(e.errno, e.request,
                                self._refusal(cp.source)) from None
        return Profile(fd, buckets, base, bucket_shift)

    def _refusal(self, source):
        """Why @source is unsupported here (the module's reason), or ""."""
        try:
            s = self.query_source(source)
        except KprofileError:
            return ""
        return "" if s.supported else "%s: %s" % (s.name, s.reason)

    # --- the sample stream -----------------------------------------------

    def create_stream(self, sources, target=abi.TARGET_SELF, pid=0,
                      flags=abi.STREAM_CALLCHAIN, mode=abi.MODE_USER,
                      max_frames=0, ring_pages=0, stack_bytes=0):
        """KPROFILE_IOC_CREATE_STREAM: a stopped Stream over @sources
        (values or names; one per interrupt of any of them) for @target
        (abi.TARGET_SELF, TARGET_PID with @pid, TARGET_SYSTEM).  @flags:
        abi.STREAM_CALLCHAIN (call stacks), abi.STREAM_INHERIT (the
        processes the target forks).  @mode: abi.MODE_USER by default
        (kernel-mode samples need CAP_PERFMON).  @max_frames, @ring_pages:
        0 for the module's defaults.  abi.STREAM_USER_STACK: each sample
        carries the user registers and @stack_bytes (0: 8 KiB) of user
        stack (Sample.regs, Sample.stack)."""
        from .stream import Stream
        ids = [self.source_id(s) for s in sources]
        arr = (ctypes.c_uint32 * max(len(ids), 1))(*ids)
        cs = abi.kprofile_create_stream(
            target=target, pid=pid, flags=flags, mode=mode,
            nr_sources=len(ids), max_frames=max_frames,
            sources=ctypes.addressof(arr), ring_pages=ring_pages,
            stack_bytes=stack_bytes)
        fd = _ioctl(self.fd, "CREATE_STREAM", cs)
        return Stream(fd)

    # --- thread profiling ------------------------------------------------

    def thread_enable(self, pid=0, inherit=False, counter_mask=None):
        """EnableThreadProfiling for thread @pid (0: the caller); with
        @inherit also the threads and processes it creates later.
        @counter_mask: configured entries to read (default: all)."""
        if counter_mask is None:
            counter_mask = (1 << abi.MAX_COUNTERS) - 1
        te = abi.kprofile_thread_enable(
            pid=pid, flags=abi.THREAD_INHERIT if inherit else 0,
            counter_mask=counter_mask)
        fd = _ioctl(self.fd, "THREAD_ENABLE", te)
        return ThreadProfile(fd, counter_mask)

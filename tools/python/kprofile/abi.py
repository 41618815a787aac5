# SPDX-License-Identifier: GPL-2.0
"""ctypes mirror of include/uapi/linux/kprofile.h (and kprofile_stream.h,
which it includes).

Field names and order are the C header's.  tests/test_layout.py compiles a
C program against the header and checks every size and offset here, every
request number, and that no uapi struct or ioctl is missing.
"""
import ctypes
from ctypes import c_char, c_int32, c_uint16, c_uint32, c_uint64

from ._ioc import _IO, _IOR, _IOW, _IOWR

ABI_VERSION = 1
DEVICE = "/dev/kprofile"

NAME_LEN = 64
REASON_LEN = 128
VENDOR_LEN = 16
MAX_COUNTERS = 16
NO_COUNTER = 0xFFFFFFFF
VERSION_LEN = 32

# enum kprofile_interface
INTERFACE_NONE = 0
INTERFACE_EMON = 1
INTERFACE_AMD64 = 2
INTERFACE_NAMES = {INTERFACE_NONE: "None", INTERFACE_EMON: "Emon",
                   INTERFACE_AMD64: "Amd64"}

# kprofile_info.flags
INFO_AMD_PERFMON_V2 = 1 << 0
INFO_HYPERVISOR = 1 << 1
INFO_X2APIC = 1 << 2

# enum kprofile_pmu_state (kprofile_info_ex.pmu_state)
PMU_NONE = 0
PMU_AVAILABLE = 1
PMU_BUSY = 2
PMU_STATE_NAMES = {PMU_NONE: "none", PMU_AVAILABLE: "available",
                   PMU_BUSY: "busy"}

# kprofile_info_ex.flags
INFO_EX_PERF_PMU = 1 << 0
INFO_EX_HYBRID = 1 << 1
INFO_EX_TSX_FORCE_ABORT = 1 << 2

# kprofile_source_info.flags
SOURCE_SUPPORTED = 1 << 0
SOURCE_TIMER = 1 << 1
SOURCE_GENERIC = 1 << 2
SOURCE_IN_TABLE = 1 << 3

SOURCE_TIME = 0x00  # ProfileTime
SOURCE_FIRST_SPECIFIC = 0x19

# enum kprofile_mode
MODE_TABLE = 0
MODE_USER = 1
MODE_KERNEL = 2
MODE_BOTH = 3

SCHED_FITS = 1 << 0

# enum kprofile_counter_desc_type
COUNTER_SINGLE = 1
COUNTER_RANGE = 2
COUNTER_OVERFLOW = 3
COUNTER_EVENT_BUFFER = 4

# enum kprofile_target
TARGET_SELF = 0
TARGET_PID = 1
TARGET_SYSTEM = 2

HW_COUNTER_PMC = 0

THREAD_INHERIT = 1 << 0
THREAD_COUNTERS_VALID = 1 << 0
THREAD_EXITED = 1 << 1
THREAD_EXEC_STOPPED = 1 << 2

PROFILE_EXEC_STOPPED = 1 << 0
PROFILE_BUFFER_LOST = 1 << 1

IOC_MAGIC = 0xBF

# <linux/kprofile_stream.h>: the sample stream
STREAM_MAX_SOURCES = 8
STREAM_MAX_FRAMES = 127
STREAM_DEFAULT_FRAMES = 64
STREAM_DEFAULT_PAGES = 16
STREAM_MAX_PAGES = 1024
COMM_LEN = 16
STREAM_DEFAULT_STACK = 8192
STREAM_MAX_STACK = 65528
USER_REGS = 17

STREAM_INHERIT = 1 << 0
# kprofile_stream_info.flags: the stream fd supports poll() with wake-ups
STREAM_INFO_POLL = 1 << 1
STREAM_CALLCHAIN = 1 << 1
STREAM_USER_STACK = 1 << 2

# enum kprofile_record_type
RECORD_PAD = 0
RECORD_SAMPLE = 1
RECORD_FORK = 2
RECORD_EXEC = 3
RECORD_EXIT = 4

SAMPLE_USER = 1 << 0
SAMPLE_TRUNCATED = 1 << 1
SAMPLE_STACK = 1 << 2
SAMPLE_STACK_SHORT = 1 << 3


class _Struct(ctypes.Structure):
    """A uapi struct: native x86-64 alignment, like the C compiler's."""

    def __repr__(self):
        parts = []
        for name, _ in self._fields_:
            val = getattr(self, name)
            if isinstance(val, bytes):
                val = val.decode(errors="replace")
            elif isinstance(val, ctypes.Array):
                val = list(val)
            parts.append("%s=%r" % (name, val))
        return "%s(%s)" % (type(self).__name__, ", ".join(parts))


class kprofile_info(_Struct):
    _fields_ = [
        ("abi_version", c_uint32),
        ("interface", c_uint32),
        ("perfmon_version", c_uint32),
        ("num_counters", c_uint32),
        ("counter_width", c_uint32),
        ("ebx_mask", c_uint32),
        ("ebx_length", c_uint32),
        ("num_cpus", c_uint32),
        ("num_possible_cpus", c_uint32),
        ("family", c_uint32),
        ("model", c_uint32),
        ("flags", c_uint32),
        ("reserved", c_uint32 * 4),
        ("vendor", c_char * VENDOR_LEN),
        ("reason", c_char * REASON_LEN),
    ]


class kprofile_info_ex(_Struct):
    _fields_ = [
        ("size", c_uint32),
        ("pmu_state", c_uint32),
        ("flags", c_uint32),
        ("amd_family", c_uint32),
        ("busy_mask", c_uint32),
        ("counter_mask", c_uint32),
        ("reserved", c_uint32 * 10),
        ("info", kprofile_info),
        ("state_reason", c_char * REASON_LEN),
        ("amd_family_name", c_char * 16),
    ]


class kprofile_version(_Struct):
    _fields_ = [
        ("size", c_uint32),
        ("abi_version", c_uint32),
        ("major", c_uint32),
        ("minor", c_uint32),
        ("patch", c_uint32),
        ("reserved", c_uint32 * 3),
        ("version", c_char * VERSION_LEN),
    ]


class kprofile_source_info(_Struct):
    _fields_ = [
        ("source", c_uint32),
        ("flags", c_uint32),
        ("interval", c_uint32),
        ("default_interval", c_uint32),
        ("min_interval", c_uint32),
        ("max_interval", c_uint32),
        ("select", c_uint32),
        ("ebx_bit", c_int32),
        ("reserved", c_uint32 * 2),
        ("name", c_char * NAME_LEN),
        ("reason", c_char * REASON_LEN),
    ]


class kprofile_source_list(_Struct):
    _fields_ = [
        ("count", c_uint32),
        ("flags", c_uint32),
        ("entries", c_uint64),
    ]


class kprofile_interval(_Struct):
    _fields_ = [
        ("source", c_uint32),
        ("interval", c_uint32),
    ]


class kprofile_schedule(_Struct):
    _fields_ = [
        ("nr_sources", c_uint32),
        ("flags", c_uint32),
        ("busy_mask", c_uint32),
        ("num_counters", c_uint32),
        ("sources", c_uint32 * MAX_COUNTERS),
        ("counters", c_uint32 * MAX_COUNTERS),
        ("reason", c_char * REASON_LEN),
    ]


class kprofile_counter_desc(_Struct):
    _fields_ = [
        ("type", c_uint32),
        ("flags", c_uint32),
        ("begin", c_uint32),
        ("end", c_uint32),
        ("reserved", c_uint64),
    ]


class kprofile_reserve(_Struct):
    _fields_ = [
        ("nr_descs", c_uint32),
        ("flags", c_uint32),
        ("descs", c_uint64),
        ("cpus", c_uint64),
        ("cpus_size", c_uint32),
        ("counter_mask", c_uint32),
        ("reserved", c_uint64 * 2),
    ]


class kprofile_create_profile(_Struct):
    _fields_ = [
        ("target", c_uint32),
        ("pid", c_int32),
        ("base", c_uint64),
        ("size", c_uint64),
        ("buffer", c_uint64),
        ("buffer_size", c_uint64),
        ("bucket_shift", c_uint32),
        ("source", c_uint32),
        ("mode", c_uint32),
        ("flags", c_uint32),
        ("cpus", c_uint64),
        ("cpus_size", c_uint32),
        ("reserved", c_uint32 * 5),
    ]


class kprofile_profile_stats(_Struct):
    _fields_ = [
        ("hits", c_uint64),
        ("outside", c_uint64),
        ("unavailable", c_uint64),
        ("wrong_mode", c_uint64),
        ("started", c_uint32),
        ("source", c_uint32),
        ("interval", c_uint32),
        ("reserved", c_uint32 * 5),
    ]


class kprofile_profile_stats_ex(_Struct):
    _fields_ = [
        ("stats", kprofile_profile_stats),
        ("flags", c_uint32),
        ("reserved0", c_uint32),
        ("not_dumpable", c_uint64),
        ("reserved", c_uint64 * 4),
    ]


class kprofile_start_result(_Struct):
    _fields_ = [
        ("reason", c_char * REASON_LEN),
        ("reserved", c_uint32 * 8),
    ]


class kprofile_hw_counter(_Struct):
    _fields_ = [
        ("type", c_uint32),
        ("source", c_uint32),
        ("index", c_uint32),
        ("mode", c_uint32),
    ]


class kprofile_hw_config(_Struct):
    _fields_ = [
        ("count", c_uint32),
        ("flags", c_uint32),
        ("counters", kprofile_hw_counter * MAX_COUNTERS),
    ]


class kprofile_hw_config_set(_Struct):
    _fields_ = [
        ("config", kprofile_hw_config),
        ("reason", c_char * REASON_LEN),
    ]


class kprofile_thread_enable(_Struct):
    _fields_ = [
        ("pid", c_int32),
        ("flags", c_uint32),
        ("counter_mask", c_uint32),
        ("reserved", c_uint32 * 5),
    ]


class kprofile_thread_data(_Struct):
    _fields_ = [
        ("size", c_uint32),
        ("version", c_uint32),
        ("flags", c_uint32),
        ("hw_counter_count", c_uint32),
        ("context_switches", c_uint64),
        ("cycle_time", c_uint64),
        ("threads", c_uint64),
        ("reserved", c_uint64),
        ("hw_counters", c_uint64 * MAX_COUNTERS),
        ("reason", c_char * REASON_LEN),
    ]


class kprofile_thread_entry(_Struct):
    _fields_ = [
        ("tid", c_int32),
        ("tgid", c_int32),
        ("flags", c_uint32),
        ("reserved", c_uint32),
        ("comm", c_char * 16),
        ("context_switches", c_uint64),
        ("cycle_time", c_uint64),
        ("hw_counters", c_uint64 * MAX_COUNTERS),
    ]


class kprofile_thread_list(_Struct):
    _fields_ = [
        ("count", c_uint32),
        ("flags", c_uint32),
        ("entries", c_uint64),
    ]


class kprofile_create_stream(_Struct):
    _fields_ = [
        ("target", c_uint32),
        ("pid", c_int32),
        ("flags", c_uint32),
        ("mode", c_uint32),
        ("nr_sources", c_uint32),
        ("max_frames", c_uint32),
        ("sources", c_uint64),
        ("ring_pages", c_uint32),
        ("stack_bytes", c_uint32),
        ("reserved", c_uint32 * 6),
    ]


class kprofile_stream_info(_Struct):
    _fields_ = [
        ("nr_rings", c_uint32),
        ("ring_pages", c_uint32),
        ("page_size", c_uint32),
        ("started", c_uint32),
        ("samples", c_uint64),
        ("lost", c_uint64),
        ("untracked", c_uint64),
        ("not_dumpable", c_uint64),
        ("flags", c_uint32),
        ("reserved0", c_uint32),
        ("stack_short", c_uint64),
        ("reserved", c_uint64 * 3),
    ]


class kprofile_stream_page(_Struct):
    _fields_ = [
        ("data_head", c_uint64),
        ("data_tail", c_uint64),
        ("data_offset", c_uint64),
        ("data_size", c_uint64),
        ("lost", c_uint64),
        ("records", c_uint64),
        ("cpu", c_uint32),
        ("reserved0", c_uint32),
        ("reserved", c_uint64 * 9),
    ]


class kprofile_record_header(_Struct):
    _fields_ = [
        ("type", c_uint32),
        ("size", c_uint32),
    ]


class kprofile_record_sample(_Struct):
    """The fixed part: frames[] (nr_kernel + nr_user __u64) follows."""
    _fields_ = [
        ("header", kprofile_record_header),
        ("time", c_uint64),
        ("cpu", c_uint32),
        ("pid", c_int32),
        ("tid", c_int32),
        ("source", c_uint32),
        ("ip", c_uint64),
        ("flags", c_uint32),
        ("nr_kernel", c_uint16),
        ("nr_user", c_uint16),
    ]


class kprofile_record_task(_Struct):
    _fields_ = [
        ("header", kprofile_record_header),
        ("time", c_uint64),
        ("cpu", c_uint32),
        ("pid", c_int32),
        ("tid", c_int32),
        ("ppid", c_int32),
        ("reserved", c_uint32 * 2),
        ("comm", c_char * COMM_LEN),
    ]


class kprofile_sample_stack(_Struct):
    """After a sample's frames with SAMPLE_STACK: data[size] follows."""
    _fields_ = [
        ("regs", c_uint64 * USER_REGS),
        ("size", c_uint32),
        ("reserved", c_uint32),
    ]


# Every uapi struct, by its C name (the layout test walks this).
STRUCTS = {cls.__name__: cls for cls in (
    kprofile_info, kprofile_info_ex, kprofile_version, kprofile_source_info,
    kprofile_source_list,
    kprofile_interval, kprofile_schedule, kprofile_counter_desc,
    kprofile_reserve, kprofile_create_profile, kprofile_profile_stats,
    kprofile_profile_stats_ex, kprofile_start_result,
    kprofile_hw_counter, kprofile_hw_config, kprofile_hw_config_set,
    kprofile_thread_enable, kprofile_thread_data, kprofile_thread_entry,
    kprofile_thread_list, kprofile_create_stream, kprofile_stream_info,
    kprofile_stream_page, kprofile_record_header, kprofile_record_sample,
    kprofile_record_task, kprofile_sample_stack)}

# Every request, by its C macro name without the KPROFILE_ prefix.
IOC_INFO = _IOR(IOC_MAGIC, 0x00, kprofile_info)
IOC_QUERY_SOURCE = _IOWR(IOC_MAGIC, 0x01, kprofile_source_info)
IOC_LIST_SOURCES = _IOWR(IOC_MAGIC, 0x02, kprofile_source_list)
IOC_SET_INTERVAL = _IOWR(IOC_MAGIC, 0x03, kprofile_interval)
IOC_GET_INTERVAL = _IOWR(IOC_MAGIC, 0x04, kprofile_interval)
IOC_SCHEDULE = _IOWR(IOC_MAGIC, 0x05, kprofile_schedule)
IOC_RESERVE = _IOWR(IOC_MAGIC, 0x06, kprofile_reserve)
IOC_CREATE_PROFILE = _IOW(IOC_MAGIC, 0x07, kprofile_create_profile)
IOC_SET_HW_CONFIG = _IOW(IOC_MAGIC, 0x08, kprofile_hw_config)
IOC_QUERY_HW_CONFIG = _IOR(IOC_MAGIC, 0x09, kprofile_hw_config)
IOC_THREAD_ENABLE = _IOW(IOC_MAGIC, 0x0A, kprofile_thread_enable)
IOC_SET_HW_CONFIG_EX = _IOWR(IOC_MAGIC, 0x0B, kprofile_hw_config_set)
IOC_INFO_EX = _IOR(IOC_MAGIC, 0x0C, kprofile_info_ex)
IOC_VERSION = _IOR(IOC_MAGIC, 0x0D, kprofile_version)
IOC_CREATE_STREAM = _IOW(IOC_MAGIC, 0x0E, kprofile_create_stream)
IOC_START = _IO(IOC_MAGIC, 0x40)
IOC_STOP = _IO(IOC_MAGIC, 0x41)
IOC_PROFILE_STATS = _IOR(IOC_MAGIC, 0x42, kprofile_profile_stats)
IOC_PROFILE_STATS_EX = _IOR(IOC_MAGIC, 0x43, kprofile_profile_stats_ex)
IOC_START_EX = _IOR(IOC_MAGIC, 0x44, kprofile_start_result)
IOC_STREAM_INFO = _IOR(IOC_MAGIC, 0x50, kprofile_stream_info)
IOC_THREAD_READ = _IOR(IOC_MAGIC, 0x60, kprofile_thread_data)
IOC_THREAD_LIST = _IOWR(IOC_MAGIC, 0x61, kprofile_thread_list)

IOCTLS = {name[len("IOC_"):]: val for name, val in globals().items()
          if name.startswith("IOC_") and name != "IOC_MAGIC"}

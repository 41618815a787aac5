# SPDX-License-Identifier: GPL-2.0
"""kprofile.stream: the ring reader over a synthetic ring laid out as
<linux/kprofile_stream.h> says (host), and a real stream against the
module (where /dev/kprofile exists; the guest runs it).
"""
import errno
import os
import struct
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import kprofile  # noqa: E402
from kprofile import abi  # noqa: E402
from kprofile.stream import Ring, Sample, Task, decode_record  # noqa: E402

PAGE = 4096
DEV = os.environ.get("KPROFILE_DEVICE", abi.DEVICE)


def enc_sample(t, frames, nr_kernel=0, pid=100, flags=abi.SAMPLE_USER):
    size = 48 + 8 * len(frames)
    return struct.pack("<IIQIiiIQIHH", abi.RECORD_SAMPLE, size, t, 1, pid,
                       pid + 1, 0, frames[0] if frames else 0, flags,
                       nr_kernel, len(frames) - nr_kernel) + \
        struct.pack("<%dQ" % len(frames), *frames)


def enc_task(rtype, t, pid, ppid, comm):
    return struct.pack("<IIQIiii8x16s", rtype, 56, t, 0, pid, pid, ppid,
                       comm.encode()[:15])


def enc_pad(size):
    return struct.pack("<II", abi.RECORD_PAD, size) + bytes(size - 8)


class FakeRing:
    """A producer that writes as the module does: a PAD where a record
    would wrap, a drop counted in @lost when it does not fit."""

    def __init__(self, data_pages=1):
        self.buf = bytearray((1 + data_pages) * PAGE)
        self.page = abi.kprofile_stream_page.from_buffer(self.buf, 0)
        self.page.data_offset = PAGE
        self.page.data_size = data_pages * PAGE
        self.page.cpu = 1
        self.pending = 0

    def write(self, rec):
        size = self.page.data_size
        off = self.pending % size
        pad = size - off if off + len(rec) > size else 0
        if self.pending + pad + len(rec) - self.page.data_tail > size:
            self.page.lost += 1
            return False
        if pad:
            self.buf[PAGE + off:PAGE + off + pad] = enc_pad(pad)
            self.pending += pad
        off = self.pending % size
        self.buf[PAGE + off:PAGE + off + len(rec)] = rec
        self.pending += len(rec)
        return True

    def raw(self, data):
        off = self.pending % self.page.data_size
        self.buf[PAGE + off:PAGE + off + len(data)] = data
        self.pending += len(data)

    def publish(self):
        self.page.data_head = self.pending

    def reader(self):
        return Ring(self.buf, 0, len(self.buf))


class RingTest(unittest.TestCase):
    def test_decodes_samples_and_tasks(self):
        r = FakeRing()
        r.write(enc_task(abi.RECORD_FORK, 1, 200, 100, "sh"))
        r.write(enc_sample(2, [0xffffffff81000000, 0x401000, 0x402000], 1))
        r.publish()
        recs = list(r.reader().records())
        self.assertIsInstance(recs[0], Task)
        self.assertEqual((recs[0].kind, recs[0].ppid, recs[0].comm),
                         ("fork", 100, "sh"))
        s = recs[1]
        self.assertIsInstance(s, Sample)
        self.assertEqual(s.kernel_frames, [0xffffffff81000000])
        self.assertEqual(s.user_frames, [0x401000, 0x402000])
        self.assertTrue(s.user)
        self.assertEqual(r.page.data_tail, r.page.data_head)

    def test_wraps_through_a_pad(self):
        r = FakeRing()
        ring = r.reader()
        for i in range(73):             # 56 bytes each: up to byte 4088
            self.assertTrue(r.write(enc_sample(i, [0x1000 + i])))
        r.publish()
        self.assertEqual(len(list(ring.records())), 73)
        r.write(enc_sample(73, [0x1073]))
        r.write(enc_sample(74, [0x1074]))
        r.publish()
        self.assertEqual(r.page.data_head, 4096 + 112)
        got = list(ring.records())
        self.assertEqual([s.time for s in got], [73, 74])
        self.assertFalse(ring.broken, ring.error)

    def test_partial_consumption_frees_what_was_read(self):
        r = FakeRing()
        ring = r.reader()
        for i in range(3):
            r.write(enc_sample(i, [i + 1]))
        r.publish()
        it = ring.records()
        next(it)
        self.assertEqual(r.page.data_tail, 56)
        del it
        self.assertEqual([s.time for s in ring.records()], [1, 2])

    def test_unpublished_records_wait(self):
        r = FakeRing()
        ring = r.reader()
        r.write(enc_sample(1, [1]))
        r.publish()
        r.write(enc_sample(2, [2]))
        self.assertEqual(len(list(ring.records())), 1)
        r.publish()
        self.assertEqual(len(list(ring.records())), 1)

    def test_lost_is_counted(self):
        r = FakeRing()
        ring = r.reader()
        written = sum(r.write(enc_sample(i, [1, 2, 3])) for i in range(100))
        r.publish()
        self.assertEqual(written, 4096 // 72)
        self.assertEqual(ring.lost, 100 - written)
        self.assertEqual(len(list(ring.records())), written)
        self.assertTrue(r.write(enc_sample(100, [1])))

    def test_corrupt_size_stops_the_ring(self):
        r = FakeRing()
        ring = r.reader()
        r.write(enc_sample(1, [1]))
        bad = bytearray(enc_sample(2, [2]))
        struct.pack_into("<I", bad, 4, 52)
        r.raw(bytes(bad))
        r.write(enc_sample(3, [3]))
        r.publish()
        self.assertEqual([s.time for s in ring.records()], [1])
        self.assertTrue(ring.broken)
        self.assertIn("size 52", ring.error)
        self.assertEqual(r.page.data_tail, 56)
        self.assertEqual(list(ring.records()), [])

    def test_zero_size_does_not_loop(self):
        r = FakeRing()
        ring = r.reader()
        r.raw(bytes(16))
        r.publish()
        self.assertEqual(list(ring.records()), [])
        self.assertTrue(ring.broken)

    def test_unknown_type_is_skipped(self):
        r = FakeRing()
        ring = r.reader()
        r.raw(struct.pack("<II", 77, 24) + bytes(16))
        r.write(enc_sample(5, [5]))
        r.publish()
        self.assertEqual([s.time for s in ring.records()], [5])
        self.assertEqual(ring.unknown, 1)

    def test_user_stack_after_the_frames(self):
        regs = list(range(100, 100 + abi.USER_REGS))
        stack = bytes(range(1, 20))
        body = struct.pack("<%dQII" % abi.USER_REGS, *regs, len(stack), 0) + \
            stack + bytes(-len(stack) % 8)
        b = bytearray(enc_sample(1, [7, 8], flags=abi.SAMPLE_USER |
                                 abi.SAMPLE_STACK) + body)
        struct.pack_into("<I", b, 4, len(b))
        size, s = decode_record(b, 0, len(b))
        self.assertEqual(size, len(b))
        self.assertEqual(s.frames, [7, 8])
        self.assertEqual(s.regs, regs)
        self.assertEqual(s.stack, stack)
        # A copy claimed longer than the record: refused.
        struct.pack_into("<I", b, 48 + 16 + 8 * abi.USER_REGS, 40)
        with self.assertRaises(kprofile.RecordError):
            decode_record(b, 0, len(b))

    def test_frames_beyond_the_size_are_refused(self):
        b = bytearray(enc_sample(1, [1, 2]))
        struct.pack_into("<H", b, 46, 60)
        with self.assertRaises(kprofile.RecordError):
            decode_record(b, 0, len(b))


class StreamDeviceTest(unittest.TestCase):
    """A real stream of this process with ProfileTime."""

    def setUp(self):
        if not os.path.exists(DEV):
            self.skipTest("%s missing: kprofile.ko is not loaded" % DEV)
        self.dev = kprofile.Device(DEV)

    def tearDown(self):
        self.dev.close()

    def test_self_samples_with_call_stacks(self):
        try:
            st = self.dev.create_stream(["ProfileTime"])
        except kprofile.KprofileError as e:
            if e.errno == errno.ENOTTY:
                self.skipTest("module lacks %s" % e.request)
            raise
        with st:
            st.start()
            samples = []
            end = time.monotonic() + 1.0
            while time.monotonic() < end:
                sum(i * i for i in range(20000))
                samples.extend(st.samples())
            st.stop()
            samples.extend(st.samples())
            info = st.info()
            problems = st.problems
        self.assertGreater(len(samples), 10, "ProfileTime sampled this process")
        self.assertTrue(all(s.pid == os.getpid() for s in samples))
        self.assertTrue(all(s.user for s in samples), "user mode only")
        self.assertTrue(all(s.frames and s.frames[0] == s.ip for s in samples),
                        "with CALLCHAIN the stack starts at the ip")
        self.assertEqual(info.lost, 0)
        self.assertEqual(problems, [])

    def test_self_samples_with_user_stacks(self):
        try:
            st = self.dev.create_stream(
                ["ProfileTime"], flags=abi.STREAM_USER_STACK, ring_pages=256)
        except kprofile.KprofileError as e:
            if e.errno in (errno.ENOTTY, errno.EINVAL):
                self.skipTest("module lacks USER_STACK (%s)" % e)
            raise
        with st:
            st.start()
            samples = []
            end = time.monotonic() + 1.0
            while time.monotonic() < end:
                sum(i * i for i in range(2000))
                samples.extend(st.samples())
            st.stop()
            samples.extend(st.samples())
            info = st.info()
        with open("/proc/self/maps") as f:
            stack = [tuple(int(x, 16) for x in line.split()[0].split("-"))
                     for line in f if line.rstrip().endswith("[stack]")]
        self.assertGreater(len(samples), 10, "ProfileTime sampled this process")
        short = 0
        for s in samples:
            self.assertTrue(s.flags & abi.SAMPLE_STACK, "every sample has one")
            self.assertEqual(len(s.regs), abi.USER_REGS)
            self.assertEqual(s.regs[16], s.ip, "rip is the sampled ip")
            lo, hi = stack[0]
            self.assertTrue(lo <= s.regs[7] < hi, "rsp is on the stack")
            # The copy goes from rsp to the top of the stack at most.
            self.assertEqual(len(s.stack), min(abi.STREAM_DEFAULT_STACK,
                                               hi - s.regs[7]))
            self.assertTrue(any(s.stack), "the copy holds the stack")
            if s.flags & abi.SAMPLE_STACK_SHORT:
                short += 1
                self.assertLess(len(s.stack), abi.STREAM_DEFAULT_STACK)
        # Samples lost to a full ring (8 KiB each: a slow guest fills
        # even these rings between two drains) are not in stack_short.
        self.assertEqual(info.stack_short, short)


if __name__ == "__main__":
    unittest.main()

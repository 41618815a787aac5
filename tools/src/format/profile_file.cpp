// SPDX-License-Identifier: GPL-2.0
// profile_file.cpp - read and write the record file (docs/record-format.md).
#include "profile_file.h"
#include "unique_fd.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "crc32.h"
#include "json_field.h"
#include "sample_file.h"

namespace kprofile::record {

static_assert(std::endian::native == std::endian::little,
	      "the record file stores little-endian integers");

using nlohmann::json;

namespace {

constexpr std::size_t kPreambleSize = 8 + 4 + 4 + 8;
constexpr std::uint64_t kMaxSparseBuckets = 1ULL << 28;

void put_le(std::string &out, std::uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::uint64_t get_le(const std::string &in, std::size_t off, int bytes)
{
	std::uint64_t v = 0;

	for (int i = bytes - 1; i >= 0; i--)
		v = (v << 8) | static_cast<unsigned char>(in[off + i]);
	return v;
}

json machine_to_json(const MachineRecord &m)
{
	return {{"abi_version", m.abi_version}, {"interface", m.interface},
		{"vendor", m.vendor}, {"family", m.family}, {"model", m.model},
		{"perfmon_version", m.perfmon_version},
		{"num_counters", m.num_counters}, {"counter_width", m.counter_width},
		{"num_cpus", m.num_cpus}, {"reason", m.reason},
		{"kernel_release", m.kernel_release}};
}

MachineRecord machine_from_json(const json &j)
{
	MachineRecord m;

	m.abi_version = json_field_or<std::uint32_t>(j, "abi_version", 0);
	m.interface = json_field_or<std::string>(j, "interface", "");
	m.vendor = json_field_or<std::string>(j, "vendor", "");
	m.family = json_field_or<std::uint32_t>(j, "family", 0);
	m.model = json_field_or<std::uint32_t>(j, "model", 0);
	m.perfmon_version = json_field_or<std::uint32_t>(j, "perfmon_version", 0);
	m.num_counters = json_field_or<std::uint32_t>(j, "num_counters", 0);
	m.counter_width = json_field_or<std::uint32_t>(j, "counter_width", 0);
	m.num_cpus = json_field_or<std::uint32_t>(j, "num_cpus", 0);
	m.reason = json_field_or<std::string>(j, "reason", "");
	m.kernel_release = json_field_or<std::string>(j, "kernel_release", "");
	return m;
}

std::uint64_t count_nonzero(const std::vector<std::uint32_t> &buckets)
{
	std::uint64_t n = 0;

	for (std::uint32_t b : buckets)
		n += b != 0;
	return n;
}

// Where a range's buckets lie in the data area: version 1 stores every
// bucket (dense); version 2 says per range, "dense" or "sparse"
// (ascending (index, count) pairs of the non-zero buckets).
struct RangeData {
	std::uint64_t offset = 0, bytes = 0, buckets = 0, nonzero = 0;
	bool sparse = false;
};

RangeData range_data(const json &r, std::uint32_t version)
{
	RangeData rd;
	const std::string enc = version >= 2 ? json_field<std::string>(r, "encoding") : "dense";

	rd.buckets = json_field<std::uint64_t>(r, "buckets");
	rd.offset = json_field<std::uint64_t>(r, "data_offset");
	if (enc != "dense" && enc != "sparse")
		throw FormatError("record file: unknown bucket encoding \"" + enc + "\"");
	rd.sparse = enc == "sparse";
	if (rd.sparse)
		rd.nonzero = json_field<std::uint64_t>(r, "nonzero");
	// A sparse range expands to n counters: bound n (a hostile file
	// could claim 2^64), at 2^28 counters (1 GiB), more than any
	// profile's buffer can be (it is pinned memory).
	if ((rd.sparse && rd.nonzero > rd.buckets) || rd.buckets > kMaxSparseBuckets)
		throw FormatError("record file: a range of " + std::to_string(rd.buckets) +
				  " buckets is larger than any profile can be");
	rd.bytes = rd.sparse ? rd.nonzero * 8 : rd.buckets * 4;
	return rd;
}

// A range's buckets from its whole data at @p; the result is dense.
void read_buckets(RangeRecord &rr, const RangeData &rd, const char *p)
{
	const std::string s(p, rd.bytes);

	if (!rd.sparse) {
		rr.buckets.resize(rd.buckets);
		for (std::uint64_t i = 0; i < rd.buckets; i++)
			rr.buckets[i] = static_cast<std::uint32_t>(get_le(s, i * 4, 4));
		return;
	}
	rr.buckets.assign(rd.buckets, 0);
	std::uint64_t prev = 0;
	for (std::uint64_t i = 0; i < rd.nonzero; i++) {
		const std::uint64_t idx = get_le(s, i * 8, 4);
		if (idx >= rd.buckets || (i && idx <= prev))
			throw FormatError("record file is corrupted: a sparse bucket index is out of "
					  "order or range");
		rr.buckets[idx] = static_cast<std::uint32_t>(get_le(s, i * 8 + 4, 4));
		prev = idx;
	}
}

} // namespace

const char *range_kind_name(RangeKind kind)
{
	switch (kind) {
	case RangeKind::Object:
		return "object";
	case RangeKind::Kernel:
		return "kernel";
	case RangeKind::CatchAll:
		return "catchall";
	}
	return "object";
}

std::optional<RangeKind> range_kind_from_name(const std::string &name)
{
	if (name == "object")
		return RangeKind::Object;
	if (name == "kernel")
		return RangeKind::Kernel;
	if (name == "catchall")
		return RangeKind::CatchAll;
	return std::nullopt;
}

namespace {

// The file's bytes in order: the preamble and header, the bucket data,
// and the sample section, whose stack copies stay where they lie in @data
// (sample_file.h): write_file() writes them from there, with no copy of
// the whole file in memory.
struct FileImage {
	std::string head;
	std::string buckets;
	SampleSection samples;
};

FileImage file_image(const ProfileData &data)
{
	json header;
	std::uint64_t data_offset = 0;

	header["format"] = "kprofile-record";
	header["version"] = kFileVersion;
	header["machine"] = machine_to_json(data.machine);
	header["target"] = data.target;
	header["pid"] = data.pid;
	header["command"] = data.command;
	header["start_time"] = data.start_time;
	header["duration_ns"] = data.duration_ns;
	header["sources"] = json::array();
	for (const auto &s : data.sources)
		header["sources"].push_back({{"value", s.value}, {"name", s.name},
					     {"interval", s.interval}, {"timer", s.timer}});
	header["objects"] = json::array();
	for (const auto &o : data.objects)
		header["objects"].push_back({{"path", o.path}, {"build_id", o.build_id}});
	header["ranges"] = json::array();
	std::string bucket_bytes;
	for (const auto &r : data.ranges) {
		const std::uint64_t nonzero = count_nonzero(r.buckets);
		// Sparse when that is smaller: (index, count) pairs of the
		// non-zero buckets.  A kernel or catch-all range is mostly
		// zeros; a hot object's range may not be.
		const bool sp = nonzero * 8 < r.buckets.size() * 4 &&
				r.buckets.size() <= 0xffffffffULL;
		const std::size_t start = bucket_bytes.size();
		for (std::size_t b = 0; b < r.buckets.size(); b++) {
			if (!sp) {
				put_le(bucket_bytes, r.buckets[b], 4);
			} else if (r.buckets[b]) {
				put_le(bucket_bytes, b, 4);
				put_le(bucket_bytes, r.buckets[b], 4);
			}
		}
		json range = {
			{"kind", range_kind_name(r.kind)}, {"source", r.source},
			{"base", r.base}, {"size", r.size},
			{"bucket_shift", r.bucket_shift}, {"mode", r.mode},
			{"object", r.object}, {"file_offset", r.file_offset},
			{"hits", r.hits}, {"outside", r.outside},
			{"unavailable", r.unavailable}, {"wrong_mode", r.wrong_mode},
			{"buckets", r.buckets.size()}, {"data_offset", data_offset},
			{"encoding", sp ? "sparse" : "dense"}, {"nonzero", nonzero},
			{"crc32", crc32(0, bucket_bytes.data() + start, bucket_bytes.size() - start)},
		};
		if (r.pid)
			range["pid"] = r.pid;
		header["ranges"].push_back(std::move(range));
		data_offset = bucket_bytes.size();
	}
	header["kernel_symbols"] = json::array();
	for (const auto &k : data.kernel_symbols)
		header["kernel_symbols"].push_back({{"addr", k.addr}, {"size", k.size},
						    {"name", k.name}, {"module", k.module}});
	if (!data.processes.empty()) {
		header["processes"] = json::array();
		for (const auto &p : data.processes)
			header["processes"].push_back({{"pid", p.pid}, {"ppid", p.ppid},
						       {"comm", p.comm}});
	}
	// The sample section follows the bucket data (version 3).
	FileImage im;
	if (data.samples.present) {
		im.samples = sample_section(data.samples);
		header["samples"] = samples_header(data.samples, data_offset, im.samples);
		header["samples"]["crc32"] = im.samples.crc;
	}

	std::string text = header.dump();
	// Pad the header so the bucket data is 4-byte aligned.
	while ((kPreambleSize + text.size()) % 4)
		text.push_back(' ');

	im.head.assign(kFileMagic, sizeof(kFileMagic));
	put_le(im.head, kFileVersion, 4);
	put_le(im.head, 0, 4);
	put_le(im.head, text.size(), 8);
	im.head += text;
	im.buckets = std::move(bucket_bytes);
	return im;
}

} // namespace

std::string serialize(const ProfileData &data)
{
	const FileImage im = file_image(data);
	std::string out;

	out.reserve(im.head.size() + im.buckets.size() + im.samples.size);
	out += im.head;
	out += im.buckets;
	im.samples.append_to(out);
	return out;
}

namespace {

std::string bytes_text(std::uint64_t n)
{
	return n == 1 ? "1 byte" : std::to_string(n) + " bytes";
}

// Whether @j's "crc32" (absent in older files) matches.
bool crc_ok(const json &j, const char *p, std::uint64_t len)
{
	const auto it = j.find("crc32");

	return it == j.end() || !it->is_number_unsigned() ||
	       it->get<std::uint64_t>() == crc32(0, p, static_cast<std::size_t>(len));
}

} // namespace

ProfileData parse(const std::string &bytes)
{
	ProfileData data;

	if (bytes.size() < kPreambleSize) {
		if (bytes.size() >= 8 && std::memcmp(bytes.data(), kFileMagic, 8) == 0)
			throw FormatError("record file is truncated: it ends after " +
					  bytes_text(bytes.size()) + ", inside its preamble; "
					  "nothing of it can be read");
		throw FormatError("not a kprofile record file (bad magic)");
	}
	if (std::memcmp(bytes.data(), kFileMagic, 8) != 0)
		throw FormatError("not a kprofile record file (bad magic)");
	data.version = static_cast<std::uint32_t>(get_le(bytes, 8, 4));
	if (data.version == 0)
		throw FormatError("record file version 0 does not exist: the file is corrupted");
	if (data.version > kFileVersion)
		throw FormatError("record file version " + std::to_string(data.version) +
				  " is newer than this kprofile understands (" +
				  std::to_string(kFileVersion) + "); upgrade kprofile");
	std::uint64_t header_len = get_le(bytes, 16, 8);
	if (header_len > bytes.size() - kPreambleSize)
		throw FormatError("record file is truncated inside its header (the file holds " +
				  bytes_text(bytes.size() - kPreambleSize) + " of its " +
				  bytes_text(header_len) + "): nothing of it can be read");

	json header;
	try {
		header = json::parse(bytes.substr(kPreambleSize, header_len));
	} catch (const json::exception &e) {
		throw FormatError(std::string("record file is corrupted: its header is not valid "
					      "JSON (") + e.what() + ")");
	}
	if (!header.is_object() ||
	    json_field_or<std::string>(header, "format", "") != "kprofile-record")
		throw FormatError("record file header does not describe a kprofile record");

	const std::size_t data_start = kPreambleSize + header_len;
	const std::uint64_t data_len = bytes.size() - data_start;

	data.machine = machine_from_json(json_field_or<json>(header, "machine", json::object()));
	data.target = json_field_or<std::string>(header, "target", "");
	data.pid = json_field_or<std::int64_t>(header, "pid", 0);
	data.command = json_field_or<std::vector<std::string>>(header, "command", {});
	data.start_time = json_field_or<std::uint64_t>(header, "start_time", 0);
	data.duration_ns = json_field_or<std::uint64_t>(header, "duration_ns", 0);
	for (const auto &s : json_field<json>(header, "sources"))
		data.sources.push_back({json_field<std::uint32_t>(s, "value"),
					json_field<std::string>(s, "name"),
					json_field<std::uint32_t>(s, "interval"),
					json_field_or<bool>(s, "timer", false)});
	for (const auto &o : json_field<json>(header, "objects"))
		data.objects.push_back({json_field<std::string>(o, "path"),
					json_field_or<std::string>(o, "build_id", "")});

	// The data area is laid out back to back, in header order: every
	// range's buckets, then the samples.  A header that says otherwise
	// is corrupted; a whole layout that runs past the end of the file is
	// a file cut short, whose whole ranges are still read (perf reads
	// what it can of a truncated perf.data too).
	std::uint64_t end = 0, cut_ranges = 0, cut_hits = 0, nranges = 0;
	for (const auto &r : json_field<json>(header, "ranges")) {
		RangeRecord rr;
		auto kind = range_kind_from_name(json_field<std::string>(r, "kind"));

		if (!kind)
			throw FormatError("record file: unknown range kind");
		rr.kind = *kind;
		rr.source = json_field<std::uint32_t>(r, "source");
		rr.base = json_field<std::uint64_t>(r, "base");
		rr.size = json_field<std::uint64_t>(r, "size");
		rr.bucket_shift = json_field<std::uint32_t>(r, "bucket_shift");
		rr.mode = json_field_or<std::uint32_t>(r, "mode", 0);
		rr.object = json_field_or<int>(r, "object", -1);
		rr.file_offset = json_field_or<std::uint64_t>(r, "file_offset", 0);
		rr.hits = json_field_or<std::uint64_t>(r, "hits", 0);
		rr.outside = json_field_or<std::uint64_t>(r, "outside", 0);
		rr.unavailable = json_field_or<std::uint64_t>(r, "unavailable", 0);
		rr.wrong_mode = json_field_or<std::uint64_t>(r, "wrong_mode", 0);
		rr.pid = json_field_or<std::int64_t>(r, "pid", 0);
		if (rr.bucket_shift < 2 || rr.bucket_shift > 31)
			throw FormatError("record file: bucket_shift out of range");
		if (rr.object < -1 || rr.object >= static_cast<int>(data.objects.size()))
			throw FormatError("record file: range refers to a missing object");
		const RangeData rd = range_data(r, data.version);
		if (rd.offset != end)
			throw FormatError("record file is corrupted: range " + std::to_string(nranges) +
					  "'s bucket data is said to start at byte " +
					  std::to_string(rd.offset) + " of the data, not at " +
					  std::to_string(end) + " where the one before ends");
		end += rd.bytes;
		nranges++;
		if (end > data_len) {
			cut_ranges++;
			cut_hits += rr.hits;
			continue;
		}
		const char *p = bytes.data() + data_start + rd.offset;
		if (!crc_ok(r, p, rd.bytes))
			throw FormatError("record file is corrupted: the bucket data of range " +
					  std::to_string(nranges - 1) + " (" +
					  (rr.object >= 0 ? data.objects[rr.object].path :
					   std::string(range_kind_name(rr.kind))) +
					  ") does not match its checksum");
		read_buckets(rr, rd, p);
		data.ranges.push_back(std::move(rr));
	}
	for (const auto &k : json_field_or<json>(header, "kernel_symbols", json::array()))
		data.kernel_symbols.push_back({json_field<std::uint64_t>(k, "addr"),
					       json_field_or<std::uint64_t>(k, "size", 0),
					       json_field<std::string>(k, "name"),
					       json_field_or<std::string>(k, "module", "")});
	for (const auto &p : json_field_or<json>(header, "processes", json::array()))
		data.processes.push_back({json_field<std::int64_t>(p, "pid"),
					  json_field_or<std::int64_t>(p, "ppid", 0),
					  json_field_or<std::string>(p, "comm", "")});
	const bool has_samples = data.version >= 3 && header.contains("samples");
	std::uint64_t sample_len = 0;
	if (has_samples) {
		const json &sj = header["samples"];
		const auto off = sj.is_object() ? json_field_or<std::uint64_t>(sj, "data_offset", 0) : 0;
		sample_len = sj.is_object() ? json_field_or<std::uint64_t>(sj, "bytes", 0) : 0;
		if (off != end)
			throw FormatError("record file is corrupted: its samples are said to start at "
					  "byte " + std::to_string(off) + " of the data, not at " +
					  std::to_string(end) + " where the bucket data ends");
		if (end <= data_len && sample_len <= data_len - end) {
			if (!crc_ok(sj, bytes.data() + data_start + off, sample_len))
				throw FormatError("record file is corrupted: its samples (call stacks) "
						  "do not match their checksum");
			try {
				data.samples = parse_samples(sj, bytes, data_start, data_len,
							     data.objects.size());
			} catch (const FormatError &e) {
				// The section is whole: a bad record in it is
				// damage, not a cut.
				const std::string m = e.what();
				throw FormatError(m.rfind("record file: ", 0) == 0 ?
						  "record file is corrupted: " + m.substr(13) : m);
			}
		}
		// A length no file can have is damage, not a cut.
		if (sample_len > (1ULL << 48))
			throw FormatError("record file is corrupted: its samples are said to be " +
					  std::to_string(sample_len) + " bytes long");
		end += sample_len;
	}
	if (end > data_len) {
		std::string lost;
		if (cut_ranges)
			lost = std::to_string(cut_ranges) + " of its " + std::to_string(nranges) +
			       " bucket ranges (" + std::to_string(cut_hits) + " hits)";
		if (has_samples)
			lost += std::string(lost.empty() ? "" : " and ") + "its samples (call stacks)";
		data.damage = "the file is truncated: the last " + bytes_text(end - data_len) +
			      " of its " + bytes_text(data_start + end) + " are missing, so " + lost + " are left out; " +
			      (cut_ranges ? "the other ranges are whole" :
					    "its bucket profile is whole");
	}
	return data;
}

std::string process_comm(const ProfileData &data, std::int64_t pid)
{
	for (const auto &p : data.processes)
		if (p.pid == pid)
			return p.comm;
	return "";
}

bool holds_kernel_addresses(const ProfileData &data)
{
	if (!data.kernel_symbols.empty())
		return true;
	for (const auto &r : data.ranges)
		if (r.kind == RangeKind::Kernel || (r.base >> 63) ||
		    ((r.base + r.size - 1) >> 63))
			return true;
	for (const auto &s : data.samples.samples)
		if (s.nr_kernel || (s.ip >> 63))
			return true;
	return false;
}

namespace {

// The process's umask, without changing it.
mode_t current_umask()
{
	const mode_t m = ::umask(0);

	::umask(m);
	return m;
}

// Removes the temporary file unless released (the rename happened).
struct TmpFile {
	std::string path;
	UniqueFd fd;
	bool keep = false;
	~TmpFile()
	{
		if (!keep && !path.empty())
			::unlink(path.c_str());
	}
};

// Write all of @iov to @fd (a short write goes on where it stopped).
void write_iov(int fd, std::vector<iovec> &iov, const std::string &name)
{
	std::size_t i = 0;

	while (i < iov.size()) {
		const int cnt = static_cast<int>(std::min<std::size_t>(iov.size() - i, IOV_MAX));
		ssize_t n = ::writev(fd, iov.data() + i, cnt);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			throw FormatError("cannot write " + name + ": " + std::strerror(errno));
		for (auto done = static_cast<std::size_t>(n); done && i < iov.size();) {
			const std::size_t k = std::min(done, iov[i].iov_len);
			iov[i].iov_base = static_cast<char *>(iov[i].iov_base) + k;
			iov[i].iov_len -= k;
			done -= k;
			if (!iov[i].iov_len)
				i++;
		}
	}
}

} // namespace

void write_file(const std::string &path, const ProfileData &data)
{
	const FileImage im = file_image(data);
	const bool secret = holds_kernel_addresses(data);
	TmpFile tmp;

	// mkostemp: a new name, O_CREAT | O_EXCL (never an existing file or a
	// planted symlink), mode 0600.  Kernel addresses (the KASLR base) stay
	// 0600, as perf.data; anything else gets the usual 0666 & ~umask.
	std::string templ = path + ".XXXXXX";
	const int fd = ::mkostemp(templ.data(), O_CLOEXEC);
	if (fd < 0)
		throw FormatError("cannot create a file next to " + path + ": " +
				  std::strerror(errno) + " (choose another -o FILE or directory)");
	tmp.path = templ;
	tmp.fd.reset(fd);
	if (!secret && ::fchmod(fd, 0666 & ~current_umask()) != 0)
		throw FormatError("cannot set the mode of " + tmp.path + ": " + std::strerror(errno));
	// The pieces as they lie, IOV_MAX at a time: the stack copies of
	// --call-graph dwarf are not copied again in memory.
	std::vector<iovec> iov;
	auto add = [&iov](const char *p, std::size_t len) {
		if (len)
			iov.push_back({const_cast<char *>(p), len});
	};
	add(im.head.data(), im.head.size());
	add(im.buckets.data(), im.buckets.size());
	im.samples.each(add);
	write_iov(fd, iov, tmp.path);
	if (std::rename(tmp.path.c_str(), path.c_str()) != 0)
		throw FormatError("cannot rename " + tmp.path + " to " + path + ": " +
				  std::strerror(errno));
	tmp.keep = true;
}

ProfileData read_file(const std::string &path)
{
	struct stat st {};
	const bool known = ::stat(path.c_str(), &st) == 0;

	// Say what the path is, not "bad magic".
	if (known && S_ISDIR(st.st_mode))
		throw FormatError(path + " is a directory, not a record file (pass -i FILE)");
	if (known && S_ISREG(st.st_mode) && st.st_size == 0)
		throw FormatError(path + " is empty (0 bytes), not a record file (record writes "
				  "its file whole, at the end)");
	std::ifstream in(path, std::ios::binary);

	if (!in) {
		const int err = errno;
		if (err == EACCES && known) {
			const struct passwd *pw = ::getpwuid(st.st_uid);
			const std::string owner = pw ? std::string(pw->pw_name) :
						       "uid " + std::to_string(st.st_uid);
			throw FormatError(fmt::format(
				"cannot open {}: {}: it is {}'s (mode {:04o}; a record holding kernel "
				"addresses is private): read it as {}, or have {} chmod it",
				path, std::strerror(err), owner, st.st_mode & 07777,
				st.st_uid == 0 ? std::string("root") : owner + " or root", owner));
		}
		throw FormatError("cannot open " + path + ": " + std::strerror(err) +
				  " (run `kprofile record` first, or pass -i FILE)");
	}
	std::ostringstream ss;
	ss << in.rdbuf();
	return parse(ss.str());
}

} // namespace kprofile::record

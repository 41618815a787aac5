// SPDX-License-Identifier: GPL-2.0
// resolver.cpp - symbol views of recorded ranges.
#include "resolver.h"

#include <unistd.h>

#include "errors.h"

namespace kprofile::record {

const ElfObject *FileResolver::object(const ProfileData &data, int index)
{
	auto it = objects_.find(index);
	if (it != objects_.end())
		return it->second ? &*it->second : nullptr;

	const ObjectRecord &rec = data.objects[index];
	std::optional<ElfObject> obj;
	std::string path = rec.path;
	const std::string deleted = " (deleted)";
	if (path.size() > deleted.size() &&
	    path.compare(path.size() - deleted.size(), deleted.size(), deleted) == 0)
		path.resize(path.size() - deleted.size());
	if (!path.empty() && path[0] == '/') {
		std::string err;
		std::string file = path;
		if (!opts_.symfs.empty()) {
			// perf's --symfs: DIR/path, then DIR/basename.
			file = opts_.symfs + path;
			if (::access(file.c_str(), R_OK) != 0) {
				const std::string flat =
					opts_.symfs + "/" + path.substr(path.rfind('/') + 1);
				if (::access(flat.c_str(), R_OK) == 0)
					file = flat;
			}
		}
		obj = ElfObject::load(file, &err, opts_.symfs);
		// Not under --symfs (or another build there): this machine's own
		// file, and its /usr/lib/debug, when the build-id is the one
		// recorded, as perf falls back to ~/.debug (before, with
		// --symfs DIR holding the program only, libc, libm and libz
		// were "No such file").
		if (!opts_.symfs.empty() && !rec.build_id.empty() &&
		    (!obj || obj->build_id() != rec.build_id)) {
			auto own = ElfObject::load(path, nullptr, "");
			if (own && own->build_id() == rec.build_id) {
				obj = std::move(own);
				file = path;
			}
		}
		if (obj)
			loaded_from_[index] = file;
		if (!obj)
			warnings_.push_back("no symbols for " + rec.path + " (" + err +
					    "): its hits are shown as object+offset" +
					    (opts_.symfs.empty() ? "; --symfs DIR looks for it under DIR"
								 : ""));
		else if (!rec.build_id.empty() && obj->build_id() != rec.build_id) {
			warnings_.push_back(rec.path + " changed since the recording (build-id " +
					    obj->build_id() + ", recorded " + rec.build_id +
					    "): its hits are shown as object+offset");
			obj.reset();
		} else if (obj->symbols().empty()) {
			warnings_.push_back(rec.path + " has no symbol table (stripped); install its "
				"debug symbols (-dbgsym package) to see function names");
		}
	}
	auto &slot = objects_[index];
	slot = std::move(obj);
	return slot ? &*slot : nullptr;
}

const LineTable *FileResolver::lines(const ProfileData &data, int index)
{
	auto it = lines_.find(index);
	if (it != lines_.end())
		return it->second ? &*it->second : nullptr;
	auto &slot = lines_[index];
	const ElfObject *obj = object(data, index);
	if (obj) {
		slot = LineTable::open(loaded_from_[index]);
		if (!slot)
			slot = LineTable::open(debug_file_path(obj->build_id(), opts_.symfs));
		if (!slot)
			warnings_.push_back("no line tables for " + data.objects[index].path +
					    " (built without -g, and no debug file): no srcline");
	}
	return slot ? &*slot : nullptr;
}

RangeResolver::View FileResolver::view(const ProfileData &data, const RangeRecord &range)
{
	View v;

	if (range.kind == RangeKind::Kernel) {
		if (!kernel_) {
			auto syms = data.kernel_symbols;
			if (syms.empty())
				syms = read_kallsyms();
			if (syms.empty())
				warnings_.push_back("no kernel symbols (recorded without /proc/kallsyms "
					"access, and it is unreadable now): kernel hits are shown as "
					"addresses; " + kallsyms_advice());
			kernel_ = kernel_symbol_table(syms);
		}
		v.table = &*kernel_;
		v.translate = [](std::uint64_t a) { return std::optional<std::uint64_t>(a); };
		return v;
	}
	if (range.kind != RangeKind::Object || range.object < 0)
		return v;
	const ElfObject *obj = object(data, range.object);
	if (!obj)
		return v;
	v.table = &obj->symbols();
	if (opts_.srcline)
		if (const LineTable *lt = lines(data, range.object))
			v.srcline = [lt](std::uint64_t a) { return lt->lookup(a); };
	const std::uint64_t base = range.base, off = range.file_offset;
	v.translate = [obj, base, off](std::uint64_t a) {
		return obj->offset_to_vaddr(a - base + off);
	};
	return v;
}

std::vector<std::string> FileResolver::warnings() const
{
	return warnings_;
}

} // namespace kprofile::record

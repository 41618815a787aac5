// SPDX-License-Identifier: GPL-2.0
// resolver.h - RangeResolver over the object files on disk and the kernel
// symbols recorded in the file (or /proc/kallsyms).
#pragma once

#include <map>
#include <optional>
#include <set>

#include "report_model.h"
#include "srcline.h"
#include "symbolize.h"

namespace kprofile::record {

struct ResolverOptions {
	// --symfs: look object files (and /usr/lib/debug) up under this
	// directory first, as perf does, e.g. a copy of the recording host's
	// root; "" looks at the recorded paths only.
	std::string symfs;
	bool srcline = false;	// open DWARF line tables (report --srcline)
};

class FileResolver : public RangeResolver {
public:
	explicit FileResolver(ResolverOptions opts = {}) : opts_(std::move(opts)) {}
	View view(const ProfileData &data, const RangeRecord &range) override;
	std::vector<std::string> warnings() const override;

private:
	const ElfObject *object(const ProfileData &data, int index);
	const LineTable *lines(const ProfileData &data, int index);

	ResolverOptions opts_;
	std::map<int, std::optional<ElfObject>> objects_;
	std::map<int, std::string> loaded_from_;	// the file actually read
	std::map<int, std::optional<LineTable>> lines_;
	std::optional<SymbolTable> kernel_;
	std::vector<std::string> warnings_;
};

} // namespace kprofile::record

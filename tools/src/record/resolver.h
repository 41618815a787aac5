// SPDX-License-Identifier: GPL-2.0
// resolver.h - RangeResolver over the object files on disk and the kernel
// symbols recorded in the file (or /proc/kallsyms).
#pragma once

#include <map>
#include <optional>
#include <set>

#include "record/report_model.h"
#include "record/symbolize.h"

namespace kprofile::record {

class FileResolver : public RangeResolver {
public:
	View view(const ProfileData &data, const RangeRecord &range) override;
	std::vector<std::string> warnings() const override;

private:
	const ElfObject *object(const ProfileData &data, int index);

	std::map<int, std::optional<ElfObject>> objects_;
	std::optional<SymbolTable> kernel_;
	std::vector<std::string> warnings_;
};

} // namespace kprofile::record

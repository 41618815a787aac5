// SPDX-License-Identifier: GPL-2.0
// kernel_modules.cpp - module text ranges from /proc/modules.
#include "kernel_modules.h"
#include "proc_read.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace kprofile::record {

std::vector<ModuleText> parse_modules(const std::string &text,
				      const std::vector<KernelSymbolRecord> &syms)
{
	std::map<std::string, std::uint64_t> first_sym;
	std::vector<ModuleText> out;
	std::istringstream in(text);
	std::string line;

	for (const auto &k : syms) {
		if (k.module.empty() || !k.addr)
			continue;
		auto it = first_sym.find(k.module);
		if (it == first_sym.end() || k.addr < it->second)
			first_sym[k.module] = k.addr;
	}
	while (std::getline(in, line)) {
		std::istringstream ls(line);
		std::string name, refs, deps, state, addr;
		std::uint64_t size = 0;

		if (!(ls >> name >> size >> refs >> deps >> state >> addr))
			continue;
		ModuleText m;
		try {
			m.base = std::stoull(addr, nullptr, 16);
		} catch (const std::exception &) {
			continue;
		}
		if (!m.base || !size)
			continue;
		m.name = name;
		m.size = size;
		auto it = first_sym.find(name);
		if (it != first_sym.end() && it->second < m.base) {
			m.size += m.base - it->second;
			m.base = it->second;
		}
		out.push_back(std::move(m));
	}
	std::sort(out.begin(), out.end(),
		  [](const auto &a, const auto &b) { return a.base < b.base; });
	for (std::size_t i = 0; i + 1 < out.size(); i++)
		if (out[i].base + out[i].size > out[i + 1].base)
			out[i].size = out[i + 1].base - out[i].base;
	out.erase(std::remove_if(out.begin(), out.end(), [](const auto &m) { return !m.size; }),
		  out.end());
	return out;
}

std::vector<ModuleText> read_modules(const std::vector<KernelSymbolRecord> &syms)
{
	// Unreadable: no text, so no modules (parse_modules() of "").
	std::string text;

	read_path("/proc/modules", text);
	return parse_modules(text, syms);
}

} // namespace kprofile::record

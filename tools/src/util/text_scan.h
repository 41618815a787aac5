// SPDX-License-Identifier: GPL-2.0
// text_scan.h - the two scanning steps of record's hand-written /proc
// parsers (maps, kallsyms): no iostreams, no allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace kprofile::record {

// The next blank-separated word of @rest (spaces and tabs), consumed.
inline std::string_view next_word(std::string_view &rest)
{
	std::size_t b = 0;

	while (b < rest.size() && (rest[b] == ' ' || rest[b] == '\t'))
		b++;
	std::size_t e = b;
	while (e < rest.size() && rest[e] != ' ' && rest[e] != '\t')
		e++;
	const std::string_view w = rest.substr(b, e - b);
	rest.remove_prefix(e);
	return w;
}

// All of @w as hex digits (1..16 of them), no sign or prefix.
inline bool parse_hex(std::string_view w, std::uint64_t &v)
{
	if (w.empty() || w.size() > 16)
		return false;
	v = 0;
	for (char c : w) {
		unsigned d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return false;
		v = (v << 4) | d;
	}
	return true;
}

} // namespace kprofile::record

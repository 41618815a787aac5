// SPDX-License-Identifier: GPL-2.0
// json_field.h - the record file's JSON header read key by key: a missing
// key or a value of the wrong type is a FormatError that names the key
// (profile_file.cpp, and sample_file.cpp for the sample section).
#pragma once

#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "profile_file.h"

namespace kprofile::record {

namespace json_field_detail {

// @it's value as a T; @where ("" or, say, "samples ") goes before "key" in
// the message.
template <typename T>
T convert(nlohmann::json::const_iterator it, const char *key, const char *where)
{
	try {
		return it->get<T>();
	} catch (const nlohmann::json::exception &) {
		throw FormatError(std::string("record file: ") + where + "key \"" + key +
				  "\" has the wrong type");
	}
}

} // namespace json_field_detail

// @j[@key] as a T; a FormatError when @key is missing.
template <typename T>
T json_field(const nlohmann::json &j, const char *key, const char *where = "")
{
	auto it = j.find(key);

	if (it == j.end())
		throw FormatError(std::string("record file: missing ") + where + "key \"" + key +
				  "\"");
	return json_field_detail::convert<T>(it, key, where);
}

// @j[@key] as a T; @fallback when @key is missing or null.
template <typename T>
T json_field_or(const nlohmann::json &j, const char *key, T fallback, const char *where = "")
{
	auto it = j.find(key);

	if (it == j.end() || it->is_null())
		return fallback;
	return json_field_detail::convert<T>(it, key, where);
}

} // namespace kprofile::record

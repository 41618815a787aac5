// SPDX-License-Identifier: GPL-2.0
// result.h - a value or the Error that prevented it.
#pragma once

#include <utility>
#include <variant>

#include "errors.h"

namespace kprofile {

template <typename T>
class Result {
public:
	Result(T value) : v_(std::move(value)) {}
	Result(Error error) : v_(std::move(error)) {}

	bool ok() const { return std::holds_alternative<T>(v_); }
	explicit operator bool() const { return ok(); }

	// The value; throws Failure with the error when there is none.
	T &value() &
	{
		check();
		return std::get<T>(v_);
	}
	const T &value() const &
	{
		check();
		return std::get<T>(v_);
	}
	// By value: `for (auto &x : f().value())` must not dangle.
	T value() &&
	{
		check();
		return std::get<T>(std::move(v_));
	}
	const Error &error() const { return std::get<Error>(v_); }

private:
	void check() const
	{
		if (!ok())
			throw Failure(std::get<Error>(v_));
	}

	std::variant<T, Error> v_;
};

} // namespace kprofile

// SPDX-License-Identifier: MIT
#pragma once
// dtl::status_error: the one exception DTL throws.
//
// DTL's error convention, the same in every layer:
// - A function that can fail returns dtl::result<T> (or dtl::status / result<void>) and never throws.
// - Only where a status cannot be returned does DTL throw status_error, carrying that status: a
//   constructor (hip_stream stream(flags), distributed_vector(n, ctx)) and an algorithm that returns a
//   bare value (dtl::reduce). Each of those has a non-throwing twin that returns the status instead:
//   `create(...)` for a type (a static member returning result<T>: hip_stream::create(flags)), and
//   `try_name(...)` for a function (dtl::try_reduce).
// - The layers that reproduce upstream DTL's API keep upstream's behaviour there.
// - A moved-from object is valid and empty: every call on it returns status_code::invalid_state
//   (never a crash, never undefined behaviour), and it can be assigned to or destroyed.

#include <dtl/core/export.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/status.hpp>

#include <stdexcept>
#include <type_traits>
#include <utility>

namespace dtl {

// Exported (typeinfo included), so that a catch in one library or program matches a throw in another.
class DTL_CORE_API status_error : public std::runtime_error {
 public:
  /// `error` must not be ok; its to_string() becomes what().
  explicit status_error(status error) : std::runtime_error(error.to_string()), error_(std::move(error)) {}

  /// The status that caused the exception.
  [[nodiscard]] const status& error() const noexcept { return error_; }
  [[nodiscard]] status_code code() const noexcept { return error_.code(); }

 private:
  status error_;
};

/// The value of `r`, or throws status_error with its error.
template <class T>
T value_or_throw(result<T>&& r) {
  if (!r.has_value()) throw status_error(std::move(r).error());
  if constexpr (!std::is_void_v<T>) return std::move(r).value();
}
template <class T>
const T& value_or_throw(const result<T>& r) {
  if (!r.has_value()) throw status_error(r.error());
  return r.value();
}
template <class T>
T& value_or_throw(result<T>& r) {
  if (!r.has_value()) throw status_error(r.error());
  return r.value();
}
inline void value_or_throw(const result<void>& r) {
  if (!r.has_value()) throw status_error(r.error());
}

}  // namespace dtl

// SPDX-License-Identifier: MIT
#pragma once
// The one boundary between exceptions and statuses. A function that returns dtl::status or
// dtl::result<T> but calls code that may throw (a container growing, a user's callback) runs that code
// through status_boundary(), so no exception leaves it:
//
//   result<void> event_pool::reserve(std::size_t count) {
//     return status_boundary("event_pool::reserve", [&] { return core_->reserve(count); });
//   }
//
// What an exception becomes: std::bad_alloc -> out_of_memory; std::length_error (a container asked
// for more elements than it can hold) -> invalid_argument; dtl::status_error -> the status it carries;
// any other -> unknown_error with its what(). The message names `what` and the exception.

#include <dtl/core/export.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/status.hpp>

#include <concepts>
#include <functional>
#include <string_view>
#include <type_traits>

namespace dtl {

/// The exception being handled, as a status naming `what` (see above). Call only inside a catch block.
/// Never throws: when even the message cannot be made, a status made in advance (out_of_memory).
[[nodiscard]] DTL_CORE_API status current_exception_status(std::string_view what) noexcept;

/// body(), or the status of what it throws. body returns dtl::status or a dtl::result<T>.
template <class Body>
requires(std::same_as<std::invoke_result_t<Body&>, status> || is_result_v<std::invoke_result_t<Body&>>)
    [[nodiscard]] std::invoke_result_t<Body&> status_boundary(std::string_view what, Body&& body) noexcept {
  try {
    return std::invoke(body);
  } catch (...) {
    return current_exception_status(what);
  }
}

}  // namespace dtl

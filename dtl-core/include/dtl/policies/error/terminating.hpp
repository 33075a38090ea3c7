// SPDX-License-Identifier: MIT
#pragma once
// terminating_policy: a failure is fatal: the status goes to stderr and std::terminate ends the
// process (for programs that cannot go on after a failed distributed operation).

#include <dtl/policies/error/error_policy.hpp>

#include <cstdio>
#include <exception>

namespace dtl {

struct terminating_policy {
  using policy_category = error_policy_tag;
  [[nodiscard]] static constexpr error_strategy strategy() noexcept { return error_strategy::terminate; }
  [[nodiscard]] static constexpr bool uses_exceptions() noexcept { return false; }
  [[nodiscard]] static constexpr bool can_ignore_errors() noexcept { return false; }
  [[nodiscard]] static constexpr bool auto_propagates() noexcept { return false; }
  /// Prints `s` and terminates. T is the value type the caller would have returned.
  template <class T = void>
  [[noreturn]] static T handle_error(const status& s) noexcept {
    std::fprintf(stderr, "dtl: fatal error: %s\n", s.to_string().c_str());
    std::terminate();
  }
  template <class T>
  [[nodiscard]] static T handle_success(T value) {
    return value;
  }
};

template <>
struct error_policy_traits<terminating_policy> : detail::error_policy_traits_of<terminating_policy> {};

}  // namespace dtl

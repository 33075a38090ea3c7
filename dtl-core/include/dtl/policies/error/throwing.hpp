// SPDX-License-Identifier: MIT
#pragma once
// throwing_policy: a failure throws dtl::status_error (a std::runtime_error holding the status);
// success returns the value itself.

#include <dtl/core/status_error.hpp>
#include <dtl/policies/error/error_policy.hpp>

#include <utility>

namespace dtl {

struct throwing_policy {
  using policy_category = error_policy_tag;
  [[nodiscard]] static constexpr error_strategy strategy() noexcept { return error_strategy::throw_exception; }
  [[nodiscard]] static constexpr bool uses_exceptions() noexcept { return true; }
  [[nodiscard]] static constexpr bool can_ignore_errors() noexcept { return false; }
  [[nodiscard]] static constexpr bool auto_propagates() noexcept { return true; }
  /// Throws status_error(s). T is the value type the caller would have returned (any: it never returns).
  template <class T = void>
  [[noreturn]] static T handle_error(status s) {
    throw status_error(std::move(s));
  }
  template <class T>
  [[nodiscard]] static T handle_success(T value) {
    return value;
  }
};

template <>
struct error_policy_traits<throwing_policy> : detail::error_policy_traits_of<throwing_policy> {};

}  // namespace dtl

// SPDX-License-Identifier: MIT
#pragma once
// expected_policy: a failure is returned as result<T>'s error, for the caller to check.

#include <dtl/core/result.hpp>
#include <dtl/policies/error/error_policy.hpp>

#include <utility>

namespace dtl {

struct expected_policy {
  using policy_category = error_policy_tag;
  [[nodiscard]] static constexpr error_strategy strategy() noexcept { return error_strategy::return_result; }
  [[nodiscard]] static constexpr bool uses_exceptions() noexcept { return false; }
  [[nodiscard]] static constexpr bool can_ignore_errors() noexcept { return false; }
  [[nodiscard]] static constexpr bool auto_propagates() noexcept { return false; }
  /// The failure `s` as a result (an ok `s` becomes internal_error, as every result's error).
  template <class T>
  [[nodiscard]] static result<T> handle_error(status s) {
    return result<T>(std::move(s));
  }
  template <class T>
  [[nodiscard]] static result<T> handle_success(T value) {
    return result<T>(std::move(value));
  }
};

template <>
struct error_policy_traits<expected_policy> : detail::error_policy_traits_of<expected_policy> {};

template <class T, class E>
struct error_return_type<expected_policy, T, E> {
  using type = result<T>;
};

}  // namespace dtl

// SPDX-License-Identifier: MIT
#pragma once
// Error policies (upstream DTL's names): how an operation reports a failure.
//   expected_policy     returns result<T> (our own default everywhere)
//   throwing_policy     throws dtl::status_error (a std::runtime_error); success returns T
//   terminating_policy  prints the status to stderr and calls std::terminate; success returns T
//   callback_policy<F>  asks F(status) for an error_action: continue with T{}, return the error, or
//                       terminate; returns result<T>
// error_policy_traits<P> gives each one's answers as constants; error_return_type<P, T>::type is what
// an operation of value type T returns under P.

#include <dtl/core/error.hpp>  // make_error, which policies' callers use to build a failure
#include <dtl/core/status.hpp>
#include <dtl/policies/policy_category.hpp>

namespace dtl {

enum class error_strategy { return_result, throw_exception, terminate, callback, ignore };

/// The primary template: a policy that returns result<T>.
template <class P>
struct error_policy_traits {
  static constexpr error_strategy strategy = error_strategy::return_result;
  static constexpr bool uses_exceptions = false;
  static constexpr bool can_ignore = false;
};

/// What an operation of value type T returns under P (T itself unless P says otherwise).
template <class P, class T, class E = status>
struct error_return_type {
  using type = T;
};

namespace detail {
/// error_policy_traits of a policy read from its own static answers (one rule for every policy).
template <class P>
struct error_policy_traits_of {
  static constexpr error_strategy strategy = P::strategy();
  static constexpr bool uses_exceptions = P::uses_exceptions();
  static constexpr bool can_ignore = P::can_ignore_errors();
};
}  // namespace detail

}  // namespace dtl

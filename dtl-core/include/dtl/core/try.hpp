// SPDX-License-Identifier: MIT
#pragma once
// Error propagation macros (opt-in, like abseil's status_macros.h).
//
//   DTL_TRY(expr);                      // expr is a dtl::status or dtl::result<T>; returns its error
//   DTL_ASSIGN_OR_RETURN(auto p, expr); // expr is a dtl::result<T>; declares p = value or returns the error
//
// The enclosing function must return a dtl::status or a dtl::result<U>.

#include <dtl/core/result.hpp>

#include <utility>

namespace dtl::detail {

inline bool try_failed(const status& s) noexcept { return !s.ok(); }
template <class T>
bool try_failed(const result<T>& r) noexcept {
  return !r.has_value();
}

inline status try_error(status&& s) noexcept { return std::move(s); }
inline status try_error(const status& s) noexcept { return s; }
template <class T>
status try_error(result<T>&& r) noexcept {
  return std::move(r).error();
}
template <class T>
status try_error(const result<T>& r) noexcept {
  return r.error();
}

}  // namespace dtl::detail

#define DTL_TRY(...)                                                                           \
  do {                                                                                         \
    auto&& dtl_try_value_ = (__VA_ARGS__);                                                     \
    if (::dtl::detail::try_failed(dtl_try_value_))                                             \
      return ::dtl::detail::try_error(std::forward<decltype(dtl_try_value_)>(dtl_try_value_)); \
  } while (false)

#define DTL_TRY_CONCAT_INNER_(a, b) a##b
#define DTL_TRY_CONCAT_(a, b) DTL_TRY_CONCAT_INNER_(a, b)

#define DTL_ASSIGN_OR_RETURN(lhs, ...) \
  DTL_ASSIGN_OR_RETURN_IMPL_(DTL_TRY_CONCAT_(dtl_assign_or_return_, __LINE__), lhs, __VA_ARGS__)

#define DTL_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, ...)      \
  auto tmp = (__VA_ARGS__);                            \
  if (!tmp.has_value()) return std::move(tmp).error(); \
  lhs = std::move(tmp).value()

// SPDX-License-Identifier: MIT
#pragma once
// dtl::result<T>: a value or an error status; never an ok status as its error.
// Reading the value of an error aborts with a clear message (never undefined behaviour): value() names
// the caller's file and line. *r and r-> cannot (C++ operators take no default arguments, so no
// std::source_location): they name the operator and print the calling stack instead.

#include <dtl/core/export.hpp>
#include <dtl/core/status.hpp>

#include <concepts>
#include <functional>
#include <source_location>
#include <type_traits>
#include <utility>
#include <variant>

namespace dtl {

template <class T>
class result;

template <class T>
inline constexpr bool is_result_v = false;
template <class T>
inline constexpr bool is_result_v<result<T>> = true;

namespace detail {

/// Prints "dtl::result::value() called on an error: <status>" and the caller's location, then aborts.
[[noreturn]] DTL_CORE_API void bad_result_access(const status& error, std::source_location where) noexcept;

/// For *r and r-> (`op`), which cannot know their caller's location: prints the status and the
/// calling stack, then aborts.
[[noreturn]] DTL_CORE_API void bad_result_dereference(const status& error, const char* op) noexcept;

/// The error of a result<T> whose value was lost: an exception thrown while a value was moved or
/// copied into it left its storage empty (std::variant's valueless_by_exception).
DTL_CORE_API const status& valueless_result_error() noexcept;

/// The status a result holds when it was (wrongly) given an ok status as its error.
DTL_CORE_API status ok_status_as_error(std::source_location where);

/// The result type of invoking F; must be a dtl::result.
template <class F, class... Args>
using invoke_result_t = std::remove_cvref_t<std::invoke_result_t<F, Args...>>;

}  // namespace detail

template <class T>
class [[nodiscard]] result {
  static_assert(!std::is_reference_v<T>, "result<T&> is not supported; use result<T*>");
  static_assert(!std::is_same_v<std::remove_cv_t<T>, status>, "result<status> is ambiguous");
  static_assert(!std::is_same_v<std::remove_cv_t<T>, std::in_place_t>);

 public:
  using value_type = T;

  template <class U = T>
  requires(std::constructible_from<T, U&&> && !std::same_as<std::remove_cvref_t<U>, result> &&
           !std::same_as<std::remove_cvref_t<U>, status> && !std::same_as<std::remove_cvref_t<U>, std::in_place_t>)
      result(U&& value)
  noexcept(std::is_nothrow_constructible_v<T, U&&>)  // NOLINT: implicit on purpose
      : storage_(std::in_place_index<0>, std::forward<U>(value)) {}

  /// A value-initialized T (0 for an int), as upstream's.
  result() noexcept(std::is_nothrow_default_constructible_v<T>) requires std::default_initializable<T>
      : storage_(std::in_place_index<0>) {}

  template <class... Args>
  explicit result(std::in_place_t, Args&&... args) : storage_(std::in_place_index<0>, std::forward<Args>(args)...) {}

  /// An error. An ok status is not an error: it becomes internal_error, so a result never holds ok as its error.
  result(status error, std::source_location where = std::source_location::current())  // NOLINT
      : storage_(std::in_place_index<1>, error.ok() ? detail::ok_status_as_error(where) : std::move(error)) {}
  /// An error of this code, as upstream's result(status_code) (ok, again, becomes internal_error).
  result(status_code code, std::source_location where = std::source_location::current())  // NOLINT
      requires(!std::same_as<std::remove_cv_t<T>, status_code>)
      : result(status(code, std::string{}, where), where) {}

  /// Upstream's named constructors: a value, a value made in place, an error.
  [[nodiscard]] static result success(T value) { return result(std::in_place, std::move(value)); }
  template <class... Args>
  [[nodiscard]] static result success_in_place(Args&&... args) {
    return result(std::in_place, std::forward<Args>(args)...);
  }
  [[nodiscard]] static result failure(status error, std::source_location where = std::source_location::current()) {
    return result(std::move(error), where);
  }

  [[nodiscard]] bool has_value() const noexcept { return storage_.index() == 0; }
  [[nodiscard]] bool has_error() const noexcept { return !has_value(); }
  explicit operator bool() const noexcept { return has_value(); }

  [[nodiscard]] T& value(std::source_location where = std::source_location::current()) & {
    check(where);
    return *std::get_if<0>(&storage_);
  }
  [[nodiscard]] const T& value(std::source_location where = std::source_location::current()) const& {
    check(where);
    return *std::get_if<0>(&storage_);
  }
  [[nodiscard]] T&& value(std::source_location where = std::source_location::current()) && {
    check(where);
    return std::move(*std::get_if<0>(&storage_));
  }

  /// Like value(); on an error the abort message names the operator and prints the calling stack.
  T& operator*() & {
    check_dereference("operator*");
    return unchecked();
  }
  const T& operator*() const& {
    check_dereference("operator*");
    return unchecked();
  }
  T&& operator*() && {
    check_dereference("operator*");
    return std::move(*this).unchecked();
  }
  T* operator->() {
    check_dereference("operator->");
    return &unchecked();
  }
  const T* operator->() const {
    check_dereference("operator->");
    return &unchecked();
  }

  /// The error; an ok status when the result holds a value. A result whose value was lost to an
  /// exception thrown while it was assigned holds neither: its error is internal_error, never ok.
  [[nodiscard]] const status& error() const& noexcept {
    static const status ok_value{};
    if (const status* e = std::get_if<1>(&storage_)) return *e;
    return storage_.valueless_by_exception() ? detail::valueless_result_error() : ok_value;
  }
  [[nodiscard]] status error() && noexcept {
    if (status* e = std::get_if<1>(&storage_)) return std::move(*e);
    return storage_.valueless_by_exception() ? detail::valueless_result_error() : status{};
  }

  template <class U>
  [[nodiscard]] T value_or(U&& fallback) const& {
    return has_value() ? *std::get_if<0>(&storage_) : static_cast<T>(std::forward<U>(fallback));
  }
  template <class U>
  [[nodiscard]] T value_or(U&& fallback) && {
    return has_value() ? std::move(*std::get_if<0>(&storage_)) : static_cast<T>(std::forward<U>(fallback));
  }

  /// f(value) -> result<U>; an error passes through unchanged.
  template <class F>
  auto and_then(F&& f) & {
    return and_then_impl(*this, std::forward<F>(f));
  }
  template <class F>
  auto and_then(F&& f) const& {
    return and_then_impl(*this, std::forward<F>(f));
  }
  template <class F>
  auto and_then(F&& f) && {
    return and_then_impl(std::move(*this), std::forward<F>(f));
  }

  /// f(value) -> U gives result<U> (result<void> when U is void); an error passes through.
  template <class F>
  auto transform(F&& f) & {
    return transform_impl(*this, std::forward<F>(f));
  }
  template <class F>
  auto transform(F&& f) const& {
    return transform_impl(*this, std::forward<F>(f));
  }
  template <class F>
  auto transform(F&& f) && {
    return transform_impl(std::move(*this), std::forward<F>(f));
  }

  /// Upstream DTL's spelling of transform.
  template <class F>
  auto map(F&& f) const& {
    return transform_impl(*this, std::forward<F>(f));
  }
  template <class F>
  auto map(F&& f) && {
    return transform_impl(std::move(*this), std::forward<F>(f));
  }

  /// f(error) -> status, called only on an error: the error replaced, as upstream DTL's transform_error.
  template <class F>
  result transform_error(F&& f) const& {
    if (has_value()) return *this;
    return result(status(std::invoke(std::forward<F>(f), error())));
  }
  template <class F>
  result transform_error(F&& f) && {
    if (has_value()) return std::move(*this);
    return result(status(std::invoke(std::forward<F>(f), std::move(*this).error())));
  }

  template <class F>
  [[deprecated("use transform_error()")]] result map_error(F&& f) const& {
    return transform_error(std::forward<F>(f));
  }

  /// f(error) -> result<T>, called only on an error (to recover or to replace the error). A function that
  /// returns a plain T instead gives the value or that fallback, a T, as upstream DTL's or_else.
  template <class F>
  auto or_else(F&& f) const& {
    if constexpr (is_result_v<std::invoke_result_t<F, const status&>>) {
      if (has_value()) return *this;
      return result(std::invoke(std::forward<F>(f), error()));
    } else {
      if (has_value()) return T(unchecked());
      return T(std::invoke(std::forward<F>(f), error()));
    }
  }
  template <class F>
  auto or_else(F&& f) && {
    if constexpr (is_result_v<std::invoke_result_t<F, status&&>>) {
      if (has_value()) return std::move(*this);
      return result(std::invoke(std::forward<F>(f), std::move(*this).error()));
    } else {
      if (has_value()) return T(std::move(unchecked()));
      return T(std::invoke(std::forward<F>(f), std::move(*this).error()));
    }
  }

 private:
  void check(std::source_location where) const {
    if (!has_value()) detail::bad_result_access(error(), where);
  }
  void check_dereference(const char* op) const {
    if (!has_value()) detail::bad_result_dereference(error(), op);
  }

  template <class Self, class F>
  static auto and_then_impl(Self&& self, F&& f) {
    using R = detail::invoke_result_t<F, decltype(std::forward<Self>(self).unchecked())>;
    static_assert(is_result_v<R>, "and_then's function must return a dtl::result");
    if (!self.has_value()) return R(std::forward<Self>(self).error());
    return std::invoke(std::forward<F>(f), std::forward<Self>(self).unchecked());
  }

  template <class Self, class F>
  static auto transform_impl(Self&& self, F&& f) {
    using U = std::remove_cv_t<std::invoke_result_t<F, decltype(std::forward<Self>(self).unchecked())>>;
    if (!self.has_value()) return result<U>(std::forward<Self>(self).error());
    if constexpr (std::is_void_v<U>) {
      std::invoke(std::forward<F>(f), std::forward<Self>(self).unchecked());
      return result<U>();  // not result<void>: clang/nvcc would instantiate the primary template here
    } else {
      return result<U>(std::invoke(std::forward<F>(f), std::forward<Self>(self).unchecked()));
    }
  }

  T& unchecked() & { return *std::get_if<0>(&storage_); }
  const T& unchecked() const& { return *std::get_if<0>(&storage_); }
  T&& unchecked() && { return std::move(*std::get_if<0>(&storage_)); }

  std::variant<T, status> storage_;
};

/// result<void>: success, or an error status. An ok status means success.
template <>
class [[nodiscard]] result<void> {
 public:
  using value_type = void;

  result() noexcept = default;
  result(status s) noexcept : status_(std::move(s)) {}  // NOLINT: implicit on purpose
  /// An error of this code (ok: success), as upstream's result(status_code).
  result(status_code code, std::source_location where = std::source_location::current())  // NOLINT
      : status_(code, std::string{}, where) {}

  /// Upstream's named constructors: success, and an error (an ok status stays success here).
  [[nodiscard]] static result success() noexcept { return {}; }
  [[nodiscard]] static result failure(status error) noexcept { return result(std::move(error)); }

  [[nodiscard]] bool has_value() const noexcept { return status_.ok(); }
  [[nodiscard]] bool has_error() const noexcept { return !has_value(); }
  explicit operator bool() const noexcept { return has_value(); }

  void value(std::source_location where = std::source_location::current()) const {
    if (!has_value()) detail::bad_result_access(status_, where);
  }

  [[nodiscard]] const status& error() const& noexcept { return status_; }
  [[nodiscard]] status error() && noexcept { return std::move(status_); }

  /// f() -> result<U>; an error passes through unchanged.
  template <class F>
  auto and_then(F&& f) const {
    using R = detail::invoke_result_t<F>;
    static_assert(is_result_v<R>, "and_then's function must return a dtl::result");
    if (!has_value()) return R(status_);
    return std::invoke(std::forward<F>(f));
  }

  /// f() -> U gives result<U>; an error passes through.
  template <class F>
  auto transform(F&& f) const {
    using U = std::remove_cv_t<std::invoke_result_t<F>>;
    if (!has_value()) return result<U>(status_);
    if constexpr (std::is_void_v<U>) {
      std::invoke(std::forward<F>(f));
      return result<void>();
    } else {
      return result<U>(std::invoke(std::forward<F>(f)));
    }
  }

  /// Upstream DTL's spelling of transform.
  template <class F>
  auto map(F&& f) const {
    return transform(std::forward<F>(f));
  }

  /// f(error) -> status, called only on an error: the error replaced, as upstream DTL's transform_error.
  template <class F>
  result transform_error(F&& f) const {
    if (has_value()) return *this;
    return result(status(std::invoke(std::forward<F>(f), status_)));
  }

  template <class F>
  [[deprecated("use transform_error()")]] result map_error(F&& f) const {
    return transform_error(std::forward<F>(f));
  }

  /// f(error) -> result<void>, called only on an error. A function that returns nothing is called for its
  /// effect only, and or_else returns nothing, as upstream DTL's.
  template <class F>
  auto or_else(F&& f) const {
    if constexpr (std::is_void_v<std::invoke_result_t<F, const status&>>) {
      if (has_error()) std::invoke(std::forward<F>(f), status_);
    } else {
      if (has_value()) return *this;
      return result(std::invoke(std::forward<F>(f), status_));
    }
  }

 private:
  status status_;
};

/// A successful result<void>.
[[nodiscard]] inline result<void> success() noexcept { return {}; }

// Upstream DTL's factory spellings.
template <class T>
[[nodiscard]] result<std::decay_t<T>> make_result(T&& value) {
  return result<std::decay_t<T>>(std::forward<T>(value));
}
[[nodiscard]] inline result<void> make_ok_result() noexcept { return {}; }
template <class T>
[[nodiscard]] result<T> make_error_result(status error) {
  return result<T>(std::move(error));
}
template <class T>
[[nodiscard]] result<T> make_error_result(status_code code,
                                          std::source_location where = std::source_location::current()) {
  return result<T>(status(code, std::string{}, where));
}

}  // namespace dtl

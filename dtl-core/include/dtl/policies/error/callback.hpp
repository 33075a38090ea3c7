// SPDX-License-Identifier: MIT
#pragma once
// callback_policy<Handler>: a failure is given to handler(status), whose error_action decides:
// continue_execution (the result holds a value-initialized T), propagate_error (the result holds the
// error), or terminate (std::terminate).

#include <dtl/core/result.hpp>
#include <dtl/policies/error/error_policy.hpp>

#include <concepts>
#include <exception>
#include <functional>
#include <type_traits>
#include <utility>

namespace dtl {

enum class error_action { continue_execution, propagate_error, terminate };

template <class Handler>
struct callback_policy {
  using policy_category = error_policy_tag;
  using handler_type = Handler;
  Handler handler;

  explicit callback_policy(Handler h) : handler(std::move(h)) {}

  [[nodiscard]] static constexpr error_strategy strategy() noexcept { return error_strategy::callback; }
  [[nodiscard]] static constexpr bool uses_exceptions() noexcept { return false; }
  [[nodiscard]] static constexpr bool can_ignore_errors() noexcept { return true; }
  [[nodiscard]] static constexpr bool auto_propagates() noexcept { return false; }

  template <class T>
  [[nodiscard]] result<T> handle_error(status s) const {
    switch (std::invoke(handler, std::as_const(s))) {
      case error_action::continue_execution:
        if constexpr (std::default_initializable<T>) return result<T>(std::in_place);
        break;  // no T to continue with: the error goes back
      case error_action::propagate_error: break;
      case error_action::terminate: std::terminate();
    }
    return result<T>(std::move(s));
  }
  template <class T>
  [[nodiscard]] static result<T> handle_success(T value) {
    return result<T>(std::move(value));
  }
};

template <class Handler>
callback_policy(Handler) -> callback_policy<Handler>;

template <class Handler>
[[nodiscard]] auto make_callback_policy(Handler&& h) {
  return callback_policy<std::decay_t<Handler>>(std::forward<Handler>(h));
}

using dynamic_callback_policy = callback_policy<std::function<error_action(status)>>;

template <class Handler>
struct error_policy_traits<callback_policy<Handler>> : detail::error_policy_traits_of<callback_policy<Handler>> {};

template <class Handler, class T, class E>
struct error_return_type<callback_policy<Handler>, T, E> {
  using type = result<T>;
};

}  // namespace dtl

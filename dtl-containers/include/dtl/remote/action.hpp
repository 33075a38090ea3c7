// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's actions: a function named at compile time (action<&f>), with an id that every rank of
// one program computes alike, so that a request can name the function another rank runs.
//   int add(int, int);
//   DTL_REGISTER_ACTION(add);           // action_add, of type action<&add>
//   action_add.id(); action<&add>::invoke(1, 2);

#include <dtl/core/types.hpp>

#include <cstdint>
#include <functional>
#include <string_view>
#include <tuple>
#include <type_traits>

namespace dtl::remote {

using action_id = std::uint64_t;
inline constexpr action_id invalid_action_id = 0;

namespace detail {

template <typename F>
struct function_traits;

template <typename R, typename... Args>
struct function_traits<R (*)(Args...)> {
  using return_type = R;
  using args_tuple = std::tuple<std::decay_t<Args>...>;
  static constexpr size_type arity = sizeof...(Args);
};

template <typename R, typename... Args>
struct function_traits<R (*)(Args...) noexcept> : function_traits<R (*)(Args...)> {};

// FNV-1a: a stable hash of the compiler's name for the action type, which spells the function.
constexpr action_id hash_name(std::string_view text) noexcept {
  action_id h = 14695981039346656037ULL;
  for (char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  return h == invalid_action_id ? 1 : h;  // 0 means no action
}

template <auto Func>
constexpr std::string_view action_name() noexcept {
#if defined(__GNUC__) || defined(__clang__)
  return __PRETTY_FUNCTION__;
#else
  return __FUNCSIG__;
#endif
}

}  // namespace detail

/// The function Func as an action: its request (the decayed arguments as a tuple), response and id.
template <auto Func>
requires std::is_pointer_v<decltype(Func)> && std::is_function_v<std::remove_pointer_t<decltype(Func)>>
struct action {
  using func_type = decltype(Func);
  using traits = detail::function_traits<func_type>;
  using request_type = typename traits::args_tuple;
  using response_type = typename traits::return_type;
  static constexpr size_type arity = traits::arity;
  static constexpr bool is_void = std::is_void_v<response_type>;

  /// Never invalid_action_id; distinct functions get distinct ids (a 64-bit hash of the function's name).
  static constexpr action_id id() noexcept { return detail::hash_name(detail::action_name<Func>()); }
  static constexpr func_type function() noexcept { return Func; }

  template <typename... Args>
  static decltype(auto) invoke(Args&&... args) {
    return std::invoke(Func, std::forward<Args>(args)...);
  }
  static decltype(auto) invoke_tuple(const request_type& args) { return std::apply(Func, args); }
};

template <typename T>
struct is_action : std::false_type {};
template <auto Func>
struct is_action<action<Func>> : std::true_type {};
template <typename T>
inline constexpr bool is_action_v = is_action<std::remove_cv_t<T>>::value;

template <typename T>
concept Action = is_action_v<T>;

template <Action A>
[[nodiscard]] constexpr action_id get_action_id() noexcept {
  return A::id();
}
template <auto Func>
[[nodiscard]] constexpr action_id get_action_id(const action<Func>&) noexcept {
  return action<Func>::id();
}

}  // namespace dtl::remote

/// Declares action_<func>, the action of func, in the current namespace.
#define DTL_REGISTER_ACTION(func) \
  [[maybe_unused]] inline constexpr ::dtl::remote::action<&func> action_##func {}

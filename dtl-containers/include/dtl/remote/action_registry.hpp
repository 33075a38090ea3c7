// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's action registry: the actions a rank can run on request, found by id. Build it the same
// on every rank (registry_builder), then find(id) gives the handler that runs an action on serialized
// arguments. action_list and static_action_table are the compile-time forms.

#include <dtl/core/status.hpp>
#include <dtl/core/types.hpp>
#include <dtl/remote/action.hpp>
#include <dtl/remote/detail/typed_invoke.hpp>

#include <array>
#include <cstddef>
#include <optional>
#include <utility>

namespace dtl::remote {

/// Actions known at compile time.
template <typename... Actions>
requires(Action<Actions>&&...) struct action_list {
  static constexpr size_type size = sizeof...(Actions);
  static constexpr std::array<action_id, size> ids() noexcept { return {Actions::id()...}; }
  static constexpr bool contains(action_id id) noexcept { return index_of(id) >= 0; }
  /// The action's position in the list, -1 when absent.
  static constexpr int index_of(action_id id) noexcept {
    const auto all = ids();
    for (size_type i = 0; i < size; ++i)
      if (all[i] == id) return static_cast<int>(i);
    return -1;
  }
};

/// A type-erased action: runs it on serialized arguments (see detail::invoke_typed).
class action_handler {
 public:
  using handler_fn = size_type (*)(const std::byte* request, size_type request_size, std::byte* response,
                                   size_type capacity) noexcept;

  using result_fn = handler_result (*)(const std::byte* request, size_type request_size, std::byte* response,
                                       size_type capacity) noexcept;

  action_handler() noexcept = default;
  action_handler(action_id id, handler_fn fn) noexcept : id_(id), fn_(fn) {}
  /// With result_fn, invoke_with_result tells a void response from a failure (make_dynamic_handler's).
  action_handler(action_id id, handler_fn fn, result_fn with_result) noexcept
      : id_(id), fn_(fn), with_result_(with_result) {}

  [[nodiscard]] action_id id() const noexcept { return id_; }
  [[nodiscard]] bool valid() const noexcept { return fn_ != nullptr && id_ != invalid_action_id; }

  /// The response's bytes written at response; 0 for a void action, an invalid handler, arguments
  /// that do not deserialize and a response that does not fit (dynamic_handler's extended handler
  /// tells these apart).
  size_type invoke(const std::byte* request, size_type request_size, std::byte* response,
                   size_type capacity) const noexcept {
    return valid() ? fn_(request, request_size, response, capacity) : 0;
  }

  /// invoke, saying why there is no response (a handler made from a plain function cannot: its 0 bytes
  /// read as an empty response).
  handler_result invoke_with_result(const std::byte* request, size_type request_size, std::byte* response,
                                    size_type capacity) const noexcept {
    if (!valid()) return handler_result::make_error(handler_result::err_invalid_handler);
    if (with_result_ != nullptr) return with_result_(request, request_size, response, capacity);
    return handler_result::make_ok(fn_(request, request_size, response, capacity));
  }

 private:
  action_id id_ = invalid_action_id;
  handler_fn fn_ = nullptr;
  result_fn with_result_ = nullptr;
};

template <Action A>
[[nodiscard]] action_handler make_dynamic_handler() noexcept {
  return action_handler(A::id(), &detail::invoke_bytes<A>, &detail::invoke_typed<A>);
}

/// Up to N handlers, found by id.
template <size_type N>
class action_registry {
 public:
  constexpr action_registry() noexcept = default;

  /// Adds h; invalid_argument for an invalid handler, a repeated id or a full registry.
  status add(const action_handler& h) {
    if (!h.valid()) return error_status(status_code::invalid_argument, no_rank, "action_registry: invalid handler");
    if (contains(h.id()))
      return error_status(status_code::invalid_argument, no_rank, "action_registry: id already registered");
    if (count_ == N) return error_status(status_code::invalid_argument, no_rank, "action_registry: full");
    handlers_[count_++] = h;
    return ok_status();
  }

  [[nodiscard]] std::optional<action_handler> find(action_id id) const noexcept {
    for (size_type i = 0; i < count_; ++i)
      if (handlers_[i].id() == id) return handlers_[i];
    return std::nullopt;
  }
  [[nodiscard]] bool contains(action_id id) const noexcept { return find(id).has_value(); }
  /// The i-th handler added (i < size()).
  [[nodiscard]] const action_handler& at(size_type i) const noexcept { return handlers_[i]; }
  [[nodiscard]] size_type size() const noexcept { return count_; }
  [[nodiscard]] static constexpr size_type capacity() noexcept { return N; }

 private:
  std::array<action_handler, N> handlers_{};
  size_type count_ = 0;
};

/// Builds an action_registry<Capacity>: registry_builder<16>{}.add<action<&f>>().add(action_g).build().
/// The first refused add is kept: error() says it (build() still gives what was added).
template <size_type Capacity = 64>
class registry_builder {
 public:
  template <Action A>
  registry_builder& add() {
    keep(registry_.add(make_dynamic_handler<A>()));
    return *this;
  }
  template <auto Func>
  registry_builder& add(const action<Func>&) {
    return add<action<Func>>();
  }
  [[nodiscard]] const status& error() const noexcept { return error_; }
  [[nodiscard]] action_registry<Capacity> build() const { return registry_; }

 private:
  void keep(status s) {
    if (error_.ok() && !s.ok()) error_ = std::move(s);
  }
  action_registry<Capacity> registry_{};
  status error_{};
};

/// Dispatch over actions known at compile time: f(A{}) for the action whose id is given.
template <typename... Actions>
requires(Action<Actions>&&...) class static_action_table {
 public:
  static constexpr size_type size = sizeof...(Actions);
  /// True when an action has this id (f was called).
  template <typename F>
  static bool dispatch(action_id id, F&& f) {
    return ((Actions::id() == id ? (f(Actions{}), true) : false) || ...);
  }
};

}  // namespace dtl::remote

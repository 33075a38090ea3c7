// SPDX-License-Identifier: MIT
#pragma once
// Executor concepts. An executor runs work given its native handle (a stream for GPU executors)
// and reports failures as a status. Completion uses the vocabulary of dtl/core/event.hpp:
// synchronize() blocks the host until the work is done, query() says whether it is.

#include <dtl/core/device_id.hpp>
#include <dtl/core/event.hpp>
#include <dtl/core/result.hpp>

#include <concepts>
#include <cstddef>
#include <functional>
#include <string_view>
#include <type_traits>

namespace dtl {

enum class stream_priority { low, normal, high };

struct stream_properties {
  stream_priority priority = stream_priority::normal;
  bool non_blocking = false;
  bool owning = false;
  int device_id = no_device;
};

namespace detail {
template <class Handle>
struct probe_work {
  void operator()(Handle) const noexcept {}
};
}  // namespace detail

/// execute(f) runs f(native_handle) and returns result<void>; synchronize() blocks until all work is done.
template <class E>
concept Executor = requires(E& e, const E& ce) {
  typename E::native_handle_type;
  { e.execute(detail::probe_work<typename E::native_handle_type>{}) } -> std::same_as<result<void>>;
  { e.synchronize() } -> std::same_as<result<void>>;
  { ce.name() } -> std::convertible_to<std::string_view>;
};

/// An executor bound to one in-order stream. query() is complete when the stream has no pending work.
template <class E>
concept StreamExecutor = Executor<E> && requires(const E& ce) {
  { ce.native_handle() } -> std::same_as<typename E::native_handle_type>;
  { ce.properties() } -> std::same_as<stream_properties>;
  { ce.query() } -> std::same_as<event_status>;
};

/// Runs work at once on the calling thread. Its native handle is nullptr.
class inline_executor {
 public:
  using native_handle_type = std::nullptr_t;

  /// f(nullptr); if f returns a status or a result, its error comes back.
  template <class F>
  requires std::invocable<F, native_handle_type> result<void> execute(F&& f) {
    using R = std::invoke_result_t<F, native_handle_type>;
    if constexpr (std::is_void_v<R>) {
      std::invoke(std::forward<F>(f), nullptr);
      return {};
    } else if constexpr (std::is_same_v<std::remove_cvref_t<R>, status>) {
      return std::invoke(std::forward<F>(f), nullptr);
    } else {
      auto r = std::invoke(std::forward<F>(f), nullptr);
      if (!r.has_value()) return std::move(r).error();
      return {};
    }
  }
  result<void> synchronize() noexcept { return {}; }
  [[nodiscard]] native_handle_type native_handle() const noexcept { return nullptr; }
  [[nodiscard]] stream_properties properties() const noexcept { return {}; }
  /// Work has always finished by the time execute() returns.
  [[nodiscard]] event_status query() const noexcept { return event_status::complete(); }
  [[nodiscard]] static constexpr std::string_view name() noexcept { return "inline"; }
};

}  // namespace dtl

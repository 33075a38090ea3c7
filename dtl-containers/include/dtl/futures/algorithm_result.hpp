// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's algorithm results by policy (dtl/futures/algorithm_result.hpp): what an algorithm
// returns under a policy, result<T> when it waits (seq, par) and distributed_future<T> when it does not
// (dtl::futures::async_policy, dtl::async), and helpers that make either.
//
//   auto r = dtl::futures::execute_algorithm<dtl::seq>([] { return 42; });    // result<int>, run here
//   auto f = dtl::futures::execute_algorithm<dtl::async>([] { return 42; });  // distributed_future<int>
//
// execute_algorithm under an async policy runs the function on the progress engine's next pass
// (dtl::futures::poll(), the background progress thread, or waiting on the future, which polls); an
// exception the function throws becomes operation_failed.

#include <dtl/containers/algorithms/execution.hpp>
#include <dtl/containers/algorithms/policy_dispatch.hpp>
#include <dtl/core/error.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/status_boundary.hpp>
#include <dtl/futures/distributed_future.hpp>
#include <dtl/futures/progress.hpp>

#include <atomic>
#include <memory>
#include <type_traits>
#include <utility>

namespace dtl::futures {

using dtl::par;
using dtl::seq;

/// Upstream's algorithm-level async tag (a type only; dtl::async is the policy value).
struct async_policy;

namespace detail {
template <class Policy>
inline constexpr bool returns_future_v = std::is_same_v<Policy, async_policy> || is_async_policy_v<Policy>;
}  // namespace detail

/// result<T> for a policy that waits, distributed_future<T> for one that does not.
template <class Policy, class T>
struct algorithm_result {
  using type = std::conditional_t<detail::returns_future_v<Policy>, distributed_future<T>, result<T>>;
};
template <class Policy, class T>
using algorithm_result_t = typename algorithm_result<Policy, T>::type;

/// True for the policies that wait (seq, par).
template <class Policy>
inline constexpr bool is_sync_policy_v = is_seq_policy_v<Policy> || is_par_policy_v<Policy>;

/// `value` as Policy's result: a ready future or a result.
template <class Policy, class T>
[[nodiscard]] algorithm_result_t<Policy, std::decay_t<T>> make_algorithm_result(T&& value) {
  if constexpr (detail::returns_future_v<Policy>) {
    return make_ready_distributed_future(std::forward<T>(value));
  } else {
    return result<std::decay_t<T>>(std::in_place, std::forward<T>(value));
  }
}
/// Success without a value, as Policy's result.
template <class Policy>
[[nodiscard]] algorithm_result_t<Policy, void> make_algorithm_result_void() {
  if constexpr (detail::returns_future_v<Policy>) {
    return make_ready_distributed_future();
  } else {
    return result<void>();
  }
}
/// `error` as Policy's result for a T: a failed future or an error result.
template <class Policy, class T>
[[nodiscard]] algorithm_result_t<Policy, T> make_algorithm_error(status error) {
  if constexpr (detail::returns_future_v<Policy>) {
    return make_failed_distributed_future<T>(std::move(error));
  } else {
    return result<T>(std::move(error));
  }
}

/// Either kind of result behind one interface.
template <class T>
class unified_result {
 public:
  explicit unified_result(result<T> sync_result) : sync_(std::move(sync_result)) {}
  explicit unified_result(distributed_future<T> async_result) : async_(std::move(async_result)), is_async_(true) {}

  [[nodiscard]] bool is_async() const noexcept { return is_async_; }
  /// A result is always ready; a future when its value or error is there.
  [[nodiscard]] bool is_ready() const noexcept { return !is_async_ || async_.is_ready(); }
  /// Waits for a future (a no-op for a result).
  void wait() {
    if (is_async_) async_.wait();
  }
  /// The value or the error (moved out; waits for a future).
  [[nodiscard]] result<T> get() { return is_async_ ? async_.get_result() : std::move(sync_); }
  /// The outcome as a future (a result becomes a ready or failed one).
  [[nodiscard]] distributed_future<T> get_future() {
    if (is_async_) return std::move(async_);
    if (!sync_.has_value()) return make_failed_distributed_future<T>(sync_.error());
    if constexpr (std::is_void_v<T>) {
      return make_ready_distributed_future();
    } else {
      return make_ready_distributed_future(std::move(sync_).value());
    }
  }

 private:
  result<T> sync_ = status(status_code::invalid_state, "an asynchronous unified_result");
  distributed_future<T> async_;
  bool is_async_ = false;
};

namespace detail {
/// Waiting on a future that progress_engine's callbacks complete polls the engine.
class engine_driver final : public progress_driver {
 public:
  void drive() noexcept override {
    try {
      (void)progress_engine::instance().poll();
    } catch (...) {  // the engine's lock failing: the waiter just looks again
    }
  }
};
}  // namespace detail

namespace detail {
/// The exception being handled, as operation_failed with its message. Call only inside a catch block.
inline status algorithm_failure() noexcept {
  const status caught = dtl::current_exception_status("an algorithm's function");
  try {
    return status(status_code::operation_failed, caught.message());
  } catch (...) {  // no memory for the message
    return status(status_code::operation_failed);
  }
}
/// Completes `out` with f()'s value (nothing, for void), or its exception as algorithm_failure().
template <class T, class F>
void deliver_algorithm(futures::detail::shared_state<T>& out, F& f) noexcept {
  try {
    if constexpr (std::is_void_v<T>) {
      f();
      out.set_value();
    } else {
      out.set_value(f());
    }
  } catch (...) {
    out.fail(algorithm_failure());
  }
}
}  // namespace detail

/// Runs func() as Policy says: here and now, its value or exception (operation_failed) in a result<T>;
/// or on the progress engine's next pass, in a distributed_future<T>.
template <class Policy, class F>
auto execute_algorithm(F&& func) {
  using T = std::invoke_result_t<F>;
  if constexpr (detail::returns_future_v<Policy>) {
    auto state = std::make_shared<futures::detail::shared_state<T>>();
    state->add_driver(std::make_shared<detail::engine_driver>());
    progress_engine::instance().register_callback([state, f = std::forward<F>(func)]() mutable {
      detail::deliver_algorithm(*state, f);
      return false;  // one run
    });
    return distributed_future<T>(std::move(state));
  } else {
    try {
      if constexpr (std::is_void_v<T>) {
        std::forward<F>(func)();
        return result<void>();
      } else {
        return result<T>(std::in_place, std::forward<F>(func)());
      }
    } catch (...) {
      return result<T>(detail::algorithm_failure());
    }
  }
}

}  // namespace dtl::futures

namespace dtl {
using futures::algorithm_result;
using futures::algorithm_result_t;
using futures::async_policy;
using futures::execute_algorithm;
using futures::is_sync_policy_v;
using futures::make_algorithm_error;
using futures::make_algorithm_result;
using futures::make_algorithm_result_void;
using futures::unified_result;
}  // namespace dtl

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's futures: distributed_future<T>, distributed_promise<T>, make_ready_distributed_future
// and make_failed_distributed_future, in dtl::futures and (as upstream re-exports them) in dtl::.
//
//   dtl::distributed_promise<int> p;
//   auto f = p.get_future();
//   std::thread t([&p] { p.set_value(42); });
//   auto g = f.then([](int x) { return x * 2; });   // runs once f is ready, on the thread that made it so
//   int v = g.get();                                 // 84; a failure throws dtl::status_error
//
// A future is copyable (copies share one state, as upstream's do) and completes once. get() waits,
// returns the value (moved out of the state) and leaves this future empty; it throws dtl::status_error
// (a std::runtime_error) carrying the failure's status. get_result() is its non-throwing twin. Both
// take an optional timeout (status_code::timeout; the future stays valid), as dtl::hip::future's do; wait()
// gives up after the configured wait timeout (diagnostics.hpp) and throws timeout_exception. then()
// runs its continuation when the input is ready: at once if it already is, else on the thread that
// completes the input; its exception or the input's error fails the returned future. Waiting needs no
// progress loop: host futures block on a condition variable; futures of GPU work (made by
// dtl::hip::to_distributed_future) drive the HIP progress engine while they wait.
// when_all, when_any and the other combinators: continuation.hpp.

#include <dtl/core/result.hpp>
#include <dtl/core/status.hpp>
#include <dtl/core/status_error.hpp>
#include <dtl/futures/diagnostics.hpp>
#include <dtl/futures/shared_state.hpp>

#include <chrono>
#include <memory>
#include <type_traits>
#include <utility>

namespace dtl::futures {

template <class T>
class distributed_future;

/// What a continuation f gives for an input of type T (f(T), or f() for void).
template <class F, class T>
struct continuation_result {
  using type = std::invoke_result_t<F, T>;
};
template <class F>
struct continuation_result<F, void> {
  using type = std::invoke_result_t<F>;
};
template <class F, class T>
using continuation_result_t = typename continuation_result<F, T>::type;

namespace detail {

inline status invalid_future_status() {
  return status(status_code::invalid_state, "the future has no state (invalid)");
}
inline status timeout_status() {
  return status(status_code::timeout, "the future was not ready before the timeout passed");
}

template <class T>
inline constexpr bool is_distributed_future_v = false;
template <class T>
inline constexpr bool is_distributed_future_v<distributed_future<T>> = true;

/// The deadline `timeout` from now, without overflow for huge timeouts.
inline std::chrono::steady_clock::time_point deadline_after(std::chrono::duration<long double, std::nano> timeout) {
  const auto now = std::chrono::steady_clock::now();
  const std::chrono::duration<long double, std::nano> room = std::chrono::steady_clock::time_point::max() - now;
  if (timeout >= room) return std::chrono::steady_clock::time_point::max();
  if (timeout <= timeout.zero()) return now;
  return now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(timeout);
}

}  // namespace detail

template <class T>
class distributed_future {
 public:
  using value_type = T;
  using state_type = detail::shared_state<T>;

  /// An invalid future (no state).
  distributed_future() = default;
  explicit distributed_future(std::shared_ptr<state_type> state) noexcept : state_(std::move(state)) {}

  [[nodiscard]] bool valid() const noexcept { return state_ != nullptr; }
  /// true once the value or the error is there; never blocks.
  [[nodiscard]] bool is_ready() const noexcept { return state_ && state_->ready(); }

  /// Waits, then the value, leaving this future invalid. Throws dtl::status_error: the failure's
  /// status, or invalid_state for an invalid future.
  T get() {
    if constexpr (std::is_void_v<T>) {
      value_or_throw(get_result());
    } else {
      return value_or_throw(get_result());
    }
  }

  /// get() with a deadline: status_code::timeout (thrown) when `timeout` passes first; the future then
  /// stays valid and can be waited on again. The same words as dtl::hip::future's get(timeout).
  template <class Rep, class Period>
  T get(std::chrono::duration<Rep, Period> timeout) {
    if constexpr (std::is_void_v<T>) {
      value_or_throw(get_result(timeout));
    } else {
      return value_or_throw(get_result(timeout));
    }
  }

  /// get() without exceptions: the value or the error (invalid_state for an invalid future).
  [[nodiscard]] result<T> get_result() { return get_result(std::chrono::steady_clock::duration::max()); }

  /// get_result() with a deadline: status_code::timeout when `timeout` passes first; the future then
  /// stays valid and can be waited on again.
  template <class Rep, class Period>
  [[nodiscard]] result<T> get_result(std::chrono::duration<Rep, Period> timeout) {
    if (!state_) return detail::invalid_future_status();
    if (!state_->wait_until(detail::deadline_after(timeout))) return detail::timeout_status();
    auto state = std::move(state_);
    return state->take();
  }

  /// Blocks until ready; an invalid future returns at once. Gives up after effective_wait_timeout()
  /// (diagnostics.hpp; 30 s unless configured, as upstream) and throws timeout_exception then.
  void wait() const {
    if (!state_ || state_->ready()) return;
    const timeout_config config = global_timeout_config();
    const auto limit = effective_wait_timeout(config);
    if (limit <= limit.zero()) {
      (void)state_->wait_until(std::chrono::steady_clock::time_point::max());
    } else if (!state_->wait_until(detail::deadline_after(limit))) {
      detail::throw_wait_timeout(config, limit);
    }
  }

  /// ready, error (failed, or an invalid future) or timeout (still pending after `timeout`).
  template <class Rep, class Period>
  [[nodiscard]] future_status wait_for(std::chrono::duration<Rep, Period> timeout) const {
    if (!state_) return future_status::error;
    return status_of(state_->wait_until(detail::deadline_after(timeout)));
  }
  template <class Clock, class Duration>
  [[nodiscard]] future_status wait_until(std::chrono::time_point<Clock, Duration> deadline) const {
    return wait_for(deadline - Clock::now());
  }

  /// A future of f(value) (f() for void), run once this future is ready: at once if it is, else on
  /// the thread that completes it. This future's error, or what f throws, fails the returned one.
  /// The value is moved into f; this future stays valid (as upstream's).
  template <class F>
  requires(std::is_void_v<T> ? std::is_invocable_v<std::decay_t<F>&>
                             : std::is_invocable_v<std::decay_t<F>&, T>) auto then(F&& f) {
    using R = continuation_result_t<std::decay_t<F>&, T>;
    auto out = std::make_shared<detail::shared_state<R>>();
    if (!state_) {
      out->fail(detail::invalid_future_status());
      return distributed_future<R>(std::move(out));
    }
    out->add_drivers_of(*state_);
    // The input runs this task itself, so it outlives it: a plain pointer, no reference cycle.
    state_->on_ready([in = state_.get(), out, fn = std::decay_t<F>(std::forward<F>(f))]() mutable {
      if (!in->outcome().ok()) {
        out->fail(in->outcome());
        return;
      }
      if constexpr (std::is_void_v<T>) {
        detail::deliver(*out, [&]() -> R { return fn(); });
      } else {
        detail::deliver(*out, [&]() -> R { return fn(std::move(in->take()).value()); });
      }
    });
    return distributed_future<R>(std::move(out));
  }

  /// The shared state (for combinators).
  [[nodiscard]] const std::shared_ptr<state_type>& state() const noexcept { return state_; }

 private:
  [[nodiscard]] future_status status_of(bool ready) const noexcept {
    if (!ready) return future_status::timeout;
    return state_->outcome().ok() ? future_status::ready : future_status::error;
  }

  std::shared_ptr<state_type> state_;
};

/// The producing side: set_value or set_error, once. Copies share the state (as upstream's). When the
/// last copy goes away unsatisfied, the future fails with status_code::canceled instead of hanging.
template <class T>
class distributed_promise {
 public:
  distributed_promise()
      : state_(std::make_shared<detail::shared_state<T>>()), guard_(std::make_shared<abandon_guard>(state_)) {}

  /// A future of this promise's state; every call gives one (copies share the value).
  [[nodiscard]] distributed_future<T> get_future() const { return distributed_future<T>(state_); }

  /// Completes the future. Throws dtl::status_error (invalid_state) if the promise was already satisfied.
  template <class... Args>
  requires(std::is_void_v<T> ? sizeof...(Args) == 0
                             : std::is_constructible_v<T, Args&&...>) void set_value(Args&&... args) {
    if (!state_ || !state_->set_value(std::forward<Args>(args)...)) throw_satisfied();
  }
  /// Fails the future with `error`. Throws dtl::status_error (invalid_state) if already satisfied.
  void set_error(status error) {
    if (!state_ || !state_->fail(std::move(error))) throw_satisfied();
  }

 private:
  struct abandon_guard {
    explicit abandon_guard(std::shared_ptr<detail::shared_state<T>> s) noexcept : state(std::move(s)) {}
    abandon_guard(const abandon_guard&) = delete;
    abandon_guard& operator=(const abandon_guard&) = delete;
    ~abandon_guard() {
      (void)state->fail(status(status_code::canceled, "the distributed_promise was destroyed before it was satisfied"));
    }
    std::shared_ptr<detail::shared_state<T>> state;
  };

  [[noreturn]] static void throw_satisfied() {
    throw status_error(status(status_code::invalid_state, "the distributed_promise was already satisfied"));
  }

  std::shared_ptr<detail::shared_state<T>> state_;
  std::shared_ptr<abandon_guard> guard_;
};

/// A future that already holds `value`.
template <class T>
[[nodiscard]] distributed_future<std::decay_t<T>> make_ready_distributed_future(T&& value) {
  auto state = std::make_shared<detail::shared_state<std::decay_t<T>>>();
  state->set_value(std::forward<T>(value));
  return distributed_future<std::decay_t<T>>(std::move(state));
}
/// A ready future<void>.
[[nodiscard]] inline distributed_future<void> make_ready_distributed_future() {
  auto state = std::make_shared<detail::shared_state<void>>();
  state->set_value();
  return distributed_future<void>(std::move(state));
}
/// A future that already failed with `error`.
template <class T>
[[nodiscard]] distributed_future<T> make_failed_distributed_future(status error) {
  auto state = std::make_shared<detail::shared_state<T>>();
  state->fail(std::move(error));
  return distributed_future<T>(std::move(state));
}

}  // namespace dtl::futures

namespace dtl {
// Upstream re-exports these into dtl:: (dtl::distributed_future, dtl::future_status, ...).
using futures::continuation_result;
using futures::continuation_result_t;
using futures::distributed_future;
using futures::distributed_promise;
using futures::future_status;
using futures::make_failed_distributed_future;
using futures::make_ready_distributed_future;
using futures::shared_state;
using futures::when_any_result;
}  // namespace dtl

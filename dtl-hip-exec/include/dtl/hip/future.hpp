// SPDX-License-Identifier: MIT
#pragma once
// future<T>, promise<T>, then() and when_all(): results of asynchronous work.
//
//   future<void> f = exec.submit([&](hipStream_t s) { kernel<<<g, b, 0, s>>>(p); });
//   future<int> g = std::move(f).then([&] { return host_copy[0]; });   // runs once f succeeded
//   int v = g.get(std::chrono::seconds(5));                         // the value; errors, timeout throw
//   // or: result<int> r = g.get_result(std::chrono::seconds(5));    // the same, without exceptions
//
// A future is completed by whoever holds its producer: a promise, a progress engine (GPU work), or a
// continuation. Waiting drives the engines the future depends on, so no background thread is needed.
// Continuations run on the thread that completes the future (usually a poller); keep them short.
// A continuation that throws completes its own future with the error; nothing else is affected.
//
// get() returns the value and throws dtl::status_error; get_result() returns result<T> instead (the
// rule of dtl::distributed_future and of the value algorithms). query() never blocks: it drives one
// progress pass and says pending, complete or failed. get(), get_result() and synchronize() block the
// host until the outcome is known (or their timeout passes).
//
// How a thread blocks (get, get_result, synchronize):
// 1. It spins: up to 32 progress passes, yielding in between (a few microseconds), so that a short
//    wait ends with the lowest latency.
// 2. Then, if every engine the future depends on runs a background poller (event_poller::
//    start_background, scoped_background_progress), it blocks on a condition variable: the poller
//    completes the future and wakes it. The waiting thread uses no CPU, however long the kernel runs;
//    one poller serves every waiter. This is the blocking wait: use it for waits that may be long.
// 3. Otherwise it keeps driving progress itself, sleeping 5 us between passes and doubling up to
//    200 us: it notices a finished kernel within 200 us, at the cost of about 5,000 wake-ups a second.
// A thread that must sleep in the driver with no poller at all can record a hip_event made with
// event_flags::blocking_sync and synchronize() it.

#include <dtl/hip/export_exec.hpp>
#include <dtl/core/event.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/status_error.hpp>
#include <dtl/hip/future_state.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace dtl::hip {

/// Waits without a deadline. Every wait takes its own timeout; this is the explicit "forever".
inline constexpr std::chrono::nanoseconds no_timeout = std::chrono::nanoseconds::max();

template <class T>
class future;
template <class T>
class promise;

namespace detail {

/// invalid_state: the future is empty.
[[nodiscard]] DTL_HIP_EXEC_API status empty_future_status();
/// timeout: the wait gave up after `waited`.
[[nodiscard]] DTL_HIP_EXEC_API status wait_timeout_status(std::chrono::nanoseconds waited);

struct future_access {
  template <class T>
  static future<T> make(std::shared_ptr<shared_state<T>> state) noexcept {
    return future<T>(std::move(state));
  }
  template <class T>
  static const std::shared_ptr<shared_state<T>>& state(const future<T>& f) noexcept {
    return f.state_;
  }
  template <class T>
  static std::shared_ptr<shared_state<T>> release(future<T>& f) noexcept {
    return std::move(f.state_);
  }
};

/// f(result<T>) is called whatever the outcome; otherwise f(T) (or f() for void) only on success.
template <class T, class F>
inline constexpr bool takes_result_v = std::is_invocable_v<F&, result<T>>;

template <class T, class F>
struct value_call : std::invoke_result<F&, T> {};
template <class F>
struct value_call<void, F> : std::invoke_result<F&> {};

template <class T, class F>
inline constexpr bool takes_value_v = std::is_invocable_v<F&, T>;
template <class F>
inline constexpr bool takes_value_v<void, F> = std::is_invocable_v<F&>;

template <class T, class F>
using then_return_t =
    typename std::conditional_t<takes_result_v<T, F>, std::invoke_result<F&, result<T>>, value_call<T, F>>::type;

/// The value type of the future a continuation returning R gives: result<X> -> X, status -> void.
template <class R>
struct future_value {
  using type = std::remove_cvref_t<R>;
};
template <>
struct future_value<status> {
  using type = void;
};
template <class X>
struct future_value<result<X>> {
  using type = X;
};
template <class R>
using future_value_t = typename future_value<std::remove_cvref_t<R>>::type;

/// Completes `child` with what `thunk()` returns: nothing, a value, a status or a result.
template <class U, class Thunk>
void deliver(shared_state<U>& child, Thunk&& thunk) {
  using R = std::remove_cvref_t<std::invoke_result_t<Thunk&>>;
  if constexpr (std::is_void_v<R>) {
    thunk();
    child.set_value();
  } else if constexpr (std::is_same_v<R, status>) {
    status s = thunk();
    if (s.ok()) {
      child.set_value();
    } else {
      child.set_error(std::move(s));
    }
  } else if constexpr (is_result_v<R>) {
    R r = thunk();
    if (!r.has_value()) {
      child.set_error(std::move(r).error());
    } else if constexpr (std::is_void_v<U>) {
      child.set_value();
    } else {
      child.set_value(std::move(r).value());
    }
  } else {
    child.set_value(thunk());
  }
}

template <class T, class F, class U>
class then_continuation final : public continuation {
 public:
  template <class G>
  then_continuation(std::shared_ptr<shared_state<U>> child, G&& f) : child_(std::move(child)), f_(std::forward<G>(f)) {}

  void run(futures::detail::completion& ready) noexcept override {
    auto& parent = static_cast<shared_state<T>&>(ready);
    try {
      if constexpr (takes_result_v<T, F>) {
        deliver(*child_, [&]() -> decltype(auto) { return std::invoke(f_, parent.take()); });
      } else if (!parent.outcome().ok()) {
        child_->set_error(parent.outcome());
      } else if constexpr (std::is_void_v<T>) {
        deliver(*child_, [&]() -> decltype(auto) { return std::invoke(f_); });
      } else {
        deliver(*child_, [&]() -> decltype(auto) { return std::invoke(f_, std::move(parent.take()).value()); });
      }
    } catch (...) {
      child_->set_error(dtl::current_exception_status("a then() continuation"));
    }
  }

 private:
  std::shared_ptr<shared_state<U>> child_;
  F f_;
};

/// Completes `out` from its ready inputs: the first error (in input order), or success. Out is
/// shared_state<void>, or shared_state<std::vector<T>> collecting the inputs' values.
template <class Out, class T>
void complete_when_all(Out& out, const std::vector<std::shared_ptr<state_base>>& inputs) noexcept {
  for (const auto& in : inputs) {
    if (!in->outcome().ok()) {
      out.set_error(in->outcome());
      return;
    }
  }
  if constexpr (std::is_void_v<T>) {
    out.set_value();
  } else {
    try {
      std::vector<T> values;
      values.reserve(inputs.size());
      for (const auto& in : inputs) values.push_back(std::move(static_cast<shared_state<T>&>(*in).take()).value());
      out.set_value(std::move(values));
    } catch (...) {
      out.set_error(dtl::current_exception_status("when_all collecting values"));
    }
  }
}

/// when_all's state: completed through dtl-core's join (the one count behind every when_all).
template <class Out, class T>
std::shared_ptr<Out> start_when_all(std::vector<std::shared_ptr<state_base>> inputs) {
  auto out = std::make_shared<Out>();
  for (const auto& in : inputs) out->add_engines_of(*in);
  auto join =
      futures::detail::make_join(inputs.size(), [out, inputs]() noexcept { complete_when_all<Out, T>(*out, inputs); });
  for (const auto& in : inputs) in->on_ready([join] { join->arrive(); });
  join->arrive();  // the extra count: completes only after every arrival is registered
  return out;
}

}  // namespace detail

template <class T>
class [[nodiscard]] future {
 public:
  using value_type = T;

  /// An empty future (valid() is false).
  future() noexcept = default;
  future(future&&) noexcept = default;
  future& operator=(future&&) noexcept = default;
  future(const future&) = delete;
  future& operator=(const future&) = delete;

  /// false when empty: default-made, moved from, or consumed by get(), get_result() or then().
  [[nodiscard]] bool valid() const noexcept { return state_ != nullptr; }

  /// pending, complete or failed(error); drives one progress pass when not ready yet, never blocks.
  /// An empty future reads as failed(invalid_state).
  [[nodiscard]] event_status query() const {
    if (!state_) return event_status::failed(detail::empty_future_status());
    if (!state_->ready()) state_->drive();
    if (!state_->ready()) return event_status::pending();
    return state_->outcome().ok() ? event_status::complete() : event_status::failed(state_->outcome());
  }

  /// The value (nothing for future<void>); throws dtl::status_error with the work's error, or with
  /// status_code::timeout. The same rule as dtl::distributed_future's get(). get_result() is its
  /// non-throwing twin, and says what happens to the future.
  T get(std::chrono::nanoseconds timeout = no_timeout) {
    if constexpr (std::is_void_v<T>) {
      value_or_throw(get_result(timeout));
    } else {
      return value_or_throw(get_result(timeout));
    }
  }

  /// get() without exceptions: the value, or the work's error, or status_code::timeout. On a value or
  /// an error the future is consumed (empty afterwards); after a timeout it stays valid and can be
  /// waited on again. Waits as described at the top of this header: blocking, with a background
  /// poller running.
  [[nodiscard]] result<T> get_result(std::chrono::nanoseconds timeout = no_timeout) {
    if (!state_) return detail::empty_future_status();
    if (!state_->wait_until(detail::deadline_after(timeout))) return detail::wait_timeout_status(timeout);
    auto state = std::move(state_);
    return state->take();
  }

  /// Blocks until the outcome is known, as described at the top of this header, and returns it: ok
  /// on success (the value stays for get()), or the work's error. status_code::timeout when `timeout`
  /// passes first; the future stays valid and can be waited on again.
  [[nodiscard]] result<void> synchronize(std::chrono::nanoseconds timeout = no_timeout) const {
    if (!state_) return detail::empty_future_status();
    if (!state_->wait_until(detail::deadline_after(timeout))) return detail::wait_timeout_status(timeout);
    return state_->outcome();
  }

  /// A future of what `f` returns, run once this one is ready. f(result<T>) always runs; f(T) (f()
  /// for void) runs only on success, an error passing straight through. f may return void, a value,
  /// a dtl::status or a dtl::result<U>. Consumes this future.
  template <class F>
  requires(detail::takes_result_v<T, std::decay_t<F>> || detail::takes_value_v<T, std::decay_t<F>>)
      [[nodiscard]] auto then(F&& f) && {
    using Fn = std::decay_t<F>;
    using U = detail::future_value_t<detail::then_return_t<T, Fn>>;
    if (!state_) return future<U>(std::make_shared<detail::shared_state<U>>(), detail::empty_future_status());
    auto child = std::make_shared<detail::shared_state<U>>();
    child->add_engines_of(*state_);
    auto parent = std::move(state_);
    parent->add_continuation(std::make_unique<detail::then_continuation<T, Fn, U>>(child, std::forward<F>(f)));
    return future<U>(std::move(child));
  }

 private:
  friend struct detail::future_access;
  template <class>
  friend class future;

  explicit future(std::shared_ptr<detail::shared_state<T>> state) noexcept : state_(std::move(state)) {}
  future(std::shared_ptr<detail::shared_state<T>> state, status error) noexcept : state_(std::move(state)) {
    state_->set_error(std::move(error));
  }

  std::shared_ptr<detail::shared_state<T>> state_;
};

static_assert(dtl::Event<future<void>>);

/// The producing side of a future, for completions that do not come from a progress engine.
template <class T>
class promise {
 public:
  promise() : state_(std::make_shared<detail::shared_state<T>>()) {}
  promise(promise&&) noexcept = default;
  promise& operator=(promise&& other) noexcept {
    if (this != &other) {
      abandon();
      state_ = std::move(other.state_);
      retrieved_ = other.retrieved_;
    }
    return *this;
  }
  promise(const promise&) = delete;
  promise& operator=(const promise&) = delete;
  /// A promise destroyed before it is satisfied completes its future with status_code::canceled.
  ~promise() { abandon(); }

  /// The future, once; later calls give an empty future.
  [[nodiscard]] future<T> get_future() {
    if (!state_ || retrieved_) return future<T>();
    retrieved_ = true;
    return detail::future_access::make<T>(state_);
  }

  /// Completes the future with a value (no argument for future<void>). invalid_state if already done.
  template <class... Args>
  result<void> set_value(Args&&... args) {
    if (!state_ || !state_->set_value(std::forward<Args>(args)...)) return already_satisfied();
    return {};
  }
  /// Completes the future with an error. invalid_state if already done.
  result<void> set_error(status error) {
    if (!state_ || !state_->set_error(std::move(error))) return already_satisfied();
    return {};
  }

 private:
  static status already_satisfied() {
    return status(status_code::invalid_state, "the promise was already satisfied (or moved from)");
  }
  void abandon() noexcept {
    if (state_ && !state_->ready())
      state_->set_error(status(status_code::canceled, "the promise was destroyed before it was satisfied"));
  }

  std::shared_ptr<detail::shared_state<T>> state_;
  bool retrieved_ = false;
};

template <class T, class... Args>
[[nodiscard]] future<T> make_ready_future(Args&&... args) {
  auto state = std::make_shared<detail::shared_state<T>>();
  state->set_value(std::forward<Args>(args)...);
  return detail::future_access::make<T>(std::move(state));
}

inline future<void> make_ready_future() { return make_ready_future<void>(); }

template <class T>
[[nodiscard]] future<T> make_failed_future(status error) {
  auto state = std::make_shared<detail::shared_state<T>>();
  state->set_error(std::move(error));
  return detail::future_access::make<T>(std::move(state));
}

/// Completes when every future is ready: with their values in order, or with the first error in
/// input order (only after all are ready, so no input is still running when the caller sees it).
/// Empty futures count as failed with invalid_state. Consumes the futures.
template <class T>
[[nodiscard]] auto when_all(std::vector<future<T>> futures) {
  using Out = std::conditional_t<std::is_void_v<T>, detail::shared_state<void>, detail::shared_state<std::vector<T>>>;
  using V = std::conditional_t<std::is_void_v<T>, void, std::vector<T>>;
  std::vector<std::shared_ptr<detail::state_base>> inputs;
  inputs.reserve(futures.size());
  for (auto& f : futures) {
    if (!f.valid()) f = make_failed_future<T>(detail::empty_future_status());
    inputs.push_back(detail::future_access::release(f));
  }
  return detail::future_access::make<V>(detail::start_when_all<Out, T>(std::move(inputs)));
}

/// when_all for futures of any types: completes (without values) when all are ready.
template <class... Ts>
[[nodiscard]] future<void> when_all(future<Ts>&&... futures) {
  std::vector<std::shared_ptr<detail::state_base>> inputs;
  inputs.reserve(sizeof...(Ts));
  auto add = [&inputs](auto&& f) {
    using F = std::remove_cvref_t<decltype(f)>;
    if (!f.valid()) f = make_failed_future<typename F::value_type>(detail::empty_future_status());
    inputs.push_back(detail::future_access::release(f));
  };
  (add(futures), ...);
  return detail::future_access::make<void>(detail::start_when_all<detail::shared_state<void>, void>(std::move(inputs)));
}

}  // namespace dtl::hip

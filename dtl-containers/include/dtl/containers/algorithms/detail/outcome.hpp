// SPDX-License-Identifier: MIT
#pragma once
// What an algorithm hands back under each execution policy: the one place that decides it. Not for users.
//
//   policy          outcome of an algorithm computing R
//   seq, par        result<R>, once the work is done
//   on_stream{s}    result<R>; R = void returns once the work is enqueued on s, other R wait for s
//   async           hip::future<R>, completed when the work is done
//
// Host work is done before the outcome is made (async gives a ready future); device work is enqueued
// on a stream and completed through outcome_on_stream().

#include <dtl/containers/algorithms/execution.hpp>
#include <dtl/containers/config.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/status_error.hpp>

#include <type_traits>
#include <utility>

#if DTL_CONTAINERS_HAS_HIP
#include <dtl/hip/future.hpp>
#include <dtl/hip/event_poller.hpp>
#include <dtl/hip/runtime.hpp>
#include <dtl/hip/stream_ref.hpp>
#endif

namespace dtl::detail {

template <class Policy>
inline constexpr bool is_parallel_v = std::is_same_v<std::remove_cvref_t<Policy>, par>;

template <class Outcome>
inline constexpr bool is_future_v = false;
#if DTL_CONTAINERS_HAS_HIP
template <class R>
inline constexpr bool is_future_v<hip::future<R>> = true;
#endif

/// A computed result<R> as the outcome under `Policy`: itself, or for async a ready (or failed) future.
template <class Policy, class R>
auto to_outcome(result<R> r) {
#if DTL_CONTAINERS_HAS_HIP
  if constexpr (is_async_v<std::remove_cvref_t<Policy>>) {
    if (!r) return hip::make_failed_future<R>(std::move(r).error());
    if constexpr (std::is_void_v<R>)
      return hip::make_ready_future<void>();
    else
      return hip::make_ready_future<R>(std::move(r).value());
  } else {
    return r;
  }
#else
  return r;
#endif
}

/// The outcome under `Policy` of a failure found before any work started.
template <class Policy, class R>
auto failed_outcome(status error) {
  return to_outcome<Policy, R>(result<R>(std::move(error)));
}

/// `error` as an outcome of type Outcome (a result<R> or a hip::future<R>).
template <class Outcome>
Outcome failed_as(status error) {
  if constexpr (is_future_v<Outcome>) {
#if DTL_CONTAINERS_HAS_HIP
    return hip::make_failed_future<typename Outcome::value_type>(std::move(error));
#endif
  } else {
    return Outcome(std::move(error));
  }
}

/// Maps the value of an outcome with f(const R&) -> U: a result's at once, a future's through then().
template <class Outcome, class F>
auto map_outcome(Outcome outcome, F f) {
  if constexpr (is_future_v<Outcome>) {
    // then() tells f(result<R>) from f(R) by trying both: give it a lambda of R only.
    using R = typename Outcome::value_type;
    return std::move(outcome).then([f = std::move(f)](const R& r) { return f(r); });
  } else {
    using U = decltype(f(*outcome));
    if (!outcome) return result<U>(std::move(outcome).error());
    return result<U>(f(*outcome));
  }
}

/// A value algorithm's bare form: the value, or dtl::status_error; a future stays a future.
template <class Outcome>
auto value_or_throw_unless_future(Outcome outcome) {
  if constexpr (is_future_v<Outcome>)
    return outcome;
  else
    return value_or_throw(std::move(outcome));
}

#if DTL_CONTAINERS_HAS_HIP
/// The outcome of device work enqueued on `stream` (of `device`, which is current): finish(result<void>
/// done) -> result<R> reads what the work produced once the stream has reached it. A future completes
/// through the progress engine; the other policies wait for the stream first, except on_stream with
/// nothing to read (R = void), which returns at once.
template <class Policy, class Finish>
auto outcome_on_stream(hipStream_t stream, int device, Finish finish) {
  using Pol = std::remove_cvref_t<Policy>;
  using R = typename std::invoke_result_t<Finish, result<void>>::value_type;
  if constexpr (is_async_v<Pol>) {
    return hip::event_poller::global().enqueue(hip::stream_ref(stream), device).then(std::move(finish));
  } else if constexpr (is_on_stream_v<Pol> && std::is_void_v<R>) {
    return finish(result<void>());
  } else {
    return finish(result<void>(hip::stream_ref(stream).synchronize()));
  }
}

/// finish() of work that produces nothing to read.
struct nothing_to_read {
  result<void> operator()(result<void> done) const { return done; }
};
#endif

}  // namespace dtl::detail

// SPDX-License-Identifier: MIT
#pragma once
// What an algorithm hands back under each execution policy, and when it waits: the one place that
// decides it. Not for users.
//
//   policy            host placements      device placements: R = void (the result stays on the device) | a value R
//   (none), seq, par  result<R>, done      result<R> once enqueued on the context's stream   | waits, reads
//   on_stream{s}      result<R>, done      result<R> once enqueued on s                        | waits for s, reads
//   async             ready future (inline) hip::future<R>, completed when the work is done (nobody waits)
//
// Stream order keeps a chain of calls on one context serial. What brings data to the host waits for the
// work it needs: value results, copy_to_host/copy_from_host, gather, clone, global_view, destruction and
// relayout (distributed_vector settles the lane), and the collectives on device buffers (they wait for
// the device). v.synchronize() / ctx.synchronize() are the fence before raw interop (a kernel of yours on
// another stream, your own MPI on local_data()). Work under on_stream{s} starts after the calls before it
// (s waits on the device for the context's stream: device_lane::order_after_lane); it is yours to wait for
// on s.
// Where the host could see the difference, seq and par wait as upstream's do: a call over a vector the
// host can reach (unified_memory, device_preferred_on; or a host vector in a mixed copy) returns once
// the work is done (host_visible.hpp). DTL_SYNC_ALGORITHMS=1 makes every device call wait (async then
// gives a completed future), for debugging. A failure of work left running is reported by the next
// call on that device's stream of the context that asks (device_lane::poll_earlier: at most once per tick of
// a coarse clock), by any call that waits, or by the fence (device_lane::settle).
//
// Host work is done inline, on the calling thread, before the outcome is made (async gives a ready
// future: no worker thread, no overlap); device work is enqueued on a stream and completed through
// outcome_on_stream().

#include <dtl/containers/algorithms/execution.hpp>
#include <dtl/containers/config.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/status_error.hpp>

#include <type_traits>
#include <utility>

#if DTL_CONTAINERS_HAS_HIP
#include <dtl/containers/communication/detail/lane.hpp>
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

/// A result<void> outcome's success as `value`: a result at once, a future's through then().
template <class Outcome, class U>
auto outcome_with_value(Outcome outcome, U value) {
  if constexpr (is_future_v<Outcome>) {
    return std::move(outcome).then([value = std::move(value)] { return value; });
  } else {
    if (!outcome) return result<U>(std::move(outcome).error());
    return result<U>(std::move(value));
  }
}

/// A value algorithm's bare form: the value, or dtl::status_error; a future stays a future (its get()
/// throws the same way, its get_result() is the try_ form's).
template <class Outcome>
auto value_or_throw_unless_future(Outcome outcome) {
  if constexpr (is_future_v<Outcome>)
    return outcome;
  else
    return value_or_throw(std::move(outcome));
}

#if DTL_CONTAINERS_HAS_HIP
/// Waits for the work on `stream`: the lane's own stream through the lane (which then is settled).
inline result<void> wait_for_stream(device_lane& lane, hipStream_t stream) {
  if (stream != lane.stream.native_handle()) return hip::stream_ref(stream).synchronize();
  if (status s = lane.settle(); !s.ok()) return s;
  return {};
}

/// The outcome of device work enqueued on `stream` (the lane's, or on_stream's; the lane's device is
/// current): finish(result<void> done) -> result<R> reads what the work produced once the stream has
/// reached it. The table at the top says who waits: a future completes through the progress engine;
/// nothing to read (R = void) returns at once, leaving the lane unsettled; a value waits for the stream.
template <class Policy, class Finish>
auto outcome_on_stream(device_lane& lane, hipStream_t stream, Finish finish) {
  using Pol = std::remove_cvref_t<Policy>;
  using R = typename std::invoke_result_t<Finish, result<void>>::value_type;
  if (sync_algorithms()) return to_outcome<Pol, R>(finish(wait_for_stream(lane, stream)));
  if constexpr (is_async_v<Pol>) {
    // The lane's fence waits for it too.
    if (stream == lane.stream.native_handle()) lane.unsettled.store(true, std::memory_order_release);
    return hip::event_poller::global().enqueue(hip::stream_ref(stream), lane.device).then(std::move(finish));
  } else if constexpr (std::is_void_v<R>) {
    if (stream == lane.stream.native_handle()) lane.unsettled.store(true, std::memory_order_release);
    return finish(result<void>());
  } else {
    return finish(wait_for_stream(lane, stream));
  }
}

/// finish() of work that produces nothing to read.
struct nothing_to_read {
  result<void> operator()(result<void> done) const { return done; }
};
#endif

}  // namespace dtl::detail

// SPDX-License-Identifier: MIT
#pragma once
// Execution policies: how an algorithm runs and when it returns.
//
//   policy            host placements             device placements
//   dtl::seq{}        a loop on this thread       on the GPU, on the context's stream, in stream order
//   dtl::par{}        loops on several threads    same as seq
//   dtl::async{}      runs inline, a ready future on the GPU, on the context's stream; a future
//                                                  (dtl::hip::future), to chain with .then()
//   dtl::on_stream{s} like seq                    enqueued on stream s (of the vector's device)
// On a device placement a call whose result stays on the device (fill, copy, transform, the scans on
// one rank, sort on one rank, ...) returns once its work is enqueued; a value result (reduce, find,
// ...) waits for what it reads; what brings data to the host waits for the calls before it; the fence
// before raw interop is v.synchronize() / ctx.synchronize(). Vectors the host can reach (unified_memory,
// device_preferred_on) wait under seq and par, as upstream. docs/containers.md ("When a call waits") has
// the table; algorithms/detail/outcome.hpp implements it.
// A user function that throws on a host placement: the exception leaves the algorithm call under seq,
// and under par too (the first one, rethrown on the calling thread once every thread has finished).
// dtl::hip_exec is another name for on_stream (the HIP counterpart of upstream DTL's cuda_exec).
// async and on_stream exist in HIP builds. On a host placement async does NOT overlap: the work runs
// inline on the calling thread, before the call returns, and the future is already ready (no worker
// thread); on the host only a halo's exchange_begin/exchange_end overlap. A future's get() returns the
// value and throws dtl::status_error; get_result() returns result<R>.

#include <dtl/containers/config.hpp>

#include <type_traits>

#if DTL_CONTAINERS_HAS_HIP
#include <dtl/hip/future.hpp>
#include <dtl/hip/stream_ref.hpp>
#endif

namespace dtl {

/// Sequential (host) / blocking (device).
struct seq {};
/// Parallel on host threads / blocking (device).
struct par {};

#if DTL_CONTAINERS_HAS_HIP
/// Returns a future instead of waiting (device placements). On host placements the work runs inline,
/// before the call returns: a ready future, no overlap.
struct async {};
/// Ordered on a stream of the vector's device.
struct on_stream {
  hip::stream_ref stream;
  explicit on_stream(hip::stream_ref s) noexcept : stream(s) {}
};
using hip_exec = on_stream;
#endif

namespace detail {
template <class P>
inline constexpr bool is_async_v = false;
template <class P>
inline constexpr bool is_on_stream_v = false;
#if DTL_CONTAINERS_HAS_HIP
template <>
inline constexpr bool is_async_v<async> = true;
template <>
inline constexpr bool is_on_stream_v<on_stream> = true;
#endif
template <class P>
inline constexpr bool is_policy_v =
    std::is_same_v<P, seq> || std::is_same_v<P, par> || is_async_v<P> || is_on_stream_v<P>;
}  // namespace detail

template <class P>
concept ExecutionPolicy = detail::is_policy_v<std::remove_cvref_t<P>>;

}  // namespace dtl

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
// Each policy also answers upstream's questions at compile time (mode(), is_blocking(), ...;
// execution_traits<P>): the answers of its device placements, where async does return at once.
// on_stream exists in HIP builds. dtl::async exists in every build, but the distributed algorithms take
// it in HIP builds only (ExecutionPolicy<async> is false without HIP: host-only builds have no future
// type for them to return; the dtl::async_* forms, <dtl/containers/algorithms/async.hpp>, are there);
// the dispatch layer over plain iterators (policy_dispatch.hpp) takes it in every build. On a host
// placement async does NOT overlap: the work runs
// inline on the calling thread, before the call returns, and the future is already ready (no worker
// thread); on the host only a halo's exchange_begin/exchange_end overlap. A future's get() returns the
// value and throws dtl::status_error; get_result() returns result<R>.

#include <dtl/containers/config.hpp>
#include <dtl/policies/execution/execution_policy.hpp>

#include <type_traits>

#if DTL_CONTAINERS_HAS_HIP
#include <dtl/hip/future.hpp>
#include <dtl/hip/stream_ref.hpp>
#endif

namespace dtl {

/// Sequential (host) / blocking (device).
struct seq {
  using policy_category = execution_policy_tag;
  [[nodiscard]] static constexpr execution_mode mode() noexcept { return execution_mode::synchronous; }
  [[nodiscard]] static constexpr bool is_blocking() noexcept { return true; }
  [[nodiscard]] static constexpr bool is_parallel() noexcept { return false; }
  [[nodiscard]] static constexpr parallelism_level parallelism() noexcept { return parallelism_level::sequential; }
  [[nodiscard]] static constexpr bool allows_vectorization() noexcept { return true; }
  [[nodiscard]] static constexpr bool is_deterministic() noexcept { return true; }
};
/// Parallel on host threads / blocking (device).
struct par {
  using policy_category = execution_policy_tag;
  [[nodiscard]] static constexpr execution_mode mode() noexcept { return execution_mode::synchronous; }
  [[nodiscard]] static constexpr bool is_blocking() noexcept { return true; }
  [[nodiscard]] static constexpr bool is_parallel() noexcept { return true; }
  [[nodiscard]] static constexpr parallelism_level parallelism() noexcept { return parallelism_level::parallel; }
  [[nodiscard]] static constexpr bool allows_vectorization() noexcept { return true; }
  /// The chunks' order is not fixed (a reduce still folds them in order: policy_dispatch.hpp).
  [[nodiscard]] static constexpr bool is_deterministic() noexcept { return false; }
  /// 0: as many threads as the hardware offers (detail::parallel_for decides).
  [[nodiscard]] static constexpr unsigned num_threads() noexcept { return 0; }
};
/// Returns a future instead of waiting (device placements). On host placements the work runs inline,
/// before the call returns: a ready future, no overlap.
struct async {
  using policy_category = execution_policy_tag;
  [[nodiscard]] static constexpr execution_mode mode() noexcept { return execution_mode::asynchronous; }
  [[nodiscard]] static constexpr bool is_blocking() noexcept { return false; }
  [[nodiscard]] static constexpr bool is_parallel() noexcept { return true; }
  [[nodiscard]] static constexpr parallelism_level parallelism() noexcept { return parallelism_level::parallel; }
  [[nodiscard]] static constexpr bool requires_wait() noexcept { return true; }
  [[nodiscard]] static constexpr bool supports_continuations() noexcept { return true; }
};
template <>
struct execution_traits<seq> : detail::execution_traits_of<seq> {};
template <>
struct execution_traits<par> : detail::execution_traits_of<par> {};
template <>
struct execution_traits<async> : detail::execution_traits_of<async> {};

#if DTL_CONTAINERS_HAS_HIP
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

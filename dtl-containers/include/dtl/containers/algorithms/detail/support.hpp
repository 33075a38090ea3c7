// SPDX-License-Identifier: MIT
#pragma once
// What the algorithms' bodies share: the reductions collectives know natively, partials that may be
// absent, and host parallel loops (the shared argument checks are in algorithm_fn.hpp). Not for users.

#include <dtl/containers/communication/collective_types.hpp>
#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/detail/context_services.hpp>
#include <dtl/containers/block_partition.hpp>
#include <dtl/containers/host_device.hpp>
#include <dtl/containers/algorithms/execution.hpp>
#include <dtl/containers/algorithms/ops.hpp>
#include <dtl/containers/algorithms/reduce_result.hpp>
#include <dtl/core/result.hpp>

#include <algorithm>
#include <cstddef>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <system_error>
#include <thread>
#include <type_traits>
#include <vector>

namespace dtl::detail {

/// What a reduction computes: every rank's value (all), the root's only (root), or this rank's (local).
enum class reduce_scope { all, root, local };

/// x -> x, for reductions of the elements themselves.
struct identity_transform {
  template <class X>
  DTL_HOST_DEVICE constexpr const X& operator()(const X& x) const noexcept {
    return x;
  }
};

/// A reduction that MPI, RCCL and NCCL perform natively, with its identity.
template <class T>
struct native_reduction {
  reduce_op op;
  T identity;
};

template <class Op, class T>
constexpr std::optional<native_reduction<T>> native_reduction_of() {
  if constexpr (!has_datatype_v<T>) {
    return std::nullopt;
  } else if constexpr (std::is_same_v<Op, std::plus<>> || std::is_same_v<Op, std::plus<T>> ||
                       std::is_same_v<Op, reduce_sum<>> || std::is_same_v<Op, reduce_sum<T>>) {
    return native_reduction<T>{reduce_op::sum, T{0}};
  } else if constexpr (std::is_same_v<Op, std::multiplies<>> || std::is_same_v<Op, std::multiplies<T>> ||
                       std::is_same_v<Op, reduce_product<>> || std::is_same_v<Op, reduce_product<T>>) {
    return native_reduction<T>{reduce_op::product, T{1}};
  } else if constexpr (std::is_same_v<Op, reduce_min<T>> || std::is_same_v<Op, reduce_min<>>) {
    return native_reduction<T>{reduce_op::min, reduce_min<T>::identity()};
  } else if constexpr (std::is_same_v<Op, reduce_max<T>> || std::is_same_v<Op, reduce_max<>>) {
    return native_reduction<T>{reduce_op::max, reduce_max<T>::identity()};
  } else {
    return std::nullopt;
  }
}

template <class Op, class T>
inline constexpr bool is_native_reduction_v = native_reduction_of<Op, T>().has_value();

/// A partial result that may be absent (a rank without elements contributes nothing), so that user
/// operators need no identity.
template <class T>
struct maybe {
  T value;
  int present;  // int, not bool: a fixed layout for every compiler and collective
};

/// The one rule that combines two partials, on the host and on the device: an absent one leaves the
/// other as it is; two present ones meet in op, in their order. Op is a reference on the host (the
/// caller's operator) and a device-callable copy on the device (device/support.hpp: make_maybe_op).
template <class T, class Op>
struct maybe_op {
  Op op;
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
  DTL_HOST_DEVICE maybe<T> operator()(const maybe<T>& a, const maybe<T>& b) const {
    if (a.present == 0) return b;
    if (b.present == 0) return a;
    return maybe<T>{static_cast<T>(op(a.value, b.value)), 1};
  }
};

/// init combined with every present partial, in order (on the host: host operators).
template <class T, class Op>
T fold_partials(const T& init, std::span<const maybe<T>> partials, Op& op) {
  const maybe_op<T, Op&> combine{op};
  maybe<T> acc{init, 1};
  for (const maybe<T>& p : partials) acc = combine(acc, p);
  return acc.value;
}

/// Runs body(begin, end) over [0, n) on up to hardware_concurrency threads (one thread below `grain`).
/// A body that throws behaves as under seq: every chunk finishes or fails, then the first exception
/// is rethrown on the calling thread (an exception must not leave a std::thread: std::terminate).
template <class Body>
void parallel_for(std::size_t n, Body body, std::size_t grain = std::size_t{1} << 15) {
  const std::size_t hw = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t chunks = std::min(hw, std::max<std::size_t>(1, n / grain));
  if (chunks <= 1) {
    body(std::size_t{0}, n);
    return;
  }
  std::mutex failure_mutex;
  std::exception_ptr failure;
  auto run = [&](std::size_t begin, std::size_t end) noexcept {
    try {
      body(begin, end);
    } catch (...) {
      std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(chunks - 1);
  std::size_t begin = 0;
  for (std::size_t c = 0; c < chunks; ++c) {
    const std::size_t end = even_block_begin(n, chunks, c + 1);
    if (c + 1 == chunks) {
      run(begin, end);
    } else {
      try {
        threads.emplace_back([&run, begin, end] { run(begin, end); });
      } catch (const std::system_error&) {
        run(begin, end);  // no thread to be had: this chunk on the calling thread
      }
    }
    begin = end;
  }
  for (auto& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
}

/// Runs a host loop body(begin, end) over the local block under `Policy`.
template <class Policy, class Body>
result<void> host_loop(std::size_t n, Body body) {
  if constexpr (std::is_same_v<std::remove_cvref_t<Policy>, par>)
    parallel_for(n, body);
  else
    body(std::size_t{0}, n);
  return {};
}

/// How many chunks host threads split n elements into: one per hardware thread, and one per 2^15
/// elements at most.
inline std::size_t host_chunks(std::size_t n) {
  const std::size_t hw = std::max(1u, std::thread::hardware_concurrency());
  return std::min<std::size_t>(hw, std::max<std::size_t>(1, n >> 15));
}

/// fold(begin, end) over the host_chunks(n) chunks of [0, n), on host threads: their results in order.
template <class Part, class Fold>
std::vector<Part> fold_in_chunks(std::size_t n, const Part& empty, Fold&& fold) {
  const std::size_t chunks = host_chunks(n);
  std::vector<Part> parts(chunks, empty);
  parallel_for(
      chunks,
      [&](std::size_t b, std::size_t e) {
        for (std::size_t c = b; c < e; ++c)
          parts[c] = fold(even_block_begin(n, chunks, c), even_block_begin(n, chunks, c + 1));
      },
      1);
  return parts;
}

/// Folds [begin, end) of `data` (transformed by `f`) into a maybe<T> on host threads.
template <bool Parallel, class In, class T, class Op, class F>
maybe<T> host_fold(const In* data, std::size_t n, Op& op, F& f) {
  const maybe_op<T, Op&> combine{op};
  auto fold = [&](std::size_t begin, std::size_t end) {
    maybe<T> acc{T{}, 0};
    for (std::size_t i = begin; i < end; ++i) acc = combine(acc, maybe<T>{static_cast<T>(f(data[i])), 1});
    return acc;
  };
  if constexpr (!Parallel) {
    return fold(0, n);
  } else {
    const std::vector<maybe<T>> parts = fold_in_chunks(n, maybe<T>{T{}, 0}, fold);
    maybe<T> acc{T{}, 0};
    for (const auto& p : parts) acc = combine(acc, p);
    return acc;
  }
}

/// Combines every rank's partial in rank order, starting from `init` (on the host: host operators).
template <class T, class Op>
result<T> combine_partials_on_host(const context& ctx, const maybe<T>& mine, const T& init, Op& op) {
  std::vector<maybe<T>> all(static_cast<std::size_t>(ctx.size()));
  if (result<void> r = allgather_host(ctx, &mine, all.data(), sizeof(mine)); !r) return std::move(r).error();
  return fold_partials<T>(init, all, op);
}

}  // namespace dtl::detail

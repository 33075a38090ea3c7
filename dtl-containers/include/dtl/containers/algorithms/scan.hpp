#pragma once
// Prefix scans across ranks, in global index order.
//
//   dtl::inclusive_scan(in, out);                         // out[i] = in[0] + ... + in[i]
//   dtl::inclusive_scan(dtl::par{}, in, out, 10, op);     // out[i] = 10 op in[0] op ... op in[i]
//   dtl::exclusive_scan(in, out, 0);                      // out[i] = 0 + in[0] + ... + in[i - 1]
//
// Collective. Each rank scans its block, the ranks exchange their block totals (an allgather), and
// each block is offset by the totals of the blocks before it. Operators must be associative; init is
// applied once, at the start of the global sequence. in and out may be the same vector.
// Returns result<void> (a future under dtl::async; on the GPU the exchange waits for the local scan).

#include <dtl/containers/detail/algorithm_support.hpp>
#include <dtl/containers/detail/device_algorithms.hpp>
#include <dtl/containers/detail/dispatch.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/containers/execution.hpp>

#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

namespace dtl {

namespace detail {

/// The offset for this rank: init op the totals of every earlier rank (host operators).
template <class T, class Op>
result<T> scan_prefix_on_host(const context& ctx, const maybe<T>& total, const T& init, Op& op) {
  std::vector<maybe<T>> all(static_cast<std::size_t>(ctx.size()));
  if (result<void> r = allgather_host(ctx, &total, all.data(), sizeof(total)); !r) return std::move(r).error();
  T prefix = init;
  for (int r = 0; r < ctx.rank(); ++r)
    if (all[static_cast<std::size_t>(r)].present != 0) prefix = op(prefix, all[static_cast<std::size_t>(r)].value);
  return prefix;
}


template <bool Inclusive, class Policy, class T, class P, class Q, class Op>
auto run_scan(Policy& policy, const distributed_vector<T, P>& in, distributed_vector<T, Q>& out, const T& init, Op op) {
  using Pol = std::remove_cvref_t<Policy>;
  static_assert(P::device_accessible == Q::device_accessible, "scan: both vectors on the device, or both on the host");
  if (status s = check_same_layout(in, out, Inclusive ? "inclusive_scan" : "exclusive_scan"); !s.ok())
    return failed_outcome<Pol, void>(s);
  const context& ctx = in.get_context();
  if (status s = ctx.check(); !s.ok()) return failed_outcome<Pol, void>(std::move(s));
  if constexpr (P::device_accessible) {
    return device_algo::scan<Inclusive>(policy, ctx, out.device_id(), in.local_data(), out.local_data(),
                                        in.local_size(), init, op);
  } else {
    const T* src = in.local_data();
    T* dst = out.local_data();
    const std::size_t n = in.local_size();
    // Local scan without init (the block's running fold), then the rank's offset.
    maybe<T> total{T{}, 0};
    for (std::size_t i = 0; i < n; ++i) {
      const T x = src[i];
      if constexpr (!Inclusive) dst[i] = total.value;  // fixed below once the prefix is known
      total = total.present == 0 ? maybe<T>{x, 1} : maybe<T>{op(total.value, x), 1};
      if constexpr (Inclusive) dst[i] = total.value;
    }
    auto prefix = scan_prefix_on_host(ctx, total, init, op);
    if (!prefix) return failed_outcome<Pol, void>(std::move(prefix).error());
    const T offset = *prefix;
    for (std::size_t i = 0; i < n; ++i) {
      if constexpr (Inclusive)
        dst[i] = op(offset, dst[i]);
      else
        dst[i] = i == 0 ? offset : op(offset, dst[i]);
    }
    return host_outcome<Pol, void>(result<void>());
  }
}

}  // namespace detail

template <ExecutionPolicy Policy, class T, class P, class Q, class Init, class Op = std::plus<>>
auto inclusive_scan(Policy&& policy, const distributed_vector<T, P>& in, distributed_vector<T, Q>& out,
                    const Init& init, Op op = {}) {
  return detail::run_scan<true>(policy, in, out, static_cast<T>(init), op);
}
template <ExecutionPolicy Policy, class T, class P, class Q>
auto inclusive_scan(Policy&& policy, const distributed_vector<T, P>& in, distributed_vector<T, Q>& out) {
  return detail::run_scan<true>(policy, in, out, T{}, std::plus<>{});
}
template <class T, class P, class Q, class Init, class Op = std::plus<>>
result<void> inclusive_scan(const distributed_vector<T, P>& in, distributed_vector<T, Q>& out, const Init& init, Op op = {}) {
  return inclusive_scan(seq{}, in, out, init, op);
}
template <class T, class P, class Q>
result<void> inclusive_scan(const distributed_vector<T, P>& in, distributed_vector<T, Q>& out) {
  return inclusive_scan(seq{}, in, out);
}

template <ExecutionPolicy Policy, class T, class P, class Q, class Init, class Op = std::plus<>>
auto exclusive_scan(Policy&& policy, const distributed_vector<T, P>& in, distributed_vector<T, Q>& out,
                    const Init& init, Op op = {}) {
  return detail::run_scan<false>(policy, in, out, static_cast<T>(init), op);
}
template <class T, class P, class Q, class Init, class Op = std::plus<>>
result<void> exclusive_scan(const distributed_vector<T, P>& in, distributed_vector<T, Q>& out, const Init& init, Op op = {}) {
  return exclusive_scan(seq{}, in, out, init, op);
}

}  // namespace dtl

// SPDX-License-Identifier: MIT
#pragma once
// Prefix scans across ranks, in global index order; at the end of this file, upstream DTL's
// partial_sum, transform_inclusive_scan / transform_exclusive_scan and its local_ forms (one rank's
// block).
//
//   dtl::inclusive_scan(in, out);                         // out[i] = in[0] + ... + in[i]
//   dtl::inclusive_scan(dtl::par{}, in, out, 10, op);     // out[i] = 10 op in[0] op ... op in[i]
//   dtl::exclusive_scan(in, out, 0);                      // out[i] = 0 + in[0] + ... + in[i - 1]
//
// Collective. Each rank scans its block, the ranks combine their block totals (an exclusive scan for
// std::plus<>, std::multiplies<>, dtl::reduce_min and dtl::reduce_max on arithmetic types; an allgather
// for any other operator), and each block is offset by the totals of the blocks before it. Operators must be
// associative; init is applied once, at the start of the global sequence. in and out may be the same vector. Returns
// result<void> (a future under dtl::async; on the GPU the exchange waits for the local scan).

#include <dtl/containers/algorithms/detail/support.hpp>
#include <dtl/containers/algorithms/device/scan.hpp>
#include <dtl/containers/algorithms/detail/algorithm_fn.hpp>
#include <dtl/containers/algorithms/detail/communicator_forms.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/containers/algorithms/execution.hpp>
#include <dtl/containers/algorithms/modify.hpp>
#include <dtl/core/try.hpp>

#include <cstddef>
#include <functional>
#include <span>
#include <utility>
#include <vector>
#include <algorithm>

namespace dtl {

namespace detail {

/// The offset for this rank: init op the totals of every earlier rank (host operators). An operator the
/// collectives know natively takes one exclusive scan (log P steps, one value per rank); any other one
/// an allgather of the totals (P of them on every rank), folded in rank order.
template <class T, class Op>
result<T> scan_prefix_on_host(const context& ctx, const maybe<T>& total, const T& init, Op& op) {
  if constexpr (is_native_reduction_v<Op, T>) {
    constexpr auto native = *native_reduction_of<Op, T>();
    const T part = total.present != 0 ? total.value : native.identity;
    DTL_ASSIGN_OR_RETURN(const T before, ctx.exscan_value(part, native.op));  // op's identity on rank 0
    return static_cast<T>(op(init, before));
  } else {
    std::vector<maybe<T>> all(static_cast<std::size_t>(ctx.size()));
    if (result<void> r = allgather_host(ctx, &total, all.data(), sizeof(total)); !r) return std::move(r).error();
    return fold_partials<T>(init, std::span<const maybe<T>>(all).first(static_cast<std::size_t>(ctx.rank())), op);
  }
}

/// Inclusive or exclusive scan of in into out (in and out may be the same vector).
template <bool Inclusive>
struct scan_impl {
  static constexpr const char* name = Inclusive ? "inclusive_scan" : "exclusive_scan";
  static constexpr bool communicates = true;

  template <class Pol, class T, class P, class Q, class Init = T, class Op = std::plus<>>
  static result<void> host(const Pol&, const distributed_vector<T, P>& in, distributed_vector<T, Q>& out,
                           const Init& init = Init{}, Op op = {}) {
    const T* src = in.local_data();
    T* dst = out.local_data();
    const std::size_t n = in.local_size();
    // Local scan without init (the block's running fold), then the rank's offset.
    const maybe<T> total = before_communicating(in.get_context(), true, name, [&] {
      maybe<T> running{T{}, 0};
      const maybe_op<T, Op&> combine{op};
      for (std::size_t i = 0; i < n; ++i) {
        const T x = src[i];
        if constexpr (!Inclusive) dst[i] = running.value;  // fixed below once the prefix is known
        running = combine(running, maybe<T>{x, 1});
        if constexpr (Inclusive) dst[i] = running.value;
      }
      return running;
    });
    DTL_ASSIGN_OR_RETURN(const T offset, scan_prefix_on_host(in.get_context(), total, static_cast<T>(init), op));
    for (std::size_t i = 0; i < n; ++i) {
      if constexpr (Inclusive)
        dst[i] = op(offset, dst[i]);
      else
        dst[i] = i == 0 ? offset : op(offset, dst[i]);
    }
    return {};
  }

  template <class Pol, class T, class P, class Q, class Init = T, class Op = std::plus<>>
  static auto device(const Pol& policy, const distributed_vector<T, P>& in, distributed_vector<T, Q>& out,
                     const Init& init = Init{}, Op op = {}) {
    return device::scan<Inclusive>(policy, in.get_context(), out.device_id(), in.local_data(), out.local_data(),
                                   in.local_size(), static_cast<T>(init), op);
  }
};

}  // namespace detail

namespace detail {

/// A scan with upstream's communicator form beside its own: (policy, in, out, init, op, group), which
/// returns the scan's result<void> once `group` is known to be the vectors' context (communicator_forms.hpp).
template <bool Inclusive>
struct scan_with_communicator_form : status_algorithm<scan_impl<Inclusive>> {
  using status_algorithm<scan_impl<Inclusive>>::operator();

  // Forwarding references, as the base's: an exact match on every argument, so that this more specialised
  // form is the one chosen.
  template <blocking_policy Pol, class In, class Out, class Init, class Op, rank_group G>
  requires(!rank_group<Op>) result<void>
  operator()(Pol&& policy, In&& in, Out&& out, Init&& init, Op&& op, G&& group) const {
    DTL_TRY(check_group(scan_impl<Inclusive>::name, in, group));
    return status_algorithm<scan_impl<Inclusive>>::operator()(policy, in, out, init, op);
  }
};

}  // namespace detail

inline constexpr detail::scan_with_communicator_form<true> inclusive_scan{};
inline constexpr detail::scan_with_communicator_form<false> exclusive_scan{};

// Upstream DTL's scans of this rank's block alone (no communication; host placements): out's block is the
// running fold of in's from init (inclusive), or the fold before each element (exclusive), over the
// elements both blocks hold.
template <class T, class P, class U, class Q, class Init, class Op>
requires(P::host_accessible&& Q::host_accessible) void local_inclusive_scan(const distributed_vector<T, P>& in,
                                                                            distributed_vector<U, Q>& out, Init init,
                                                                            Op op) {
  const std::size_t n = std::min(in.local_size(), out.local_size());
  for (std::size_t i = 0; i < n; ++i) {
    init = op(init, in.local_data()[i]);
    out.local_data()[i] = static_cast<U>(init);
  }
}
template <class T, class P, class U, class Q, class Init, class Op>
requires(P::host_accessible&& Q::host_accessible) void local_exclusive_scan(const distributed_vector<T, P>& in,
                                                                            distributed_vector<U, Q>& out, Init init,
                                                                            Op op) {
  const std::size_t n = std::min(in.local_size(), out.local_size());
  for (std::size_t i = 0; i < n; ++i) {
    const T x = in.local_data()[i];  // in and out may be one vector
    out.local_data()[i] = static_cast<U>(init);
    init = op(init, x);
  }
}

// Upstream DTL's partial_sum: inclusive_scan with std::plus<> from T{} (its placements, policies and
// failures).
template <ExecutionPolicy Pol, class T, class P, class U, class Q>
auto partial_sum(Pol&& policy, const distributed_vector<T, P>& in, distributed_vector<U, Q>& out) {
  return dtl::inclusive_scan(policy, in, out);
}
template <class T, class P, class U, class Q>
auto partial_sum(const distributed_vector<T, P>& in, distributed_vector<U, Q>& out) {
  return dtl::inclusive_scan(in, out);
}

// Upstream DTL's transform scans: out = the scan of unary_op(in[i]) from init, over every rank
// (collective; the transform, then the scan in place on out). Returns the scan's result<void>.
template <detail::blocking_policy Pol, class T, class P, class U, class Q, class Init, class Op, class UnaryOp>
result<void> transform_inclusive_scan(Pol&& policy, const distributed_vector<T, P>& in, distributed_vector<U, Q>& out,
                                      Init init, Op op, UnaryOp unary_op) {
  DTL_TRY(dtl::transform(policy, in, out, unary_op));
  return dtl::inclusive_scan(policy, out, out, init, op);
}
template <detail::blocking_policy Pol, class T, class P, class U, class Q, class Init, class Op, class UnaryOp>
result<void> transform_exclusive_scan(Pol&& policy, const distributed_vector<T, P>& in, distributed_vector<U, Q>& out,
                                      Init init, Op op, UnaryOp unary_op) {
  DTL_TRY(dtl::transform(policy, in, out, unary_op));
  return dtl::exclusive_scan(policy, out, out, init, op);
}
// The same over upstream's communicator (communicator_forms.hpp): it must be the vectors' context's.
template <detail::blocking_policy Pol, class T, class P, class U, class Q, class Init, class Op, class UnaryOp,
          detail::rank_group G>
result<void> transform_inclusive_scan(Pol&& policy, const distributed_vector<T, P>& in, distributed_vector<U, Q>& out,
                                      Init init, Op op, UnaryOp unary_op, G&& group) {
  DTL_TRY(detail::check_group("transform_inclusive_scan", in, group));
  return dtl::transform_inclusive_scan(policy, in, out, init, op, unary_op);
}
template <detail::blocking_policy Pol, class T, class P, class U, class Q, class Init, class Op, class UnaryOp,
          detail::rank_group G>
result<void> transform_exclusive_scan(Pol&& policy, const distributed_vector<T, P>& in, distributed_vector<U, Q>& out,
                                      Init init, Op op, UnaryOp unary_op, G&& group) {
  DTL_TRY(detail::check_group("transform_exclusive_scan", in, group));
  return dtl::transform_exclusive_scan(policy, in, out, init, op, unary_op);
}

}  // namespace dtl

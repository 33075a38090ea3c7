// SPDX-License-Identifier: MIT
#pragma once
// partial_sort over every rank, and upstream DTL's local_partial_sort of one rank's block.
//
//   dtl::partial_sort(vec, 100);                     // global indices [0, 100): the 100 smallest, in order
//   dtl::partial_sort(dtl::par{}, vec, 10, std::greater<>{});
//   dtl::partial_sort_copy(in, out);                 // out: in's out.size() smallest, in order
//   dtl::top_k(dtl::seq{}, in, out, 10);             // out's first 10: in's 10 largest, largest first
//   dtl::local_partial_sort(vec, 5);                 // this rank's block alone
//
// partial_sort is collective: afterwards global indices [0, min(k, size())) hold the smallest elements
// by comp, in order, across the ranks; each rank keeps its block's size. It is the distributed sort
// (which orders the rest too), so it runs on host and device placements alike (docs/containers.md,
// "Sort"), and returns result<void> (a future under dtl::async), the same on every rank. Upstream's
// communicator (or the context) may come last. partial_sort_copy, top_k and bottom_k sort a copy of in's
// block and move the prefix to out's layout (one alltoallv); they run on host placements (a device
// placement gives not_supported) and return result<void>, the same on every rank.

#include <dtl/containers/algorithms/detail/algorithm_fn.hpp>
#include <dtl/containers/algorithms/detail/group_forms.hpp>
#include <dtl/containers/algorithms/detail/host_only.hpp>
#include <dtl/containers/algorithms/detail/host_sort.hpp>
#include <dtl/containers/algorithms/sort.hpp>
#include <dtl/containers/communication/detail/agreement.hpp>
#include <dtl/containers/detail/layout_moves.hpp>
#include <dtl/containers/detail/redistribute.hpp>
#include <dtl/containers/detail/segment_ops.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/core/types.hpp>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace dtl {

namespace detail {

struct partial_sort_impl {
  static constexpr const char* name = "partial_sort";
  static constexpr bool communicates = true;
  template <class Pol, class T, class P, class Comp = std::less<>>
  static auto host(const Pol& policy, distributed_vector<T, P>& vec, size_type, Comp comp = {}) {
    return sort_impl::host(policy, vec, comp);
  }
  template <class Pol, class T, class P, class Comp = std::less<>>
  static auto device(const Pol& policy, distributed_vector<T, P>& vec, size_type, Comp comp = {}) {
    return sort_impl::device(policy, vec, comp);
  }
};

/// The first min(count, in's size, out's size) elements of in's global order by comp into out's first
/// global indices, in order; in is unchanged (its block is copied and the copy sorted). The rest of out
/// keeps its values.
template <class T, class P, class U, class Q, class Comp>
result<void> sorted_prefix_into(const distributed_vector<T, P>& in, distributed_vector<U, Q>& out, size_type count,
                                Comp& comp, const char* name) {
  const context& ctx = in.get_context();
  DTL_TRY(ctx.check());
  if constexpr (P::device_accessible || Q::device_accessible) {
    return host_only_outcome<seq, void>(name);
  } else {
    if (!ctx.same_as(out.get_context()))
      return status(status_code::invalid_argument, std::string(name) + ": in and out belong to different contexts");
    // The first m elements move from in's layout to out's, both cut at m.
    const std::size_t m = std::min({count, in.global_size(), out.global_size()});
    std::vector<std::size_t> from = partition_offsets(in.partition()), to = partition_offsets(out.partition());
    for (std::size_t& o : from) o = std::min(o, m);
    for (std::size_t& o : to) o = std::min(o, m);
    const std::size_t me = static_cast<std::size_t>(ctx.rank());
    std::vector<T> sorted, received;
    const status room = catch_allocation_failure(name, [&]() -> status {
      sorted.assign(in.local_data(), in.local_data() + in.local_size());
      received.resize(to[me + 1] - to[me]);
      return {};
    });
    DTL_TRY(agree_before(true, ctx, room, name));
    DTL_TRY(host_sample_sort<false, false>(ctx, sorted.data(), sorted.size(), key_itself{}, comp));
    const layout_moves moves = moves_between(from, to, me);
    DTL_TRY(ctx.alltoallv(sorted.data(), moves.send_counts, moves.send_displs, received.data(), moves.recv_counts,
                          moves.recv_displs));
    U* dst = out.local_data();
    for (std::size_t i = 0; i < received.size(); ++i) dst[i] = static_cast<U>(received[i]);
    return {};
  }
}

/// comp with its arguments swapped: the largest first.
template <class Comp>
struct reversed {
  Comp comp;
  template <class A, class B>
  bool operator()(const A& a, const B& b) const {
    return comp(b, a);
  }
};

}  // namespace detail

inline constexpr detail::with_group_forms<detail::status_algorithm<detail::partial_sort_impl>,
                                          detail::partial_sort_impl>
    partial_sort{};

/// out's first min(in's size, out's size) global indices get in's smallest elements by comp, in order;
/// in is unchanged. Collective; host placements (else not_supported); in and out share a context (else
/// invalid_argument), their sizes and layouts may differ.
template <ExecutionPolicy Pol, class T, class P, class U, class Q, class Comp = std::less<>>
result<void> partial_sort_copy(Pol&&, const distributed_vector<T, P>& in, distributed_vector<U, Q>& out,
                               Comp comp = {}) {
  return detail::sorted_prefix_into(in, out, in.global_size(), comp, "partial_sort_copy");
}
template <class T, class P, class U, class Q, class Comp = std::less<>>
result<void> partial_sort_copy(const distributed_vector<T, P>& in, distributed_vector<U, Q>& out, Comp comp = {}) {
  return partial_sort_copy(seq{}, in, out, comp);
}

/// out's first min(k, sizes) global indices get in's k largest elements by comp, largest first.
template <ExecutionPolicy Pol, class T, class P, class U, class Q, class Comp = std::less<>>
result<void> top_k(Pol&&, const distributed_vector<T, P>& in, distributed_vector<U, Q>& out, size_type k,
                   Comp comp = {}) {
  detail::reversed<Comp> largest_first{comp};
  return detail::sorted_prefix_into(in, out, k, largest_first, "top_k");
}

/// out's first min(k, sizes) global indices get in's k smallest elements by comp, smallest first.
template <ExecutionPolicy Pol, class T, class P, class U, class Q, class Comp = std::less<>>
result<void> bottom_k(Pol&&, const distributed_vector<T, P>& in, distributed_vector<U, Q>& out, size_type k,
                      Comp comp = {}) {
  return detail::sorted_prefix_into(in, out, k, comp, "bottom_k");
}

/// This rank's block with its smallest min(k, block size) elements first, in order (std::partial_sort).
template <class T, class P, class Comp = std::less<>>
requires(P::host_accessible) void local_partial_sort(distributed_vector<T, P>& vec, size_type k, Comp comp = {}) {
  T* data = vec.local_data();
  const std::size_t n = vec.local_size();
  std::partial_sort(data, data + std::min(k, n), data + n, comp);
}

}  // namespace dtl

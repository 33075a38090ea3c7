// SPDX-License-Identifier: MIT
#pragma once
// partial_sort over every rank, and upstream DTL's local_partial_sort of one rank's block.
//
//   dtl::partial_sort(vec, 100);                     // global indices [0, 100): the 100 smallest, in order
//   dtl::partial_sort(dtl::par{}, vec, 10, std::greater<>{});
//   dtl::local_partial_sort(vec, 5);                 // this rank's block alone
//
// partial_sort is collective: afterwards global indices [0, min(k, size())) hold the smallest elements
// by comp, in order, across the ranks; each rank keeps its block's size. It is the distributed sort
// (which orders the rest too), so it runs on host and device placements alike (docs/containers.md,
// "Sort"), and returns result<void> (a future under dtl::async), the same on every rank. Upstream's
// communicator (or the context) may come last.

#include <dtl/containers/algorithms/detail/algorithm_fn.hpp>
#include <dtl/containers/algorithms/detail/group_forms.hpp>
#include <dtl/containers/algorithms/sort.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/core/types.hpp>

#include <algorithm>
#include <cstddef>
#include <functional>

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

}  // namespace detail

inline constexpr detail::with_group_forms<detail::status_algorithm<detail::partial_sort_impl>,
                                          detail::partial_sort_impl>
    partial_sort{};

/// This rank's block with its smallest min(k, block size) elements first, in order (std::partial_sort).
template <class T, class P, class Comp = std::less<>>
requires(P::host_accessible) void local_partial_sort(distributed_vector<T, P>& vec, size_type k, Comp comp = {}) {
  T* data = vec.local_data();
  const std::size_t n = vec.local_size();
  std::partial_sort(data, data + std::min(k, n), data + n, comp);
}

}  // namespace dtl

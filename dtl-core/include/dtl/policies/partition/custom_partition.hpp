// SPDX-License-Identifier: MIT
#pragma once
// custom_partition<F>: the owner of global index i is F(i, n, ranks). A rank numbers its own elements
// in index order, so local_size, to_local and to_global walk the indices (O(n)): for small or
// irregular layouts.

#include <dtl/policies/partition/partition_policy.hpp>

#include <functional>
#include <type_traits>
#include <utility>

namespace dtl {

template <class OwnerFn>
struct custom_partition {
  using policy_category = partition_policy_tag;
  using owner_function = OwnerFn;

  explicit custom_partition(OwnerFn fn) : owner_fn_(std::move(fn)) {}

  [[nodiscard]] rank_t owner(index_t global_idx, size_type n, rank_t ranks) const {
    return std::invoke(owner_fn_, global_idx, n, ranks);
  }
  /// How many of the n indices F gives to `rank`.
  [[nodiscard]] size_type local_size(size_type n, rank_t ranks, rank_t rank) const {
    return count_before(static_cast<index_t>(n), n, ranks, rank);
  }
  /// Upstream's name for the counting local_size.
  [[nodiscard]] size_type exact_local_size(size_type n, rank_t ranks, rank_t rank) const {
    return local_size(n, ranks, rank);
  }
  /// The number of rank's indices before global_idx (its local index when rank owns it).
  [[nodiscard]] index_t to_local(index_t global_idx, size_type n, rank_t ranks, rank_t rank) const {
    return static_cast<index_t>(count_before(global_idx, n, ranks, rank));
  }
  /// rank's local_idx-th index; -1 when rank has fewer.
  [[nodiscard]] index_t to_global(index_t local_idx, size_type n, rank_t ranks, rank_t rank) const {
    index_t seen = 0;
    for (index_t i = 0; i < static_cast<index_t>(n); ++i)
      if (owner(i, n, ranks) == rank && seen++ == local_idx) return i;
    return -1;
  }
  /// The rank's elements numbered from 0.
  [[nodiscard]] partition_info make_info(size_type n, rank_t ranks, rank_t rank) const {
    return detail::make_partition_info(*this, n, ranks, rank, 0);
  }

 private:
  [[nodiscard]] size_type count_before(index_t end, size_type n, rank_t ranks, rank_t rank) const {
    size_type count = 0;
    for (index_t i = 0; i < end; ++i)
      if (owner(i, n, ranks) == rank) ++count;
    return count;
  }
  OwnerFn owner_fn_;
};

template <class Fn>
[[nodiscard]] auto make_custom_partition(Fn&& fn) {
  return custom_partition<std::decay_t<Fn>>(std::forward<Fn>(fn));
}

using dynamic_custom_partition = custom_partition<std::function<rank_t(index_t, size_type, rank_t)>>;

}  // namespace dtl

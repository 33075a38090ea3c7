// SPDX-License-Identifier: MIT
#pragma once
// replicated: every rank holds every element; owner() answers all_ranks and the local numbering is the
// global one.

#include <dtl/policies/partition/partition_policy.hpp>

namespace dtl {

struct replicated {
  using policy_category = partition_policy_tag;
  [[nodiscard]] static constexpr rank_t owner(index_t /*global_idx*/, size_type /*n*/, rank_t /*ranks*/) noexcept {
    return all_ranks;
  }
  [[nodiscard]] static constexpr bool is_local(index_t /*global_idx*/, size_type /*n*/, rank_t /*ranks*/,
                                               rank_t /*rank*/) noexcept {
    return true;
  }
  [[nodiscard]] static constexpr size_type local_size(size_type n, rank_t /*ranks*/, rank_t /*rank*/) noexcept {
    return n;
  }
  [[nodiscard]] static constexpr index_t to_local(index_t global_idx, size_type /*n*/, rank_t /*ranks*/,
                                                  rank_t /*rank*/) noexcept {
    return global_idx;
  }
  [[nodiscard]] static constexpr index_t to_global(index_t local_idx, size_type /*n*/, rank_t /*ranks*/,
                                                   rank_t /*rank*/) noexcept {
    return local_idx;
  }
  [[nodiscard]] static constexpr partition_info make_info(size_type n, rank_t ranks, rank_t rank) noexcept {
    return detail::make_partition_info(replicated{}, n, ranks, rank, 0);
  }
};

}  // namespace dtl

// SPDX-License-Identifier: MIT
#pragma once
// hash_partition<Hash>: keyed data (upstream's distributed maps). A key's owner is Hash(key) modulo the
// rank count; owner(h, ...) takes the hash value itself. A rank's count depends on the keys, so
// local_size() is the even share rounded up (the capacity to expect), and a rank's slots are numbered
// by the hash value itself (to_local / to_global are the identity).

#include <dtl/policies/partition/partition_policy.hpp>

#include <functional>

namespace dtl {

template <class Hash = std::hash<size_type>>
struct hash_partition {
  using policy_category = partition_policy_tag;
  using hasher = Hash;

  /// The owner of hash value h (rank 0 when ranks <= 0).
  [[nodiscard]] static constexpr rank_t owner(index_t h, size_type /*n*/, rank_t ranks) noexcept {
    if (ranks <= 0) return 0;
    return static_cast<rank_t>(static_cast<size_type>(h) % static_cast<size_type>(ranks));
  }
  /// The owner of `key`.
  template <class Key>
  [[nodiscard]] static rank_t owner_of(const Key& key, size_type n, rank_t ranks) {
    return owner(static_cast<index_t>(Hash{}(key)), n, ranks);
  }
  [[nodiscard]] static constexpr size_type local_size(size_type n, rank_t ranks, rank_t /*rank*/) noexcept {
    if (ranks <= 0) return 0;
    return (n + static_cast<size_type>(ranks) - 1) / static_cast<size_type>(ranks);
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
    return detail::make_partition_info(hash_partition{}, n, ranks, rank, 0);
  }
};

}  // namespace dtl

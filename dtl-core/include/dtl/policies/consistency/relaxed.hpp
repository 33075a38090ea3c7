// SPDX-License-Identifier: MIT
#pragma once
// relaxed: no ordering and no visibility promise; reads may be stale, operations may be reordered and
// coalesced. The user synchronizes (a barrier, or another policy's fences).

#include <dtl/policies/consistency/consistency_policy.hpp>

namespace dtl {

struct relaxed {
  using policy_category = consistency_policy_tag;
  [[nodiscard]] static constexpr memory_ordering ordering() noexcept { return memory_ordering::relaxed; }
  [[nodiscard]] static constexpr bool requires_barrier() noexcept { return false; }
  [[nodiscard]] static constexpr bool allows_overlap() noexcept { return true; }
  [[nodiscard]] static constexpr bool needs_collective_sync() noexcept { return false; }
  [[nodiscard]] static constexpr sync_point default_sync() noexcept { return sync_point::none; }
  [[nodiscard]] static constexpr bool allows_stale_reads() noexcept { return true; }
  [[nodiscard]] static constexpr bool allows_reordering() noexcept { return true; }
  [[nodiscard]] static constexpr bool allows_coalescing() noexcept { return true; }
  /// The policy's synchronization point, sync_point::none: it orders nothing, by definition.
  static constexpr void sync() noexcept {}
};

template <>
struct consistency_traits<relaxed> : detail::consistency_traits_of<relaxed> {};

}  // namespace dtl

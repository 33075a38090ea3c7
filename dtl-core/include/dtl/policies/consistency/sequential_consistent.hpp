// SPDX-License-Identifier: MIT
#pragma once
// sequential_consistent: one global order of all operations; a write is visible as soon as it
// completes, so nothing overlaps and every step needs a collective barrier.

#include <dtl/policies/consistency/consistency_policy.hpp>

namespace dtl {

struct sequential_consistent {
  using policy_category = consistency_policy_tag;
  [[nodiscard]] static constexpr memory_ordering ordering() noexcept { return memory_ordering::sequential; }
  [[nodiscard]] static constexpr bool requires_barrier() noexcept { return true; }
  [[nodiscard]] static constexpr bool allows_overlap() noexcept { return false; }
  [[nodiscard]] static constexpr bool needs_collective_sync() noexcept { return true; }
  [[nodiscard]] static constexpr sync_point default_sync() noexcept { return sync_point::barrier; }
  [[nodiscard]] static constexpr bool immediate_visibility() noexcept { return true; }
  [[nodiscard]] static constexpr bool allows_stale_reads() noexcept { return false; }
};

template <>
struct consistency_traits<sequential_consistent> : detail::consistency_traits_of<sequential_consistent> {};

}  // namespace dtl

// SPDX-License-Identifier: MIT
#pragma once
// bulk_synchronous: supersteps. Between two barriers operations run in any order and may overlap
// communication; writes are buffered and every rank sees them all after the barrier.

#include <dtl/core/thread_fence.hpp>
#include <dtl/policies/consistency/consistency_policy.hpp>

#include <atomic>

namespace dtl {

struct bulk_synchronous {
  using policy_category = consistency_policy_tag;
  [[nodiscard]] static constexpr memory_ordering ordering() noexcept { return memory_ordering::sequential; }
  [[nodiscard]] static constexpr bool requires_barrier() noexcept { return true; }
  [[nodiscard]] static constexpr bool allows_overlap() noexcept { return true; }
  [[nodiscard]] static constexpr bool needs_collective_sync() noexcept { return true; }
  [[nodiscard]] static constexpr sync_point default_sync() noexcept { return sync_point::barrier; }
  [[nodiscard]] static constexpr bool buffers_writes() noexcept { return true; }
  /// The superstep's end on this process: every earlier memory operation of this thread is ordered
  /// before every later one (a sequentially consistent fence). The ranks meet in the communicator's
  /// barrier, which the algorithms call.
  static void barrier() noexcept { dtl::thread_fence(std::memory_order_seq_cst); }
};

template <>
struct consistency_traits<bulk_synchronous> : detail::consistency_traits_of<bulk_synchronous> {};

}  // namespace dtl

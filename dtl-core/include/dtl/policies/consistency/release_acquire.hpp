// SPDX-License-Identifier: MIT
#pragma once
// release_acquire: point-to-point visibility. What a thread wrote before release() is visible to a
// thread that, after observing a later store of the releasing thread, calls acquire(). No barrier.

#include <dtl/core/thread_fence.hpp>
#include <dtl/policies/consistency/consistency_policy.hpp>

#include <atomic>

namespace dtl {

struct release_acquire {
  using policy_category = consistency_policy_tag;
  [[nodiscard]] static constexpr memory_ordering ordering() noexcept { return memory_ordering::acquire_release; }
  [[nodiscard]] static constexpr bool requires_barrier() noexcept { return false; }
  [[nodiscard]] static constexpr bool allows_overlap() noexcept { return true; }
  [[nodiscard]] static constexpr bool needs_collective_sync() noexcept { return false; }
  [[nodiscard]] static constexpr sync_point default_sync() noexcept { return sync_point::fence; }
  [[nodiscard]] static constexpr bool supports_epochs() noexcept { return true; }
  /// A release fence: the writes before it are visible to whoever acquires after a later store.
  static void release() noexcept { dtl::thread_fence(std::memory_order_release); }
  /// An acquire fence: after it, the writes released before the store just observed are visible.
  static void acquire() noexcept { dtl::thread_fence(std::memory_order_acquire); }
  /// Both, and one total order with every other such fence.
  static void fence() noexcept { dtl::thread_fence(std::memory_order_seq_cst); }
};

template <>
struct consistency_traits<release_acquire> : detail::consistency_traits_of<release_acquire> {};

}  // namespace dtl

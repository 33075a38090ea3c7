// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's <dtl/containers/detail/common_ops.hpp>: free functions over any of its containers
// (distributed_vector, distributed_array, distributed_tensor). Each one names the container's own member,
// so the rule lives in the container once:
//   standalone_barrier()/standalone_fence()  a barrier and a fence with no communicator (one process)
//   sync_container(c)                        c.sync(): a barrier, then c is clean
//   rank_invariant_holds(c)                  c.rank() < c.num_ranks() (or no ranks at all)
//   make_local_view(c), make_const_local_view(c), make_device_view(c), make_global_view(c),
//   make_segmented_view(c) and their const forms: the container's views, where its placement has them.

#include <dtl/core/thread_fence.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/core/result.hpp>

#include <atomic>

namespace dtl::detail {

/// A barrier over one process: nothing to wait for.
[[nodiscard]] inline result<void> standalone_barrier() noexcept { return {}; }

/// A fence over one process: this thread's memory operations are ordered before any that follow.
[[nodiscard]] inline result<void> standalone_fence() noexcept {
  dtl::thread_fence(std::memory_order_seq_cst);
  return {};
}

/// Collective: c.sync() (its barrier's failure, or c is clean).
template <class Container>
[[nodiscard]] result<void> sync_container(Container& container) {
  return container.sync();
}

template <class Container>
[[nodiscard]] constexpr bool rank_invariant_holds(const Container& container) noexcept {
  return container.rank() < container.num_ranks() || container.num_ranks() == 0;
}

template <class Container>
requires requires(Container& c) { c.local_view(); }
[[nodiscard]] auto make_local_view(Container& container) noexcept { return container.local_view(); }

template <class Container>
requires requires(const Container& c) { c.local_view(); }
[[nodiscard]] auto make_const_local_view(const Container& container) noexcept { return container.local_view(); }

template <class Container>
requires requires(Container& c) { c.device_view(); }
[[nodiscard]] auto make_device_view(Container& container) noexcept { return container.device_view(); }

template <class Container>
requires requires(const Container& c) { c.device_view(); }
[[nodiscard]] auto make_device_view(const Container& container) noexcept { return container.device_view(); }

template <class Container>
[[nodiscard]] auto make_global_view(Container& container) {
  return container.global_view();
}

template <class Container>
[[nodiscard]] auto make_segmented_view(Container& container) noexcept {
  return container.segmented_view();
}

template <class Container>
[[nodiscard]] auto make_const_segmented_view(const Container& container) noexcept {
  return container.segmented_view();
}

}  // namespace dtl::detail

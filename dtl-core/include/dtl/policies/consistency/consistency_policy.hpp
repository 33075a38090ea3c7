// SPDX-License-Identifier: MIT
#pragma once
// Consistency policies (upstream DTL's names): when one rank's writes become visible to the others.
//   bulk_synchronous       visible after the next barrier (supersteps); the default
//   sequential_consistent  every operation ordered; no overlap
//   release_acquire        visible to whoever acquires after the writer's release
//   relaxed                no promise; the user synchronizes
// Each one answers, at compile time, its ordering, whether it needs a barrier, whether communication
// may overlap computation, and its default synchronization point; consistency_traits gives the same
// as constants. The synchronizing calls (barrier(), release(), acquire(), fence(), sync()) are memory
// fences of the calling process: the collective part is the communicator's barrier, which the
// distributed algorithms call.

#include <dtl/policies/policy_category.hpp>

namespace dtl {

enum class sync_point { none, barrier, fence, epoch };

enum class memory_ordering { relaxed, acquire, release, acquire_release, sequential };

/// The compile-time answers of consistency policy P (the primary template: a relaxed policy).
template <class P>
struct consistency_traits {
  static constexpr bool requires_barrier = false;
  static constexpr bool allows_overlap = true;
  static constexpr memory_ordering default_ordering = memory_ordering::relaxed;
};

namespace detail {
/// consistency_traits of a policy read from its own static answers (one rule for every policy).
template <class P>
struct consistency_traits_of {
  static constexpr bool requires_barrier = P::requires_barrier();
  static constexpr bool allows_overlap = P::allows_overlap();
  static constexpr memory_ordering default_ordering = P::ordering();
};
}  // namespace detail

}  // namespace dtl

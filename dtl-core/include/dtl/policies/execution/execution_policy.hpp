// SPDX-License-Identifier: MIT
#pragma once
// Execution policy vocabulary (upstream DTL's names): each policy (dtl::seq, dtl::par, dtl::async, in
// <dtl/containers/algorithms/execution.hpp>) says at compile time whether a call blocks, whether it
// runs in parallel, its execution_mode and its parallelism_level; execution_traits<P> gives the same
// as constants.

#include <dtl/policies/policy_category.hpp>

namespace dtl {

enum class execution_mode { synchronous, asynchronous, deferred };

enum class parallelism_level { sequential, parallel, distributed, heterogeneous };

/// The primary template: a sequential, blocking policy.
template <class P>
struct execution_traits {
  static constexpr bool is_blocking = true;
  static constexpr bool is_parallel = false;
  static constexpr execution_mode mode = execution_mode::synchronous;
  static constexpr parallelism_level parallelism = parallelism_level::sequential;
};

namespace detail {
/// execution_traits of a policy read from its own static answers (one rule for every policy).
template <class P>
struct execution_traits_of {
  static constexpr bool is_blocking = P::is_blocking();
  static constexpr bool is_parallel = P::is_parallel();
  static constexpr execution_mode mode = P::mode();
  static constexpr parallelism_level parallelism = P::parallelism();
};
}  // namespace detail

}  // namespace dtl

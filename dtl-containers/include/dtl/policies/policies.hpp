// SPDX-License-Identifier: MIT
#pragma once
// Every policy (upstream DTL's <dtl/policies/policies.hpp>), the defaults, and policy sets: a pack of
// policies in any order sorted into the five kinds, each kind not given taking its default.
//
//   using ps = dtl::make_policy_set<dtl::par, dtl::cyclic_partition<>>;
//   ps::execution_policy (par), ps::partition_policy (cyclic_partition<>), ps::placement_policy (host_only)
//
// The containers here take their placement as a template argument and partition in blocks
// (block_partition<>); the other kinds are chosen per call (an execution policy argument) or are
// fixed (every failure is a dtl::result: expected_policy; bulk_synchronous consistency).

#include <dtl/containers/algorithms/execution.hpp>
#include <dtl/core/placement.hpp>
#include <dtl/policies/placement/placement_policy.hpp>
#include <dtl/policies/consistency/bulk_synchronous.hpp>
#include <dtl/policies/consistency/relaxed.hpp>
#include <dtl/policies/consistency/release_acquire.hpp>
#include <dtl/policies/consistency/sequential_consistent.hpp>
#include <dtl/policies/error/callback.hpp>
#include <dtl/policies/error/expected.hpp>
#include <dtl/policies/error/terminating.hpp>
#include <dtl/policies/error/throwing.hpp>
#include <dtl/policies/execution/execution_policy.hpp>
#include <dtl/policies/partition/block_nd_partition.hpp>
#include <dtl/policies/partition/block_partition.hpp>
#include <dtl/policies/partition/custom_partition.hpp>
#include <dtl/policies/partition/cyclic_partition.hpp>
#include <dtl/policies/partition/dynamic_block.hpp>
#include <dtl/policies/partition/hash_partition.hpp>
#include <dtl/policies/partition/replicated.hpp>

#include <type_traits>

namespace dtl {

using default_partition = block_partition<>;
// default_placement (host_only) is in <dtl/core/placement.hpp>.
using default_consistency = bulk_synchronous;
using default_execution = seq;
using default_error = expected_policy;

/// A policy of any of the five kinds.
template <class T>
inline constexpr bool is_policy_v = is_partition_policy_v<T> || is_placement_policy_v<T> ||
                                    is_consistency_policy_v<T> || is_execution_policy_v<T> || is_error_policy_v<T>;
template <class T>
concept Policy = is_policy_v<T>;
template <class... Ts>
inline constexpr bool all_policies_v = (is_policy_v<Ts> && ...);
template <class... Ts>
concept AllPolicies = all_policies_v<Ts...>;

namespace detail {
/// The first of Ts for which Is<T>::value holds; Default when none does.
template <template <class> class Is, class Default, class... Ts>
struct first_policy {
  using type = Default;
};
template <template <class> class Is, class Default, class T, class... Ts>
struct first_policy<Is, Default, T, Ts...> {
  using type = std::conditional_t<Is<T>::value, T, typename first_policy<Is, Default, Ts...>::type>;
};
}  // namespace detail

template <class Default, class... Ps>
using extract_partition_policy_t = typename detail::first_policy<is_partition_policy, Default, Ps...>::type;
template <class Default, class... Ps>
using extract_placement_policy_t = typename detail::first_policy<is_placement_policy, Default, Ps...>::type;
template <class Default, class... Ps>
using extract_consistency_policy_t = typename detail::first_policy<is_consistency_policy, Default, Ps...>::type;
template <class Default, class... Ps>
using extract_execution_policy_t = typename detail::first_policy<is_execution_policy, Default, Ps...>::type;
template <class Default, class... Ps>
using extract_error_policy_t = typename detail::first_policy<is_error_policy, Default, Ps...>::type;

template <class Partition = default_partition, class Placement = default_placement,
          class Consistency = default_consistency, class Execution = default_execution, class Error = default_error>
struct policy_set {
  using partition_policy = Partition;
  using placement_policy = Placement;
  using consistency_policy = Consistency;
  using execution_policy = Execution;
  using error_policy = Error;
};

using default_policies = policy_set<>;

/// The policies among Ps sorted by kind (the first of each kind), defaults for the kinds missing.
template <class... Ps>
using make_policy_set =
    policy_set<extract_partition_policy_t<default_partition, Ps...>,
               extract_placement_policy_t<default_placement, Ps...>,
               extract_consistency_policy_t<default_consistency, Ps...>,
               extract_execution_policy_t<default_execution, Ps...>, extract_error_policy_t<default_error, Ps...>>;

/// How many of Ps are of each kind; no_duplicates when no kind is given twice.
template <class... Ps>
struct policy_count {
  static constexpr size_type partition = (size_type{is_partition_policy_v<Ps>} + ... + 0);
  static constexpr size_type placement = (size_type{is_placement_policy_v<Ps>} + ... + 0);
  static constexpr size_type consistency = (size_type{is_consistency_policy_v<Ps>} + ... + 0);
  static constexpr size_type execution = (size_type{is_execution_policy_v<Ps>} + ... + 0);
  static constexpr size_type error = (size_type{is_error_policy_v<Ps>} + ... + 0);
  static constexpr size_type total = partition + placement + consistency + execution + error;
  static constexpr size_type unrecognized = sizeof...(Ps) - total;
  static constexpr bool no_duplicates =
      partition <= 1 && placement <= 1 && consistency <= 1 && execution <= 1 && error <= 1;
};

}  // namespace dtl

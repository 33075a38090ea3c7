// SPDX-License-Identifier: MIT
// Upstream DTL's policy vocabulary over our policies: every policy has its kind, the execution
// policies answer upstream's questions, and a policy set sorts a pack of policies by kind.
#include "doctest.hpp"

#include <dtl/policies/policies.hpp>

#include <string>
#include <type_traits>

TEST_SUITE("policies") {
  TEST_CASE("each policy is of exactly one kind") {
    static_assert(dtl::is_placement_policy_v<dtl::host_only> && dtl::is_placement_policy_v<dtl::device_only<1>> &&
                  dtl::is_placement_policy_v<dtl::unified_memory>);
    static_assert(dtl::is_execution_policy_v<dtl::seq> && dtl::is_execution_policy_v<dtl::async>);
    static_assert(dtl::is_partition_policy_v<dtl::block_partition<>> &&
                  !dtl::is_placement_policy_v<dtl::block_partition<>>);
    static_assert(
        dtl::AllPolicies<dtl::block_partition<>, dtl::host_only, dtl::seq, dtl::relaxed, dtl::throwing_policy>);
    static_assert(!dtl::Policy<int> && !dtl::Policy<std::string>);
    CHECK(dtl::policy_count<dtl::par, dtl::host_only, int>::unrecognized == 1);
    CHECK_FALSE(dtl::policy_count<dtl::seq, dtl::par>::no_duplicates);
  }

  TEST_CASE("execution policies: blocking, parallelism, traits") {
    static_assert(dtl::execution_traits<dtl::par>::is_parallel && dtl::execution_traits<dtl::par>::is_blocking);
    static_assert(dtl::execution_traits<dtl::async>::mode == dtl::execution_mode::asynchronous);
    CHECK(dtl::seq::is_deterministic());
    CHECK_FALSE(dtl::async::is_blocking());
    // In host-only builds the distributed algorithms take no async (no future type to return).
    CHECK(dtl::ExecutionPolicy<dtl::async> == (DTL_CONTAINERS_HAS_HIP != 0));
  }

  TEST_CASE("make_policy_set: any order, the first of each kind, defaults for the rest") {
    using ps = dtl::make_policy_set<dtl::throwing_policy, dtl::cyclic_partition<2>, dtl::par, dtl::seq>;
    static_assert(std::is_same_v<ps::partition_policy, dtl::cyclic_partition<2>>);
    static_assert(std::is_same_v<ps::execution_policy, dtl::par>);
    static_assert(std::is_same_v<ps::error_policy, dtl::throwing_policy>);
    static_assert(std::is_same_v<ps::placement_policy, dtl::host_only>);
    static_assert(std::is_same_v<ps::consistency_policy, dtl::bulk_synchronous>);
    static_assert(std::is_same_v<dtl::make_policy_set<>, dtl::default_policies>);
    CHECK(dtl::policy_count<dtl::throwing_policy, dtl::cyclic_partition<2>, dtl::par>::total == 3);
  }
}

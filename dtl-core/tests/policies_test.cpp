// SPDX-License-Identifier: MIT
// Upstream DTL's policies that live in dtl-core: the partition index math, the consistency fences and
// the error policies' effect on a failure.
#include <dtl/core/status_error.hpp>
#include <dtl/policies/consistency/relaxed.hpp>
#include <dtl/policies/consistency/release_acquire.hpp>
#include <dtl/policies/consistency/sequential_consistent.hpp>
#include <dtl/policies/error/callback.hpp>
#include <dtl/policies/error/expected.hpp>
#include <dtl/policies/error/throwing.hpp>
#include <dtl/policies/partition/custom_partition.hpp>
#include <dtl/policies/partition/cyclic_partition.hpp>
#include <dtl/policies/partition/hash_partition.hpp>
#include <dtl/policies/partition/replicated.hpp>
#include <dtl/policies/placement/placement_policy.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace {

/// Every index has exactly one owner, which numbers it in [0, local_size) and maps it back.
template <class P>
void check_partition_covers(const P& p, dtl::size_type n, dtl::rank_t ranks) {
  std::vector<std::vector<bool>> seen(static_cast<std::size_t>(ranks));
  for (dtl::rank_t r = 0; r < ranks; ++r) seen[static_cast<std::size_t>(r)].assign(p.local_size(n, ranks, r), false);
  for (dtl::index_t i = 0; i < static_cast<dtl::index_t>(n); ++i) {
    const dtl::rank_t r = p.owner(i, n, ranks);
    REQUIRE(r >= 0);
    REQUIRE(r < ranks);
    const dtl::index_t local = p.to_local(i, n, ranks, r);
    REQUIRE(local >= 0);
    REQUIRE(static_cast<dtl::size_type>(local) < seen[static_cast<std::size_t>(r)].size());
    CHECK_FALSE(seen[static_cast<std::size_t>(r)][static_cast<std::size_t>(local)]);
    seen[static_cast<std::size_t>(r)][static_cast<std::size_t>(local)] = true;
    CHECK(p.to_global(local, n, ranks, r) == i);
  }
}

}  // namespace

TEST_SUITE("policies") {
  TEST_CASE("cyclic_partition deals blocks of B round-robin") {
    static_assert(dtl::PartitionPolicyConcept<dtl::cyclic_partition<3>>);
    // 11 elements in blocks of 3 over 2 ranks: [0,3) r0, [3,6) r1, [6,9) r0, [9,11) r1.
    CHECK(dtl::cyclic_partition<3>::owner(8, 11, 2) == 0);
    CHECK(dtl::cyclic_partition<3>::owner(9, 11, 2) == 1);
    CHECK(dtl::cyclic_partition<3>::local_size(11, 2, 0) == 6);
    CHECK(dtl::cyclic_partition<3>::local_size(11, 2, 1) == 5);
    CHECK(dtl::cyclic_partition<3>::to_local(10, 11, 2, 1) == 4);
    for (dtl::rank_t ranks = 1; ranks <= 5; ++ranks)
      for (dtl::size_type n : {0u, 1u, 7u, 30u, 31u}) {
        check_partition_covers(dtl::cyclic_partition<0>{}, n, ranks);
        check_partition_covers(dtl::cyclic_partition<4>{}, n, ranks);
      }
  }

  TEST_CASE("custom_partition numbers a rank's indices in order") {
    const auto p =
        dtl::make_custom_partition([](dtl::index_t i, dtl::size_type, dtl::rank_t) { return i % 3 == 0 ? 0 : 1; });
    CHECK(p.local_size(10, 2, 0) == 4);  // 0, 3, 6, 9
    CHECK(p.to_global(3, 10, 2, 0) == 9);
    CHECK(p.to_global(4, 10, 2, 0) == -1);
    check_partition_covers(p, 10, 2);
  }

  TEST_CASE("replicated and hash_partition") {
    CHECK(dtl::replicated::owner(5, 10, 4) == dtl::all_ranks);
    CHECK(dtl::replicated::make_info(10, 4, 3).local_end == 10);
    CHECK(dtl::hash_partition<>::owner(13, 100, 4) == 1);
    CHECK(dtl::hash_partition<>::owner_of(dtl::size_type{13}, 100, 4) ==
          static_cast<dtl::rank_t>(std::hash<dtl::size_type>{}(13) % 4));
    CHECK(dtl::hash_partition<>::local_size(10, 4, 0) == 3);
  }

  TEST_CASE("consistency policies: traits and release/acquire fences") {
    static_assert(dtl::consistency_traits<dtl::sequential_consistent>::requires_barrier);
    static_assert(!dtl::consistency_traits<dtl::relaxed>::requires_barrier);
    static_assert(dtl::ConsistencyPolicy<dtl::release_acquire> && !dtl::ConsistencyPolicy<int>);
    // Message passing: plain writes published by release() and a relaxed flag, read after acquire().
    std::vector<int> data(1000, 0);
    std::atomic<bool> ready{false};
    std::thread writer([&] {
      for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<int>(i);
      dtl::release_acquire::release();
      ready.store(true, std::memory_order_relaxed);
    });
    while (!ready.load(std::memory_order_relaxed)) std::this_thread::yield();
    dtl::release_acquire::acquire();
    long long sum = 0;
    for (const int x : data) sum += x;
    writer.join();
    CHECK(sum == 999 * 1000 / 2);
  }

  TEST_CASE("placements answer upstream's questions from their own constants") {
    static_assert(dtl::PlacementPolicyConcept<dtl::device_only_runtime> && dtl::is_placement_policy_v<dtl::host_only>);
    static_assert(!dtl::is_placement_policy_v<dtl::relaxed>);
    CHECK(dtl::device_only<3>::device_id() == 3);
    CHECK(dtl::host_only::device_id() == dtl::no_device);
    CHECK(dtl::device_only_runtime::device_id() == dtl::runtime_device);
    CHECK(dtl::host_only::requires_device_copy());
    CHECK_FALSE(dtl::host_only::requires_host_copy());
    CHECK(dtl::device_only<0>::requires_host_copy());
    CHECK_FALSE(dtl::unified_memory::requires_host_copy());
    CHECK_FALSE(dtl::unified_memory::requires_device_copy());
    CHECK(dtl::device_preferred::preferred_location() == dtl::memory_location::device);
    CHECK(dtl::device_preferred::is_host_accessible());  // managed memory
  }

  TEST_CASE("error policies: what a failure becomes") {
    const dtl::status failure(dtl::status_code::out_of_range, "index 9 of 4");
    const auto as_result = dtl::expected_policy::handle_error<int>(failure);
    REQUIRE_FALSE(as_result.has_value());
    CHECK(as_result.error().code() == dtl::status_code::out_of_range);
    static_assert(std::is_same_v<dtl::error_return_type<dtl::expected_policy, int>::type, dtl::result<int>>);
    static_assert(std::is_same_v<dtl::error_return_type<dtl::throwing_policy, int>::type, int>);
    CHECK(dtl::throwing_policy::handle_success(7) == 7);
    try {
      (void)dtl::throwing_policy::handle_error<int>(failure);
      FAIL("handle_error returned");
    } catch (const dtl::status_error& e) {
      CHECK(e.code() == dtl::status_code::out_of_range);
    }
    int calls = 0;
    const dtl::callback_policy go_on(
        [&](const dtl::status&) { return ++calls, dtl::error_action::continue_execution; });
    CHECK(go_on.handle_error<int>(failure).value() == 0);
    const dtl::callback_policy give_back([](const dtl::status&) { return dtl::error_action::propagate_error; });
    CHECK(give_back.handle_error<int>(failure).error().code() == dtl::status_code::out_of_range);
    CHECK(calls == 1);
    static_assert(dtl::ErrorPolicy<dtl::dynamic_callback_policy>);
  }
}

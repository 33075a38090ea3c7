// SPDX-License-Identifier: MIT
// Upstream DTL's vocabulary of dtl/core/types.hpp: extents (compile-time and run-time), span, the tag
// types and the loudness tags; the sync state; and status_code_name in constant expressions.
#include "doctest.hpp"

#include <dtl/core/loudness_tags.hpp>
#include <dtl/core/status_code.hpp>
#include <dtl/core/sync_domain.hpp>
#include <dtl/core/types.hpp>

#include <type_traits>

namespace {
using fixed = dtl::extents<2, 3, 4>;
using mixed = dtl::extents<5, dtl::dynamic_extent, 7>;
static_assert(fixed::rank() == 3 && fixed::rank_dynamic() == 0);
static_assert(mixed::rank_dynamic() == 1 && dtl::extents_3d::rank_dynamic() == 3);
static_assert(fixed::static_extent(1) == 3 && fixed::static_extent(9) == dtl::dynamic_extent);
static_assert(mixed::static_extent(1) == dtl::dynamic_extent);
static_assert(fixed{}.size() == 24);
static_assert(mixed(6).extent(1) == 6 && mixed(6).size() == 210);
static_assert(dtl::extents<>{}.size() == 1);
static_assert(!std::is_convertible_v<dtl::local_tag, dtl::global_tag> && std::is_empty_v<dtl::read_write_tag>);
static_assert(!std::is_convertible_v<dtl::sync_tag, dtl::async_tag>);
static_assert(dtl::is_communicating_v<dtl::collective_failable_t> && dtl::is_failable_v<dtl::collective_failable_t>);
static_assert(!dtl::is_collective_v<dtl::communicating_failable_t> && !dtl::is_blocking_v<dtl::failable_t>);
static_assert(dtl::operation_loudness<dtl::remote_op_t>() == dtl::loudness_level::l1_syntactically_loud);
static_assert(dtl::operation_loudness<dtl::collective_blocking_t>() == dtl::loudness_level::l2_statically_detectable);
static_assert(dtl::operation_loudness<dtl::allocating_t>() == dtl::loudness_level::l0_stl_compatible);
static_assert(dtl::status_code_name(dtl::status_code::hip_error) == "hip_error");
static_assert(dtl::status_category(dtl::status_code::out_of_range) == "bounds");
}  // namespace

TEST_SUITE("types") {
  TEST_CASE("extents: run-time extents in order among compile-time ones") {
    const dtl::extents<dtl::dynamic_extent, 4, dtl::dynamic_extent> e(3, 5);
    CHECK(e.extent(0) == 3);
    CHECK(e.extent(1) == 4);
    CHECK(e.extent(2) == 5);
    CHECK(e.size() == 60);
    const dtl::extents deduced(2, 9);  // every extent dynamic
    static_assert(std::is_same_v<std::remove_const_t<decltype(deduced)>, dtl::extents_2d>);
    CHECK(deduced.extent(1) == 9);
    CHECK(deduced.size() == 18);
    CHECK(dtl::extents_1d(0).size() == 0);
  }
  TEST_CASE("span is std::span") {
    int values[] = {1, 2, 3};
    const dtl::span<int> s(values, 3);
    CHECK(s.size() == 3);
    CHECK(s[2] == 3);
    CHECK(dtl::span<const int>().data() == nullptr);
  }
  TEST_CASE("sync_state: marks only make it dirtier; the halo falls back to local_dirty; the guard marks") {
    dtl::sync_state s;
    CHECK(s.is_clean());
    s.mark_halo_stale();
    CHECK(s.domain() == dtl::sync_domain::halo);
    CHECK(s.needs_communication());
    s.mark_local_modified();
    CHECK(s.domain() == dtl::sync_domain::halo);
    s.mark_halo_synced();
    CHECK(s.domain() == dtl::sync_domain::local_dirty);
    CHECK_FALSE(s.needs_communication());
    s.mark_global_dirty();
    s.mark_halo_synced();
    CHECK(s.domain() == dtl::sync_domain::global_dirty);
    s.mark_clean();
    CHECK(s.is_clean());
    dtl::dirty_flags f;
    f.halo_stale = true;
    dtl::dirty_flags g;
    g.local_modified = true;
    CHECK(f.join(g).to_domain() == dtl::sync_domain::halo);
    CHECK(g.to_domain() == dtl::sync_domain::local_dirty);
    f.clear();
    CHECK(f.is_clean());
    CHECK(dtl::max_domain(dtl::sync_domain::local_dirty, dtl::sync_domain::halo) == dtl::sync_domain::halo);
    struct holder {
      dtl::sync_state state;
      void mark_local_modified() noexcept { state.mark_local_modified(); }
    } h;
    {
      dtl::sync_guard<holder> cancelled(h);
      cancelled.cancel();
    }
    CHECK(h.state.is_clean());
    { dtl::sync_guard<holder> guard(h); }
    CHECK(h.state.is_dirty());
  }
}

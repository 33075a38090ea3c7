// SPDX-License-Identifier: MIT
#include "doctest.hpp"

#include <dtl/core/core.hpp>

#include <string_view>

namespace {

// A type that looks like a memory space but returns a raw pointer: must not satisfy the concept.
struct raw_pointer_space {
  static constexpr bool host_accessible = true;
  static constexpr bool device_accessible = false;
  void* allocate(std::size_t);
  void* allocate(std::size_t, std::size_t);
  void deallocate(void*, std::size_t) noexcept;
  dtl::memory_space_properties properties() const;
  const char* name() const;
};

struct done_event {
  dtl::event_status query() const { return dtl::event_status::complete(); }
  dtl::result<void> synchronize() { return {}; }
};

struct bool_event {  // query() must say more than a bool
  bool query() const { return true; }
  dtl::result<void> synchronize() { return {}; }
};

}  // namespace

TEST_SUITE("concepts") {
  TEST_CASE("MemorySpace") {
    static_assert(dtl::MemorySpace<dtl::host_memory_space>);
    static_assert(!dtl::MemorySpace<raw_pointer_space>);
    static_assert(!dtl::MemorySpace<int>);
    CHECK(dtl::host_memory_space::host_accessible);
    CHECK_FALSE(dtl::host_memory_space::device_accessible);
  }

  TEST_CASE("MemoryTransfer") {
    static_assert(dtl::MemoryTransfer<dtl::host_memory_transfer>);
    static_assert(!dtl::MemoryTransfer<dtl::host_memory_space>);
    CHECK(dtl::transfer_kind_name(dtl::transfer_kind::automatic) == "automatic");
    CHECK(dtl::transfer_kind_name(static_cast<dtl::transfer_kind>(99)) == "unknown_transfer_kind");
  }

  TEST_CASE("Event and event_status") {
    static_assert(dtl::Event<done_event>);
    static_assert(!dtl::Event<bool_event>);
    CHECK(static_cast<bool>(done_event{}.query()));
    const auto pending = dtl::event_status::pending();
    CHECK(pending.is_pending());
    CHECK_FALSE(static_cast<bool>(pending));
    const auto failed = dtl::event_status::failed(dtl::status(dtl::status_code::hip_error, "fault"));
    CHECK(failed.is_failed());
    CHECK_FALSE(static_cast<bool>(failed));
    CHECK(failed.error() == dtl::status_code::hip_error);
    CHECK(dtl::event_status::complete().error().ok());
  }

  TEST_CASE("Executor and inline_executor") {
    static_assert(dtl::Executor<dtl::inline_executor>);
    static_assert(dtl::StreamExecutor<dtl::inline_executor>);
    static_assert(!dtl::Executor<int>);
    dtl::inline_executor exec;
    int runs = 0;
    CHECK(exec.execute([&](std::nullptr_t) { ++runs; }).has_value());
    CHECK(runs == 1);
    auto failed = exec.execute([](std::nullptr_t) { return dtl::status(dtl::status_code::invalid_state, "x"); });
    CHECK(failed.error() == dtl::status_code::invalid_state);
    auto failed_result =
        exec.execute([](std::nullptr_t) -> dtl::result<int> { return dtl::status(dtl::status_code::timeout); });
    CHECK(failed_result.error() == dtl::status_code::timeout);
    CHECK(exec.synchronize().has_value());
    CHECK(exec.query().is_complete());
    CHECK(dtl::inline_executor::name() == "inline");
  }
}

TEST_SUITE("placement") {
  template <dtl::PlacementPolicy P>
  constexpr bool check_placement(dtl::memory_location loc, bool host, bool device, bool managed, int id) {
    return P::location == loc && P::host_accessible == host && P::device_accessible == device &&
           P::managed == managed && P::device == id && P::device_id() == id;
  }

  TEST_CASE("every policy states location, access, management and device at compile time") {
    using dtl::memory_location;
    static_assert(check_placement<dtl::host_only>(memory_location::host, true, false, false, dtl::no_device));
    static_assert(check_placement<dtl::device_only<0>>(memory_location::device, false, true, false, 0));
    static_assert(check_placement<dtl::device_only<3>>(memory_location::device, false, true, false, 3));
    static_assert(
        check_placement<dtl::device_only_runtime>(memory_location::device, false, true, false, dtl::runtime_device));
    static_assert(check_placement<dtl::unified_memory>(memory_location::unified, true, true, true, dtl::any_device));
    static_assert(check_placement<dtl::device_preferred>(memory_location::device, true, true, true, 0));
    static_assert(check_placement<dtl::device_preferred_on<2>>(memory_location::device, true, true, true, 2));
    static_assert(std::is_same_v<dtl::default_placement, dtl::host_only>);
    static_assert(!dtl::PlacementPolicy<int>);
    static_assert(!dtl::needs_device_v<dtl::host_only>);
    static_assert(dtl::needs_device_v<dtl::device_only<1>>);
    static_assert(dtl::needs_device_v<dtl::unified_memory>);
    CHECK(dtl::device_only<5>::device_id() == 5);
  }
}

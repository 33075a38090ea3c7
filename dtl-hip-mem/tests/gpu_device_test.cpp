// SPDX-License-Identifier: MIT
// Device queries on a real GPU (suite gpu).
#include "doctest.hpp"

#include "test_kernels.hpp"

#include <dtl/hip/device.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/stream_ref.hpp>

#include <string>

TEST_SUITE("gpu.device") {
  TEST_CASE("properties of every device") {
    for (int d = 0; d < dtl::hip::device_count(); ++d) {
      const auto p = dtl::hip::get_device_properties(d);
      REQUIRE(p.has_value());
      CHECK(p->id == d);
      CHECK_FALSE(p->name.empty());
      CHECK_FALSE(p->arch.empty());
      CHECK((p->warp_size == 32 || p->warp_size == 64));
      CHECK(p->total_memory > 0);
      CHECK(p->free_memory > 0);
      CHECK(p->free_memory <= p->total_memory);
      CHECK(p->multiprocessors > 0);
      // "dddd:bb:dd.f" in lower case, as sysfs names the PCI device; the static query agrees.
      CAPTURE(p->pci_bus_id);
      CHECK(p->pci_bus_id.size() == 12);
      CHECK(p->pci_bus_id.find_first_not_of("0123456789abcdef:.") == std::string::npos);
      const auto s = dtl::hip::get_static_device_properties(d);
      REQUIRE(s.has_value());
      CHECK(s->pci_bus_id == p->pci_bus_id);
      CHECK(s->total_memory == p->total_memory);
      CHECK(s->free_memory == 0);
      CHECK(dtl::hip::can_access_peer(d, d).value());
      for (int e = 0; e < dtl::hip::device_count(); ++e)
        CHECK(dtl::hip::can_access_peer(d, e).value() == dtl::hip::can_access_peer(e, d).value());
      MESSAGE(p->name << " (" << p->arch << "), warp " << p->warp_size << ", " << (p->total_memory >> 20)
                      << " MiB, managed " << p->managed_memory << ", concurrent managed "
                      << p->concurrent_managed_access);
    }
  }

  TEST_CASE("device_guard restores the caller's device") {
    const int before = dtl::hip::current_device().value();
    for (int d = 0; d < dtl::hip::device_count(); ++d) {
      {
        auto g = dtl::hip::device_guard::enter(d);
        REQUIRE(g.has_value());
        CHECK(dtl::hip::current_device().value() == d);
        CHECK(g->previous_device() == before);
        CHECK(g->switched() == (d != before));
      }
      CHECK(dtl::hip::current_device().value() == before);
    }
    CHECK(dtl::hip::get_memory_info(0).has_value());
    CHECK(dtl::hip::current_device().value() == before);
  }

  TEST_CASE("a kernel compiled by dtl-hip-kc runs") {
    unsigned* d = nullptr;
    REQUIRE(hipMalloc(&d, 1024 * sizeof(unsigned)) == hipSuccess);
    REQUIRE(dtl_test_fill_index(d, 1024, 7u, nullptr) == hipSuccess);
    CHECK(dtl::hip::stream_ref{}.synchronize().has_value());
    unsigned h[1024];
    REQUIRE(hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost) == hipSuccess);
    for (unsigned i = 0; i < 1024; ++i) REQUIRE(h[i] == ((i * 2654435761u) ^ 7u));
    REQUIRE(hipFree(d) == hipSuccess);
  }

  TEST_CASE("stream_ref on the default stream") {
    const dtl::hip::stream_ref s;
    CHECK(s.is_default());
    CHECK_FALSE(s.query().is_failed());
    CHECK(s.synchronize().has_value());
  }
}

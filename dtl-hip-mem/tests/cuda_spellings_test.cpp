// SPDX-License-Identifier: MIT
// Upstream DTL's CUDA spellings (dtl/cuda/device_guard.hpp, dtl/memory/cuda_device_memory_space.hpp) on
// HIP's NVIDIA platform, built there only. Suite cuda_spellings runs everywhere; cuda_no_device where the
// machine has no device (upstream's guard then switches nothing and its queries say "no device").
#include "doctest.hpp"

#include <dtl/cuda/device_guard.hpp>
#include <dtl/hip/device.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/memory/cuda_device_memory_space.hpp>

#include <string_view>
#include <type_traits>

TEST_SUITE("cuda_spellings") {
  TEST_CASE("dtl::cuda's names are dtl::hip's: on NVIDIA, HIP's devices are CUDA's") {
    static_assert(std::is_same_v<dtl::cuda::device_guard, dtl::hip::device_guard>);
    static_assert(dtl::cuda::invalid_device_id == -1);
    CHECK(dtl::cuda::device_count() == dtl::hip::device_count());
    CHECK(dtl::cuda::current_device_id() == dtl::hip::current_device_id());
    CHECK(dtl::cuda::device_guard::available() == (dtl::cuda::device_count() > 0));
  }

  TEST_CASE("device_guard(invalid_device_id) switches nothing, as upstream's") {
    const int before = dtl::cuda::current_device_id();
    {
      const dtl::cuda::device_guard guard(dtl::cuda::invalid_device_id);
      CHECK_FALSE(guard.switched());
      CHECK(guard.target_device() == dtl::cuda::invalid_device_id);
      CHECK(dtl::cuda::current_device_id() == before);
    }
    CHECK(dtl::cuda::current_device_id() == before);
  }

  TEST_CASE("the memory spaces describe device memory of their device") {
    using space1 = dtl::cuda::cuda_device_memory_space_for<1>;
    static_assert(space1::device_id == 1 && space1::get_device_id() == 1);
    static_assert(!space1::host_accessible && space1::device_accessible);
    CHECK(std::string_view(space1::name()) == "cuda_device");
    const dtl::memory_space_properties p = space1::properties();
    CHECK_FALSE(p.host_accessible);
    CHECK(p.device_accessible);
    CHECK_FALSE(p.unified);
    CHECK(p.alignment == 256);
    CHECK(p.device_id == 1);

    const dtl::cuda::cuda_device_memory_space_runtime on0;  // upstream's default: device 0
    const dtl::cuda::cuda_device_memory_space_runtime on2(2);
    CHECK(on0.get_device_id() == 0);
    CHECK(on2.get_device_id() == 2);
    CHECK(on0 == dtl::cuda::cuda_device_memory_space_runtime(0));
    CHECK(on0 != on2);
    CHECK(on2.properties().device_id == 2);
    CHECK(std::string_view(dtl::cuda::cuda_device_memory_space_runtime::name()) == "cuda_device_runtime");
  }

  TEST_CASE("a request that cannot be served is nullptr; freeing nullptr does nothing") {
    CHECK(dtl::cuda::cuda_device_memory_space_runtime(-1).allocate(64) == nullptr);
    CHECK(dtl::cuda::cuda_device_memory_space_runtime(dtl::cuda::device_count()).allocate(64) == nullptr);
    CHECK(dtl::cuda::cuda_device_memory_space_for<0>::allocate(0) == nullptr);
    dtl::cuda::cuda_device_memory_space_for<0>::deallocate(nullptr, 64);
    dtl::cuda::cuda_device_memory_space_runtime(-1).deallocate(nullptr, 64);
  }

  TEST_CASE("host memory is on no device") {
    int on_stack = 0;
    CHECK_FALSE(dtl::cuda::is_device_pointer(&on_stack));
    CHECK(dtl::cuda::get_pointer_device(&on_stack) == dtl::cuda::invalid_device_id);
    CHECK_FALSE(dtl::cuda::is_device_pointer(nullptr));
    CHECK(dtl::cuda::get_pointer_device(nullptr) == dtl::cuda::invalid_device_id);
  }
}

// Meson test cuda-no-device (--requires=no-device): SKIP where a device is present.
TEST_SUITE("cuda_no_device") {
  TEST_CASE("without a device: no current device, nothing to switch to, no memory") {
    CHECK(dtl::cuda::device_count() == 0);
    CHECK(dtl::cuda::current_device_id() == dtl::cuda::invalid_device_id);
    CHECK_FALSE(dtl::cuda::device_guard::available());
    {
      const dtl::cuda::device_guard guard(0);
      CHECK_FALSE(guard.switched());
      CHECK(guard.target_device() == 0);
      CHECK(guard.previous_device() == dtl::cuda::invalid_device_id);
    }
    CHECK(dtl::cuda::current_device_id() == dtl::cuda::invalid_device_id);

    CHECK(dtl::cuda::cuda_device_memory_space_for<0>::allocate(64) == nullptr);
    CHECK(dtl::cuda::cuda_device_memory_space_runtime().allocate(64, 64) == nullptr);
    dtl::size_type free_bytes = 7;
    dtl::size_type total_bytes = 7;
    CHECK_FALSE(dtl::cuda::cuda_device_memory_space_for<0>::memory_info(free_bytes, total_bytes));
    CHECK(free_bytes == 7);  // untouched on failure, as upstream's
    CHECK(total_bytes == 7);
  }
}

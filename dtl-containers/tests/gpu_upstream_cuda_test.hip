// SPDX-License-Identifier: MIT
// Upstream DTL's CUDA spellings on HIP's NVIDIA platform (built there only): a context from
// with_cuda(0) and its cuda_domain, a device_only<0> vector written by a kernel launched inside a
// dtl::cuda::device_guard, read back with cudaMemcpy, and the device memory spaces of
// <dtl/memory/cuda_device_memory_space.hpp>; checked against a host reference.
#include "test_environment.hpp"

#include <dtl/dtl.hpp>
#include <dtl/cuda/device_guard.hpp>
#include <dtl/memory/cuda_device_memory_space.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

static_assert(DTL_ENABLE_CUDA == 1, "this test is built for HIP's NVIDIA platform only");
static_assert(dtl::context::has_cuda());

namespace {

__global__ void fill_scaled_index(float* data, std::size_t n, float scale) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) data[i] = scale * static_cast<float>(i);
}

}  // namespace

TEST_SUITE("gpu.upstream_cuda") {
  TEST_CASE("with_cuda(0), get<cuda_domain>() and a device_only<0> vector written by a kernel") {
    REQUIRE(dtl::cuda::device_count() >= 1);
    const int before = dtl::cuda::current_device_id();
    auto ctx = test_support::world().with_cuda(0);
    REQUIRE(ctx.has_cuda());
    const auto& domain = ctx.get<dtl::cuda_domain>();
    CHECK(domain.device_id() == 0);
    CHECK(domain.valid());

    constexpr std::size_t n = 100003;
    dtl::distributed_vector<float, dtl::device_only<0>> vec(n, ctx);
    CHECK(vec.device_id() == 0);
    CHECK(vec.has_device_affinity());
    CHECK_FALSE(vec.is_host_accessible());
    CHECK(vec.is_device_accessible());
    CHECK(dtl::cuda::is_device_pointer(vec.local_data()));
    CHECK(dtl::cuda::get_pointer_device(vec.local_data()) == 0);
    CHECK(dtl::cuda::current_device_id() == before);  // making the vector leaves the device alone

    const std::size_t local = vec.local_size();
    {
      dtl::cuda::device_guard guard(vec.device_id());
      CHECK(guard.target_device() == 0);
      CHECK(dtl::cuda::current_device_id() == 0);
      const unsigned blocks = static_cast<unsigned>((local + 255) / 256);
      fill_scaled_index<<<blocks == 0 ? 1 : blocks, 256>>>(vec.local_data(), local, 2.0f);
      REQUIRE(cudaGetLastError() == cudaSuccess);
      REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    }
    CHECK(dtl::cuda::current_device_id() == before);

    std::vector<float> host(local);
    REQUIRE(cudaMemcpy(host.data(), vec.local_data(), local * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess);
    std::vector<float> reference(local);
    for (std::size_t i = 0; i < local; ++i) reference[i] = 2.0f * static_cast<float>(i);
    CHECK(host == reference);
  }

  TEST_CASE("cuda_device_memory_space_for<0> and _runtime allocate on device 0 and share their memory") {
    using space0 = dtl::cuda::cuda_device_memory_space_for<0>;
    const int before = dtl::cuda::current_device_id();
    void* p = space0::allocate(4096);
    REQUIRE(p != nullptr);
    CHECK(dtl::cuda::is_device_pointer(p));
    CHECK(dtl::cuda::get_pointer_device(p) == 0);
    CHECK(dtl::cuda::current_device_id() == before);
    CHECK(space0::allocate(0) == nullptr);  // upstream's failure is nullptr

    std::vector<int> written(1024);
    for (std::size_t i = 0; i < written.size(); ++i) written[i] = static_cast<int>(i * 7 + 3);
    REQUIRE(cudaMemcpy(p, written.data(), 4096, cudaMemcpyHostToDevice) == cudaSuccess);
    std::vector<int> read(1024);
    REQUIRE(cudaMemcpy(read.data(), p, 4096, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(read == written);

    // Equal spaces (one device) free each other's memory, as upstream's allocator equality means.
    const dtl::cuda::cuda_device_memory_space_runtime a(0);
    const dtl::cuda::cuda_device_memory_space_runtime b(0);
    CHECK(a == b);
    CHECK(a != dtl::cuda::cuda_device_memory_space_runtime(1));
    void* q = a.allocate(256);
    REQUIRE(q != nullptr);
    CHECK(dtl::cuda::get_pointer_device(q) == 0);
    b.deallocate(q, 256);
    space0::deallocate(p, 4096);

    dtl::size_type free_bytes = 0;
    dtl::size_type total_bytes = 0;
    REQUIRE(space0::memory_info(free_bytes, total_bytes));
    CHECK(total_bytes > 0);
    CHECK(free_bytes <= total_bytes);
  }
}

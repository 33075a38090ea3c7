// SPDX-License-Identifier: MIT
// A HIP program built against an installed dtl through pkg-config only (see check_install.py): the
// guide's include paths, a kernel launched through dtl-hip-exec's executor, dtl-hip-mem's memory space
// and transfers. Exits 77 (SKIP) without a device.
#include <backends/hip/hip_executor.hpp>
#include <backends/hip/hip_memory_space.hpp>
#include <backends/hip/hip_memory_transfer.hpp>
#include <dtl/hip/device.hpp>

#include <hip/hip_runtime.h>

#include <cstddef>
#include <cstdio>
#include <vector>

__global__ void add_one(int* data, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) data[i] += 1;
}

int main() {
  if (dtl::hip::device_count() == 0) {
    std::printf("no HIP device (%s runtime): nothing to run\n", dtl::hip::platform_name());
    return 77;
  }
  constexpr int n = 1 << 20;
  constexpr std::size_t bytes = n * sizeof(int);
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[static_cast<std::size_t>(i)] = i;

  using dtl::hip::hip_memory_transfer;
  using dtl::hip::transfer_kind;
  dtl::hip::hip_memory_space space;
  dtl::result<void*> memory = space.allocate(bytes);
  if (!memory.has_value()) {
    std::fprintf(stderr, "allocate failed: %s\n", memory.error().to_string().c_str());
    return 1;
  }
  int* device_data = static_cast<int*>(*memory);
  dtl::hip::hip_executor exec(dtl::hip::stream_flags::non_blocking);
  const dtl::result<void> ran =
      hip_memory_transfer::copy(device_data, host.data(), bytes, transfer_kind::host_to_device)
          .and_then([&] {
            return exec.execute([&](hipStream_t s) { add_one<<<(n + 255) / 256, 256, 0, s>>>(device_data, n); });
          })
          .and_then([&] { return exec.synchronize(); })
          .and_then([&] {
            return hip_memory_transfer::copy(host.data(), device_data, bytes, transfer_kind::device_to_host);
          });
  space.deallocate(device_data, bytes);
  if (!ran.has_value()) {
    std::fprintf(stderr, "failed: %s\n", ran.error().to_string().c_str());
    return 1;
  }
  for (int i = 0; i < n; ++i) {
    if (host[static_cast<std::size_t>(i)] != i + 1) {
      std::fprintf(stderr, "wrong value at %d: %d\n", i, host[static_cast<std::size_t>(i)]);
      return 1;
    }
  }
  std::printf("kernel ran on device %d through the installed dtl-hip-exec: %d values checked\n", exec.device(), n);
  return 0;
}

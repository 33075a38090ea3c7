// SPDX-License-Identifier: MIT
// The HIP guide's executor example with a kernel of its own, in a .hip file that includes the guide's
// headers and nothing else: building it checks that they give kernel code what upstream's give it
// (__global__, blockIdx, blockDim, threadIdx: <hip/hip_runtime.h>) under both kernel compilers, hipcc
// and nvcc; running it checks the kernel's result. A plain program (no test framework header, which
// could supply what the guide's headers lack). Needs a device: exits 77 (Meson SKIP) without one.
#include <backends/hip/hip_event.hpp>
#include <backends/hip/hip_executor.hpp>
#include <backends/hip/hip_memory_space.hpp>
#include <backends/hip/hip_memory_transfer.hpp>

#include <cstddef>
#include <cstdio>
#include <utility>
#include <vector>

namespace {

__global__ void scale_and_shift(float* data, std::size_t n, float factor, float shift) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * factor + shift;
}

}  // namespace

int main() {
  if (dtl::hip::device_count() == 0) {
    std::printf("SKIP: the guide's kernel example needs a HIP device\n");
    return 77;
  }
  // More elements than one block, and not a multiple of it: the bounds check and the grid both count.
  constexpr std::size_t n = 1000;
  constexpr unsigned block = 128;
  const unsigned grid = static_cast<unsigned>((n + block - 1) / block);
  std::vector<float> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<float>(i);

  dtl::hip::hip_memory_space mem_space;
  auto allocation = mem_space.allocate(n * sizeof(float));
  if (!allocation.has_value()) {
    std::printf("FAIL: hip_memory_space::allocate\n");
    return 1;
  }
  auto* d_data = static_cast<float*>(allocation.value());
  bool ok = dtl::hip::hip_memory_transfer::copy(d_data, host.data(), n * sizeof(float),
                                                dtl::hip::transfer_kind::host_to_device)
                .has_value();

  // The guide's executor pattern, with the guide's launch syntax.
  dtl::hip::hip_stream stream(dtl::hip::stream_flags::non_blocking);
  dtl::hip::hip_executor exec(std::move(stream));
  ok = ok &&
       exec.execute([&](hipStream_t s) { scale_and_shift<<<grid, block, 0, s>>>(d_data, n, 2.0f, 1.0f); }).has_value();
  ok = ok && exec.synchronize().has_value();

  std::vector<float> back(n, -1.0f);
  ok = ok && dtl::hip::hip_memory_transfer::copy(back.data(), d_data, n * sizeof(float),
                                                 dtl::hip::transfer_kind::device_to_host)
                 .has_value();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += back[i] == 2.0f * static_cast<float>(i) + 1.0f ? 0 : 1;
  mem_space.deallocate(d_data, n * sizeof(float));
  std::printf("calls %s, %zu of %zu elements wrong\n", ok ? "succeeded" : "FAILED", wrong, n);
  return ok && wrong == 0 ? 0 : 1;
}

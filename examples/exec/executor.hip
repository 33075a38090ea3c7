// SPDX-License-Identifier: MIT
// The HIP backend guide's "Executor Patterns / hip_executor" snippet, verbatim inside guide_snippet(), with the
// kernel, grid, block, d_data and n it uses, then a check that the kernel really ran on the data.
// Exits 77 (skip) without a HIP device.
//
// The snippet discards the result<void> of execute() and synchronize(), as the guide does; this file is
// built with -Wno-unused-result for that reason. Real code checks them (see check_with_results()).
#include <backends/hip/hip_executor.hpp>

#include <backends/hip/hip_memory_space.hpp>
#include <backends/hip/hip_memory_transfer.hpp>
#include <dtl/core/status_error.hpp>
#include <dtl/hip/device.hpp>

#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

#include "skip_without_device.hpp"

namespace {

__global__ void my_kernel(float* data, int count) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < count) data[i] = 2.0f * data[i] + 1.0f;
}

// The snippet's lambda captures nothing, so what it uses lives at namespace scope.
float* d_data = nullptr;
int n = 0;
dim3 grid;
dim3 block;

void guide_snippet() {
  // ---- begin guide snippet ----
  // Create executor with a non-blocking stream
  dtl::hip::hip_stream stream(dtl::hip::stream_flags::non_blocking);
  dtl::hip::hip_executor exec(std::move(stream));

  // Execute work on the GPU
  exec.execute([](hipStream_t s) { my_kernel<<<grid, block, 0, s>>>(d_data, n); });

  // Wait for completion
  exec.synchronize();
  // ---- end guide snippet ----
}

// The same work, with every status checked: what real code looks like.
bool check_with_results() {
  dtl::hip::hip_executor exec(dtl::hip::stream_flags::non_blocking);
  const auto launched = exec.execute([](hipStream_t s) { my_kernel<<<grid, block, 0, s>>>(d_data, n); });
  const auto done = launched.has_value() ? exec.synchronize() : launched;
  if (!done.has_value()) std::fprintf(stderr, "execute failed: %s\n", done.error().to_string().c_str());
  return done.has_value();
}

bool device_holds(const std::vector<float>& expected) {
  std::vector<float> readback(expected.size(), 0.0f);
  const auto r = dtl::hip::hip_memory_transfer::copy(readback.data(), d_data, readback.size() * sizeof(float),
                                                     dtl::hip::transfer_kind::device_to_host);
  return r.has_value() && readback == expected;
}

/// The example; main() turns a thrown status_error into an exit code.
int run() {
  if (dtl::hip::device_count() == 0) {
    std::printf("no HIP device: skipping\n");
    return 77;
  }
  n = (1 << 20) + 7;
  block = dim3(256);
  grid = dim3(static_cast<unsigned>((n + 255) / 256));
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);

  dtl::hip::hip_memory_space space;
  auto allocated = space.allocate(bytes);
  if (!allocated.has_value()) {
    std::fprintf(stderr, "allocation failed: %s\n", allocated.error().to_string().c_str());
    return 1;
  }
  d_data = static_cast<float*>(*allocated);
  std::vector<float> x(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 1000);
  bool ok =
      dtl::hip::hip_memory_transfer::copy(d_data, x.data(), bytes, dtl::hip::transfer_kind::host_to_device).has_value();

  guide_snippet();
  std::vector<float> once(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) once[i] = 2.0f * x[i] + 1.0f;
  ok = ok && device_holds(once);  // the snippet's kernel ran, and synchronize() waited for it

  ok = ok && check_with_results();
  std::vector<float> twice(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) twice[i] = 2.0f * once[i] + 1.0f;
  ok = ok && device_holds(twice);

  space.deallocate(d_data, bytes);
  std::printf("hip_executor: my_kernel over %d floats on a non-blocking stream: %s\n", n, ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}

}  // namespace

int main() { return run_or_skip_without_device(run); }

// SPDX-License-Identifier: MIT
// The demo's GPU path: hip_memory_space, hip_memory_transfer and hip_executor, each returning a status.
#include "demo.hpp"
#include "demo_kernels.hpp"

#include <backends/hip/hip_executor.hpp>
#include <backends/hip/hip_memory_space.hpp>
#include <backends/hip/hip_memory_transfer.hpp>
#include <dtl/core/try.hpp>
#include <dtl/hip/device.hpp>

#include <chrono>
#include <cmath>
#include <vector>

dtl::result<demo_report> run_gpu_demo(std::size_t n) {
  if (dtl::hip::device_count() == 0)
    return dtl::status(dtl::status_code::backend_not_available,
                       std::string("no HIP device found by the ") + dtl::hip::platform_name() + " runtime");
  DTL_ASSIGN_OR_RETURN(const int device, dtl::hip::current_device());
  DTL_ASSIGN_OR_RETURN(const auto props, dtl::hip::get_device_properties(device));

  const std::size_t bytes = n * sizeof(float);
  std::vector<float> x(n), y(n, 1.0f);
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 1024);

  // create(): the non-throwing twin of hip_executor(stream_flags), as this function returns a status.
  DTL_ASSIGN_OR_RETURN(dtl::hip::hip_executor exec,
                       dtl::hip::hip_executor::create(dtl::hip::stream_flags::non_blocking));
  dtl::hip::hip_memory_space space(device);
  DTL_ASSIGN_OR_RETURN(void* dx, space.allocate(bytes));
  DTL_ASSIGN_OR_RETURN(void* dy, space.allocate(bytes));
  using dtl::hip::hip_memory_transfer;
  using dtl::hip::transfer_kind;

  const float a = 2.0f;
  const auto start = std::chrono::steady_clock::now();
  auto run = [&]() -> dtl::result<void> {
    DTL_TRY(hip_memory_transfer::copy(dx, x.data(), bytes, transfer_kind::host_to_device));
    DTL_TRY(hip_memory_transfer::copy(dy, y.data(), bytes, transfer_kind::host_to_device));
    DTL_TRY(exec.execute(
        [&](hipStream_t s) { demo_saxpy(a, static_cast<const float*>(dx), static_cast<float*>(dy), n, s); }));
    DTL_TRY(exec.synchronize());
    return hip_memory_transfer::copy(y.data(), dy, bytes, transfer_kind::device_to_host);
  };
  const dtl::result<void> ran = run();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  space.deallocate(dx, bytes);
  space.deallocate(dy, bytes);
  DTL_TRY(ran);

  double max_error = 0.0;
  for (std::size_t i = 0; i < n; ++i)
    max_error = std::fmax(max_error, std::fabs(y[i] - (a * static_cast<float>(i % 1024) + 1.0f)));
  return demo_report{"GPU " + std::to_string(device) + ": " + props.name + " (" + props.arch + ")",
                     "copy in, kernel, copy out", n, max_error, seconds};
}

// SPDX-License-Identifier: MIT
// Compiled by dtl-hip-kc (nvcc or hipcc): the public headers must also build as part of kernel sources.
#include <hip/hip_runtime.h>

#include <backends/hip/hip_memory_space.hpp>
#include <backends/hip/hip_memory_transfer.hpp>
#include <dtl/hip/memory.hpp>

namespace {

__global__ void touch(unsigned* p) { *p = 1u; }

}  // namespace

// Referenced so that the kernel and the headers' inline code are really compiled.
hipError_t dtl_test_headers_kc_touch(unsigned* p, dtl::hip::stream_ref stream) {
  hipLaunchKernelGGL(touch, dim3(1), dim3(1), 0, stream.get(), p);
  return hipGetLastError();
}

// SPDX-License-Identifier: MIT
// Configure-time probe: can the kernel compiler (nvcc/hipcc) parse the headers of the layers below?
#include <dtl/core/result.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>
#include <dtl/hip/stream_ref.hpp>

dtl::result<int> kernel_probe_value() { return 1; }

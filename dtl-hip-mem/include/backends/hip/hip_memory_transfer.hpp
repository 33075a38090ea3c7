// SPDX-License-Identifier: MIT
#pragma once
// The HIP guide's include path for hip_memory_transfer; the definition lives under <dtl/hip/>.

// In .hip files, the whole HIP runtime (kernels with blockIdx, threadIdx), as upstream's headers give it.
#include <dtl/hip/runtime.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>

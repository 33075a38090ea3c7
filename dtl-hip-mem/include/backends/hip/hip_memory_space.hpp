// SPDX-License-Identifier: MIT
#pragma once
// The HIP guide's include path for the HIP memory spaces and the device queries of its API table
// (dtl::hip::device_count()); the definitions live under <dtl/hip/>.

// In .hip files, the whole HIP runtime (kernels with blockIdx, threadIdx), as upstream's headers give it.
#include <dtl/hip/runtime.hpp>
#include <dtl/hip/device.hpp>
#include <dtl/hip/hip_device_preferred_memory_space.hpp>
#include <dtl/hip/hip_managed_memory_space.hpp>
#include <dtl/hip/hip_memory_space.hpp>
#include <dtl/hip/hip_pinned_memory_space.hpp>

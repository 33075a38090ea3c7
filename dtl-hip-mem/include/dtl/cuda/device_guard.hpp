// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for its CUDA device guard. On HIP's NVIDIA platform HIP's devices are
// CUDA's (HIP calls cudart), so upstream's dtl::cuda names are dtl::hip's there: the same guard, the same
// device ids. Elsewhere there are no CUDA devices, and including this is an error (DTL_ENABLE_CUDA is 0;
// upstream's programs include it under #if DTL_ENABLE_CUDA).

#include <dtl/hip/device.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/runtime.hpp>

namespace dtl::cuda {

static_assert(hip::on_nvidia, "<dtl/cuda/device_guard.hpp> needs HIP's NVIDIA platform (DTL_ENABLE_CUDA is 0 here)");

/// dtl::hip::device_guard: `device_guard guard(d);` makes d current for the scope, best effort.
using hip::device_guard;
using hip::invalid_device_id;
/// The calling thread's current device, or invalid_device_id without one.
using hip::current_device_id;
/// The number of devices; 0 without any (or without a driver).
using hip::device_count;

}  // namespace dtl::cuda

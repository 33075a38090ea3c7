// SPDX-License-Identifier: MIT
#pragma once
// The HIP runtime, the one header of dtl-hip-* that includes HIP's. The build selects the platform (AMD or
// NVIDIA) by defining __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__; HIP's own headers do the rest.
// Everything platform-specific in dtl-hip-* lives in dtl-hip-mem/src/platform.cpp, not here.

#if !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP_PLATFORM_NVIDIA__)
#error \
    "dtl-hip: build through the dtl-hip-mem dependency, which defines __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__"
#endif

// Under a kernel compiler (hipcc: __HIPCC__, nvcc: __CUDACC__) the whole runtime, as upstream's headers
// include it: a .hip file that includes only DTL's headers (the guide's <backends/hip/...>) can write
// kernels with blockIdx, threadIdx and __global__. hipcc declares those only in <hip/hip_runtime.h>; nvcc
// has them built in, which is why a gap here shows on AMD alone. The C++ compiler gets the runtime API,
// which is all host code needs and all it can compile.
#if defined(__HIPCC__) || defined(__CUDACC__)
#include <hip/hip_runtime.h>
#else
#include <hip/hip_runtime_api.h>
#endif

namespace dtl::hip {

/// true when HIP runs on NVIDIA: its devices and streams are then CUDA's (upstream's CUDA spellings
/// map onto HIP's there).
#if defined(__HIP_PLATFORM_NVIDIA__)
inline constexpr bool on_nvidia = true;
#else
inline constexpr bool on_nvidia = false;
#endif

}  // namespace dtl::hip

// SPDX-License-Identifier: MIT
#pragma once
// The one place that chooses the device-primitive library for the HIP platform: CUB (from the CUDA
// toolkit) on NVIDIA, rocPRIM on AMD. Both backends give the same functions in
// dtl::detail::gpu::backend (see either header) and the macro DTL_DEVICE_EXEC_CHECK_DISABLE.
// Only the kernel compilers (nvcc, hipcc: dtl-hip-kc) can compile this: it contains kernels.

#if !defined(__CUDACC__) && !defined(__HIPCC__)
#error "DTL device primitives contain kernels: compile this file with dtl-hip-kc (nvcc or hipcc), not g++"
#else

#include <dtl/hip/runtime.hpp>

#include <hip/hip_runtime.h>

// The kernel compiler decides: nvcc is HIP's compiler on NVIDIA (it defines __CUDACC__), clang in HIP
// mode (hipcc) on AMD (it defines __HIP__). The platform macros themselves stay in dtl-hip-mem.
#if defined(__CUDACC__)
#include <dtl/containers/gpu/backend_cub.hpp>
#elif defined(__HIP__)
#include <dtl/containers/gpu/backend_rocprim.hpp>
#else
#error "DTL device primitives: neither nvcc (CUB) nor clang's HIP mode (rocPRIM) is compiling this file"
#endif
#endif

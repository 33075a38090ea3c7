#pragma once
// The one place that chooses the device-primitive library for the HIP platform: CUB (from the CUDA
// toolkit) on NVIDIA, rocPRIM on AMD. Both backends give the same functions in
// dtl::detail::device::backend (see either header) and the macro DTL_DEVICE_EXEC_CHECK_DISABLE.
// Only the kernel compilers (nvcc, hipcc: dtl-hip-kc) can compile this: it contains kernels.

#if !defined(__CUDACC__) && !defined(__HIPCC__)
#error "DTL device primitives contain kernels: compile this file with dtl-hip-kc (nvcc or hipcc), not g++"
#else

#include <dtl/hip/runtime.hpp>

#include <hip/hip_runtime.h>

#if defined(__HIP_PLATFORM_NVIDIA__)
#include <dtl/containers/detail/device_backend_cub.hpp>
#elif defined(__HIP_PLATFORM_AMD__)
#include <dtl/containers/detail/device_backend_rocprim.hpp>
#endif
#endif

#pragma once
// The HIP runtime API, for host code. The build selects the platform (AMD or NVIDIA) by defining
// __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__; HIP's own headers do the rest.
// Everything platform-specific in dtl-hip-* lives in dtl-hip-mem/src/platform.cpp, not here.

#if !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP_PLATFORM_NVIDIA__)
#error "dtl-hip: build through the dtl-hip-mem dependency, which defines __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__"
#endif

#include <hip/hip_runtime_api.h>

namespace dtl::hip {

/// true when HIP runs on NVIDIA: its devices and streams are then CUDA's (upstream's CUDA spellings
/// map onto HIP's there).
#if defined(__HIP_PLATFORM_NVIDIA__)
inline constexpr bool on_nvidia = true;
#else
inline constexpr bool on_nvidia = false;
#endif

}  // namespace dtl::hip

#pragma once
// Private: what differs between the AMD and NVIDIA platforms. Implemented in platform.cpp, the only
// source file in dtl-hip-* that tests which platform it is built for.

#include <dtl/hip/runtime.hpp>

#include <string>

namespace dtl::hip::platform {

/// "amd" or "nvidia".
const char* name() noexcept;

/// The device's architecture name: gcnArchName on AMD ("gfx90a:sramecc+:xnack-"), "sm_90" on NVIDIA.
std::string arch_name(const hipDeviceProp_t& prop);

}  // namespace dtl::hip::platform

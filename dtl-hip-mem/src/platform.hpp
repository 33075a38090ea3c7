#pragma once
// Private: what differs between the AMD and NVIDIA platforms. Implemented in platform.cpp, the only
// source file in dtl-hip-* that tests which platform it is built for.

#include <dtl/core/result.hpp>
#include <dtl/hip/pointer.hpp>
#include <dtl/hip/runtime.hpp>

#include <string>

namespace dtl::hip::platform {

/// "amd" or "nvidia".
const char* name() noexcept;

/// The device's architecture name: gcnArchName on AMD ("gfx90a:sramecc+:xnack-"), "sm_90" on NVIDIA.
std::string arch_name(const hipDeviceProp_t& prop);

/// Classifies a non-null pointer (see dtl::hip::query_pointer). A pointer the runtime does not know is
/// host_pageable; no HIP error is left pending for the calling thread.
result<pointer_attributes> query_pointer(const void* ptr);

}  // namespace dtl::hip::platform

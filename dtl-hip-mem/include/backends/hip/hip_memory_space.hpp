#pragma once
// The seed's include path for the HIP memory spaces; the definitions live under <dtl/hip/>.

#include <dtl/hip/hip_device_preferred_memory_space.hpp>
#include <dtl/hip/hip_managed_memory_space.hpp>
#include <dtl/hip/hip_memory_space.hpp>
#include <dtl/hip/hip_pinned_memory_space.hpp>

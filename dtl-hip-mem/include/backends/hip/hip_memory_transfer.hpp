#pragma once
// The HIP guide's include path for hip_memory_transfer; the definition lives under <dtl/hip/>.

#include <dtl/hip/hip_memory_transfer.hpp>

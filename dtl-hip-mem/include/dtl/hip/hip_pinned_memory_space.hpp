// SPDX-License-Identifier: MIT
#pragma once
// dtl::hip::hip_pinned_memory_space: defined with the other memory spaces in basic_memory_space.hpp.

#include <dtl/hip/basic_memory_space.hpp>

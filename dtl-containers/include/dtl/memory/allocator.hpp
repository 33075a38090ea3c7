// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::memory_space_allocator.
// Ours: <dtl/containers/memory_space_allocator.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/memory_space_allocator.hpp>

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::default_allocator, dtl::select_allocator and select_allocator_t.
// Ours: <dtl/containers/memory_space_allocator.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/memory_space_allocator.hpp>

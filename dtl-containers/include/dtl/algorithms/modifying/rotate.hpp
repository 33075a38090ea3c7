// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::rotate, local_rotate, local_shift_left and local_shift_right.
// Ours: <dtl/containers/algorithms/rotate.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/rotate.hpp>
#include <dtl/containers/algorithms/async_reorder.hpp>  // the async_* forms

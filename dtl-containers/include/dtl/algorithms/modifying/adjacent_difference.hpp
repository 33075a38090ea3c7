// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::adjacent_difference.
// Ours: <dtl/containers/algorithms/adjacent_difference.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/adjacent_difference.hpp>
#include <dtl/containers/algorithms/async_reorder.hpp>  // the async_* forms

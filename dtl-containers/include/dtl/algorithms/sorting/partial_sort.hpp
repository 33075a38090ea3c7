// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::partial_sort, partial_sort_copy, top_k, bottom_k and local_partial_sort.
// Ours: <dtl/containers/algorithms/partial_sort.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/partial_sort.hpp>
#include <dtl/containers/algorithms/async_reorder.hpp>  // the async_* forms

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::sort, stable_sort, distributed_sort, is_sorted.
// Ours: <dtl/containers/algorithms/sort.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/sort.hpp>

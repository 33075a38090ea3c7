// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::nth_element, median, local_nth_element, partition and stable_partition.
// Ours: <dtl/containers/algorithms/nth_element.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/nth_element.hpp>
#include <dtl/containers/algorithms/partition.hpp>
#include <dtl/containers/algorithms/async_reorder.hpp>  // the async_* forms

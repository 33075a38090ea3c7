// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::partition_elements, stable_partition_elements, is_partitioned and
// partition_count. Ours: <dtl/containers/algorithms/partition.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/partition.hpp>
#include <dtl/containers/algorithms/async_reorder.hpp>  // the async_* forms

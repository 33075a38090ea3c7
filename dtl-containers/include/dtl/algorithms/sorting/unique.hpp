// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::unique, unique_copy, count_duplicates, has_duplicates and local_unique.
// Ours: <dtl/containers/algorithms/unique.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/unique.hpp>
#include <dtl/containers/algorithms/async_reorder.hpp>  // the async_* forms

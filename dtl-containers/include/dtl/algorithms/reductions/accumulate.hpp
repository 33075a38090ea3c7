// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::accumulate and local_accumulate.
// Ours: <dtl/containers/algorithms/accumulate.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/accumulate.hpp>
#include <dtl/containers/algorithms/async_reorder.hpp>  // the async_* forms

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::detail::require_collective_comm_or_single_rank.
// Ours: <dtl/containers/algorithms/detail/rank_guard.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/detail/rank_guard.hpp>

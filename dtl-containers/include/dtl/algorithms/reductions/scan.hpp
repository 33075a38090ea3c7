// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::inclusive_scan, exclusive_scan (and, as upstream's,
// adjacent_difference).
// Ours: <dtl/containers/algorithms/scan.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/adjacent_difference.hpp>
#include <dtl/containers/algorithms/scan.hpp>

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::inclusive_scan, exclusive_scan.
// Ours: <dtl/containers/algorithms/scan.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/scan.hpp>

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::count, count_if.
// Ours: <dtl/containers/algorithms/reduce.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/reduce.hpp>

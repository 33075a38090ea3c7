// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::min_element, max_element, minmax_element.
// Ours: <dtl/containers/algorithms/minmax.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/minmax.hpp>

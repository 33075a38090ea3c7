// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for the algorithm concepts.
// Ours: <dtl/containers/algorithms/concepts.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/concepts.hpp>

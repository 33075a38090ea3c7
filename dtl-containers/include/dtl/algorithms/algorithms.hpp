// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for every algorithm.
// Ours: <dtl/containers/algorithms.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms.hpp>

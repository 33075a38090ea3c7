// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for every algorithm, and (as upstream's) the dispatch layer over plain
// iterator ranges. Ours: <dtl/containers/algorithms.hpp> and <dtl/algorithms/dispatch.hpp>
// (docs/upstream.md, "Forwarding headers").

#include <dtl/algorithms/dispatch.hpp>
#include <dtl/containers/algorithms.hpp>

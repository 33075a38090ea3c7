// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::fill (and dtl::iota).
// Ours: <dtl/containers/algorithms/modify.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/modify.hpp>

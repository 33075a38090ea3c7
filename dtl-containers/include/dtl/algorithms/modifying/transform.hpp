// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::transform.
// Ours: <dtl/containers/algorithms/modify.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/modify.hpp>

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::copy.
// Ours: <dtl/containers/algorithms/modify.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/modify.hpp>

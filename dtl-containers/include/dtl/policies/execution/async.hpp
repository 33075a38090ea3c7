// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::async.
// Ours: <dtl/containers/algorithms/execution.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/execution.hpp>

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::execution_dispatcher, the dispatch_* functions and the policy traits.
// Ours: <dtl/containers/algorithms/policy_dispatch.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/policy_dispatch.hpp>

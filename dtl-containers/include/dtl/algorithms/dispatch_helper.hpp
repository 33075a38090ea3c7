// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::dispatch_algorithm and dtl::DispatchImpl.
// Ours: <dtl/containers/algorithms/policy_dispatch.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/policy_dispatch.hpp>

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::algorithms::local, collective and distributed.
// Ours: <dtl/containers/algorithms/domain_namespaces.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/domain_namespaces.hpp>

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::algorithms::device's fill helpers over a device_view.
// Ours: <dtl/containers/algorithms/view/fill.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/view/fill.hpp>

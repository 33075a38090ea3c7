// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::device_view.
// Ours: <dtl/containers/device_view.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/device_view.hpp>

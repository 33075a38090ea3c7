// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::environment.
// Ours: <dtl/containers/communication/environment.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/communication/environment.hpp>

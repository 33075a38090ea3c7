// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for the contexts.
// Ours: <dtl/containers/communication/context.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/communication/context.hpp>

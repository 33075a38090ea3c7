// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for the contexts.
// Ours: <dtl/containers/communication/context.hpp> and, for upstream's Context concept,
// <dtl/containers/communication/context_like.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/context_like.hpp>

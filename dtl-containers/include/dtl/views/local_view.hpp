// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::local_view.
// Ours: <dtl/containers/views.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/views.hpp>

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::local_view.
// Ours: <dtl/containers/local_view.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/local_view.hpp>

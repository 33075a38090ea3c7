// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::remote_ref.
// Ours: <dtl/containers/global_view.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/global_view.hpp>

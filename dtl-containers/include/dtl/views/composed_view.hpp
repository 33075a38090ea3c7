// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for the view pipes (stride, slice, take_n, drop_n).
// Ours: <dtl/containers/composed_view.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/composed_view.hpp>

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::global_iterator.
// Ours: <dtl/containers/global_view.hpp>, with <dtl/containers/global_iterator.hpp> (docs/upstream.md,
// "Forwarding headers").

#include <dtl/containers/global_view.hpp>

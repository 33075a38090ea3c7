// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::find, find_if, find_if_not.
// Ours: <dtl/containers/algorithms/search.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/search.hpp>

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::all_of, any_of, none_of.
// Ours: <dtl/containers/algorithms/search.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/search.hpp>

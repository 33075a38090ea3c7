// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::algorithm_traits, its tags, concepts and _v helpers.
// Ours: <dtl/containers/algorithms/traits.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/traits.hpp>

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::replace, replace_if, replace_copy, replace_copy_if, local_replace and
// local_replace_if. Ours: <dtl/containers/algorithms/replace.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/replace.hpp>
#include <dtl/containers/algorithms/async_reorder.hpp>  // the async_* forms

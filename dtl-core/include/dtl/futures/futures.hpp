// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's futures in one include: distributed_future / distributed_promise (distributed_future.hpp)
// the combinators when_all, when_any, on_error, chain, fmap, flatten, flat_map (continuation.hpp) and the
// explicit progress API (progress.hpp), re-exported into dtl:: as upstream does. docs/upstream.md
// ("Futures") lists what differs.

#include <dtl/futures/continuation.hpp>
#include <dtl/futures/distributed_future.hpp>
#include <dtl/futures/progress.hpp>

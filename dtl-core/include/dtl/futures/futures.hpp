// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's futures in one include: distributed_future / distributed_promise (distributed_future.hpp)
// the combinators when_all, when_any, on_error, chain, fmap, flatten, flat_map (continuation.hpp) and the
// explicit progress API (progress.hpp), wait timeouts and diagnostics (diagnostics.hpp), completion sets
// (completion.hpp), the background progress thread (background_progress.hpp) and the callback executor
// (callback_executor.hpp), re-exported into dtl:: as upstream does; algorithm_result.hpp is
// dtl-containers'. docs/upstream.md ("Futures") lists what differs.

#include <dtl/futures/background_progress.hpp>
#include <dtl/futures/callback_executor.hpp>
#include <dtl/futures/completion.hpp>
#include <dtl/futures/continuation.hpp>
#include <dtl/futures/diagnostics.hpp>
#include <dtl/futures/distributed_future.hpp>
#include <dtl/futures/progress.hpp>

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's progress calls for remote operations: a rank serves the requests sent to it only
// while inside an rpc call of its own, so a rank busy elsewhere calls these now and then.

#include <dtl/core/result.hpp>
#include <dtl/core/types.hpp>
#include <dtl/futures/progress.hpp>
#include <dtl/remote/rpc.hpp>

namespace dtl::remote {

/// Serves the requests that have arrived at rpc's rank; how many.
[[nodiscard]] inline result<size_type> make_remote_progress(rpc_context& rpc) { return rpc.progress(); }

/// make_remote_progress, then one pass of the futures' progress engine (which completes call_async's
/// futures); the requests served.
[[nodiscard]] inline result<size_type> make_all_progress(rpc_context& rpc) {
  auto served = rpc.progress();
  static_cast<void>(futures::poll());
  return served;
}

}  // namespace dtl::remote

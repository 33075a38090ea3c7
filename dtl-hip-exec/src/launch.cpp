// SPDX-License-Identifier: MIT
#include <dtl/core/try.hpp>
#include <dtl/hip/error.hpp>
#include <dtl/hip/hip_stream.hpp>
#include <dtl/hip/launch.hpp>

#include <fmt/format.h>

namespace dtl::hip::detail {

result<launch_scope> launch_scope::enter(const hip_stream& stream) {
  if (!stream.valid()) return stream.error();
  DTL_ASSIGN_OR_RETURN(device_guard guard, device_guard::enter(stream.device()));
  // Clear what earlier code left in HIP's last error, so that it is not blamed on this work.
  if (const hipError_t stale = hipGetLastError(); stale != hipSuccess) {
    if (is_sticky(stale))
      return to_status(
          stale, fmt::format("device {} is unusable after an earlier error; the work was not run", stream.device()));
    report_unhandled(
        to_status(stale, "an unchecked HIP call before hip_executor::execute (cleared, not caused by it)"));
  }
  return launch_scope(std::move(guard));
}

status launch_scope::finish(status work) noexcept {
  const hipError_t launch = hipGetLastError();
  if (!work.ok()) return work;  // the work's own failure says more; the launch error (if any) is the same
  if (launch != hipSuccess)
    return to_status(launch, fmt::format("a launch in the work given to hip_executor (device {})", device()));
  return {};
}

}  // namespace dtl::hip::detail

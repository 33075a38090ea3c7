// SPDX-License-Identifier: MIT
#include <dtl/core/try.hpp>
#include <dtl/hip/device.hpp>
#include <dtl/hip/error.hpp>
#include <dtl/hip/stream_ref.hpp>

#include <utility>

namespace dtl::hip {

result<void> stream_ref::synchronize() const {
  DTL_TRY(require_device("stream_ref::synchronize"));
  DTL_HIP_TRY(hipStreamSynchronize(stream_));
  return {};
}

event_status stream_ref::query() const {
  if (status s = require_device("stream_ref::query"); !s.ok()) return event_status::failed(std::move(s));
  const hipError_t e = hipStreamQuery(stream_);
  if (e == hipSuccess) return event_status::complete();
  if (e == hipErrorNotReady) {
    // hipErrorNotReady is not a failure; keep it from lingering as the thread's last error.
    if (hipPeekAtLastError() == hipErrorNotReady) static_cast<void>(hipGetLastError());
    return event_status::pending();
  }
  return event_status::failed(to_status(e, "hipStreamQuery"));
}

}  // namespace dtl::hip

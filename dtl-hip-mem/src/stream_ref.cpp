#include <dtl/core/try.hpp>
#include <dtl/hip/device.hpp>
#include <dtl/hip/error.hpp>
#include <dtl/hip/stream_ref.hpp>

namespace dtl::hip {

result<void> stream_ref::wait() const {
  DTL_TRY(require_device("stream_ref::wait"));
  DTL_HIP_TRY(hipStreamSynchronize(stream_));
  return {};
}

result<bool> stream_ref::ready() const {
  DTL_TRY(require_device("stream_ref::ready"));
  const hipError_t e = hipStreamQuery(stream_);
  if (e == hipSuccess) return true;
  if (e == hipErrorNotReady) {
    // hipErrorNotReady is not a failure; keep it from lingering as the thread's last error.
    if (hipPeekAtLastError() == hipErrorNotReady) static_cast<void>(hipGetLastError());
    return false;
  }
  return to_status(e, "hipStreamQuery");
}

}  // namespace dtl::hip

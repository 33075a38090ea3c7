#include <dtl/core/try.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>
#include <dtl/hip/hip_executor.hpp>

#include <fmt/format.h>

namespace dtl::hip {

hip_executor::hip_executor() : stream_() {}

hip_executor::hip_executor(hip_stream stream) noexcept : stream_(std::move(stream)) {}

hip_executor::hip_executor(stream_flags flags, stream_priority priority) : stream_(flags, priority) {}

result<void> hip_executor::synchronize() { return stream_.synchronize(); }

result<void> hip_executor::synchronize_device() {
  if (!stream_.valid()) return stream_.error();
  DTL_ASSIGN_OR_RETURN(device_guard guard, device_guard::enter(stream_.device()));
  if (const hipError_t e = hipDeviceSynchronize(); e != hipSuccess)
    return to_status(e, fmt::format("hipDeviceSynchronize on device {}", stream_.device()));
  return {};
}

}  // namespace dtl::hip

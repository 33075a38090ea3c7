// SPDX-License-Identifier: MIT
#include <dtl/core/status_error.hpp>
#include <dtl/core/try.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>
#include <dtl/hip/hip_executor.hpp>

#include <fmt/format.h>

namespace dtl::hip {

namespace {

status moved_from_stream() { return status(status_code::invalid_argument, "hip_executor: the stream was moved from"); }

}  // namespace

hip_executor::hip_executor() : stream_() {}

hip_executor::hip_executor(hip_stream stream) : stream_(std::move(stream)) {
  if (!stream_.valid()) throw status_error(moved_from_stream());
}

hip_executor::hip_executor(stream_flags flags, stream_priority priority) : stream_(flags, priority) {}

result<hip_executor> hip_executor::create(hip_stream stream) {
  if (!stream.valid()) return moved_from_stream();
  hip_executor exec(detail::moved_from_t{});
  exec.stream_ = std::move(stream);
  return exec;
}

result<hip_executor> hip_executor::create(stream_flags flags, stream_priority priority, std::optional<int> device) {
  DTL_ASSIGN_OR_RETURN(hip_stream stream, hip_stream::create(flags, priority, device));
  return create(std::move(stream));
}

result<void> hip_executor::synchronize() { return stream_.synchronize(); }

result<void> hip_executor::synchronize_device() {
  if (!stream_.valid()) return stream_.error();
  DTL_ASSIGN_OR_RETURN(device_guard guard, device_guard::enter(stream_.device()));
  if (const hipError_t e = hipDeviceSynchronize(); e != hipSuccess)
    return to_status(e, fmt::format("hipDeviceSynchronize on device {}", stream_.device()));
  return {};
}

}  // namespace dtl::hip

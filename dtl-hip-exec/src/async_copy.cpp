// SPDX-License-Identifier: MIT
#include <dtl/hip/async_copy.hpp>
#include <dtl/hip/device_guard.hpp>

#include <utility>

namespace dtl::hip {

future<void> copy_async(void* dst, const void* src, std::size_t bytes, transfer_kind kind, const hip_stream& stream,
                        event_poller& engine) {
  // The copy's arguments first, then the stream (invalid without a device), as hip_memory_transfer does.
  if (status s = hip_memory_transfer::check_arguments(dst, src, bytes, kind); !s.ok())
    return make_failed_future<void>(std::move(s));
  if (!stream.valid()) return make_failed_future<void>(stream.error());
  {
    // The default stream means the current device's: make it the stream's device for the copy.
    auto guard = device_guard::enter(stream.device());
    if (!guard.has_value()) return make_failed_future<void>(std::move(guard).error());
    if (auto r = hip_memory_transfer::copy_async(dst, src, bytes, kind, stream_ref(stream.native_handle()));
        !r.has_value())
      return make_failed_future<void>(std::move(r).error());
  }
  return engine.enqueue(stream);
}

}  // namespace dtl::hip

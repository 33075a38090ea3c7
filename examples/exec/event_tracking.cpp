// SPDX-License-Identifier: MIT
// The HIP backend guide's "Event Tracking" snippet, verbatim inside guide_snippet(), with the stream it records on
// (carrying a device-to-host copy), then a check that the event really covered that work.
// Exits 77 (skip) without a HIP device.
//
// The snippet discards the result<void> of record() and synchronize(), as the guide does; this file is
// built with -Wno-unused-result for that reason.
#include <backends/hip/hip_event.hpp>

#include <backends/hip/hip_executor.hpp>
#include <backends/hip/hip_memory_space.hpp>
#include <backends/hip/hip_memory_transfer.hpp>
#include <dtl/core/status_error.hpp>
#include <dtl/hip/device.hpp>

#include <cstdio>
#include <cstring>

#include "skip_without_device.hpp"

namespace {

/// Runs the snippet on `stream`; true when the event was recorded and reads "done" afterwards.
bool guide_snippet(dtl::hip::hip_stream& stream) {
  // ---- begin guide snippet ----
  dtl::hip::hip_event event;
  event.record(stream);

  // Check completion
  if (event.query()) {
    // Work is done
  }

  // Or block until done
  event.synchronize();
  // ---- end guide snippet ----
  return event.recorded() && event.query().is_complete();
}

/// The example; main() turns a thrown status_error into an exit code.
int run() {
  if (dtl::hip::device_count() == 0) {
    std::printf("no HIP device: skipping\n");
    return 77;
  }
  constexpr std::size_t bytes = std::size_t{64} << 20;  // large enough that the copy is still running
  dtl::hip::hip_memory_space device_space;
  dtl::hip::hip_pinned_memory_space pinned_space;
  auto d = device_space.allocate(bytes);
  auto h = pinned_space.allocate(bytes);
  if (!d.has_value() || !h.has_value()) {
    std::fprintf(stderr, "setup failed\n");
    return 1;
  }
  std::memset(*h, 0, bytes);
  dtl::hip::hip_stream stream(dtl::hip::stream_flags::non_blocking);
  // Work for the event to track: fill the device buffer, then copy it into pinned host memory.
  bool ok = stream.valid() && hipMemsetAsync(*d, 0x5a, bytes, stream.native_handle()) == hipSuccess &&
            dtl::hip::hip_memory_transfer::copy_async(*h, *d, bytes, dtl::hip::transfer_kind::device_to_host, stream)
                .has_value();

  ok = guide_snippet(stream) && ok;
  // synchronize() returned, so the copy the event covers is complete: the host buffer holds the data.
  const auto* bytes_in = static_cast<const unsigned char*>(*h);
  for (std::size_t i = 0; ok && i < bytes; i += 4093) ok = bytes_in[i] == 0x5a;
  ok = ok && bytes_in[bytes - 1] == 0x5a;

  pinned_space.deallocate(*h, bytes);
  device_space.deallocate(*d, bytes);
  std::printf("hip_event: recorded after a %zu MiB device-to-host copy, synchronized, data arrived: %s\n", bytes >> 20,
              ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}

}  // namespace

int main() { return run_or_skip_without_device(run); }

// SPDX-License-Identifier: MIT
// The HIP backend guide's "Stream Management" snippet, verbatim inside guide_snippet(), then checks of what each
// stream is, and that the wrapped external stream outlives its non-owning wrapper.
// Exits 77 (skip) without a HIP device.
//
// The snippet discards the hipError_t of hipStreamCreate, as the guide does; this file is built with
// -Wno-unused-result for that reason.
#include <backends/hip/hip_executor.hpp>

#include <dtl/core/status_error.hpp>
#include <dtl/hip/device.hpp>

#include <cstdio>

#include "skip_without_device.hpp"

namespace {

bool report(bool ok, const char* what) {
  std::printf("  %-58s %s\n", what, ok ? "yes" : "NO");
  return ok;
}

/// Runs the snippet and checks its streams; returns the external stream (still alive) for main().
hipStream_t guide_snippet(bool& ok) {
  // ---- begin guide snippet ----
  // Default stream
  dtl::hip::hip_stream default_stream;

  // Non-blocking stream (owned)
  dtl::hip::hip_stream stream(dtl::hip::stream_flags::non_blocking);

  // Wrap an existing hipStream_t (non-owning)
  hipStream_t external_stream;
  hipStreamCreate(&external_stream);
  dtl::hip::hip_stream wrapped(external_stream, false);  // does not destroy on destruct
  // ---- end guide snippet ----

  const int device = dtl::hip::current_device().value_or(dtl::no_device);
  ok = report(default_stream.valid() && default_stream.is_default() && !default_stream.owns() &&
                  default_stream.device() == device,
              "default_stream is the current device's default stream") &&
       ok;
  ok = report(stream.valid() && !stream.is_default() && stream.owns() && stream.properties().non_blocking,
              "stream is an owned, non-blocking stream") &&
       ok;
  ok = report(wrapped.valid() && !wrapped.owns() && wrapped.native_handle() == external_stream,
              "wrapped views external_stream without owning it") &&
       ok;
  ok = report(stream.synchronize().has_value() && wrapped.synchronize().has_value() &&
                  default_stream.synchronize().has_value(),
              "all three synchronize") &&
       ok;
  return external_stream;
}

/// The example; main() turns a thrown status_error into an exit code.
int run() {
  if (dtl::hip::device_count() == 0) {
    std::printf("no HIP device: skipping\n");
    return 77;
  }
  bool ok = true;
  std::printf("hip_stream:\n");
  const hipStream_t external = guide_snippet(ok);
  // `wrapped` is gone; the stream it wrapped must not be.
  ok = report(hipStreamQuery(external) == hipSuccess, "external_stream survives its wrapper") && ok;
  ok = report(hipStreamDestroy(external) == hipSuccess, "and is destroyed by its owner") && ok;
  std::printf("stream management: %s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}

}  // namespace

int main() { return run_or_skip_without_device(run); }

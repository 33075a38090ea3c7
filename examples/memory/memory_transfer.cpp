// SPDX-License-Identifier: MIT
// The HIP backend guide's "Memory Management / Memory Transfers" snippet, verbatim inside guide_snippet(), with the
// d_ptr, h_ptr, size and stream it uses, then a check that the data really arrived on the device.
// Exits 77 (skip) without a HIP device.
//
// The snippet discards the result<void> of each copy, as the guide does; this file is built with
// -Wno-unused-result for that reason. Real code checks them (DTL_TRY, or see check_device_holds()).
#include <backends/hip/hip_memory_transfer.hpp>

#include <backends/hip/hip_memory_space.hpp>
#include <dtl/hip/device.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

namespace {

void guide_snippet(void* d_ptr, void* h_ptr, std::size_t size, dtl::hip::stream_ref stream) {
  // ---- begin guide snippet ----
  // Host to device
  dtl::hip::hip_memory_transfer::copy(d_ptr, h_ptr, size, dtl::hip::transfer_kind::host_to_device);

  // Device to host
  dtl::hip::hip_memory_transfer::copy(h_ptr, d_ptr, size, dtl::hip::transfer_kind::device_to_host);

  // Async copy on a stream
  dtl::hip::hip_memory_transfer::copy_async(d_ptr, h_ptr, size, dtl::hip::transfer_kind::host_to_device, stream);
  // ---- end guide snippet ----
}

// Reads the device buffer back through a separate host buffer and compares it with `expected`.
bool check_device_holds(const void* d_ptr, const std::vector<unsigned char>& expected) {
  std::vector<unsigned char> readback(expected.size(), 0);
  const auto r = dtl::hip::hip_memory_transfer::copy(readback.data(), d_ptr, readback.size(),
                                                     dtl::hip::transfer_kind::device_to_host);
  if (!r.has_value()) {
    std::fprintf(stderr, "read back failed: %s\n", r.error().to_string().c_str());
    return false;
  }
  return readback == expected;
}

}  // namespace

int main() {
  if (dtl::hip::device_count() == 0) {
    std::printf("no HIP device: skipping\n");
    return 77;
  }
  const std::size_t size = (1u << 20) + 3;
  std::vector<unsigned char> expected(size);
  for (std::size_t i = 0; i < size; ++i) expected[i] = static_cast<unsigned char>(1 + (i * 131) % 251);  // never 0

  dtl::hip::hip_memory_space device_space;
  dtl::hip::hip_pinned_memory_space pinned_space;  // pinned host memory: the async copy is truly async
  auto d = device_space.allocate(size);
  auto h = pinned_space.allocate(size);
  hipStream_t stream = nullptr;
  if (!d.has_value() || !h.has_value() || hipStreamCreateWithFlags(&stream, hipStreamNonBlocking) != hipSuccess) {
    std::fprintf(stderr, "setup failed\n");
    return 1;
  }
  void* d_ptr = *d;
  void* h_ptr = *h;
  std::memcpy(h_ptr, expected.data(), size);
  bool ok = hipMemset(d_ptr, 0, size) == hipSuccess;  // so that only the copies can put the data there

  guide_snippet(d_ptr, h_ptr, size, stream);

  // The async copy must be complete before the device buffer is read.
  ok = ok && dtl::hip::stream_ref(stream).synchronize().has_value();
  ok = ok && std::memcmp(h_ptr, expected.data(), size) == 0;  // the device-to-host copy brought it back
  ok = ok && check_device_holds(d_ptr, expected);
  ok = hipStreamDestroy(stream) == hipSuccess && ok;
  pinned_space.deallocate(h_ptr, size);
  device_space.deallocate(d_ptr, size);
  std::printf("hip_memory_transfer: %zu bytes host -> device -> host, async host -> device: %s\n", size,
              ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}

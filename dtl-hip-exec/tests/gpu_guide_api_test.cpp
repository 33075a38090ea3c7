// SPDX-License-Identifier: MIT
// The HIP guide's examples, written against the guide's includes and nothing else. Building this
// program checks that every name in the guide's API table is reachable from those includes
// (dtl::hip::device_count() among them); running it checks that the examples work as written.
// Needs a device: exits 77 (Meson SKIP) without one. A plain program, so that no other header
// (not even a test framework's) can supply a declaration the guide's includes lack.
#include <backends/hip/hip_event.hpp>
#include <backends/hip/hip_executor.hpp>
#include <backends/hip/hip_memory_space.hpp>
#include <backends/hip/hip_memory_transfer.hpp>

#include <cstddef>
#include <cstdio>
#include <utility>
#include <vector>

namespace {

int failures = 0;

void expect(bool ok, const char* what) {
  std::printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
  if (!ok) ++failures;
}

}  // namespace

int main() {
  const int devices = dtl::hip::device_count();
  std::printf("dtl::hip::device_count() = %d\n", devices);
  if (devices == 0) {
    std::printf("SKIP: the guide's examples need a HIP device\n");
    return 77;
  }

  // Memory management
  dtl::hip::hip_memory_space mem_space;
  constexpr std::size_t size = 1024;
  auto alloc_result = mem_space.allocate(size);
  expect(alloc_result.has_value(), "hip_memory_space::allocate(1024)");
  if (!alloc_result.has_value()) return 1;
  void* d_ptr = alloc_result.value();

  // Memory transfers
  std::vector<unsigned char> h_in(size);
  std::vector<unsigned char> h_out(size, 0);
  for (std::size_t i = 0; i < size; ++i) h_in[i] = static_cast<unsigned char>(1 + i * 7 % 255);
  expect(dtl::hip::hip_memory_transfer::copy(d_ptr, h_in.data(), size, dtl::hip::transfer_kind::host_to_device)
             .has_value(),
         "hip_memory_transfer::copy host_to_device");
  expect(dtl::hip::hip_memory_transfer::copy(h_out.data(), d_ptr, size, dtl::hip::transfer_kind::device_to_host)
             .has_value(),
         "hip_memory_transfer::copy device_to_host");
  expect(h_out == h_in, "the data came back");

  // Executor patterns. The guide launches its own kernel; a .cpp program enqueues a memset instead.
  dtl::hip::hip_stream stream(dtl::hip::stream_flags::non_blocking);
  expect(stream.valid(), "hip_stream(stream_flags::non_blocking)");
  dtl::hip::hip_executor exec(std::move(stream));
  expect(exec.execute([&](hipStream_t s) { return hipMemsetAsync(d_ptr, 0x5a, size, s); }).has_value(),
         "hip_executor::execute");
  std::vector<unsigned char> h_async(size, 0);
  expect(dtl::hip::hip_memory_transfer::copy_async(h_async.data(), d_ptr, size, dtl::hip::transfer_kind::device_to_host,
                                                   exec.stream())
             .has_value(),
         "hip_memory_transfer::copy_async on the executor's stream");

  // Event tracking
  dtl::hip::hip_event event;
  expect(event.record(exec.stream()).has_value(), "hip_event::record");
  expect(event.synchronize().has_value(), "hip_event::synchronize");
  expect(static_cast<bool>(event.query()), "hip_event::query is complete after synchronize");
  expect(exec.synchronize().has_value(), "hip_executor::synchronize");
  bool all_set = true;
  for (const unsigned char b : h_async) all_set = all_set && b == 0x5a;
  expect(all_set, "the executor's memset arrived through copy_async");

  // Stream management
  dtl::hip::hip_stream default_stream;
  expect(default_stream.valid() && default_stream.is_default(), "hip_stream(): the default stream");
  hipStream_t external_stream = nullptr;
  expect(hipStreamCreate(&external_stream) == hipSuccess, "hipStreamCreate");
  {
    dtl::hip::hip_stream wrapped(external_stream, false);
    expect(wrapped.valid() && !wrapped.owns(), "hip_stream(external, false) wraps without owning");
  }
  expect(hipStreamDestroy(external_stream) == hipSuccess, "the wrapped stream is still the caller's to destroy");

  mem_space.deallocate(d_ptr, size);
  std::printf("%s\n", failures == 0 ? "the guide's examples work" : "some of the guide's examples FAILED");
  return failures == 0 ? 0 : 1;
}

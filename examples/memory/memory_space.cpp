// SPDX-License-Identifier: MIT
// The HIP backend guide's "Memory Management / hip_memory_space" snippet, verbatim inside guide_snippet(), then a
// check that it really allocated and freed device memory. Exits 77 (skip) without a HIP device.
#include <backends/hip/hip_memory_space.hpp>

#include <dtl/hip/device.hpp>

#include <cstdio>

namespace {

// Returns the snippet's space's statistics afterwards, so that main() can check what it did.
dtl::allocation_stats guide_snippet() {
  // ---- begin guide snippet ----
  dtl::hip::hip_memory_space mem_space;

  // Allocate device memory
  auto alloc_result = mem_space.allocate(1024);
  if (alloc_result.has_value()) {
    void* ptr = alloc_result.value();
    // Use device memory...
    mem_space.deallocate(ptr, 1024);
  }
  // ---- end guide snippet ----
  if (!alloc_result.has_value())
    std::fprintf(stderr, "allocate(1024) failed: %s\n", alloc_result.error().to_string().c_str());
  return mem_space.stats();
}

}  // namespace

int main() {
  if (dtl::hip::device_count() == 0) {
    std::printf("no HIP device: skipping\n");
    return 77;
  }
  const dtl::allocation_stats s = guide_snippet();
  // One 1024-byte device allocation was made and given back.
  const bool ok = s.total_allocations == 1 && s.peak_bytes == 1024 && s.bytes_in_use == 0 && s.live_allocations == 0;
  std::printf("hip_memory_space: %llu allocation(s), peak %zu bytes, %zu in use: %s\n",
              static_cast<unsigned long long>(s.total_allocations), s.peak_bytes, s.bytes_in_use, ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}

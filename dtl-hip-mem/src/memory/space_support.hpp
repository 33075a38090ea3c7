#pragma once
// Private: what every HIP memory space does the same way. A space is bound to one device; it allocates
// and frees with that device current (device_guard) and counts every byte it hands out.

#include <dtl/core/allocation_stats.hpp>
#include <dtl/core/memory_space.hpp>
#include <dtl/core/result.hpp>
#include <dtl/hip/managed_memory.hpp>
#include <dtl/hip/pointer.hpp>
#include <dtl/hip/runtime.hpp>

#include <cstddef>
#include <string_view>

namespace dtl::hip::detail {

/// hipMalloc, hipMallocManaged and hipHostMalloc all guarantee at least this alignment.
inline constexpr std::size_t runtime_alignment = 256;

/// The device a space is bound to, and why it cannot allocate (ok when it can). Spaces keep both
/// (as device_ and availability_) and pass them to the functions below.
struct bound_device {
  int id = no_device;
  status availability;
};

/// The calling thread's current device; backend_not_available without a device.
bound_device bind_current_device();
/// `device`, checked: backend_not_available without a device, invalid_argument for a bad id.
bound_device bind_device(int device);

/// For the managed spaces: reads the device's managed-memory capabilities into `support` and returns
/// not_supported when the device has no managed memory or, if `need_concurrent_access`, no concurrent
/// managed access. Returns `device.availability` unchanged when that is already an error.
status check_managed_capability(const bound_device& device, bool need_concurrent_access, std::string_view space,
                                managed_memory_support& support);

/// How a space gets and returns memory. The functions run with the space's device current.
struct allocator_calls {
  hipError_t (*allocate)(void** out, std::size_t bytes);
  const char* allocate_name;  // for messages: "hipMalloc"
  hipError_t (*free)(void* ptr);
  const char* free_name;  // "hipFree"
  /// Optional: runs after a successful allocate; if it fails the memory is freed and its error returned.
  status (*after_allocate)(void* ptr, std::size_t bytes, int device) = nullptr;
};

/// Checks the request (bytes > 0, alignment a power of two <= 256, the space usable), then allocates
/// with the space's device current and counts the bytes. The caller's current device is unchanged.
result<void*> allocate_on(int device, const status& availability, std::size_t bytes, std::size_t alignment,
                          const allocator_calls& calls, allocation_counter& counter);

/// Frees `ptr` (nullptr is a no-op) with the space's device current and uncounts `bytes`.
status free_on(int device, const status& availability, void* ptr, std::size_t bytes, const allocator_calls& calls,
               allocation_counter& counter);

/// For noexcept deallocate(): frees, and sends a failure to report_unhandled().
void free_or_report(int device, const status& availability, void* ptr, std::size_t bytes, const allocator_calls& calls,
                    allocation_counter& counter) noexcept;

/// Whether `ptr` is memory of `kind` belonging to `device` (`any_device`: to any device).
result<bool> holds(int device, const status& availability, const void* ptr, memory_kind kind);

}  // namespace dtl::hip::detail

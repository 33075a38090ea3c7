#pragma once
// Private: how a HIP memory space gets and returns memory, and the managed-memory capability check.

#include <dtl/core/result.hpp>
#include <dtl/hip/managed_memory.hpp>
#include <dtl/hip/memory_space_base.hpp>
#include <dtl/hip/runtime.hpp>

#include <cstddef>
#include <string_view>

namespace dtl::hip::detail {

/// How a space gets and returns memory. memory_space_base calls these with the space's device current.
struct allocator_calls {
  hipError_t (*allocate)(void** out, std::size_t bytes);
  const char* allocate_name;  // for messages: "hipMalloc"
  hipError_t (*free)(void* ptr);
  const char* free_name;  // "hipFree"
  /// Optional: runs after a successful allocate; if it fails the memory is freed and its error returned.
  status (*after_allocate)(void* ptr, std::size_t bytes, int device) = nullptr;
};

/// For the managed spaces: reads `device`'s managed-memory capabilities into `support` and returns
/// not_supported when it has no managed memory or, if `need_concurrent_access`, no concurrent managed
/// access. `space` names the space in messages.
status check_managed_capability(int device, bool need_concurrent_access, std::string_view space,
                                managed_memory_support& support);

}  // namespace dtl::hip::detail

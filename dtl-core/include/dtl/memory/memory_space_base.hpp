// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's memory_space_traits: where a memory space's memory lives, for code that picks a space by
// type. A space says it by specializing the template; the primary template knows nothing (all false).
// The MemorySpace concept and memory_space_properties are in <dtl/core/memory_space.hpp>.

#include <dtl/core/host_memory_space.hpp>
#include <dtl/core/memory_space.hpp>

namespace dtl {

template <class Space>
struct memory_space_traits {
  static constexpr bool is_host_space = false;     // the host's memory (also when a device may reach it)
  static constexpr bool is_device_space = false;   // a device's memory
  static constexpr bool is_unified_space = false;  // managed memory that moves between them
  static constexpr bool is_thread_safe = false;    // allocate and deallocate may be called concurrently
};

template <>
struct memory_space_traits<host_memory_space> {
  static constexpr bool is_host_space = true;
  static constexpr bool is_device_space = false;
  static constexpr bool is_unified_space = false;
  static constexpr bool is_thread_safe = true;
};

}  // namespace dtl

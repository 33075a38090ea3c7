// SPDX-License-Identifier: MIT
#pragma once
// host_memory_space: aligned host memory. The default space, and the only one when there is no GPU.

#include <dtl/core/export.hpp>
#include <dtl/core/allocation_stats.hpp>
#include <dtl/core/memory_space.hpp>

#include <cstddef>
#include <string_view>

namespace dtl {

class DTL_CORE_API host_memory_space {
 public:
  static constexpr bool host_accessible = true;
  static constexpr bool device_accessible = false;
  /// Largest alignment accepted (one page of 4 KiB; larger requests are invalid_argument).
  static constexpr std::size_t max_alignment = 4096;

  host_memory_space() noexcept = default;
  host_memory_space(const host_memory_space&) = delete;
  host_memory_space& operator=(const host_memory_space&) = delete;

  /// Bytes aligned to alignof(max_align_t). 0 bytes or too many bytes is an error, never nullptr.
  result<void*> allocate(std::size_t bytes) { return allocate(bytes, alignof(std::max_align_t)); }
  /// alignment must be a power of two <= max_alignment.
  result<void*> allocate(std::size_t bytes, std::size_t alignment);
  /// Frees ptr (nullptr is ignored). bytes must be what was asked for; it keeps the statistics exact.
  /// A size larger than the bytes in use goes to dtl::report_unhandled() and the counters clamp at zero.
  void deallocate(void* ptr, std::size_t bytes) noexcept;

  [[nodiscard]] memory_space_properties properties() const noexcept;
  [[nodiscard]] static constexpr std::string_view name() noexcept { return "host"; }
  [[nodiscard]] allocation_stats stats() const noexcept { return counter_.snapshot(); }

 private:
  allocation_counter counter_;
};

static_assert(MemorySpace<host_memory_space>);

}  // namespace dtl

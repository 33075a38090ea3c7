// SPDX-License-Identifier: MIT
#pragma once
// The MemorySpace concept and the checks every memory space applies to an allocation request.

#include <dtl/core/export.hpp>
#include <dtl/core/placement.hpp>
#include <dtl/core/result.hpp>

#include <concepts>
#include <cstddef>
#include <string_view>
#include <type_traits>

namespace dtl {

struct memory_space_properties {
  bool host_accessible = true;
  bool device_accessible = false;
  bool unified = false;
  bool pageable = true;
  bool supports_atomics = true;
  std::size_t alignment = alignof(std::max_align_t);  // guaranteed alignment of allocate(bytes)
  int device_id = no_device;
};

template <class S>
concept MemorySpace = requires(S& space, const S& cspace, std::size_t bytes, void* ptr) {
  { space.allocate(bytes) } -> std::same_as<result<void*>>;
  { space.allocate(bytes, bytes) } -> std::same_as<result<void*>>;
  { space.deallocate(ptr, bytes) }
  noexcept;
  typename std::bool_constant<S::host_accessible>;  // static constexpr bool
  typename std::bool_constant<S::device_accessible>;
  { cspace.properties() } -> std::same_as<memory_space_properties>;
  { cspace.name() } -> std::convertible_to<std::string_view>;
};

[[nodiscard]] constexpr bool is_power_of_two(std::size_t n) noexcept { return n != 0 && (n & (n - 1)) == 0; }

/// Checks an allocation request: bytes > 0, alignment a power of two no larger than max_alignment,
/// and bytes rounded up to the alignment must not overflow. Returns the error to give back, or ok.
[[nodiscard]] DTL_CORE_API status
check_allocation_request(std::size_t bytes, std::size_t alignment, std::size_t max_alignment,
                         std::source_location where = std::source_location::current());

}  // namespace dtl

// SPDX-License-Identifier: MIT
#pragma once
// The four HIP memory spaces, one template over space_kind (the implementation is memory_space_base):
//
// | alias                             | HIP call                                   | name()                 |
// host/device |
// |-----------------------------------|--------------------------------------------|------------------------|-------------|
// | hip_memory_space                  | hipMalloc                                  | "hip_device"           | no / yes
// | | hip_managed_memory_space          | hipMallocManaged (attached globally)       | "hip_managed"          | yes /
// yes   | | hip_device_preferred_memory_space | hipMallocManaged + hipMemAdvise(preferred) | "hip_device_preferred" |
// yes / yes   | | hip_pinned_memory_space           | hipHostMalloc                              | "hip_pinned" | yes /
// yes   |
//
//   dtl::hip::hip_memory_space space;            // the current device
//   dtl::hip::hip_memory_space on1(1);           // device 1, whatever device is current later
//   DTL_ASSIGN_OR_RETURN(void* p, space.allocate(1 << 20));
//   ...
//   space.deallocate(p, 1 << 20);
//
// Every call runs with the space's device current and restores the caller's device afterwards.
// Failures are statuses, never nullptr: invalid_argument (0 bytes, a bad alignment or device id),
// out_of_memory (the device is full; the native HIP error is kept), backend_not_available (no device),
// not_supported (a managed space on a device without the managed-memory capability it needs).
//
// Managed spaces read their device's managed-memory capability when they are built and never degrade
// silently: without managed memory every allocate returns not_supported; support() tells whether host
// and device may touch the memory concurrently (without it, e.g. AMD without XNACK, the memory stays in
// host memory and the device reaches it over the bus). The device-preferred space needs concurrent
// managed access, since without it the preferred location would have no effect.
//
// Pinned memory: devices reach it through unified addressing, and copies to and from it are truly
// asynchronous. hipHostFree may synchronise the device, so keep pinned buffers for reuse.

#include <dtl/core/memory_space.hpp>
#include <dtl/hip/managed_memory.hpp>
#include <dtl/hip/memory_space_base.hpp>
#include <dtl/hip/stream_ref.hpp>

#include <cstddef>
#include <string_view>

namespace dtl::hip {

template <space_kind Kind>
class basic_memory_space : public memory_space_base {
 public:
  static constexpr space_kind kind = Kind;
  static constexpr bool host_accessible = Kind != space_kind::device;
  static constexpr bool device_accessible = true;

  /// Bound to the device current now. Without a device, every allocate returns backend_not_available.
  basic_memory_space() : memory_space_base(Kind) {}
  /// Bound to `device`. A bad id makes every allocate return invalid_argument (see availability()).
  explicit basic_memory_space(int device) : memory_space_base(Kind, device) {}

  [[nodiscard]] static constexpr std::string_view name() noexcept { return space_kind_name(Kind); }

  /// The device's managed-memory capabilities (all false when the space has no usable device).
  [[nodiscard]] managed_memory_support support() const noexcept requires(is_managed(Kind)) { return managed_support(); }

  /// Starts moving [ptr, ptr + bytes) to this space's device, ordered on `stream`.
  [[nodiscard]] result<void> prefetch_to_device(const void* ptr, std::size_t bytes, stream_ref stream = {}) const
      requires(Kind == space_kind::device_preferred) {
    if (!availability().ok()) return availability();
    return hip::prefetch_to_device(ptr, bytes, device_id(), stream);
  }

  /// Starts moving [ptr, ptr + bytes) to the host, ordered on `stream` (wait on the stream before the
  /// host relies on the pages being local).
  [[nodiscard]] result<void> prefetch_to_host(const void* ptr, std::size_t bytes, stream_ref stream = {}) const
      requires(Kind == space_kind::device_preferred) {
    if (!availability().ok()) return availability();
    return hip::prefetch_to_host(ptr, bytes, stream);
  }
};

/// Device memory (hipMalloc) on one device. Placement: device_only<N>.
using hip_memory_space = basic_memory_space<space_kind::device>;
/// Managed memory that the host and every device can touch; pages migrate. Placement: unified_memory.
using hip_managed_memory_space = basic_memory_space<space_kind::managed>;
/// Managed memory that prefers to live on one device. Placement: device_preferred_on<N>.
using hip_device_preferred_memory_space = basic_memory_space<space_kind::device_preferred>;
/// Page-locked host memory (hipHostMalloc), for staging and truly asynchronous copies.
using hip_pinned_memory_space = basic_memory_space<space_kind::pinned>;

static_assert(MemorySpace<hip_memory_space>);
static_assert(MemorySpace<hip_managed_memory_space>);
static_assert(MemorySpace<hip_device_preferred_memory_space>);
static_assert(MemorySpace<hip_pinned_memory_space>);

}  // namespace dtl::hip

// SPDX-License-Identifier: MIT
#pragma once
// Managed memory (hipMallocManaged): capability queries, advice and prefetching.
//
// Prefetching and advice need a device with concurrent managed access (NVIDIA Pascal and later on
// Linux; AMD with HMM and XNACK enabled). Without it they return not_supported instead of quietly
// doing nothing. Prefetches are ordered on the stream they are given, like a copy: the default
// stream_ref{} is the current device's null stream.

#include <dtl/hip/export_mem.hpp>
#include <dtl/core/result.hpp>
#include <dtl/hip/stream_ref.hpp>
#include <dtl/memory/prefetch_policy.hpp>

#include <cstddef>
#include <string_view>

namespace dtl::hip {

/// What a device can do with managed memory.
struct managed_memory_support {
  /// hipMallocManaged gives memory that both host and device may touch (hipDeviceAttributeManagedMemory).
  bool managed_memory = false;
  /// Host and device may touch it concurrently; pages migrate on demand, and prefetching and
  /// preferred-location advice take effect (hipDeviceAttributeConcurrentManagedAccess). Without it
  /// (e.g. AMD without XNACK), managed memory behaves like pinned host memory.
  bool concurrent_managed_access = false;
  /// The device can also touch plain pageable host memory (HMM / ATS).
  bool pageable_memory_access = false;
};

/// Reads the managed-memory capabilities of `device`: backend_not_available without a device,
/// invalid_argument for a bad id.
[[nodiscard]] DTL_HIP_MEM_API result<managed_memory_support> query_managed_memory_support(int device);

/// Where managed memory is, or prefers to be: a device id, or one of these. They are HIP's own values
/// (checked against hipCpuDeviceId and hipInvalidDeviceId where this library is built), not DTL's
/// device ids: location_host is the host as a place for pages, unlike dtl::no_device ("no device").
inline constexpr int location_host = -1;  // the host (hipCpuDeviceId)
inline constexpr int location_none = -2;  // no single location (hipInvalidDeviceId)

/// Typed hipMemoryAdvise.
enum class mem_advice {
  set_read_mostly,  // pages may be duplicated on readers; writes invalidate the copies
  unset_read_mostly,
  set_preferred_location,  // keep the pages on `device` (or location_host) when possible
  unset_preferred_location,
  set_accessed_by,  // keep the pages mapped for `device`, avoiding faults
  unset_accessed_by,
};

/// "set_read_mostly", ...
[[nodiscard]] DTL_HIP_MEM_API std::string_view mem_advice_name(mem_advice advice) noexcept;

/// Gives `advice` for managed memory [ptr, ptr + bytes). `device` is a device id or location_host; it is
/// ignored for the read-mostly advice. Errors: invalid_argument (nullptr, 0 bytes, a bad device),
/// invalid_pointer (not managed memory), not_supported (no concurrent managed access).
[[nodiscard]] DTL_HIP_MEM_API result<void> advise(const void* ptr, std::size_t bytes, mem_advice advice, int device);

/// Starts moving managed memory [ptr, ptr + bytes) to `device`, ordered on `stream`.
/// Same errors as advise().
[[nodiscard]] DTL_HIP_MEM_API result<void> prefetch_to_device(const void* ptr, std::size_t bytes, int device,
                                                              stream_ref stream = {});

/// Starts moving managed memory [ptr, ptr + bytes) to the host, ordered on `stream`.
/// Same errors as advise(); the capability checked is that of the device the memory was allocated on.
[[nodiscard]] DTL_HIP_MEM_API result<void> prefetch_to_host(const void* ptr, std::size_t bytes, stream_ref stream = {});

/// Carries out upstream's prefetch_hint on managed memory [ptr, ptr + bytes): the hint's offset and size
/// pick the part (prefetch_range); none does nothing. bidirectional names two moves, to the device before
/// device work and back after it, so it is invalid_argument here: apply make_device_prefetch() and
/// make_host_prefetch() at those two points. Otherwise the errors of prefetch_to_device / prefetch_to_host.
[[nodiscard]] inline result<void> prefetch(const void* ptr, std::size_t bytes, const prefetch_hint& hint,
                                           stream_ref stream = {}) {
  const prefetch_span part = prefetch_range(hint, bytes);
  const void* first = static_cast<const std::byte*>(ptr) + part.offset;
  switch (hint.policy) {
    case prefetch_policy::none: return {};
    case prefetch_policy::to_device: return prefetch_to_device(first, part.bytes, hint.device_id, stream);
    case prefetch_policy::to_host: return prefetch_to_host(first, part.bytes, stream);
    case prefetch_policy::bidirectional: break;
  }
  return status(status_code::invalid_argument,
                "prefetch: a bidirectional hint is two moves; prefetch to the device and to the host separately");
}

/// The preferred location of [ptr, ptr + bytes): a device id, location_host, or location_none when
/// none was set (or the parts disagree).
[[nodiscard]] DTL_HIP_MEM_API result<int> preferred_location(const void* ptr, std::size_t bytes);

/// Where [ptr, ptr + bytes) was last prefetched to: a device id, location_host, or location_none.
/// It records the request; the migration may still be in progress on its stream.
[[nodiscard]] DTL_HIP_MEM_API result<int> last_prefetch_location(const void* ptr, std::size_t bytes);

}  // namespace dtl::hip

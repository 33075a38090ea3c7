// SPDX-License-Identifier: MIT
#include <dtl/core/host_memory_space.hpp>
#include <dtl/core/host_memory_transfer.hpp>

#include <fmt/format.h>

#include <cstdlib>
#include <cstring>

namespace dtl {

result<void*> host_memory_space::allocate(std::size_t bytes, std::size_t alignment) {
  if (status s = check_allocation_request(bytes, alignment, max_alignment); !s.ok()) return s;
  // posix_memalign needs at least pointer alignment; smaller powers of two are satisfied by it too.
  const std::size_t align = alignment < sizeof(void*) ? sizeof(void*) : alignment;
  void* ptr = nullptr;
  if (const int err = ::posix_memalign(&ptr, align, bytes); err != 0 || ptr == nullptr)
    return status(status_code::out_of_memory,
                  fmt::format("host allocation of {} bytes (alignment {}) failed", bytes, alignment),
                  native_error{err, "posix_memalign", std::strerror(err)});
  counter_.record_allocate(bytes);
  return ptr;
}

void host_memory_space::deallocate(void* ptr, std::size_t bytes) noexcept {
  if (ptr == nullptr) return;
  // Without a size table only a size larger than what is in use can be caught; the counters clamp.
  const bool size_fits = counter_.record_deallocate(bytes);
  if (!size_fits) {
    try {
      report_unhandled(status(status_code::invalid_argument,
                              fmt::format("host_memory_space::deallocate({}, {} bytes): more bytes than this space "
                                          "has in use; the statistics were clamped at zero",
                                          ptr, bytes)));
    } catch (...) {  // formatting the message failed (bad_alloc): report without it
      report_unhandled(status(status_code::invalid_argument, "host_memory_space::deallocate: wrong size"));
    }
  }
  std::free(ptr);
}

memory_space_properties host_memory_space::properties() const noexcept {
  return {.host_accessible = true,
          .device_accessible = false,
          .unified = false,
          .pageable = true,
          .supports_atomics = true,
          .alignment = alignof(std::max_align_t),
          .device_id = no_device};
}

result<void> host_memory_transfer::copy(void* dst, const void* src, std::size_t bytes, transfer_kind kind) {
  if (kind != transfer_kind::host_to_host && kind != transfer_kind::automatic)
    return status(status_code::not_supported,
                  fmt::format("host_memory_transfer cannot copy {}", transfer_kind_name(kind)));
  if (dst == nullptr || src == nullptr) return status(status_code::invalid_argument, "host copy with a null pointer");
  if (bytes == 0) return status(status_code::invalid_argument, "host copy of 0 bytes");
  std::memmove(dst, src, bytes);
  return {};
}

}  // namespace dtl

// SPDX-License-Identifier: MIT
#include <dtl/core/memory_space.hpp>
#include <dtl/core/memory_transfer.hpp>

#include <fmt/format.h>

#include <limits>

namespace dtl {

status check_allocation_request(std::size_t bytes, std::size_t alignment, std::size_t max_alignment,
                                std::source_location where) {
  if (bytes == 0) return status(status_code::invalid_argument, "allocation of 0 bytes", where);
  if (!is_power_of_two(alignment))
    return status(status_code::invalid_argument, fmt::format("alignment {} is not a power of two", alignment), where);
  if (alignment > max_alignment)
    return status(status_code::invalid_argument,
                  fmt::format("alignment {} is above the supported maximum {}", alignment, max_alignment), where);
  if (bytes > std::numeric_limits<std::size_t>::max() - (alignment - 1))
    return status(status_code::out_of_memory, fmt::format("allocation of {} bytes is too large", bytes), where);
  return {};
}

std::string_view transfer_kind_name(transfer_kind kind) noexcept {
  switch (kind) {
    case transfer_kind::host_to_host: return "host_to_host";
    case transfer_kind::host_to_device: return "host_to_device";
    case transfer_kind::device_to_host: return "device_to_host";
    case transfer_kind::device_to_device: return "device_to_device";
    case transfer_kind::automatic: return "automatic";
  }
  return "unknown_transfer_kind";
}

}  // namespace dtl

// SPDX-License-Identifier: MIT
// Segments, wherever they live: host memory here, device memory through device_support.
#include "comm/state.hpp"
#include "gpu_comm/device_support.hpp"

#include <dtl/containers/detail/segment_ops.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/containers/placement_traits.hpp>
#include <dtl/core/try.hpp>

#include <fmt/format.h>

#include <cstring>

namespace dtl {

namespace detail {

status fill_segment(const context& ctx, int device, void* dst, std::size_t count, const void* pattern,
                    std::size_t pattern_bytes) {
  if (count == 0) return {};
  if (dst == nullptr || pattern == nullptr || pattern_bytes == 0)
    return status(status_code::invalid_argument, "fill_segment: null buffer or empty pattern");
  if (device != no_device) return device_support::fill(ctx, device, dst, count, pattern, pattern_bytes);
  auto* out = static_cast<std::byte*>(dst);
  bool zero = true;
  for (std::size_t b = 0; b < pattern_bytes && zero; ++b)
    zero = static_cast<const std::byte*>(pattern)[b] == std::byte{0};
  if (zero) {
    std::memset(out, 0, count * pattern_bytes);
  } else {
    for (std::size_t i = 0; i < count; ++i) std::memcpy(out + i * pattern_bytes, pattern, pattern_bytes);
  }
  return {};
}

status copy_segment(void* dst, const void* src, std::size_t bytes, transfer_kind kind) {
  if (bytes == 0) return {};
  if (dst == nullptr || src == nullptr) return status(status_code::invalid_argument, "copy_segment: null buffer");
  if (kind == transfer_kind::host_to_host) {
    std::memmove(dst, src, bytes);
    return {};
  }
  return device_support::copy(dst, src, bytes, kind);
}

status settle_device_work(const context& ctx, int device) {
  const context_state* state = context_access::state(ctx);
  if (device == no_device || state == nullptr) return {};
  return device_support::settle(*state->resources, device);
}

status check_placement_device(int device) {
  status s = device_support::check_device(device);
  if (s.code() == status_code::backend_not_available) return no_device_for_placement(s.message());
  return s;
}

result<int> context_or_current_device(const context& ctx) {
  if (ctx.has_device()) return ctx.device();
  auto current = device_support::current_device();
  if (!current && current.error().code() == status_code::backend_not_available)
    return no_device_for_placement(current.error().message());
  return current;
}

}  // namespace detail

std::shared_ptr<host_memory_space> shared_host_memory_space() {
  static const auto space = std::make_shared<host_memory_space>();
  return space;
}

}  // namespace dtl

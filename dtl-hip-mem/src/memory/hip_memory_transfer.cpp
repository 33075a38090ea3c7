// SPDX-License-Identifier: MIT
#include <dtl/hip/hip_memory_transfer.hpp>

#include <dtl/core/format.hpp>
#include <dtl/core/try.hpp>
#include <dtl/hip/device.hpp>
#include <dtl/hip/error.hpp>
#include <dtl/hip/pointer.hpp>

#include "known_memory.hpp"
#include "staging.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

namespace dtl::hip {

namespace {

bool is_known(transfer_kind kind) noexcept {
  switch (kind) {
    case transfer_kind::host_to_host:
    case transfer_kind::host_to_device:
    case transfer_kind::device_to_host:
    case transfer_kind::device_to_device:
    case transfer_kind::automatic: return true;
  }
  return false;
}

hipMemcpyKind to_hip(transfer_kind kind) noexcept {
  switch (kind) {
    case transfer_kind::host_to_host: return hipMemcpyHostToHost;
    case transfer_kind::host_to_device: return hipMemcpyHostToDevice;
    case transfer_kind::device_to_host: return hipMemcpyDeviceToHost;
    case transfer_kind::device_to_device: return hipMemcpyDeviceToDevice;
    case transfer_kind::automatic: break;
  }
  return hipMemcpyDefault;
}

bool source_is_host(transfer_kind kind) noexcept {
  return kind == transfer_kind::host_to_host || kind == transfer_kind::host_to_device;
}
bool destination_is_host(transfer_kind kind) noexcept {
  return kind == transfer_kind::host_to_host || kind == transfer_kind::device_to_host;
}

// Checks that the memory behind one side suits what `kind` says it is.
status check_side(const void* ptr, const pointer_attributes& attr, bool want_host, std::string_view side,
                  transfer_kind kind, std::string_view call) {
  const bool fits = want_host ? is_host_side(attr.kind) : is_device_side(attr.kind);
  if (fits) return {};
  return status(status_code::invalid_pointer,
                fmt::format("{} {}: {} ({}) is {} memory{}, but {} needs {} memory there (or managed memory, "
                            "or transfer_kind::automatic)",
                            call, kind, side, ptr, memory_kind_name(attr.kind),
                            attr.device >= 0 ? fmt::format(" of device {}", attr.device) : std::string(), kind,
                            want_host ? "host" : "device"));
}

// What the arguments alone tell, with no device: null pointers, 0 bytes, an unknown kind, overlap.
status check_copy_arguments(const void* dst, const void* src, std::size_t bytes, transfer_kind kind,
                            std::string_view call) {
  if (!is_known(kind))
    return status(status_code::invalid_argument,
                  fmt::format("{}: unknown transfer_kind {}", call, static_cast<int>(kind)));
  if (dst == nullptr) return status(status_code::invalid_argument, fmt::format("{} {}: dst is nullptr", call, kind));
  if (src == nullptr) return status(status_code::invalid_argument, fmt::format("{} {}: src is nullptr", call, kind));
  if (bytes == 0) return status(status_code::invalid_argument, fmt::format("{} {}: 0 bytes", call, kind));
  // Memory of our own spaces has a known extent: running past it is said as such (before the overlap
  // test, which an overrun into the next allocation would otherwise trip).
  for (const auto& [side, ptr] : {std::pair<const char*, const void*>{"src", src}, {"dst", dst}}) {
    if (const std::optional<detail::known_room> room = detail::room_after(ptr); room && room->left < bytes)
      return status(status_code::invalid_argument,
                    fmt::format("{} {}: {} bytes at {} ({}) run past the end of its {}-byte allocation ({} bytes left)",
                                call, kind, bytes, side, ptr, room->region_bytes, room->left));
  }
  // Addresses are unique across host and devices (unified addressing), so this overlap test is exact.
  const auto d = reinterpret_cast<std::uintptr_t>(dst);
  const auto s = reinterpret_cast<std::uintptr_t>(src);
  if ((d >= s ? d - s : s - d) < bytes)
    return status(status_code::invalid_argument, fmt::format("{} {}: the {} bytes at src {} and dst {} overlap", call,
                                                             kind, bytes, src, static_cast<const void*>(dst)));
  return {};
}

struct checked_transfer {
  hipMemcpyKind kind = hipMemcpyDefault;
  bool stage = false;      // through the pinned chunks (staging.hpp)
  bool to_device = false;  // the direction of a staged copy
};

// Everything that can be checked before HIP is asked to copy: gives the hipMemcpyKind to use, and whether
// the copy is staged. Memory our own spaces allocated is classified without a runtime call, so the checks
// cost a small copy next to nothing; foreign pointers are asked of the runtime.
result<checked_transfer> check_transfer(void* dst, const void* src, std::size_t bytes, transfer_kind kind,
                                        std::string_view call) {
  DTL_TRY(check_copy_arguments(dst, src, bytes, kind, call));
  if (device_count() == 0)
    return status(status_code::backend_not_available, fmt::format("{}: no HIP device is available", call));
  checked_transfer checked{to_hip(kind)};
  // An automatic copy is classified only when it is large enough to be staged.
  if (kind == transfer_kind::automatic && !detail::may_stage(bytes)) return checked;
  DTL_ASSIGN_OR_RETURN(const pointer_attributes from, query_pointer(src));
  DTL_ASSIGN_OR_RETURN(const pointer_attributes to, query_pointer(dst));
  if (kind != transfer_kind::automatic) {
    DTL_TRY(check_side(src, from, source_is_host(kind), "src", kind, call));
    DTL_TRY(check_side(dst, to, destination_is_host(kind), "dst", kind, call));
  }
  checked.stage = detail::should_stage(from.kind, to.kind, bytes);
  checked.to_device = from.kind == memory_kind::host_pageable;
  return checked;
}

}  // namespace

status hip_memory_transfer::check_arguments(const void* dst, const void* src, std::size_t bytes, transfer_kind kind) {
  return check_copy_arguments(dst, src, bytes, kind, "hip_memory_transfer");
}

result<void> hip_memory_transfer::copy(void* dst, const void* src, std::size_t bytes, transfer_kind kind) {
  DTL_ASSIGN_OR_RETURN(const checked_transfer checked, check_transfer(dst, src, bytes, kind, "copy"));
  if (checked.stage) return detail::staged_copy(dst, src, bytes, checked.to_device, nullptr, true);
  if (const hipError_t e = hipMemcpy(dst, src, bytes, checked.kind); e != hipSuccess)
    return to_status(e, fmt::format("hipMemcpy({} bytes, {})", bytes, kind));
  // hipMemcpy may return before the data has landed: a copy to device memory can still be in flight
  // (host-to-device from pageable memory, device-to-device). copy() promises that it has landed, so wait
  // for the null stream the copy ran on. Copies into host memory are complete when hipMemcpy returns.
  if (kind != transfer_kind::device_to_host && kind != transfer_kind::host_to_host) {
    if (const hipError_t e = hipStreamSynchronize(nullptr); e != hipSuccess)
      return to_status(e, fmt::format("hipStreamSynchronize(null stream) after hipMemcpy({} bytes, {})", bytes, kind));
  }
  return {};
}

result<void> hip_memory_transfer::copy_async(void* dst, const void* src, std::size_t bytes, transfer_kind kind,
                                             stream_ref stream) {
  DTL_ASSIGN_OR_RETURN(const checked_transfer checked, check_transfer(dst, src, bytes, kind, "copy_async"));
  if (checked.stage) return detail::staged_copy(dst, src, bytes, checked.to_device, stream.get(), false);
  if (const hipError_t e = hipMemcpyAsync(dst, src, bytes, checked.kind, stream.get()); e != hipSuccess)
    return to_status(
        e, fmt::format("hipMemcpyAsync({} bytes, {}, stream {})", bytes, kind, static_cast<const void*>(stream.get())));
  return {};
}

staging_options hip_memory_transfer::staging() noexcept { return detail::current_staging(); }

status hip_memory_transfer::set_staging(const staging_options& options) { return detail::configure_staging(options); }

}  // namespace dtl::hip

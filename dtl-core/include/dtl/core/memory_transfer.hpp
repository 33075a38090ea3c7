// SPDX-License-Identifier: MIT
#pragma once
// Copy directions and the MemoryTransfer concepts.

#include <dtl/core/export.hpp>
#include <dtl/core/result.hpp>

#include <concepts>
#include <cstddef>
#include <string_view>

namespace dtl {

enum class transfer_kind { host_to_host, host_to_device, device_to_host, device_to_device, automatic };

/// "host_to_device", ...
[[nodiscard]] DTL_CORE_API std::string_view transfer_kind_name(transfer_kind kind) noexcept;

/// A synchronous copy: static copy(dst, src, bytes, kind) -> result<void>.
template <class X>
concept MemoryTransfer = requires(void* dst, const void* src, std::size_t bytes, transfer_kind kind) {
  { X::copy(dst, src, bytes, kind) } -> std::same_as<result<void>>;
};

/// A copy ordered on a stream: static copy_async(dst, src, bytes, kind, stream) -> result<void>.
template <class X, class Stream>
concept AsyncMemoryTransfer = MemoryTransfer<X> &&
    requires(void* dst, const void* src, std::size_t bytes, transfer_kind kind, Stream s) {
  { X::copy_async(dst, src, bytes, kind, s) } -> std::same_as<result<void>>;
};

}  // namespace dtl

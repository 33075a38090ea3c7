// SPDX-License-Identifier: MIT
#pragma once
// stream_ref: a non-owning, trivially copyable view of a hipStream_t (after CCCL's cuda::stream_ref).
// The owning dtl::hip::hip_stream (dtl-hip-exec) converts to it.

#include <dtl/hip/export_mem.hpp>
#include <dtl/core/event.hpp>
#include <dtl/core/result.hpp>
#include <dtl/hip/runtime.hpp>

#include <cstddef>
#include <type_traits>

namespace dtl::hip {

class DTL_HIP_MEM_API stream_ref {
 public:
  using value_type = hipStream_t;

  /// The default (null) stream.
  constexpr stream_ref() noexcept = default;
  constexpr stream_ref(hipStream_t stream) noexcept : stream_(stream) {}  // NOLINT: implicit on purpose
  stream_ref(int) = delete;             // stream_ref(0) is ambiguous: write stream_ref{}
  stream_ref(std::nullptr_t) = delete;  // likewise

  [[nodiscard]] constexpr hipStream_t get() const noexcept { return stream_; }
  [[nodiscard]] constexpr bool is_default() const noexcept { return stream_ == nullptr; }

  /// Blocks the host until all work on the stream is done (hipStreamSynchronize).
  /// backend_not_available without a device.
  [[nodiscard]] result<void> synchronize() const;
  /// Whether all work on the stream is done (hipStreamQuery): complete, pending, or failed with the
  /// error (backend_not_available without a device). Never blocks.
  [[nodiscard]] event_status query() const;

  friend constexpr bool operator==(stream_ref a, stream_ref b) noexcept { return a.stream_ == b.stream_; }

 private:
  hipStream_t stream_ = nullptr;
};

static_assert(std::is_trivially_copyable_v<stream_ref>);

}  // namespace dtl::hip

// SPDX-License-Identifier: MIT
#pragma once
// device_scratch: temporary device memory of one device, for the work of one stream. The device
// primitives (primitives.hpp) take their temporary storage (CUB's and rocPRIM's d_temp_storage)
// from it, and a reduction can write its result into its small result slot.
// Host code only: it compiles with the plain C++ compiler as well as with nvcc and hipcc.

#include <dtl/core/result.hpp>
#include <dtl/core/try.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>
#include <dtl/hip/runtime.hpp>

#include <cstddef>
#include <string>
#include <utility>

namespace dtl::detail::gpu {

/// Holds device buffers of one device: the temporary storage and a small result slot, which grow
/// when asked for more than they hold, geometrically, so that steady use allocates nothing, and a
/// ticket counter.
/// Not thread-safe: one owner, one stream. Movable, not copyable.
///
/// Freeing safely. Work enqueued earlier on the stream may still use a buffer that must grow, so
/// growth first waits for the stream (hipStreamSynchronize) and then frees the old buffer (hipFree).
/// Growth is rare (it doubles), and the HIP 5.2 headers we build with have no stream-ordered free on
/// NVIDIA (hipFreeAsync is missing there), so waiting is the portable choice. The destructor frees
/// with hipFree, which itself waits for all work on the device (HIP and CUDA both synchronise the device
/// in hipFree), because the stream may already be destroyed by then.
class device_scratch {
 public:
  /// Scratch for work on `stream` of `device`. Allocates nothing yet, so it cannot fail; an invalid
  /// device is reported by the first reserve() or result_slot().
  device_scratch(int device, hipStream_t stream) noexcept : device_(device), stream_(stream) {}

  device_scratch(device_scratch&& other) noexcept
      : device_(other.device_),
        stream_(other.stream_),
        temp_(std::exchange(other.temp_, {})),
        slot_(std::exchange(other.slot_, {})),
        tickets_(std::exchange(other.tickets_, {})) {}

  device_scratch& operator=(device_scratch&& other) noexcept {
    if (this != &other) {
      release_or_report();
      device_ = other.device_;
      stream_ = other.stream_;
      temp_ = std::exchange(other.temp_, {});
      slot_ = std::exchange(other.slot_, {});
      tickets_ = std::exchange(other.tickets_, {});
    }
    return *this;
  }

  device_scratch(const device_scratch&) = delete;
  device_scratch& operator=(const device_scratch&) = delete;

  /// Frees both buffers; a failure goes to dtl::report_unhandled().
  ~device_scratch() { release_or_report(); }

  /// At least `bytes` of temporary device storage (never null, 256-byte aligned), valid for work
  /// enqueued on the stream after this call. Growing may wait for the stream (see above), and
  /// invalidates the pointer an earlier call returned.
  [[nodiscard]] result<void*> reserve(std::size_t bytes) { return grow(temp_, bytes, "temporary storage"); }

  /// At least `bytes` of device memory apart from the temporary storage, for a result that the
  /// caller copies back (a reduction's value). Same rules as reserve().
  [[nodiscard]] result<void*> result_slot(std::size_t bytes) { return grow(slot_, bytes, "result slot"); }

  /// A counter in device memory, zero between kernels: a single-pass reduction's blocks take tickets
  /// from it, and the last one sets it back to zero (single_pass_reduce.hpp). Made on first use.
  [[nodiscard]] result<unsigned*> ticket_counter() {
    if (tickets_.ptr == nullptr) {
      DTL_ASSIGN_OR_RETURN(void* p, grow(tickets_, granularity, "ticket counter"));
      DTL_HIP_TRY(hipMemsetAsync(p, 0, granularity, stream_));
    }
    return static_cast<unsigned*>(tickets_.ptr);
  }

  /// Frees the buffers now, waiting for the stream first.
  [[nodiscard]] status release() {
    if (temp_.ptr == nullptr && slot_.ptr == nullptr && tickets_.ptr == nullptr) return {};
    DTL_ASSIGN_OR_RETURN(auto guard, hip::device_guard::enter(device_));
    DTL_HIP_TRY(hipStreamSynchronize(stream_));
    DTL_TRY(free_buffer(temp_));
    DTL_TRY(free_buffer(tickets_));
    return free_buffer(slot_);
  }

  [[nodiscard]] int device() const noexcept { return device_; }
  [[nodiscard]] hipStream_t stream() const noexcept { return stream_; }
  /// Bytes of temporary storage held now (0 before the first reserve()).
  [[nodiscard]] std::size_t capacity() const noexcept { return temp_.bytes; }
  /// Bytes of the result slot held now.
  [[nodiscard]] std::size_t result_slot_capacity() const noexcept { return slot_.bytes; }

 private:
  struct buffer {
    void* ptr = nullptr;
    std::size_t bytes = 0;
  };

  static constexpr std::size_t granularity = 256;  // hipMalloc's alignment; what CUB and rocPRIM expect

  static std::size_t round_up(std::size_t bytes) noexcept {
    return (bytes + granularity - 1) / granularity * granularity;
  }

  result<void*> grow(buffer& b, std::size_t bytes, const char* what) {
    if (b.ptr != nullptr && b.bytes >= bytes) return b.ptr;
    const std::size_t exact = round_up(bytes < granularity ? granularity : bytes);
    // Double what was held, so that a slowly growing need allocates O(log n) times; when the doubled
    // size does not fit, the exact size may.
    const std::size_t doubled = round_up(2 * b.bytes);
    const std::size_t generous = doubled > exact ? doubled : exact;
    DTL_ASSIGN_OR_RETURN(auto guard, hip::device_guard::enter(device_));
    if (b.ptr != nullptr) {
      DTL_HIP_TRY(hipStreamSynchronize(stream_));  // earlier work on the stream may still use it
      DTL_TRY(free_buffer(b));
    }
    void* ptr = nullptr;
    std::size_t size = generous;
    hipError_t e = hipMalloc(&ptr, size);
    if (e == hipErrorOutOfMemory && generous != exact) {
      static_cast<void>(hipGetLastError());  // the first attempt's failure is not this call's outcome
      size = exact;
      e = hipMalloc(&ptr, size);
    }
    if (e != hipSuccess) {
      return hip::to_status(e, "hipMalloc(" + std::to_string(size) + ") of device_scratch " + what + " on device " +
                                   std::to_string(device_));
    }
    b = {ptr, size};
    return ptr;
  }

  status free_buffer(buffer& b) {
    if (b.ptr == nullptr) return {};
    const hipError_t e = hipFree(b.ptr);
    b = {};
    if (e != hipSuccess) {
      return hip::to_status(e, "hipFree of device_scratch memory on device " + std::to_string(device_));
    }
    return {};
  }

  void release_or_report() noexcept {
    if (temp_.ptr == nullptr && slot_.ptr == nullptr && tickets_.ptr == nullptr) return;
    auto guard = hip::device_guard::enter(device_);
    if (!guard.has_value()) {
      report_unhandled(guard.error());
      return;
    }
    if (status s = free_buffer(temp_); !s.ok()) report_unhandled(s);
    if (status s = free_buffer(slot_); !s.ok()) report_unhandled(s);
    if (status s = free_buffer(tickets_); !s.ok()) report_unhandled(s);
  }

  int device_;
  hipStream_t stream_;
  buffer temp_;
  buffer slot_;
  buffer tickets_;
};

}  // namespace dtl::detail::gpu

// SPDX-License-Identifier: MIT
#pragma once
// A context's GPU resources on one device ("lane"): its stream, scratch and pinned result slots, for the
// algorithms and the collectives. How an algorithm holds a lane under each execution policy is the
// algorithms' (algorithms/device/lane_session.hpp). HIP builds only; plain C++ (no kernels). Not for users.

#include <dtl/containers/config.hpp>

#if !DTL_CONTAINERS_HAS_HIP
#error "dtl/containers/communication/detail/lane.hpp is for HIP builds"
#endif

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/gpu/scratch.hpp>
#include <dtl/containers/export.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/try.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/future.hpp>
#include <dtl/hip/hip_stream.hpp>
#include <dtl/hip/event_poller.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

namespace dtl::detail {

/// One device's stream, temporary storage (one device_scratch per stream that algorithms ran on) and
/// pinned host slots for results. Algorithms hold `mutex` while they enqueue, and blocking ones until
/// their work is done. Work whose result stays on the device is left running on `stream` (`unsettled`);
/// what needs it on the host settles the lane first (settle()), and the next call on the lane reports
/// a failure of that work (poll_earlier(), and blame() when its own enqueue fails), so that none is lost.
struct device_lane {
  explicit device_lane(int dev, hip::hip_stream s) noexcept : device(dev), stream(std::move(s)) {}
  device_lane(const device_lane&) = delete;
  device_lane& operator=(const device_lane&) = delete;
  DTL_CONTAINERS_API ~device_lane();

  int device;
  std::mutex mutex;
  hip::hip_stream stream;  // non-blocking, owned
  /// Work was enqueued on `stream` and returned without the host waiting for it (atomic: a fence may
  /// settle the lane without `mutex`).
  std::atomic<bool> unsettled{false};
  /// When poll_earlier() last asked (nanoseconds of its clock).
  std::atomic<std::int64_t> last_poll_ns{0};

  /// The failure of unsettled work found without waiting (hipStreamQuery): ok while it still runs or
  /// once it is done, the failure once (the lane is settled then).
  DTL_CONTAINERS_API status check_earlier();
  /// check_earlier() when poll_interval has passed since the last poll (what every enqueued call does on
  /// its way in): a query costs 0.17-0.39 us, a tenth of a launch, and calls come every few microseconds.
  /// The clock is Linux's coarse one, so in practice once per tick (1-4 ms). A failure is still found by
  /// the first call after that, by any call that waits, and by the fence.
  DTL_CONTAINERS_API status poll_earlier();
  static constexpr std::chrono::microseconds poll_interval{50};
  /// A call's failed enqueue, as it returns it: the failure of the unsettled work before it when that is
  /// the cause (a failed kernel's error is sticky: the next enqueue returns it too), else `enqueue_failure`.
  DTL_CONTAINERS_API status blame(status enqueue_failure);
  /// Waits for `stream`; the failure of work on it.
  DTL_CONTAINERS_API status settle();
  /// Makes `other` (an on_stream policy's stream) wait on the device for the work left running on
  /// `stream`, so that a call on another stream sees what the calls before it wrote. The host does not
  /// wait. Call with `mutex` held.
  DTL_CONTAINERS_API status order_after_lane(hipStream_t other);

  /// The scratch of `s` (made on first use). Call with `mutex` held.
  DTL_CONTAINERS_API gpu::device_scratch& scratch_for(hipStream_t s);
  /// A pinned host slot of `slot_bytes` for one result, until give_back(). Thread-safe, also without `mutex`.
  DTL_CONTAINERS_API result<void*> take_slot();
  DTL_CONTAINERS_API void give_back(void* slot) noexcept;
  /// The address through which the device writes a slot (a kernel's result lands there, with no copy).
  DTL_CONTAINERS_API result<void*> device_address(void* slot);
  static constexpr std::size_t slot_bytes = 64;

 private:
  std::vector<std::pair<hipStream_t, gpu::device_scratch>> scratches_;
  hipEvent_t handoff_ = nullptr;  // recorded on `stream` for order_after_lane(); made on first use
  std::mutex slots_mutex_;
  std::vector<void*> chunks_;         // pinned memory, 64 slots each
  std::vector<void*> device_chunks_;  // their device addresses (hipHostGetDevicePointer), in the same order
  std::vector<void*> free_slots_;
};

/// The lane of `device` in `ctx` (made on first use). Errors: the context's, or the device's.
[[nodiscard]] DTL_CONTAINERS_API result<std::shared_ptr<device_lane>> acquire_lane(const context& ctx, int device);

/// Whether DTL_SYNC_ALGORITHMS=1: every algorithm waits for its work before it returns (read once).
[[nodiscard]] DTL_CONTAINERS_API bool sync_algorithms() noexcept;

/// The largest element fill_pattern takes, in bytes.
inline constexpr std::size_t fill_pattern_max_bytes = 256;

/// Sets `count` elements of `pattern_bytes` (1 to fill_pattern_max_bytes) bytes at device memory dst to
/// `pattern`, enqueued on `stream` (the device current). Compiled into the library, so any compiler can
/// call it. Larger elements: not_supported.
[[nodiscard]] DTL_CONTAINERS_API status fill_pattern(void* dst, std::size_t count, const void* pattern,
                                                     std::size_t pattern_bytes, hipStream_t stream);

/// Copies below this many bytes within one device take copy_device_bytes (a kernel), larger ones
/// hipMemcpyAsync (the copy engines).
inline constexpr std::size_t small_copy_bytes = std::size_t{1} << 20;

/// Copies `bytes` from device memory src to device memory dst (not overlapping, or the same), both
/// reachable from the current device, as a kernel enqueued on `stream`: for small copies, where a launch
/// costs the host less than hipMemcpyAsync. Compiled into the library, so that any compiler can call it.
[[nodiscard]] DTL_CONTAINERS_API status copy_device_bytes(void* dst, const void* src, std::size_t bytes,
                                                          hipStream_t stream);

}  // namespace dtl::detail

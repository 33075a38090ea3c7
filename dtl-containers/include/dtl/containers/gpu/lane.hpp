#pragma once
// A context's GPU resources for the algorithms on one device ("lane"), and how an algorithm runs on a
// lane under each execution policy. HIP builds only; plain C++ (no kernels). Not for users.

#include <dtl/containers/config.hpp>

#if !DTL_CONTAINERS_HAS_HIP
#error "dtl/containers/gpu/lane.hpp is for HIP builds"
#endif

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/gpu/scratch.hpp>
#include <dtl/containers/algorithms/detail/outcome.hpp>
#include <dtl/containers/algorithms/execution.hpp>
#include <dtl/containers/export.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/try.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/future.hpp>
#include <dtl/hip/hip_stream.hpp>
#include <dtl/hip/progress_engine.hpp>

#include <cstddef>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

namespace dtl::detail {

/// One device's stream, temporary storage (one device_scratch per stream that algorithms ran on) and
/// pinned host slots for results. Algorithms hold `mutex` while they enqueue, and blocking ones until
/// their work is done.
struct device_lane {
  explicit device_lane(int dev, hip::hip_stream s) noexcept : device(dev), stream(std::move(s)) {}
  device_lane(const device_lane&) = delete;
  device_lane& operator=(const device_lane&) = delete;
  DTL_CONTAINERS_API ~device_lane();

  int device;
  std::mutex mutex;
  hip::hip_stream stream;  // non-blocking, owned

  /// The scratch of `s` (made on first use). Call with `mutex` held.
  DTL_CONTAINERS_API gpu::device_scratch& scratch_for(hipStream_t s);
  /// A pinned host slot of `slot_bytes` for one result, until give_back(). Thread-safe, also without `mutex`.
  DTL_CONTAINERS_API result<void*> take_slot();
  DTL_CONTAINERS_API void give_back(void* slot) noexcept;
  static constexpr std::size_t slot_bytes = 64;

 private:
  std::vector<std::pair<hipStream_t, gpu::device_scratch>> scratches_;
  std::mutex slots_mutex_;
  std::vector<void*> chunks_;  // pinned memory, 64 slots each
  std::vector<void*> free_slots_;
};

/// The lane of `device` in `ctx` (made on first use). Errors: the context's, or the device's.
[[nodiscard]] DTL_CONTAINERS_API result<std::shared_ptr<device_lane>> acquire_lane(const context& ctx, int device);

/// Sets `count` elements of `pattern_bytes` (1, 2, 4, 8 or 16) bytes at device memory dst to `pattern`,
/// enqueued on `stream` (the device current). Compiled into the library, so any compiler can call it.
[[nodiscard]] DTL_CONTAINERS_API status fill_pattern(void* dst, std::size_t count, const void* pattern,
                                                     std::size_t pattern_bytes, hipStream_t stream);

/// Where a lane runs an algorithm: the policy's stream for on_stream, else the lane's.
template <class Policy>
hipStream_t stream_for(const Policy& policy, const device_lane& lane) noexcept {
  if constexpr (is_on_stream_v<Policy>)
    return policy.stream.get();
  else
    return lane.stream.native_handle();
}

/// One algorithm's hold on a lane: the lane's mutex locked, its device current, the policy's stream and
/// that stream's scratch.
struct lane_session {
  std::shared_ptr<device_lane> lane;
  std::unique_lock<std::mutex> lock;
  hip::device_guard guard;
  hipStream_t stream;
  gpu::device_scratch* scratch;
};

template <class Policy>
result<lane_session> enter_lane(const Policy& policy, const context& ctx, int device) {
  DTL_ASSIGN_OR_RETURN(std::shared_ptr<device_lane> lane, acquire_lane(ctx, device));
  std::unique_lock lock(lane->mutex);
  DTL_ASSIGN_OR_RETURN(hip::device_guard guard, hip::device_guard::enter(device));
  const hipStream_t stream = stream_for(policy, *lane);
  gpu::device_scratch* scratch = &lane->scratch_for(stream);
  return lane_session{std::move(lane), std::move(lock), std::move(guard), stream, scratch};
}

/// Runs enqueue(stream, scratch) -> status for an algorithm without a value, under `Policy`
/// (outcome.hpp says what each policy returns).
template <class Policy, class Enqueue>
auto run_on_lane(const Policy& policy, const context& ctx, int device, Enqueue&& enqueue) {
  using Pol = std::remove_cvref_t<Policy>;
  auto session = enter_lane(policy, ctx, device);
  if (!session) return failed_outcome<Pol, void>(std::move(session).error());
  if (status s = enqueue(session->stream, *session->scratch); !s.ok()) return failed_outcome<Pol, void>(std::move(s));
  return outcome_on_stream<Pol>(session->stream, device, nothing_to_read{});
}

}  // namespace dtl::detail

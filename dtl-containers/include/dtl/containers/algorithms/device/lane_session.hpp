// SPDX-License-Identifier: MIT
#pragma once
// How an algorithm's device body holds a lane (communication/detail/lane.hpp) under each execution policy: on which
// stream it runs, and what it returns (algorithms/detail/outcome.hpp). HIP builds only; plain C++ (no
// kernels). Not for users.

#include <dtl/containers/config.hpp>

#if !DTL_CONTAINERS_HAS_HIP
#error "dtl/containers/algorithms/device/lane_session.hpp is for HIP builds"
#endif

#include <dtl/containers/algorithms/detail/outcome.hpp>
#include <dtl/containers/algorithms/execution.hpp>
#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/detail/lane.hpp>
#include <dtl/containers/gpu/scratch.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/try.hpp>
#include <dtl/hip/device_guard.hpp>

#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>

namespace dtl::detail::device {

/// Where a lane runs an algorithm: the policy's stream for on_stream, else the lane's.
template <class Policy>
hipStream_t stream_for(const Policy& policy, const device_lane& lane) noexcept {
  if constexpr (is_on_stream_v<Policy>)
    return policy.stream.get();
  else
    return lane.stream.native_handle();
}

/// One algorithm's hold on a lane: the lane's mutex locked, its device current, the policy's stream and
/// that stream's scratch. Entering reports a failure of work an earlier call left running on the lane
/// (device_lane::poll_earlier: at most one query per interval), and orders an on_stream policy's stream
/// after that work.
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
  DTL_TRY(lane->poll_earlier());
  const hipStream_t stream = stream_for(policy, *lane);
  DTL_TRY(lane->order_after_lane(stream));
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
  if (status s = enqueue(session->stream, *session->scratch); !s.ok())
    return failed_outcome<Pol, void>(session->lane->blame(std::move(s)));
  return outcome_on_stream<Pol>(*session->lane, session->stream, nothing_to_read{});
}

}  // namespace dtl::detail::device

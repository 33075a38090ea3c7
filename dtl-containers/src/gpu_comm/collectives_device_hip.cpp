// SPDX-License-Identifier: MIT
// Device buffers of the gather, scatter and all-to-all collectives (HIP builds). Each is a byte_exchange,
// moved by RCCL/NCCL (grouped send/recv with zero counts skipped, or RCCL's ncclAllToAllv), by MPI on
// device pointers, or by MPI on pinned host copies; and the stream-ordered alltoall and alltoallv.
#include "comm/collectives.hpp"
#include "comm/state.hpp"
#include "gpu_comm/device_resources.hpp"
#include "gpu_comm/device_support.hpp"

#include <dtl/containers/communication/context.hpp>
#include <dtl/core/try.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>
#include <dtl/hip/event_poller.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <optional>

namespace dtl::detail {

namespace {

bool any_nonzero(const std::vector<std::size_t>& bytes) noexcept {
  return std::any_of(bytes.begin(), bytes.end(), [](std::size_t b) { return b != 0; });
}

/// A buffer that moves data must be memory of the context's device (RCCL/NCCL and the staging copies
/// work on that device only): `device` is the one found when the buffers were checked.
status check_device_of(const device_resources& res, int device, bool moves, const char* which) {
  if (!moves || device == res.device) return {};
  if (device == no_device)
    return status(status_code::invalid_argument,
                  fmt::format("a collective's {} buffer is host memory, and the others' are device memory", which));
  return status(status_code::invalid_argument,
                fmt::format("a collective's {} buffer is memory of device {}, and this context's device is {}", which,
                            device, res.device));
}

/// This rank's preparation, part of the agreement: the context's device current, the buffers on it.
status enter_device(const device_resources& res, const byte_exchange& x, std::optional<hip::device_guard>& guard) {
  if (res.device >= 0) {
    DTL_ASSIGN_OR_RETURN(hip::device_guard entered, hip::device_guard::enter(res.device));
    guard.emplace(std::move(entered));
  }
  DTL_TRY(check_device_of(res, x.send_device, x.send != nullptr && any_nonzero(x.send_bytes), "send"));
  return check_device_of(res, x.recv_device, x.recv != nullptr && any_nonzero(x.recv_bytes), "receive");
}

/// Returns once the bytes are in dst (hipMemcpy alone may return before a copy into device memory is
/// done, and the caller's stream is not ordered after the null stream). In place is nothing to do.
status copy(void* dst, const void* src, std::size_t bytes, transfer_kind kind) {
  if (bytes == 0 || dst == src) return {};
  return hip::hip_memory_transfer::copy(dst, src, bytes, kind).error();
}

/// [first, end) of the blocks that move (0, 0 when none does).
std::pair<std::size_t, std::size_t> extent_of(const std::vector<std::size_t>& bytes,
                                              const std::vector<std::size_t>& displs) noexcept {
  std::size_t first = 0, end = 0;
  bool any = false;
  for (std::size_t r = 0; r < bytes.size(); ++r) {
    if (bytes[r] == 0) continue;
    first = any ? std::min(first, displs[r]) : displs[r];
    end = std::max(end, displs[r] + bytes[r]);
    any = true;
  }
  return {first, end};
}

/// MPI on pinned host copies: the send blocks' extent goes to the host in one copy, the received blocks
/// come back one by one (or in one copy when they tile their extent), so that the bytes between the
/// receive blocks stay as they were.
status staged(device_resources& res, comm_backend& comm, collective_call& call, const byte_exchange& x, status ready) {
  std::lock_guard lock(res.mutex);
  const auto [send_first, send_end] = extent_of(x.send_bytes, x.send_displs);
  const auto [recv_first, recv_end] = extent_of(x.recv_bytes, x.recv_displs);
  const std::size_t send_span = send_end - send_first, recv_span = recv_end - recv_first;
  std::byte* host = nullptr;
  if (ready.ok()) {
    auto staging = staging_of(res, std::max<std::size_t>(send_span + recv_span, 1));
    if (staging)
      host = *staging;
    else
      ready = std::move(staging).error();
  }
  if (ready.ok())
    ready = copy(host, static_cast<const std::byte*>(x.send) + send_first, send_span, transfer_kind::device_to_host);
  DTL_TRY(call.agree(ready));
  const std::size_t n = x.send_bytes.size();
  std::vector<std::size_t> send_displs(n, 0), recv_displs(n, 0);
  for (std::size_t r = 0; r < n; ++r) {
    if (x.send_bytes[r] != 0) send_displs[r] = x.send_displs[r] - send_first;
    if (x.recv_bytes[r] != 0) recv_displs[r] = x.recv_displs[r] - recv_first;
  }
  std::byte* host_recv = host + send_span;
  DTL_TRY(comm.alltoallv(host, x.send_bytes.data(), send_displs.data(), host_recv, x.recv_bytes.data(),
                         recv_displs.data()));
  auto* out = static_cast<std::byte*>(x.recv);
  if (std::accumulate(x.recv_bytes.begin(), x.recv_bytes.end(), std::size_t{0}) == recv_span)  // no gaps
    return copy(out + recv_first, host_recv, recv_span, transfer_kind::host_to_device);
  for (std::size_t r = 0; r < n; ++r)
    DTL_TRY(copy(out + x.recv_displs[r], host_recv + recv_displs[r], x.recv_bytes[r], transfer_kind::host_to_device));
  return {};
}

/// `x` on device buffers, blocking. `wait_device` first waits for all work on the device.
status run_exchange(device_resources& res, comm_backend& comm, collective_call& call, const byte_exchange& x,
                    bool wait_device) {
  std::optional<hip::device_guard> guard;
  status ready = enter_device(res, x, guard);
  if (ready.ok() && wait_device) ready = hip::to_status(hipDeviceSynchronize(), "hipDeviceSynchronize");
  if (res.path == collective_path::self) {
    DTL_TRY(call.agree(ready));
    return copy(static_cast<std::byte*>(x.recv) + x.recv_displs[0],
                static_cast<const std::byte*>(x.send) + x.send_displs[0], std::min(x.send_bytes[0], x.recv_bytes[0]),
                transfer_kind::device_to_device);
  }
  if (res.path == collective_path::nccl) {
    DTL_ASSIGN_OR_RETURN(const nccl_lane on, agreed_nccl_lane(res, comm, call, std::move(ready)));
    const hipStream_t stream = on.stream();
    DTL_TRY(nccl::alltoallv(*on.comm, x.send, x.send_bytes.data(), x.send_displs.data(), x.recv, x.recv_bytes.data(),
                            x.recv_displs.data(), stream));
    DTL_HIP_TRY(hipStreamSynchronize(stream));
    return {};
  }
  if (res.mpi_gpu_aware && res.path != collective_path::mpi_staged) {
    DTL_TRY(call.agree(ready));
    return comm.alltoallv(x.send, x.send_bytes.data(), x.send_displs.data(), x.recv, x.recv_bytes.data(),
                          x.recv_displs.data());
  }
  return staged(res, comm, call, x, std::move(ready));
}

}  // namespace

namespace device_support {

status exchange(device_resources& res, comm_backend& comm, collective_call& call, const byte_exchange& x) {
  return run_exchange(res, comm, call, x, true);
}

}  // namespace device_support

namespace {

hip::future<void> failed(status s) { return hip::make_failed_future<void>(std::move(s)); }

/// alltoall and alltoallv ordered on `stream`. On RCCL/NCCL the exchange is enqueued on it (only the
/// agreement waits, for the other ranks); the other paths wait for the stream, move the data, and return
/// a completed future.
hip::future<void> exchange_on_stream(context_state* state, collective_call& call, prepared_exchange& p,
                                     hip::stream_ref stream) {
  device_resources& res = *state->resources;
  if (p.device && p.local.ok() && res.path == collective_path::nccl) {
    std::optional<hip::device_guard> guard;
    if (status s = call.agree(enter_device(res, p.x, guard)); !s.ok()) return failed(std::move(s));
    auto nc = nccl_of(res, *state->comm);
    if (!nc) return failed(std::move(nc).error());
    if (status s = nccl::alltoallv(**nc, p.x.send, p.x.send_bytes.data(), p.x.send_displs.data(), p.x.recv,
                                   p.x.recv_bytes.data(), p.x.recv_displs.data(), stream.get());
        !s.ok())
      return failed(std::move(s));
    return hip::event_poller::global().enqueue(stream, res.device);
  }
  if (p.local.ok())
    if (result<void> w = stream.synchronize(); !w) p.local = std::move(w).error();
  status s;
  if (p.device && p.local.ok()) {
    s = run_exchange(res, *state->comm, call, p.x, false);
  } else {
    s = call.agree(p.local);
    if (s.ok())
      s = state->comm->alltoallv(p.x.send, p.x.send_bytes.data(), p.x.send_displs.data(), p.x.recv,
                                 p.x.recv_bytes.data(), p.x.recv_displs.data());
  }
  if (!s.ok()) return failed(std::move(s));
  return hip::make_ready_future();
}

}  // namespace

}  // namespace dtl::detail

namespace dtl {

hip::future<void> context::alltoall_on_stream(const void* send, void* recv, std::size_t count_each, std::size_t elem,
                                              hip::stream_ref stream) const {
  detail::prepared_exchange p = detail::prepare_alltoall(size(), send, recv, count_each, elem);
  detail::collective_call call(state_.get(),
                               detail::alltoall_signature("alltoall (stream-ordered)", count_each, elem, p.device));
  if (!call.usable().ok()) return detail::failed(call.usable());
  return detail::exchange_on_stream(state_.get(), call, p, stream);
}

hip::future<void> context::alltoallv_on_stream(const void* send, std::span<const std::size_t> send_counts,
                                               std::span<const std::size_t> send_displs, void* recv,
                                               std::span<const std::size_t> recv_counts,
                                               std::span<const std::size_t> recv_displs, std::size_t elem,
                                               hip::stream_ref stream) const {
  detail::prepared_exchange p =
      detail::prepare_alltoallv(size(), send, send_counts, send_displs, recv, recv_counts, recv_displs, elem);
  detail::exchange_rider rider(p, rank(), /*may_carry=*/false);
  detail::call_signature signature = detail::alltoall_signature("alltoallv (stream-ordered)", 0, elem, false);
  signature.rider = &rider;
  detail::collective_call call(state_.get(), signature);
  if (!call.usable().ok()) return detail::failed(call.usable());
  if (status s = detail::agree_on_alltoallv_counts(call, p, rider, send_counts, recv_counts); !s.ok())
    return detail::failed(std::move(s));
  return detail::exchange_on_stream(state_.get(), call, p, stream);
}

}  // namespace dtl

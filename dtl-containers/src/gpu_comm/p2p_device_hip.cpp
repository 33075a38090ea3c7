// SPDX-License-Identifier: MIT
// Point-to-point's GPU side: what a device buffer is, staging through pinned memory, RCCL/NCCL
// send/recv, and the stream-ordered send, recv and sendrecv of a context.
#include "comm/p2p.hpp"
#include "comm/state.hpp"
#include "gpu_comm/device_resources.hpp"
#include "transport/nccl_support.hpp"

#include <dtl/containers/communication/context.hpp>
#include <dtl/core/try.hpp>
#include <dtl/hip/device.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>
#include <dtl/hip/pointer.hpp>
#include <dtl/hip/event_poller.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <initializer_list>
#include <mutex>

namespace dtl::detail::p2p_device {

namespace {

/// Pinned buffers kept for reuse (a few: transfers in flight at once are few).
constexpr std::size_t pool_limit = 8;

/// Returns once the data is in place (hipMemcpy may return before a copy into device memory lands).
status copy(const context_state& state, void* dst, const void* src, std::size_t bytes, transfer_kind kind) {
  DTL_ASSIGN_OR_RETURN(auto guard, hip::device_guard::enter(state.device));
  return hip::hip_memory_transfer::copy(dst, src, bytes, kind).error();
}

}  // namespace

void pinned_deleter::operator()(std::byte* p) const noexcept {
  if (p == nullptr) return;
  device_resources& res = *state->resources;
  std::lock_guard lock(res.mutex);
  res.p2p_pinned.emplace_back(p, bytes);
  if (res.p2p_pinned.size() <= pool_limit) return;
  // Too many: free the smallest.
  auto smallest = std::min_element(res.p2p_pinned.begin(), res.p2p_pinned.end(),
                                   [](const auto& a, const auto& b) { return a.second < b.second; });
  if (const hipError_t e = hipHostFree(smallest->first); e != hipSuccess)
    report_unhandled(hip::to_status(e, "hipHostFree"));
  res.p2p_pinned.erase(smallest);
}

result<bool> is_device(const context_state& state, const void* buf) {
  if (hip::device_count() == 0 || hip::never_device_memory(buf)) return false;
  DTL_ASSIGN_OR_RETURN(const hip::pointer_attributes attr, hip::query_pointer(buf));
  if (attr.kind != hip::memory_kind::device) return false;
  if (attr.device != state.device)
    return status(
        status_code::invalid_argument,
        fmt::format("the buffer is memory of device {}, and this context's device is {}", attr.device, state.device));
  return true;
}

bool nccl_ready(context_state& state) {
  device_resources& res = *state.resources;
  if (res.path != collective_path::nccl) return false;
  std::lock_guard lock(res.mutex);
  return res.nccl != nullptr && !res.released;
}

bool mpi_takes_device(const context_state& state) {
  const device_resources& res = *state.resources;
  return res.mpi_gpu_aware && res.path != collective_path::mpi_staged;
}

status prepare(const context_state& state, void* stream) {
  DTL_ASSIGN_OR_RETURN(auto guard, hip::device_guard::enter(state.device));
  if (stream != nullptr)
    return hip::to_status(hipStreamSynchronize(static_cast<hipStream_t>(stream)), "hipStreamSynchronize");
  return hip::to_status(hipDeviceSynchronize(), "hipDeviceSynchronize");
}

result<pinned_ptr> take_pinned(context_state& state, std::size_t bytes) {
  device_resources& res = *state.resources;
  {
    std::lock_guard lock(res.mutex);
    // The smallest pooled buffer that fits.
    auto best = res.p2p_pinned.end();
    for (auto it = res.p2p_pinned.begin(); it != res.p2p_pinned.end(); ++it)
      if (it->second >= bytes && (best == res.p2p_pinned.end() || it->second < best->second)) best = it;
    if (best != res.p2p_pinned.end()) {
      pinned_ptr p(static_cast<std::byte*>(best->first), pinned_deleter{&state, best->second});
      res.p2p_pinned.erase(best);
      return p;
    }
  }
  // Powers of two (from 4 KiB), so that messages of similar sizes reuse one buffer.
  const std::size_t size = std::max<std::size_t>(4096, std::bit_ceil(bytes));
  void* p = nullptr;
  DTL_ASSIGN_OR_RETURN(auto guard, hip::device_guard::enter(state.device));
  DTL_HIP_TRY(hipHostMalloc(&p, size, hipHostMallocDefault));
  return pinned_ptr(static_cast<std::byte*>(p), pinned_deleter{&state, size});
}

void device_deleter::operator()(std::byte* p) const noexcept {
  if (p == nullptr) return;
  if (const hipError_t e = hipFree(p); e != hipSuccess) report_unhandled(hip::to_status(e, "hipFree"));
}

result<device_ptr> take_device(const context_state& state, std::size_t bytes) {
  void* p = nullptr;
  DTL_ASSIGN_OR_RETURN(auto guard, hip::device_guard::enter(state.device));
  DTL_HIP_TRY(hipMalloc(&p, bytes));
  return device_ptr(static_cast<std::byte*>(p));
}

status to_host(const context_state& state, void* host, const void* device, std::size_t bytes) {
  return copy(state, host, device, bytes, transfer_kind::device_to_host);
}
status to_device(const context_state& state, void* device, const void* host, std::size_t bytes) {
  return copy(state, device, host, bytes, transfer_kind::host_to_device);
}

namespace {

/// A blocking device transfer: after every earlier write on the device, `issue` on the context's lane
/// (held for the call), waited for.
template <class Issue>
status blocking_on_lane(device_resources& res, Issue&& issue) {
  DTL_HIP_TRY(hipDeviceSynchronize());
  DTL_ASSIGN_OR_RETURN(std::shared_ptr<device_lane> lane, lane_of(res, res.device));
  std::lock_guard lock(lane->mutex);
  const hipStream_t s = lane->stream.native_handle();
  DTL_TRY(issue(s));
  DTL_HIP_TRY(hipStreamSynchronize(s));
  return {};
}

}  // namespace

status nccl_exchange(context_state& state, const void* send, std::size_t send_bytes, int dest, void* recv,
                     std::size_t recv_bytes, int src, void* stream) {
  device_resources& res = *state.resources;
  DTL_ASSIGN_OR_RETURN(auto guard, hip::device_guard::enter(res.device));
  nccl::communicator* nc = nullptr;
  {
    std::lock_guard lock(res.mutex);
    if (!res.nccl || res.released) return status(status_code::invalid_state, "the RCCL/NCCL communicator is gone");
    nc = res.nccl.get();
  }
  auto issue = [&](hipStream_t s) -> status {
    return nccl::grouped([&]() -> status {
      if (send != nullptr) DTL_TRY(nccl::send(*nc, send, send_bytes, dest, s));
      if (recv != nullptr) DTL_TRY(nccl::recv(*nc, recv, recv_bytes, src, s));
      return {};
    });
  };
  if (stream != nullptr) return issue(static_cast<hipStream_t>(stream));
  return blocking_on_lane(res, issue);
}

status self_copy(context_state& state, void* dst, const void* src, std::size_t bytes, void* stream, bool* enqueued) {
  device_resources& res = *state.resources;
  DTL_ASSIGN_OR_RETURN(auto guard, hip::device_guard::enter(res.device));
  if (stream != nullptr) {
    DTL_HIP_TRY(hipMemcpyAsync(dst, src, bytes, hipMemcpyDefault, static_cast<hipStream_t>(stream)));
    if (enqueued != nullptr) *enqueued = true;
    return {};
  }
  return blocking_on_lane(res, [&](hipStream_t s) -> status {
    DTL_HIP_TRY(hipMemcpyAsync(dst, src, bytes, hipMemcpyDefault, s));
    return {};
  });
}

}  // namespace dtl::detail::p2p_device

namespace dtl {

namespace {

/// A stream-ordered call: a side that cannot take RCCL/NCCL waits for the stream first; the call then
/// runs (RCCL/NCCL enqueue on the stream; MPI moves the data now).
template <class Call>
hip::future<void> p2p_on_stream(detail::context_state* st, std::initializer_list<const void*> buffers,
                                hip::stream_ref stream, Call call) {
  if (st == nullptr) return hip::make_failed_future<void>(detail::empty_context());
  bool maybe_nccl = st->check().ok() && detail::p2p_device::nccl_ready(*st);
  for (const void* buf : buffers) {
    if (buf == nullptr) continue;
    auto device = detail::p2p_device::is_device(*st, buf);
    maybe_nccl = maybe_nccl && device && *device;
  }
  if (!maybe_nccl)
    if (result<void> w = stream.synchronize(); !w) return hip::make_failed_future<void>(std::move(w).error());
  bool used_nccl = false;
  if (status s = call(static_cast<void*>(stream.get()), &used_nccl); !s.ok())
    return hip::make_failed_future<void>(std::move(s));
  if (used_nccl) return hip::event_poller::global().enqueue(stream, st->device);
  return hip::make_ready_future();
}

}  // namespace

hip::future<void> context::send_on_stream(const void* buf, std::size_t count, std::size_t elem, int dest, int tag,
                                          hip::stream_ref stream) const {
  detail::context_state* st = state_.get();
  return p2p_on_stream(st, {count != 0 ? buf : nullptr}, stream, [&](void* s, bool* used) {
    return detail::p2p::send(st, buf, count, elem, dest, tag, s, used);
  });
}

hip::future<void> context::recv_on_stream(void* buf, std::size_t count, std::size_t elem, int src, int tag,
                                          hip::stream_ref stream) const {
  detail::context_state* st = state_.get();
  return p2p_on_stream(st, {count != 0 ? buf : nullptr}, stream,
                       [&](void* s, bool* used) { return detail::p2p::recv(st, buf, count, elem, src, tag, s, used); });
}

hip::future<void> context::sendrecv_on_stream(const void* send, std::size_t send_count, int dest, void* recv,
                                              std::size_t recv_count, int src, std::size_t elem, int tag,
                                              hip::stream_ref stream) const {
  detail::context_state* st = state_.get();
  return p2p_on_stream(
      st, {send_count != 0 ? send : nullptr, recv_count != 0 ? recv : nullptr}, stream, [&](void* s, bool* used) {
        return detail::p2p::sendrecv(st, send, send_count, dest, recv, recv_count, src, elem, tag, s, used);
      });
}

}  // namespace dtl

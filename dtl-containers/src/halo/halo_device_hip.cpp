// SPDX-License-Identifier: MIT
// The device paths of a halo plan: RCCL/NCCL (one group of send/recv on the plan's stream, or the
// caller's), GPU-aware MPI (isend/irecv on device pointers), MPI staged through pinned buffers made
// once per plan, and device copies for a rank that is its own neighbour. Nothing is packed: the edges
// and the ghosts are contiguous.
#include "gpu_comm/device_resources.hpp"
#include "halo/halo_combine.hpp"
#include "halo/halo_plan.hpp"

#include <dtl/core/try.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>
#include <dtl/hip/hip_stream.hpp>
#include <dtl/hip/pointer.hpp>
#include <dtl/hip/event_poller.hpp>

#include <optional>

namespace dtl::detail {

struct halo_device {
  collective_path path = collective_path::self;
  device_resources* res = nullptr;
  nccl::communicator* nccl = nullptr;     // set by connect_halo_device on the nccl path
  std::optional<hip::hip_stream> stream;  // high priority: edges move while the interior computes
  std::shared_ptr<device_lane> lane;      // the context's stream for the device: earlier work
  std::byte* pinned = nullptr;            // staged: [to next | to prev | from prev | from next]
  std::byte* back = nullptr;              // reduce: [from next (prev bytes) | from prev (next bytes)]
  hipEvent_t handed_over = nullptr;       // an exchange's end on `stream`, for the context's stream to wait on
  int device = no_device;
  bool host_visible = false;  // managed memory: the host reads the ghosts, so an exchange waits

  ~halo_device() {
    auto guard = hip::device_guard::enter(device);
    // An exchange's last copies may still read `pinned` (hand_over_to_lane does not wait for them).
    if (stream) static_cast<void>(hipStreamSynchronize(stream->native_handle()));
    if (handed_over != nullptr) static_cast<void>(hipEventDestroy(handed_over));
    if (pinned != nullptr) static_cast<void>(hipHostFree(pinned));
    if (back != nullptr) static_cast<void>(hipFree(back));
  }
};

void halo_device_deleter::operator()(halo_device* dev) const noexcept { delete dev; }

namespace {

/// RCCL/NCCL take the halo of a vector on the communicator's device; another device goes through MPI.
collective_path path_for(const device_resources& res, int device) noexcept {
  if (res.path == collective_path::nccl && device != res.device)
    return res.mpi_gpu_aware ? collective_path::mpi_gpu_aware : collective_path::mpi_staged;
  return res.path;
}

status copy_async(void* dst, const void* src, std::size_t bytes, hipMemcpyKind kind, hipStream_t stream) {
  if (bytes == 0) return {};
  DTL_HIP_TRY(hipMemcpyAsync(dst, src, bytes, kind, stream));
  return {};
}

/// Orders `stream` (the plan's, or the caller's) after the work enqueued on the context's stream for the device.
status after_lane(halo_device& dev, hipStream_t stream) {
  std::lock_guard lock(dev.lane->mutex);
  return dev.lane->order_after_lane(stream);
}

/// One group of RCCL/NCCL sends and receives: per pair of ranks they pair in the order issued, and every
/// rank issues them in the same order (forward before backward), so the 2-rank periodic case, where
/// both neighbours are one rank, pairs right.
status nccl_exchange(halo_plan& plan, halo_device& dev, hipStream_t stream) {
  return nccl::grouped([&]() -> status {
    if (plan.prev_peer >= 0)
      DTL_TRY(nccl::recv(*dev.nccl, plan.prev_ghosts(), plan.prev_bytes, plan.prev_peer, stream));
    if (plan.next_peer >= 0)
      DTL_TRY(nccl::recv(*dev.nccl, plan.next_ghosts(), plan.next_bytes, plan.next_peer, stream));
    if (plan.next_peer >= 0) DTL_TRY(nccl::send(*dev.nccl, plan.last_owned(), plan.prev_bytes, plan.next_peer, stream));
    if (plan.prev_peer >= 0)
      DTL_TRY(nccl::send(*dev.nccl, plan.first_owned(), plan.next_bytes, plan.prev_peer, stream));
    return {};
  });
}

/// The ghosts, back to their owners, into dev.back (reduce).
status nccl_reverse(halo_plan& plan, halo_device& dev, hipStream_t stream) {
  return nccl::grouped([&]() -> status {
    if (plan.next_peer >= 0) DTL_TRY(nccl::recv(*dev.nccl, dev.back, plan.prev_bytes, plan.next_peer, stream));
    if (plan.prev_peer >= 0)
      DTL_TRY(nccl::recv(*dev.nccl, dev.back + plan.prev_bytes, plan.next_bytes, plan.prev_peer, stream));
    if (plan.prev_peer >= 0)
      DTL_TRY(nccl::send(*dev.nccl, plan.prev_ghosts(), plan.prev_bytes, plan.prev_peer, stream));
    if (plan.next_peer >= 0)
      DTL_TRY(nccl::send(*dev.nccl, plan.next_ghosts(), plan.next_bytes, plan.next_peer, stream));
    return {};
  });
}

/// Enqueues an exchange on `stream` where no host step is needed: a block that is its own neighbour
/// copies its edges into its ghosts (one kernel, on every path), RCCL/NCCL moves the others.
status enqueue_exchange(halo_plan& plan, halo_device& dev, hipStream_t stream) {
  if (plan.self())
    return copy_pair_on_device(plan.prev_ghosts(), plan.last_owned(), plan.prev_bytes, plan.next_ghosts(),
                               plan.first_owned(), plan.next_bytes, stream);
  return nccl_exchange(plan, dev, stream);
}

/// The end of an exchange whose last copies were enqueued on `stream` (the plan's): the context's stream
/// waits for them on the device, so that the calls after it see the ghosts without a host wait (as an
/// algorithm's work is left running: algorithms/detail/outcome.hpp). The host waits where it reads the
/// ghosts itself (managed memory), or where every call waits (DTL_SYNC_ALGORITHMS=1).
status hand_over_to_lane(halo_device& dev, hipStream_t stream) {
  if (dev.host_visible || sync_algorithms()) {
    DTL_HIP_TRY(hipStreamSynchronize(stream));
    return {};
  }
  if (dev.handed_over == nullptr) DTL_HIP_TRY(hipEventCreateWithFlags(&dev.handed_over, hipEventDisableTiming));
  DTL_HIP_TRY(hipEventRecord(dev.handed_over, stream));
  std::lock_guard lock(dev.lane->mutex);
  DTL_HIP_TRY(hipStreamWaitEvent(dev.lane->stream.native_handle(), dev.handed_over, 0));
  dev.lane->unsettled.store(true, std::memory_order_release);
  return {};
}

bool on_stream_only(const halo_plan& plan, const halo_device& dev) noexcept {
  return dev.path == collective_path::nccl || plan.self();
}

}  // namespace

int device_path_code(context_state& state, int device) noexcept {
  return 1 + static_cast<int>(path_for(*state.resources, device));
}

result<halo_device_ptr> make_halo_device(halo_plan& plan) {
  halo_device_ptr dev(new halo_device);
  dev->res = plan.state->resources.get();
  dev->path = path_for(*dev->res, plan.device);
  dev->device = plan.device;
  if (plan.idle()) return dev;  // an empty block (or no neighbour): nothing to move
  DTL_ASSIGN_OR_RETURN(hip::device_guard guard, hip::device_guard::enter(plan.device));
  DTL_ASSIGN_OR_RETURN(hip::hip_stream stream,
                       hip::hip_stream::create(hip::stream_flags::non_blocking, stream_priority::high, plan.device));
  dev->stream.emplace(std::move(stream));
  DTL_ASSIGN_OR_RETURN(dev->lane, lane_of(*dev->res, plan.device));
  DTL_ASSIGN_OR_RETURN(const hip::pointer_attributes attr, hip::query_pointer(plan.first_owned()));
  dev->host_visible = attr.kind != hip::memory_kind::device;
  const std::size_t ghost_bytes = plan.prev_bytes + plan.next_bytes;
  if (!plan.self() && ghost_bytes != 0) {
    DTL_HIP_TRY(hipMalloc(&dev->back, ghost_bytes));
    if (dev->path == collective_path::mpi_staged)
      DTL_HIP_TRY(hipHostMalloc(&dev->pinned, 2 * ghost_bytes, hipHostMallocDefault));
  }
  return dev;
}

status connect_halo_device(halo_plan& plan) {
  halo_device& dev = *plan.dev;
  if (dev.path != collective_path::nccl) return {};
  // Collective: every rank of the context gets here (the path was agreed), those with nothing to move too.
  DTL_ASSIGN_OR_RETURN(dev.nccl, nccl_of(*dev.res, *plan.state->comm));
  return {};
}

bool device_exchange_on_stream_only(const halo_plan& plan) noexcept { return on_stream_only(plan, *plan.dev); }

status device_exchange_now(halo_plan& plan) {
  halo_device& dev = *plan.dev;
  DTL_ASSIGN_OR_RETURN(hip::device_guard guard, hip::device_guard::enter(plan.device));
  // On the context's stream: after its earlier work, with no event to record or wait for; left running
  // there as an algorithm's work is (algorithms/detail/outcome.hpp), unless the host can see the ghosts.
  std::lock_guard lock(dev.lane->mutex);
  DTL_TRY(dev.lane->poll_earlier());
  DTL_TRY(enqueue_exchange(plan, dev, dev.lane->stream.native_handle()));
  dev.lane->unsettled.store(true, std::memory_order_release);
  if (dev.host_visible || sync_algorithms()) return dev.lane->settle();
  return {};
}

status device_exchange_begin(halo_plan& plan) {
  halo_device& dev = *plan.dev;
  DTL_ASSIGN_OR_RETURN(hip::device_guard guard, hip::device_guard::enter(plan.device));
  const hipStream_t stream = dev.stream->native_handle();
  DTL_TRY(after_lane(dev, dev.stream->native_handle()));
  if (on_stream_only(plan, dev)) return enqueue_exchange(plan, dev, stream);
  if (dev.path == collective_path::mpi_gpu_aware) {
    DTL_HIP_TRY(hipStreamSynchronize(stream));  // MPI reads the edges from the host's side of time
    return post_exchange(plan, plan.last_owned(), plan.prev_ghosts(), plan.first_owned(), plan.next_ghosts());
  }
  // Staged: the edges to pinned memory, MPI between pinned buffers; exchange_end copies the ghosts in.
  std::byte* to_next = dev.pinned;
  std::byte* to_prev = to_next + plan.prev_bytes;
  std::byte* from_prev = to_prev + plan.next_bytes;
  std::byte* from_next = from_prev + plan.prev_bytes;
  if (plan.next_peer >= 0)
    DTL_TRY(copy_async(to_next, plan.last_owned(), plan.prev_bytes, hipMemcpyDeviceToHost, stream));
  if (plan.prev_peer >= 0)
    DTL_TRY(copy_async(to_prev, plan.first_owned(), plan.next_bytes, hipMemcpyDeviceToHost, stream));
  DTL_HIP_TRY(hipStreamSynchronize(stream));
  return post_exchange(plan, to_next, from_prev, to_prev, from_next);
}

status device_exchange_end(halo_plan& plan) {
  halo_device& dev = *plan.dev;
  DTL_ASSIGN_OR_RETURN(hip::device_guard guard, hip::device_guard::enter(plan.device));
  const hipStream_t stream = dev.stream->native_handle();
  DTL_TRY(wait_pending(plan));
  if (dev.path == collective_path::mpi_staged && !plan.self()) {
    std::byte* from_prev = dev.pinned + plan.prev_bytes + plan.next_bytes;
    std::byte* from_next = from_prev + plan.prev_bytes;
    if (plan.prev_peer >= 0)
      DTL_TRY(copy_async(plan.prev_ghosts(), from_prev, plan.prev_bytes, hipMemcpyHostToDevice, stream));
    if (plan.next_peer >= 0)
      DTL_TRY(copy_async(plan.next_ghosts(), from_next, plan.next_bytes, hipMemcpyHostToDevice, stream));
  }
  // The next exchange_begin waits for `stream` before MPI writes into the pinned buffers again.
  return hand_over_to_lane(dev, stream);
}

status device_reduce(halo_plan& plan, datatype type, reduce_op op) {
  halo_device& dev = *plan.dev;
  DTL_ASSIGN_OR_RETURN(hip::device_guard guard, hip::device_guard::enter(plan.device));
  const hipStream_t stream = dev.stream->native_handle();
  DTL_TRY(after_lane(dev, dev.stream->native_handle()));
  if (plan.self()) {
    DTL_TRY(combine_on_device(plan.last_owned(), plan.prev_ghosts(), plan.prev_bytes, type, op, stream));
    DTL_TRY(combine_on_device(plan.first_owned(), plan.next_ghosts(), plan.next_bytes, type, op, stream));
    DTL_HIP_TRY(hipStreamSynchronize(stream));
    return {};
  }
  std::byte* from_next = dev.back;  // prev_bytes: the next rank's prev ghosts, copies of my last elements
  std::byte* from_prev = dev.back + plan.prev_bytes;
  if (dev.path == collective_path::nccl) {
    DTL_TRY(nccl_reverse(plan, dev, stream));
  } else if (dev.path == collective_path::mpi_gpu_aware) {
    DTL_HIP_TRY(hipStreamSynchronize(stream));
    DTL_TRY(post_reverse(plan, plan.prev_ghosts(), plan.next_ghosts(), from_next, from_prev));
    DTL_TRY(wait_pending(plan));
  } else {
    std::byte* to_prev = dev.pinned;
    std::byte* to_next = to_prev + plan.prev_bytes;
    std::byte* in_next = to_next + plan.next_bytes;
    std::byte* in_prev = in_next + plan.prev_bytes;
    if (plan.prev_peer >= 0)
      DTL_TRY(copy_async(to_prev, plan.prev_ghosts(), plan.prev_bytes, hipMemcpyDeviceToHost, stream));
    if (plan.next_peer >= 0)
      DTL_TRY(copy_async(to_next, plan.next_ghosts(), plan.next_bytes, hipMemcpyDeviceToHost, stream));
    DTL_HIP_TRY(hipStreamSynchronize(stream));
    DTL_TRY(post_reverse(plan, to_prev, to_next, in_next, in_prev));
    DTL_TRY(wait_pending(plan));
    if (plan.next_peer >= 0) DTL_TRY(copy_async(from_next, in_next, plan.prev_bytes, hipMemcpyHostToDevice, stream));
    if (plan.prev_peer >= 0) DTL_TRY(copy_async(from_prev, in_prev, plan.next_bytes, hipMemcpyHostToDevice, stream));
  }
  if (plan.next_peer >= 0) DTL_TRY(combine_on_device(plan.last_owned(), from_next, plan.prev_bytes, type, op, stream));
  if (plan.prev_peer >= 0) DTL_TRY(combine_on_device(plan.first_owned(), from_prev, plan.next_bytes, type, op, stream));
  DTL_HIP_TRY(hipStreamSynchronize(stream));
  return {};
}

const char* device_path_name(const halo_plan& plan) noexcept {
  switch (plan.dev->path) {
    case collective_path::self: return "self";
    case collective_path::nccl: return "nccl";
    case collective_path::mpi_gpu_aware: return "mpi_gpu_aware";
    case collective_path::mpi_staged: return "mpi_staged";
  }
  return "self";
}

hip::future<void> halo_exchange_on_stream(halo_plan& plan, hip::stream_ref stream) {
  auto failed = [](status s) { return hip::make_failed_future<void>(std::move(s)); };
  auto blocking = [&]() -> hip::future<void> {
    status s = halo_exchange_begin(plan);
    status e = plan.in_flight ? halo_exchange_end(plan) : status{};
    if (!s.ok()) return failed(std::move(s));
    if (!e.ok()) return failed(std::move(e));
    return hip::make_ready_future();
  };
  if (plan.device == no_device || plan.idle()) return blocking();
  if (status s = plan.state->check(); !s.ok()) return failed(std::move(s));
  if (plan.in_flight)
    return failed(
        status(status_code::invalid_state, "halo exchange: an exchange is in flight; call exchange_end first"));
  halo_device& dev = *plan.dev;
  if (on_stream_only(plan, dev)) {
    // Ordered on the caller's stream; the host does not wait.
    auto guard = hip::device_guard::enter(plan.device);
    if (!guard) return failed(std::move(guard).error());
    if (status s = after_lane(dev, stream.get()); !s.ok()) return failed(std::move(s));
    if (status s = enqueue_exchange(plan, dev, stream.get()); !s.ok()) return failed(std::move(s));
    return hip::event_poller::global().enqueue(stream, plan.device);
  }
  // The MPI paths need the host: wait for the caller's stream, then exchange; the caller's stream then
  // waits on the device for the exchange's last copies, as the context's does (hand_over_to_lane).
  if (result<void> w = stream.synchronize(); !w) return failed(std::move(w).error());
  hip::future<void> done = blocking();
  if (dev.handed_over != nullptr && done.query().is_complete()) {
    auto guard = hip::device_guard::enter(plan.device);
    if (!guard) return failed(std::move(guard).error());
    if (const hipError_t e = hipStreamWaitEvent(stream.get(), dev.handed_over, 0); e != hipSuccess)
      return failed(hip::to_status(e, "halo exchange: hipStreamWaitEvent"));
  }
  return done;
}

}  // namespace dtl::detail

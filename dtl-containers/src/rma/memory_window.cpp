// SPDX-License-Identifier: MIT
// Making dtl::memory_window: over the world while MPI runs, over a context's ranks (host memory, or device
// memory: rma/device_rma.hpp), or over this process alone; and the default forms of memory_window_impl's
// extension points.
#include "comm/state.hpp"
#include "gpu_comm/device_support.hpp"
#include "rma/device_rma.hpp"
#include "rma/epoch_window.hpp"
#include "transport/mpi_runtime.hpp"

#include <dtl/communication/memory_window.hpp>
#include <dtl/containers/communication/detail/agreement.hpp>
#include <dtl/containers/communication/detail/context_services.hpp>
#include <dtl/core/try.hpp>

#include <fmt/format.h>

#include <memory>

namespace dtl {

namespace {

status null_region() {
  return status(status_code::invalid_argument, "memory_window::create: a null base with a non-zero size");
}

/// A region for a window without a context: host memory only (a device window needs a context's GPU
/// resources).
status check_host_region(const void* base, size_type size) {
  if (base == nullptr && size > 0) return null_region();
  if (base == nullptr) return {};
  DTL_ASSIGN_OR_RETURN(const bool on_device, detail::device_support::is_device_memory(base));
  if (on_device)
    return status(status_code::not_supported,
                  "memory_window::create(base, size) over device memory: pass the context, "
                  "memory_window::create(ctx, base, size), whose GPU resources reach the other ranks' blocks");
  return {};
}

/// What this rank brings to a window of a context: its region's device (no_device: host memory) and,
/// for device memory, its lane; or why it cannot take part.
struct region {
  int device = no_device;
  std::shared_ptr<detail::device_lane> lane;
};

result<region> examine(detail::context_state& state, const void* base, size_type size) {
  if (base == nullptr && size > 0) return null_region();
  if (base == nullptr) return region{};
  DTL_ASSIGN_OR_RETURN(const int device, detail::device_support::device_of_memory(base));
  if (device == no_device) return region{};
  if (device != state.device)
    return status(status_code::invalid_argument,
                  fmt::format("memory_window::create: the region is memory of device {}, and this rank's context "
                              "works on device {}",
                              device, state.device));
  DTL_ASSIGN_OR_RETURN(std::shared_ptr<detail::device_lane> lane, detail::device_rma::prepare(state, device));
  return region{device, std::move(lane)};
}

result<memory_window> open(detail::comm_backend& comm, void* base, size_type size) {
  DTL_ASSIGN_OR_RETURN(std::unique_ptr<detail::rma_window> w, comm.create_rma_window(base, size));
  return memory_window::from_impl(std::make_unique<detail::epoch_window>(std::move(w)));
}

// The world while MPI runs (a duplicate of MPI_COMM_WORLD for the window's creation only); this
// process alone otherwise, where a window over no memory (a null base, or nothing to allocate) is an
// invalid one, as upstream's window of one process is (there is no other rank to take part for).
result<memory_window> open_on_world(void* base, size_type size) {
  if (detail::mpi_runtime::world_rank() < 0) {
    if (base == nullptr && size == 0) return memory_window{};
    return open(*detail::make_self_comm(), base, size);
  }
  DTL_ASSIGN_OR_RETURN(std::unique_ptr<detail::comm_backend> world, detail::mpi_runtime::world());
  result<memory_window> w = open(*world, base, size);
  world->release();
  return w;
}

result<memory_window> open_on(const context& ctx, void* base, size_type size) {
  detail::context_state* state = detail::context_access::state(ctx);
  if (state == nullptr || state->comm == nullptr) return detail::empty_context();
  return open(*state->comm, base, size);
}

/// A window of a context over the region every rank passes: host memory through the communicator's
/// windows, device memory through the device path (rma/device_rma.hpp). The ranks agree first, on their
/// checks and on which of the two it is.
result<memory_window> create_on(const context& ctx, void* base, size_type size) {
  detail::context_state* state = detail::context_access::state(ctx);
  if (state == nullptr || state->comm == nullptr) return detail::empty_context();
  result<region> mine = examine(*state, base, size);
  const bool device = mine && mine->device != no_device;
  DTL_TRY(detail::agree(ctx, mine ? status{} : mine.error(),
                        detail::call_signature{"memory_window::create", {device ? 1 : 0}, {"device memory"}}));
  if (!device) return open(*state->comm, base, size);
  DTL_ASSIGN_OR_RETURN(const int leader, detail::node_leader(ctx));
  DTL_ASSIGN_OR_RETURN(std::unique_ptr<detail::rma_window> w,
                       detail::device_rma::open(*state, leader, mine->device, base, size, std::move(mine->lane)));
  return memory_window::from_impl(std::make_unique<detail::epoch_window>(std::move(w)));
}

}  // namespace

result<memory_window> memory_window::create(void* base, size_type size) {
  DTL_TRY(check_host_region(base, size));
  return open_on_world(base, size);
}

result<memory_window> memory_window::create(const context& ctx, void* base, size_type size) {
  return create_on(ctx, base, size);
}

result<memory_window> memory_window::allocate(size_type size) { return open_on_world(nullptr, size); }

result<memory_window> memory_window::allocate(const context& ctx, size_type size) {
  return open_on(ctx, nullptr, size);
}

result<void> memory_window_impl::typed_accumulate(const void* origin, void* result_buf, size_type size, rank_t target,
                                                  size_type target_offset, rma_reduce_op op, rma_datatype type) {
  if (type != rma_datatype::u8)
    return status(status_code::not_supported, "this window combines bytes only (its typed_accumulate is not given)");
  if (result_buf == nullptr) return accumulate(origin, size, target, target_offset, op);
  return get_accumulate(origin, result_buf, size, target, target_offset, op);
}

result<void> memory_window_impl::async_put(const void* origin, size_type size, rank_t target, size_type target_offset,
                                           rma_request_handle& request) {
  DTL_TRY(put(origin, size, target, target_offset));
  request.completed = true;
  return {};
}

result<void> memory_window_impl::async_get(void* origin, size_type size, rank_t target, size_type target_offset,
                                           rma_request_handle& request) {
  DTL_TRY(get(origin, size, target, target_offset));
  request.completed = true;
  return {};
}

result<bool> memory_window_impl::test_async(rma_request_handle& request) { return request.completed; }

result<void> memory_window_impl::wait_async(rma_request_handle& request) {
  if (!request.completed)
    return status(status_code::invalid_state, "wait_async: a request that this window did not begin");
  return {};
}

}  // namespace dtl

// SPDX-License-Identifier: MIT
// Making dtl::memory_window: over the world while MPI runs, over a context's ranks, or over this process
// alone; and the default forms of memory_window_impl's extension points.
#include "comm/state.hpp"
#include "gpu_comm/device_support.hpp"
#include "rma/epoch_window.hpp"
#include "transport/mpi_runtime.hpp"

#include <dtl/communication/memory_window.hpp>
#include <dtl/core/try.hpp>

namespace dtl {

namespace {

status check_region(const void* base, size_type size) {
  if (base == nullptr && size > 0)
    return status(status_code::invalid_argument, "memory_window::create: a null base with a non-zero size");
  if (base == nullptr) return {};
  DTL_ASSIGN_OR_RETURN(const bool on_device, detail::device_support::is_device_memory(base));
  if (on_device)
    return status(status_code::not_supported,
                  "memory_window over device memory is not supported yet: expose a host buffer (or use a "
                  "distributed_vector's global_view for device data)");
  return {};
}

result<memory_window> open(detail::comm_backend& comm, void* base, size_type size) {
  DTL_ASSIGN_OR_RETURN(std::unique_ptr<detail::rma_window> w, comm.create_rma_window(base, size));
  return memory_window::from_impl(std::make_unique<detail::epoch_window>(std::move(w)));
}

// The world while MPI runs (a duplicate of MPI_COMM_WORLD for the window's creation only); this
// process alone otherwise.
result<memory_window> open_on_world(void* base, size_type size) {
  if (detail::mpi_runtime::world_rank() < 0) return open(*detail::make_self_comm(), base, size);
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

}  // namespace

result<memory_window> memory_window::create(void* base, size_type size) {
  DTL_TRY(check_region(base, size));
  return open_on_world(base, size);
}

result<memory_window> memory_window::create(const context& ctx, void* base, size_type size) {
  DTL_TRY(check_region(base, size));
  return open_on(ctx, base, size);
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

#include "state.hpp"

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/detail/context_services.hpp>
#include <dtl/core/placement.hpp>
#include <dtl/core/try.hpp>

#include <fmt/format.h>

namespace dtl {

namespace detail {

context_state::~context_state() { end(); }

status context_state::check() const {
  if (ended.load(std::memory_order_acquire))
    return status(status_code::invalid_state,
                  "this context's dtl::environment has ended (MPI may be finalised); make contexts from a live "
                  "environment");
  return {};
}

void context_state::end() noexcept {
  if (ended.exchange(true, std::memory_order_acq_rel)) return;
  {
    std::lock_guard lock(mutex);
    for (auto& weak : windows)
      if (auto w = weak.lock()) w->release();
    windows.clear();
  }
  if (resources) device_support::release(*resources);
  if (comm) comm->release();
}

void context_state::track(const std::shared_ptr<window>& w) {
  std::lock_guard lock(mutex);
  std::erase_if(windows, [](const std::weak_ptr<window>& weak) { return weak.expired(); });
  windows.push_back(w);
}

result<context> make_context(std::shared_ptr<environment_state> env, std::unique_ptr<comm_backend> comm, int device) {
  DTL_ASSIGN_OR_RETURN(device_resources_ptr resources, device_support::create_resources(*comm, device));
  auto state = std::make_shared<context_state>(env, std::move(comm), device, std::move(resources));
  if (env) {
    std::lock_guard lock(env->mutex);
    std::erase_if(env->contexts, [](const std::weak_ptr<context_state>& weak) { return weak.expired(); });
    env->contexts.push_back(state);
  }
  return context_access::make(std::move(state));
}

result<std::shared_ptr<window>> open_window(const context& ctx, void* base, std::size_t bytes) {
  context_state& state = context_access::state(ctx);
  DTL_TRY(state.check());
  DTL_ASSIGN_OR_RETURN(std::shared_ptr<window> w, state.comm->create_window(base, bytes));
  state.track(w);
  return w;
}

result<void> gatherv(const context& ctx, const void* send, std::size_t bytes, void* recv,
                     const std::vector<std::size_t>& bytes_per_rank, int root) {
  context_state& state = context_access::state(ctx);
  DTL_TRY(state.check());
  return state.comm->gatherv(send, bytes, recv, bytes_per_rank, root);
}

result<void> allgather_host(const context& ctx, const void* send, void* recv, std::size_t bytes_each) {
  context_state& state = context_access::state(ctx);
  DTL_TRY(state.check());
  return state.comm->allgather(send, recv, bytes_each);
}

std::size_t datatype_size(datatype type) noexcept {
  switch (type) {
    case datatype::i8:
    case datatype::u8: return 1;
    case datatype::i16:
    case datatype::u16: return 2;
    case datatype::i32:
    case datatype::u32:
    case datatype::f32: return 4;
    case datatype::i64:
    case datatype::u64:
    case datatype::f64: return 8;
  }
  return 1;
}

}  // namespace detail

namespace {

// Device buffers take the context's device path; host buffers (and managed memory, which the host can
// touch) go straight to MPI. A buffer pair must agree.
result<bool> on_device(const void* a, const void* b) {
  if (!detail::device_support::built()) return false;
  bool device_a = false, device_b = false;
  if (a != nullptr) {
    DTL_ASSIGN_OR_RETURN(device_a, detail::device_support::is_device_memory(a));
  }
  if (b != nullptr && b != a) {
    DTL_ASSIGN_OR_RETURN(device_b, detail::device_support::is_device_memory(b));
  } else {
    device_b = device_a;
  }
  if (a != nullptr && b != nullptr && device_a != device_b)
    return status(status_code::invalid_argument,
                  "a collective's buffers must both be device memory or both host memory");
  return device_a || device_b;
}

status check_buffers(const void* send, const void* recv, std::size_t count, bool recv_needed) {
  if (count == 0) return {};
  if (send == nullptr) return status(status_code::invalid_argument, "a collective's send buffer is nullptr");
  if (recv_needed && recv == nullptr) return status(status_code::invalid_argument, "a collective's receive buffer is nullptr");
  return {};
}

}  // namespace

context::context(std::shared_ptr<detail::context_state> state) noexcept : state_(std::move(state)) {}

int context::rank() const noexcept { return state_->comm->rank(); }
int context::size() const noexcept { return state_->comm->size(); }
int context::device() const noexcept { return state_->device; }
bool context::has_device() const noexcept { return state_->device >= 0; }
status context::check() const { return state_->check(); }

collective_path context::device_collective_path() const noexcept {
  return detail::device_support::path(*state_->resources);
}
const std::string& context::device_collective_reason() const noexcept {
  return detail::device_support::path_reason(*state_->resources);
}

result<void> context::barrier() const {
  DTL_TRY(state_->check());
  return state_->comm->barrier();
}

result<context> context::split(int color, int key) const {
  DTL_TRY(state_->check());
  DTL_ASSIGN_OR_RETURN(std::unique_ptr<detail::comm_backend> sub, state_->comm->split(color, key));
  return detail::make_context(state_->environment, std::move(sub), state_->device);
}

result<void> context::allreduce_raw(const void* send, void* recv, std::size_t count, detail::datatype type,
                                    reduce_op op) const {
  DTL_TRY(check_buffers(send, recv, count, true));
  DTL_TRY(state_->check());
  if (count == 0) return {};
  DTL_ASSIGN_OR_RETURN(const bool device, on_device(send, recv));
  if (device) return detail::device_support::allreduce(*state_->resources, *state_->comm, send, recv, count, type, op);
  return state_->comm->allreduce(send, recv, count, type, op);
}

result<void> context::reduce_raw(const void* send, void* recv, std::size_t count, detail::datatype type, reduce_op op,
                                 int root) const {
  DTL_TRY(detail::check_root(root, size()));
  DTL_TRY(check_buffers(send, recv, count, rank() == root));
  DTL_TRY(state_->check());
  if (count == 0) return {};
  DTL_ASSIGN_OR_RETURN(const bool device, on_device(send, rank() == root ? recv : nullptr));
  if (device)
    return detail::device_support::reduce(*state_->resources, *state_->comm, send, recv, count, type, op, root);
  return state_->comm->reduce(send, recv, count, type, op, root);
}

result<void> context::broadcast_raw(void* data, std::size_t bytes, int root) const {
  DTL_TRY(detail::check_root(root, size()));
  DTL_TRY(check_buffers(data, data, bytes, true));
  DTL_TRY(state_->check());
  if (bytes == 0) return {};
  DTL_ASSIGN_OR_RETURN(const bool device, on_device(data, nullptr));
  if (device) return detail::device_support::broadcast(*state_->resources, *state_->comm, data, bytes, root);
  return state_->comm->broadcast(data, bytes, root);
}

result<void> context::allgather_raw(const void* send, void* recv, std::size_t bytes_each) const {
  DTL_TRY(check_buffers(send, recv, bytes_each, true));
  DTL_TRY(state_->check());
  if (bytes_each == 0) return {};
  DTL_ASSIGN_OR_RETURN(const bool device, on_device(send, recv));
  if (device) return detail::device_support::allgather(*state_->resources, *state_->comm, send, recv, bytes_each);
  return state_->comm->allgather(send, recv, bytes_each);
}

context make_cpu_context() {
  // A single process needs no collective decision, so this cannot fail.
  return detail::make_context(nullptr, detail::make_self_comm(), no_device).value();
}

std::string_view collective_path_name(collective_path path) noexcept {
  switch (path) {
    case collective_path::self: return "self";
    case collective_path::nccl: return "nccl";
    case collective_path::mpi_gpu_aware: return "mpi_gpu_aware";
    case collective_path::mpi_staged: return "mpi_staged";
  }
  return "unknown";
}

std::string_view reduce_op_name(reduce_op op) noexcept {
  switch (op) {
    case reduce_op::sum: return "sum";
    case reduce_op::product: return "product";
    case reduce_op::min: return "min";
    case reduce_op::max: return "max";
  }
  return "unknown";
}

}  // namespace dtl

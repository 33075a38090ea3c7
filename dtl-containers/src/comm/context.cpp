#include "comm/state.hpp"

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/detail/context_services.hpp>
#include <dtl/core/placement.hpp>
#include <dtl/core/status_error.hpp>
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
  collective_call call(context_access::state(ctx), {"global_view (opening its window)"});
  DTL_TRY(call.usable());
  DTL_TRY(call.agree({}));
  DTL_ASSIGN_OR_RETURN(std::shared_ptr<window> w, call.state().comm->create_window(base, bytes));
  call.state().track(w);
  return w;
}

result<void> gatherv(const context& ctx, const void* send, std::size_t bytes, void* recv,
                     const std::vector<std::size_t>& bytes_per_rank, int root, const status& local) {
  // The byte counts, which every rank must pass alike.
  const std::uint64_t layout = fnv1a(bytes_per_rank.data(), bytes_per_rank.size() * sizeof(std::size_t));
  collective_call call(context_access::state(ctx),
                       {"gatherv", {root, static_cast<std::int64_t>(layout >> 1)}, {"root", "layout"}});
  DTL_TRY(call.usable());
  status mine = local;
  if (mine.ok()) mine = check_root(root, ctx.size());
  if (mine.ok() && (bytes_per_rank.size() != static_cast<std::size_t>(ctx.size()) ||
                    bytes_per_rank[static_cast<std::size_t>(ctx.rank())] != bytes))
    mine = status(status_code::invalid_argument, "gatherv: the byte counts do not match the ranks");
  DTL_TRY(call.agree(mine));
  return call.state().comm->gatherv(send, bytes, recv, bytes_per_rank, root);
}

result<void> allgather_host(const context& ctx, const void* send, void* recv, std::size_t bytes_each) {
  collective_call call(context_access::state(ctx),
                       {"allgather", {static_cast<std::int64_t>(bytes_each)}, {"bytes each"}});
  DTL_TRY(call.usable());
  DTL_TRY(call.agree(bytes_each != 0 && (send == nullptr || recv == nullptr)
                         ? status(status_code::invalid_argument, "allgather: a buffer is nullptr")
                         : status{}));
  if (bytes_each == 0) return {};
  return call.state().comm->allgather(send, recv, bytes_each);
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

// What each collective's agreement compares: the arguments every rank must pass alike.
detail::call_signature reduction_call(const char* what, std::size_t count, detail::datatype type, reduce_op op,
                                      int root, bool device) {
  return {what,
          {static_cast<std::int64_t>(count), static_cast<std::int64_t>(type), static_cast<std::int64_t>(op), root,
           device ? 1 : 0},
          {"count", "type", "operation", "root", "device buffers"}};
}
detail::call_signature bytes_call(const char* what, std::size_t bytes, int root, bool device) {
  return {what, {static_cast<std::int64_t>(bytes), root, device ? 1 : 0}, {"bytes", "root", "device buffers"}};
}

// This rank's checks of a collective's buffers, and whether they are device memory.
struct buffer_check {
  status local;
  bool device = false;
};
buffer_check check_collective(const void* send, const void* recv, std::size_t count, bool recv_needed) {
  buffer_check out{check_buffers(send, recv, count, recv_needed)};
  if (out.local.ok() && count != 0) {
    result<bool> device = on_device(send, recv_needed ? recv : nullptr);
    if (device)
      out.device = *device;
    else
      static_cast<void>(out.local = std::move(device).error());
  }
  return out;
}

/// A blocking collective: RCCL/NCCL or MPI on device buffers (`on_device`, which runs the agreement
/// itself once its own preparation is done), or the agreement and then MPI on host buffers (`on_host`).
template <class OnDevice, class OnHost>
result<void> run_blocking(detail::context_state* state, const detail::call_signature& signature,
                          const buffer_check& mine, std::size_t count, OnDevice on_device, OnHost on_host) {
  detail::collective_call call(state, signature);
  DTL_TRY(call.usable());
  if (mine.device && mine.local.ok()) return on_device(call);
  DTL_TRY(call.agree(mine.local));
  if (count == 0) return {};
  return on_host();
}

}  // namespace

context::context(std::shared_ptr<detail::context_state> state) noexcept : state_(std::move(state)) {}

int context::rank() const noexcept { return state_ ? state_->comm->rank() : -1; }
int context::size() const noexcept { return state_ ? state_->comm->size() : 0; }
int context::device() const noexcept { return state_ ? state_->device : no_device; }
bool context::has_device() const noexcept { return device() >= 0; }
status context::check() const { return state_ ? state_->check() : detail::empty_context(); }

collective_path context::device_collective_path() const noexcept {
  return state_ ? detail::device_support::path(*state_->resources) : collective_path::self;
}
const std::string& context::device_collective_reason() const noexcept {
  static const std::string empty = "an empty context has no collectives";
  return state_ ? detail::device_support::path_reason(*state_->resources) : empty;
}

result<void> context::barrier() const {
  // The agreement step is itself a barrier: no rank leaves it before every rank has entered it.
  detail::collective_call call(state_.get(), {"barrier"});
  DTL_TRY(call.usable());
  DTL_TRY(call.agree({}));
  if (!detail::agreement_enabled() && size() > 1) return state_->comm->barrier();
  return {};
}

result<context> context::split(int color, int key) const {
  detail::collective_call call(state_.get(), {"split"});
  DTL_TRY(call.usable());
  DTL_TRY(call.agree(color < 0 && color != undefined_color
                         ? status(status_code::invalid_argument,
                                  fmt::format("split: color {} is negative (dtl::undefined_color, -1, leaves a rank "
                                              "out of every sub-context)",
                                              color))
                         : status{}));
  DTL_ASSIGN_OR_RETURN(std::unique_ptr<detail::comm_backend> sub, state_->comm->split(color, key));
  if (!sub) return detail::context_access::make(nullptr);  // this rank is in no sub-context
  return detail::make_context(state_->environment, std::move(sub), state_->device);
}

result<context> context::on_device(int device) const {
  detail::collective_call call(state_.get(), {"on_device"});
  DTL_TRY(call.usable());
  DTL_TRY(call.agree(device == no_device ? status{} : detail::device_support::check_device(device)));
  DTL_ASSIGN_OR_RETURN(std::unique_ptr<detail::comm_backend> same_ranks, state_->comm->split(0, rank()));
  return detail::make_context(state_->environment, std::move(same_ranks), device);
}

context context::with_hip(int device) const { return value_or_throw(on_device(device)); }

result<void> context::allreduce_raw(const void* send, void* recv, std::size_t count, detail::datatype type,
                                    reduce_op op) const {
  const buffer_check mine = check_collective(send, recv, count, true);
  return run_blocking(
      state_.get(), reduction_call("allreduce", count, type, op, 0, mine.device), mine, count,
      [&](detail::collective_call& call) {
        return detail::device_support::allreduce(*state_->resources, *state_->comm, call, send, recv, count, type, op);
      },
      [&] { return state_->comm->allreduce(send, recv, count, type, op); });
}

result<void> context::reduce_raw(const void* send, void* recv, std::size_t count, detail::datatype type, reduce_op op,
                                 int root) const {
  buffer_check mine = check_collective(send, recv, count, rank() == root);
  if (status r = detail::check_root(root, size()); !r.ok()) mine = {std::move(r), false};
  return run_blocking(
      state_.get(), reduction_call("reduce", count, type, op, root, mine.device), mine, count,
      [&](detail::collective_call& call) {
        return detail::device_support::reduce(*state_->resources, *state_->comm, call, send, recv, count, type, op,
                                              root);
      },
      [&] { return state_->comm->reduce(send, recv, count, type, op, root); });
}

result<void> context::broadcast_raw(void* data, std::size_t bytes, int root) const {
  buffer_check mine = check_collective(data, data, bytes, true);
  if (status r = detail::check_root(root, size()); !r.ok()) mine = {std::move(r), false};
  return run_blocking(
      state_.get(), bytes_call("broadcast", bytes, root, mine.device), mine, bytes,
      [&](detail::collective_call& call) {
        return detail::device_support::broadcast(*state_->resources, *state_->comm, call, data, bytes, root);
      },
      [&] { return state_->comm->broadcast(data, bytes, root); });
}

result<void> context::allgather_raw(const void* send, void* recv, std::size_t bytes_each) const {
  const buffer_check mine = check_collective(send, recv, bytes_each, true);
  return run_blocking(
      state_.get(), bytes_call("allgather", bytes_each, 0, mine.device), mine, bytes_each,
      [&](detail::collective_call& call) {
        return detail::device_support::allgather(*state_->resources, *state_->comm, call, send, recv, bytes_each);
      },
      [&] { return state_->comm->allgather(send, recv, bytes_each); });
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

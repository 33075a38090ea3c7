// SPDX-License-Identifier: MIT
#include "comm/agreement_record.hpp"
#include "comm/collective_dispatch.hpp"
#include "comm/collectives.hpp"
#include "comm/host_combine.hpp"
#include "comm/state.hpp"
#include "gpu_comm/device_support.hpp"
#include "gpu_comm/ipc_window.hpp"

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/context_like.hpp>
#include <dtl/containers/communication/detail/context_services.hpp>
#include <dtl/core/placement.hpp>
#include <dtl/core/status_error.hpp>
#include <dtl/core/try.hpp>

#include <fmt/format.h>

#include <cstring>
#include <limits>
#include <map>
#include <tuple>
#include <memory>
#include <mutex>
#include <new>
#include <utility>

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
  std::vector<in_flight_exchange*> unfinished;
  {
    std::lock_guard lock(mutex);
    unfinished.swap(exchanges);
  }
  for (in_flight_exchange* e : unfinished) e->finish_at_end();  // while MPI runs
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

status context_state::add_exchange(in_flight_exchange& e) {
  std::lock_guard lock(mutex);
  try {
    exchanges.push_back(&e);
  } catch (const std::bad_alloc&) {
    return status(status_code::out_of_memory, "no memory to keep track of an exchange in flight");
  }
  return {};
}

void context_state::remove_exchange(const in_flight_exchange& e) noexcept {
  std::lock_guard lock(mutex);
  std::erase(exchanges, &e);
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

result<std::shared_ptr<window>> open_device_window(const context& ctx, int device, void* base, std::size_t bytes) {
  collective_call call(context_access::state(ctx), {"global_view (opening its window on device memory)"});
  DTL_TRY(call.usable());
  DTL_TRY(call.agree({}));
  context_state& state = call.state();
  // Every rank takes the same branch: whether MPI takes device memory was agreed when the context was made.
  std::shared_ptr<window> remote;
  std::string no_remote;
  if (device_support::mpi_takes_device_memory(*state.resources)) {
    DTL_ASSIGN_OR_RETURN(remote, state.comm->create_window(base, bytes));
  } else {
    no_remote = "this context's MPI is not GPU-aware (" + device_support::path_reason(*state.resources) +
                "); use gather() or copy_to_host()";
  }
  DTL_ASSIGN_OR_RETURN(const int leader, node_leader(ctx));
  DTL_ASSIGN_OR_RETURN(std::shared_ptr<window> w, ipc_window::open(*state.comm, *state.resources, device, base, bytes,
                                                                   leader, std::move(remote), std::move(no_remote)));
  state.track(w);
  return w;
}

result<int> node_leader(const context& ctx) {
  DTL_ASSIGN_OR_RETURN(const context node, ctx.node_local());
  int leader = ctx.rank();
  DTL_TRY(node.broadcast(&leader, 1, 0));  // the node-local context is in rank order: its rank 0 is lowest
  return leader;
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
  std::vector<std::size_t> displs(bytes_per_rank.size(), 0);  // the blocks back to back, in rank order
  for (std::size_t r = 1; r < displs.size(); ++r) displs[r] = displs[r - 1] + bytes_per_rank[r - 1];
  return call.state().comm->gatherv(send, bytes, recv, bytes_per_rank.data(), displs.data(), root);
}

result<void> allgather_host(const context& ctx, const void* send, void* recv, std::size_t bytes_each,
                            const status& local) {
  collective_call call(context_access::state(ctx),
                       {"allgather", {static_cast<std::int64_t>(bytes_each)}, {"bytes each"}});
  DTL_TRY(call.usable());
  DTL_TRY(call.agree(!local.ok() ? local
                     : bytes_each != 0 && (send == nullptr || recv == nullptr)
                         ? status(status_code::invalid_argument, "allgather: a buffer is nullptr")
                         : status{}));
  if (bytes_each == 0) return {};
  return call.state().comm->allgather(send, recv, bytes_each);
}

result<void> reduce_host(const context& ctx, const void* send, void* recv, std::size_t count, datatype type,
                         reduce_op op, int root, const status& local) {
  const collective_kind kind = root < 0 ? collective_kind::allreduce : collective_kind::reduce;
  return dispatch_collective(context_access::state(ctx), kind, {send, recv, count, type, op, root < 0 ? 0 : root},
                             local);
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

prepared_collective prepare_collective(const context_state* state, const collective_desc& d, const collective_args& a,
                                       const status& caller) {
  const int rank = state != nullptr ? state->comm->rank() : -1, size = state != nullptr ? state->comm->size() : 0;
  const bool recv_used = includes(d.receives, rank, a.root);
  prepared_collective p{caller};
  if (p.local.ok() && d.rooted) p.local = check_root(a.root, size);
  if (p.local.ok() && d.reduces) p.local = check_element_count(a.count, a.type);
  if (p.local.ok() && d.reduces) p.local = check_reduction(a.type, a.op);
  if (!p.local.ok() || a.count == 0) return p;
  if (a.send == nullptr)
    p.local = status(status_code::invalid_argument, "a collective's send buffer is nullptr");
  else if (recv_used && a.recv == nullptr)
    p.local = status(status_code::invalid_argument, "a collective's receive buffer is nullptr");
  if (!p.local.ok()) return p;
  result<bool> device = on_device(a.send, recv_used ? a.recv : nullptr);
  if (device)
    p.device = *device;
  else
    p.local = std::move(device).error();
  return p;
}

call_signature collective_signature(const collective_desc& d, const collective_args& a, bool device,
                                    bool stream_ordered) {
  const char* what = stream_ordered ? d.stream_name : d.name;
  const std::int64_t root = d.rooted ? a.root : 0;
  if (d.reduces)
    return {what,
            {static_cast<std::int64_t>(a.count), static_cast<std::int64_t>(a.type), static_cast<std::int64_t>(a.op),
             root, device ? 1 : 0},
            {"count", "type", "operation", "root", "device buffers"}};
  return {what, {static_cast<std::int64_t>(a.count), root, device ? 1 : 0}, {"bytes", "root", "device buffers"}};
}

namespace {

/// A host collective's data in the agreement step's record, where it fits: each rank's block laid out
/// as the pinned staging buffer holds it (the table's stage_* fields), summed by the call's operation
/// (reductions) or or-ed (the others: the ranks that give nothing give zeros).
class collective_rider final : public agreement_rider {
 public:
  collective_rider(const collective_desc& d, const collective_args& a, int rank, int size) noexcept
      : d_(d),
        a_(a),
        rank_(rank),
        block_(payload_bytes(d, a)),
        total_(d.blocks_per_rank ? block_ * static_cast<std::size_t>(size) : block_) {
    if (block_ > payload_classes.back()) total_ = block_;  // too large either way; no overflow
  }
  payload_kind kind() const noexcept override {
    return d_.reduces ? reduction_payload(a_.type, a_.op) : payload_kind::bitwise_or;
  }
  std::size_t wanted_bytes() const noexcept override { return total_ <= most_riding() ? total_ : 0; }
  bool put(std::span<std::byte> area) const override {
    if (total_ > area.size()) return false;
    if (includes(d_.stage_in, rank_, a_.root))
      std::memcpy(area.data() + (d_.blocks_per_rank ? static_cast<std::size_t>(rank_) * block_ : 0),
                  d_.stage_from_recv ? a_.recv : a_.send, block_);
    return true;
  }
  void take(std::span<const std::byte> area) override {
    if (includes(d_.stage_out, rank_, a_.root)) std::memcpy(a_.recv, area.data(), total_);
  }

 private:
  /// The largest area this call makes the steps after it use (agreement_record.hpp).
  std::size_t most_riding() const noexcept {
    if (d_.reduces && !d_.rooted) return payload_classes.back();  // allreduce
    if (d_.one_buffer) return broadcast_payload_bytes;            // broadcast
    return one_way_payload_bytes;
  }

  const collective_desc& d_;
  const collective_args& a_;
  int rank_;
  std::size_t block_, total_;
};

}  // namespace

status dispatch_collective(context_state* state, collective_kind kind, const collective_args& a, const status& caller) {
  const collective_desc& d = describe(kind);
  const prepared_collective p = prepare_collective(state, d, a, caller);
  call_signature signature = collective_signature(d, a, p.device, false);
  const int rank = state != nullptr ? state->comm->rank() : 0, size = state != nullptr ? state->comm->size() : 1;
  collective_rider rider(d, a, rank, size);
  if (!p.device && a.count != 0) signature.rider = &rider;  // host data may travel in the agreement
  collective_call call(state, signature);
  DTL_TRY(call.usable());
  // Device buffers: the device path runs the agreement itself, once its own preparation is done.
  if (p.device && p.local.ok()) return device_support::collective(*state->resources, *state->comm, call, kind, a);
  DTL_TRY(call.agree(p.local));
  if (a.count == 0 || rider.carried) return {};
  return d.on_comm(*state->comm, a);
}

}  // namespace detail

context::context(std::shared_ptr<detail::context_state> state) noexcept : state_(std::move(state)) {}

int context::rank() const noexcept { return state_ ? state_->comm->rank() : -1; }
int context::size() const noexcept { return state_ ? state_->comm->size() : 0; }
int context::device() const noexcept { return state_ ? state_->device : no_device; }
const void* context::native_mpi_comm() const noexcept { return state_ ? state_->comm->native() : nullptr; }
bool context::has_device() const noexcept { return device() >= 0; }
status context::check() const { return state_ ? state_->check() : detail::empty_context(); }

collective_path context::device_collective_path() const noexcept {
  return state_ ? detail::device_support::path(*state_->resources) : collective_path::self;
}
const std::string& context::device_collective_reason() const noexcept {
  static const std::string empty = "an empty context has no collectives";
  return state_ ? detail::device_support::path_reason(*state_->resources) : empty;
}

result<void> context::synchronize() const {
  if (!state_) return {};  // an empty context ran nothing
  return detail::device_support::settle(*state_->resources, detail::device_support::any_device);
}

void context::synchronize_device() const { value_or_throw(synchronize()); }

result<void> context::barrier() const {
  // The agreement step is itself a barrier: no rank leaves it before every rank has entered it.
  detail::collective_call call(state_.get(), {"barrier"});
  DTL_TRY(call.usable());
  // Device work this rank left running is done before any rank leaves (a window's remote get after a
  // barrier sees it); its failure fails the barrier on every rank.
  DTL_TRY(call.agree(detail::device_support::settle(*state_->resources, detail::device_support::any_device)));
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

result<context> context::node_local() const {
  detail::collective_call call(state_.get(), {"node_local"});
  DTL_TRY(call.usable());
  // Every rank made it in the same call, so every rank returns here alike.
  if (state_->node_local) return detail::context_access::make(state_->node_local);
  DTL_TRY(call.agree({}));
  DTL_ASSIGN_OR_RETURN(std::unique_ptr<detail::comm_backend> node, state_->comm->split_shared());
  DTL_ASSIGN_OR_RETURN(context made, detail::make_context(state_->environment, std::move(node), state_->device));
  state_->node_local = detail::context_access::shared_state(made);
  return made;
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
  return detail::dispatch_collective(state_.get(), detail::collective_kind::allreduce,
                                     {send, recv, count, type, op, 0});
}

result<void> context::reduce_raw(const void* send, void* recv, std::size_t count, detail::datatype type, reduce_op op,
                                 int root) const {
  return detail::dispatch_collective(state_.get(), detail::collective_kind::reduce,
                                     {send, recv, count, type, op, root});
}

result<void> context::broadcast_raw(void* data, std::size_t bytes, int root) const {
  return detail::dispatch_collective(state_.get(), detail::collective_kind::broadcast,
                                     {data, data, bytes, detail::datatype::u8, reduce_op::sum, root});
}

result<void> context::allgather_raw(const void* send, void* recv, std::size_t bytes_each) const {
  return detail::dispatch_collective(state_.get(), detail::collective_kind::allgather,
                                     {send, recv, bytes_each, detail::datatype::u8, reduce_op::sum, 0});
}

context make_cpu_context() {
  // A single process needs no collective decision, so this cannot fail.
  return detail::make_context(nullptr, detail::make_self_comm(), no_device).value();
}

namespace detail {

result<context> make_detached_context(int rank, int size, int device) {
  if (size < 1 || rank < 0 || rank >= size)
    return status(status_code::invalid_argument,
                  fmt::format("a context-like object said rank {} of {}: a size is at least 1 and a rank in [0, size)",
                              rank, size));
  // A device this process lacks (or a build without HIP) leaves the context without one: host containers
  // still work, and a device placement says the context has no GPU.
  if (device != no_device && !device_support::check_device(device).ok()) device = no_device;
  // Objects that report the same rank, size and device give the same context, so that the containers
  // built from them may be combined (an algorithm takes containers of one context). Held weakly: a
  // context ends with the last container that keeps it.
  static std::mutex mutex;
  static std::map<std::tuple<int, int, int>, std::weak_ptr<context_state>> made;
  const std::lock_guard lock(mutex);
  std::erase_if(made, [](const auto& entry) { return entry.second.expired(); });
  std::weak_ptr<context_state>& slot = made[{rank, size, device}];
  if (std::shared_ptr<context_state> state = slot.lock()) return context_access::make(std::move(state));
  // One rank needs no communicator: a context like any other.
  result<context> ctx = make_context(nullptr, size == 1 ? make_self_comm() : make_detached_comm(rank, size), device);
  if (ctx) slot = context_access::weak_state(*ctx);
  return ctx;
}

}  // namespace detail

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
    case reduce_op::land: return "land";
    case reduce_op::lor: return "lor";
    case reduce_op::band: return "band";
    case reduce_op::bor: return "bor";
    case reduce_op::bxor: return "bxor";
  }
  return "unknown";
}

}  // namespace dtl

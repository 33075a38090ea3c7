// SPDX-License-Identifier: MIT
// The container layer's GPU side, through the HIP layers: device checks, the collective path of a
// context, device-buffer collectives (RCCL/NCCL, GPU-aware MPI, or MPI staged through pinned memory),
// and the algorithm lanes.
#include "comm/collective_dispatch.hpp"
#include "comm/state.hpp"
#include "gpu_comm/device_resources.hpp"
#include "gpu_comm/device_support.hpp"
#include "transport/mpi_runtime.hpp"
#include "transport/nccl_support.hpp"

#include <dtl/containers/communication/detail/context_services.hpp>
#include <dtl/containers/communication/detail/lane.hpp>
#include <dtl/core/try.hpp>
#include <dtl/hip/device.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>
#include <dtl/hip/pointer.hpp>
#include <dtl/hip/event_poller.hpp>

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <numeric>
#include <optional>
#include <mutex>
#include <string>
#include <string_view>

namespace dtl::detail {

void device_resources_deleter::operator()(device_resources* resources) const noexcept { delete resources; }

namespace {

/// A lane's pinned result slots come in chunks of this many (device_lane::take_slot).
constexpr std::size_t result_slots_per_chunk = 64;

// --- choosing the path (collective) ---

status agreed(comm_backend& comm, bool& flag) {
  int value = flag ? 1 : 0;
  DTL_TRY(comm.allreduce(&value, &value, 1, datatype::i32, reduce_op::min));
  flag = value != 0;
  return {};
}

/// Which ranks share a GPU: each rank's node name and PCI bus id, compared.
result<std::string> shared_gpus(comm_backend& comm, int device) {
  std::array<char, 256> mine{};
  char host[128] = {};
  gethostname(host, sizeof host - 1);
  char bus[64] = "none";
  status found;
  if (device >= 0)
    if (const hipError_t e = hipDeviceGetPCIBusId(bus, sizeof bus, device); e != hipSuccess)
      found = hip::to_status(e, fmt::format("hipDeviceGetPCIBusId on device {}", device));
  DTL_TRY(agree_on(comm, found, {"finding which ranks share a GPU"}));
  std::snprintf(mine.data(), mine.size(), "%s/%s", host, bus);
  std::vector<std::array<char, 256>> all(static_cast<std::size_t>(comm.size()));
  DTL_TRY(comm.allgather(mine.data(), all.data(), mine.size()));
  // The ranks sorted by their GPU (rank order among equals): sharers lie next to each other, found in
  // O(P log P) rather than by comparing every pair. The pair named is the lowest rank that shares,
  // with the next rank on its GPU: the same on every rank.
  const auto less = [&](std::size_t a, std::size_t b) { return std::strcmp(all[a].data(), all[b].data()) < 0; };
  std::vector<std::size_t> order(all.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), less);
  std::size_t first = all.size(), second = 0;
  for (std::size_t i = 0; i + 1 < order.size(); ++i)
    if (!less(order[i], order[i + 1]) && order[i] < first) {
      first = order[i];
      second = order[i + 1];
    }
  if (first != all.size()) return fmt::format("ranks {} and {} share GPU {}", first, second, all[first].data());
  return std::string();
}

/// Confirms a GPU-aware MPI claim with a real allreduce of device memory (collective; only called
/// when every rank's MPI claims GPU support, so that no rank hands device pointers to an MPI that
/// would read them as host memory).
result<bool> probe_gpu_aware(comm_backend& comm, int device) {
  int* d = nullptr;
  const int values[2] = {comm.rank() + 1, 0};
  int back[2] = {0, 0};
  // Each step's failure is agreed on before the next collective step, so that no rank is left in it.
  status s = [&]() -> status {
    DTL_ASSIGN_OR_RETURN(auto guard, hip::device_guard::enter(device));
    DTL_HIP_TRY(hipMalloc(&d, 2 * sizeof(int)));
    return hip::to_status(hipMemcpy(d, values, sizeof values, hipMemcpyHostToDevice), "hipMemcpy (probe)");
  }();
  s = agree_on(comm, s, {"probing GPU-aware MPI"});
  if (s.ok()) s = comm.allreduce(d, d + 1, 1, datatype::i32, reduce_op::sum);
  if (s.ok()) {
    auto guard = hip::device_guard::enter(device);
    s = guard ? hip::to_status(hipMemcpy(back, d, sizeof back, hipMemcpyDeviceToHost), "hipMemcpy (probe)")
              : std::move(guard).error();
  }
  if (d != nullptr) {
    auto guard = hip::device_guard::enter(device);
    static_cast<void>(hipFree(d));
  }
  DTL_TRY(agree_on(comm, s, {"probing GPU-aware MPI (its result)"}));
  const int p = comm.size();
  return back[1] == p * (p + 1) / 2;
}

std::string_view override_from_environment() {
  const char* text = std::getenv("DTL_COLLECTIVES");
  return text != nullptr ? std::string_view(text) : std::string_view();
}

status choose_path(comm_backend& comm, device_resources& res) {
  const int device = res.device;
  // GPU-aware MPI: the library's claim for this platform, then a probe that every rank runs or none.
  const mpi_runtime::gpu_awareness aware = mpi_runtime::query_gpu_awareness();
  bool claims = device >= 0 && (std::string_view(hip::platform_name()) == "nvidia" ? aware.cuda : aware.rocm);
  DTL_TRY(agreed(comm, claims));
  bool gpu_aware = false;
  if (claims) {
    DTL_ASSIGN_OR_RETURN(gpu_aware, probe_gpu_aware(comm, device));
    DTL_TRY(agreed(comm, gpu_aware));
  }
  res.mpi_gpu_aware = gpu_aware;
  const std::string mpi_reason =
      gpu_aware ? "MPI is GPU-aware (" + aware.detail + ", and a probe allreduce on device memory was right)"
                : "MPI is not GPU-aware (" + aware.detail + (claims ? "; the probe allreduce failed" : "") + ")";

  DTL_ASSIGN_OR_RETURN(const std::string sharing, shared_gpus(comm, device));
  bool nccl_ok = nccl::built() && device >= 0 && sharing.empty();
  DTL_TRY(agreed(comm, nccl_ok));
  const std::string nccl_reason = !nccl::built()     ? "this build has no RCCL/NCCL"
                                  : device < 0       ? "this context has no GPU"
                                  : !sharing.empty() ? sharing + " (RCCL/NCCL need a GPU per rank)"
                                  : nccl_ok          ? std::string(nccl::library_name()) + " on every rank"
                                                     : "another rank cannot use RCCL/NCCL";

  // DTL_COLLECTIVES: every rank must ask for the same path, and be able to take it.
  const std::string_view wanted = override_from_environment();
  status usable;
  if (wanted == "nccl" && !nccl_ok)
    usable = status(status_code::backend_not_available, "DTL_COLLECTIVES=nccl, but " + nccl_reason);
  else if (wanted == "mpi_gpu_aware" && !gpu_aware)
    usable = status(status_code::backend_not_available, "DTL_COLLECTIVES=mpi_gpu_aware, but " + mpi_reason);
  else if (!wanted.empty() && wanted != "nccl" && wanted != "mpi_gpu_aware" && wanted != "mpi_staged" &&
           wanted != "auto")
    usable = status(status_code::invalid_argument,
                    fmt::format("DTL_COLLECTIVES={} is not one of auto, nccl, mpi_gpu_aware, mpi_staged", wanted));
  const std::int64_t asked = wanted == "nccl" ? 1 : wanted == "mpi_gpu_aware" ? 2 : wanted == "mpi_staged" ? 3 : 0;
  DTL_TRY(agree_on(comm, usable,
                   {"choosing the device collective path",
                    {asked},
                    {"DTL_COLLECTIVES (1 nccl, 2 mpi_gpu_aware, 3 mpi_staged, 0 auto)"}}));

  if (wanted == "mpi_staged") {
    res.path = collective_path::mpi_staged;
    res.reason = "DTL_COLLECTIVES=mpi_staged";
  } else if (wanted == "mpi_gpu_aware" || (wanted != "nccl" && !nccl_ok && gpu_aware)) {
    res.path = collective_path::mpi_gpu_aware;
    res.reason = mpi_reason + "; RCCL/NCCL not used: " + nccl_reason;
  } else if (nccl_ok) {
    res.path = collective_path::nccl;
    res.reason = nccl_reason + "; " + mpi_reason;
  } else {
    res.path = collective_path::mpi_staged;
    res.reason = mpi_reason + "; RCCL/NCCL not used: " + nccl_reason;
  }
  return {};
}

}  // namespace

// --- lanes ---

result<std::shared_ptr<device_lane>> lane_of(device_resources& res, int device) {
  std::lock_guard lock(res.mutex);
  if (res.released) return status(status_code::invalid_state, "the context's GPU resources were released");
  if (auto found = res.lanes.find(device); found != res.lanes.end()) return found->second;
  DTL_ASSIGN_OR_RETURN(hip::hip_stream stream,
                       hip::hip_stream::create(hip::stream_flags::non_blocking, stream_priority::normal, device));
  auto lane = std::make_shared<device_lane>(device, std::move(stream));
  res.lanes.emplace(device, lane);
  return lane;
}

// --- moving device buffers ---

result<nccl::communicator*> nccl_of(device_resources& res, comm_backend& comm) {
  std::lock_guard lock(res.mutex);
  if (res.released) return status(status_code::invalid_state, "the context's GPU resources were released");
  if (!res.nccl) {
    DTL_ASSIGN_OR_RETURN(res.nccl, nccl::create(comm, res.device));
  }
  return res.nccl.get();
}

result<nccl_lane> agreed_nccl_lane(device_resources& res, comm_backend& comm, collective_call& call, status ready) {
  nccl_lane on;
  if (ready.ok()) {
    auto found = lane_of(res, res.device);
    if (found)
      on.lane = std::move(found).value();
    else
      ready = std::move(found).error();
  }
  DTL_TRY(call.agree(ready));
  DTL_ASSIGN_OR_RETURN(on.comm, nccl_of(res, comm));
  return on;
}

/// Pinned host memory of at least `bytes` for the staged path; call with res.mutex held.
result<std::byte*> staging_of(device_resources& res, std::size_t bytes) {
  if (res.staging_bytes < bytes) {
    if (res.staging != nullptr) {
      DTL_HIP_TRY(hipHostFree(res.staging));
      res.staging = nullptr;
      res.staging_bytes = 0;
    }
    DTL_HIP_TRY(hipHostMalloc(&res.staging, bytes, hipHostMallocDefault));
    res.staging_bytes = bytes;
  }
  return static_cast<std::byte*>(res.staging);
}

namespace {

status copy(void* dst, const void* src, std::size_t bytes, hipMemcpyKind kind, std::string_view what) {
  if (bytes == 0) return {};
  return hip::to_status(hipMemcpy(dst, src, bytes, kind), fmt::format("hipMemcpy of {} bytes ({})", bytes, what));
}

/// RCCL/NCCL take a collective when the path says so, they reduce this type with this operation, and the buffer lives
/// on the communicator's device (a device_only<N> vector on another device goes through MPI instead).
bool nccl_takes(const device_resources& res, const collective_desc& d, const collective_args& a) {
  if (res.path != collective_path::nccl) return false;
  if (d.reduces && !(nccl::supports(a.type) && nccl::supports(a.op))) return false;
  const auto attr = hip::query_pointer(a.send);
  return attr.has_value() && attr->device == res.device;
}

/// One collective on device buffers, blocking, on the context's path. `wait_device` first waits for all
/// work on the device. What can fail before data moves (the device, the device's earlier work, RCCL/NCCL's
/// communicator, the staging copy) is this rank's part of `call`'s agreement, which every path runs once;
/// a failure after the data moved (the copy back from staging) is this rank's own.
status device_collective(device_resources& res, comm_backend& comm, collective_call& call, const collective_desc& d,
                         const collective_args& a, bool wait_device) {
  const std::size_t bytes = payload_bytes(d, a);
  const int rank = comm.rank(), size = comm.size();
  std::optional<hip::device_guard> guard;
  status ready = [&]() -> status {
    if (res.device >= 0) {
      DTL_ASSIGN_OR_RETURN(hip::device_guard entered, hip::device_guard::enter(res.device));
      guard.emplace(std::move(entered));
    }
    if (wait_device) DTL_HIP_TRY(hipDeviceSynchronize());
    return {};
  }();
  if (res.path == collective_path::self) {
    DTL_TRY(call.agree(ready));
    if (d.one_buffer || a.send == a.recv) return {};
    return copy(a.recv, a.send, bytes, hipMemcpyDeviceToDevice, "self collective");
  }
  if (nccl_takes(res, d, a)) {
    DTL_ASSIGN_OR_RETURN(const nccl_lane on, agreed_nccl_lane(res, comm, call, std::move(ready)));
    DTL_TRY(d.on_nccl(*on.comm, a, on.stream()));
    DTL_HIP_TRY(hipStreamSynchronize(on.stream()));
    return {};
  }
  if (res.mpi_gpu_aware && res.path != collective_path::mpi_staged) {
    DTL_TRY(call.agree(ready));
    return d.on_comm(comm, a);
  }
  // Staged through pinned host memory: the same call on host copies of the buffers.
  std::lock_guard lock(res.mutex);
  const std::size_t mine = d.blocks_per_rank ? static_cast<std::size_t>(rank) * bytes : 0;
  const std::size_t host_bytes = d.blocks_per_rank ? bytes * static_cast<std::size_t>(size) : bytes;
  std::byte* host = nullptr;
  if (ready.ok()) {
    auto staging = staging_of(res, std::max<std::size_t>(host_bytes, 1));
    if (staging)
      host = *staging;
    else
      ready = std::move(staging).error();
  }
  if (ready.ok() && includes(d.stage_in, rank, a.root))
    ready = copy(host + mine, d.stage_from_recv ? a.recv : a.send, bytes, hipMemcpyDeviceToHost, "staging");
  DTL_TRY(call.agree(ready));
  collective_args staged = a;
  staged.send = host + mine;
  staged.recv = host;
  DTL_TRY(d.on_comm(comm, staged));
  if (!includes(d.stage_out, rank, a.root)) return {};
  return copy(a.recv, host, host_bytes, hipMemcpyHostToDevice, "staging");
}

}  // namespace

namespace device_support {

bool built() noexcept { return true; }
int device_count() noexcept { return hip::device_count(); }
status check_device(int device) { return hip::check_device(device); }
result<int> current_device() { return hip::current_device(); }

status make_current(int device) {
  DTL_TRY(hip::check_device(device));
  DTL_HIP_TRY(hipSetDevice(device));
  return {};
}

result<device_resources_ptr> create_resources(comm_backend& comm, int device) {
  device_resources_ptr res(new device_resources);
  res->device = device;
  // One rank needs no collective, unless DTL_COLLECTIVES names a path: then that path is taken (a
  // one-rank RCCL/NCCL communicator, say), so that it can be exercised on a single GPU.
  const std::string_view wanted = override_from_environment();
  if (comm.size() == 1 && (wanted.empty() || wanted == "auto")) {
    res->path = collective_path::self;
    res->reason = "one rank";
    return res;
  }
  if (status s = comm.can_communicate(); !s.ok()) {  // no other rank: nothing to choose together
    res->path = collective_path::mpi_staged;
    res->reason = std::string(s.message());
    return res;
  }
  DTL_TRY(choose_path(comm, *res));
  return res;
}

collective_path path(const device_resources& resources) noexcept { return resources.path; }
const std::string& path_reason(const device_resources& resources) noexcept { return resources.reason; }
bool mpi_takes_device_memory(const device_resources& resources) noexcept { return resources.mpi_gpu_aware; }

void release(device_resources& res) noexcept {
  std::map<int, std::shared_ptr<device_lane>> lanes;
  nccl::communicator_ptr nccl;
  {
    std::lock_guard lock(res.mutex);
    res.released = true;
    lanes.swap(res.lanes);
    nccl = std::move(res.nccl);
  }
  // Lanes in use elsewhere (a pending future) live on until their last user lets go.
}

result<int> device_of_memory(const void* ptr) {
  if (hip::device_count() == 0 || hip::never_device_memory(ptr)) return no_device;
  DTL_ASSIGN_OR_RETURN(const hip::pointer_attributes attr, hip::query_pointer(ptr));
  return attr.kind == hip::memory_kind::device ? attr.device : no_device;
}

result<bool> is_device_memory(const void* ptr) {
  DTL_ASSIGN_OR_RETURN(const int device, device_of_memory(ptr));
  return device != no_device;
}

status collective(device_resources& res, comm_backend& comm, collective_call& call, collective_kind kind,
                  const collective_args& args) {
  return device_collective(res, comm, call, describe(kind), args, true);
}

status fill(const context& ctx, int device, void* dst, std::size_t count, const void* pattern,
            std::size_t pattern_bytes) {
  DTL_ASSIGN_OR_RETURN(std::shared_ptr<device_lane> lane, acquire_lane(ctx, device));
  std::lock_guard lock(lane->mutex);
  DTL_ASSIGN_OR_RETURN(auto guard, hip::device_guard::enter(device));
  DTL_TRY(fill_pattern(dst, count, pattern, pattern_bytes, lane->stream.native_handle()));
  return lane->settle();  // waits for the stream: the fill, and any work left on it before
}

status settle(device_resources& res, int device) {
  std::vector<std::shared_ptr<device_lane>> lanes;
  {
    std::lock_guard lock(res.mutex);
    for (const auto& [d, lane] : res.lanes)
      if (device == any_device || d == device) lanes.push_back(lane);
  }
  status first;
  for (const auto& lane : lanes) {
    DTL_ASSIGN_OR_RETURN(auto guard, hip::device_guard::enter(lane->device));
    if (status s = lane->settle(); !s.ok() && first.ok()) first = std::move(s);
  }
  return first;
}

status copy(void* dst, const void* src, std::size_t bytes, transfer_kind kind) {
  // hipMemcpy runs on the null stream, which does not wait for the (non-blocking) streams where calls
  // leave their work: wait for the device, so that a copy sees every call before it.
  DTL_HIP_TRY(hipDeviceSynchronize());
  return hip::hip_memory_transfer::copy(dst, src, bytes, kind).error();
}

}  // namespace device_support

result<std::shared_ptr<device_lane>> acquire_lane(const context& ctx, int device) {
  context_state* state = context_access::state(ctx);
  if (state == nullptr) return empty_context();
  DTL_TRY(state->check());
  DTL_TRY(hip::check_device(device));
  return lane_of(*state->resources, device);
}

device_lane::~device_lane() {
  if (handoff_ != nullptr)
    if (const hipError_t e = hipEventDestroy(handoff_); e != hipSuccess)
      report_unhandled(hip::to_status(e, "hipEventDestroy"));
  for (void* chunk : chunks_)
    if (const hipError_t e = hipHostFree(chunk); e != hipSuccess) report_unhandled(hip::to_status(e, "hipHostFree"));
}

namespace {

/// The failure `e` of work a call left running on `device`'s lane (check_earlier and settle find it).
status earlier_work_failed(hipError_t e, int device) {
  return hip::to_status(e, "work enqueued earlier on device " + std::to_string(device) +
                               " (a call that returned without waiting for it)");
}

}  // namespace

status device_lane::check_earlier() {
  if (!unsettled.load(std::memory_order_acquire)) return {};
  const hipError_t e = hipStreamQuery(stream.native_handle());
  if (e == hipErrorNotReady) return {};
  unsettled.store(false, std::memory_order_release);
  if (e == hipSuccess) return {};
  return earlier_work_failed(e, device);
}

namespace {

/// Nanoseconds of a monotonic clock that costs next to nothing to read: Linux's coarse clock (the kernel's
/// last tick, read from the vDSO without a system call: on some virtual machines the precise clock is a
/// system call, which would cost as much as the query it saves). It moves once per tick (1-4 ms).
std::int64_t coarse_now_ns() noexcept {
#if defined(CLOCK_MONOTONIC_COARSE)
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
#else
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
#endif
}

}  // namespace

status device_lane::poll_earlier() {
  if (!unsettled.load(std::memory_order_acquire)) return {};
  const std::int64_t now = coarse_now_ns();
  if (now - last_poll_ns.load(std::memory_order_relaxed) < std::chrono::nanoseconds(poll_interval).count()) return {};
  last_poll_ns.store(now, std::memory_order_relaxed);
  return check_earlier();
}

status device_lane::blame(status enqueue_failure) {
  if (status earlier = check_earlier(); !earlier.ok()) return earlier;
  return enqueue_failure;
}

status device_lane::settle() {
  // Always waits: a fence must also report a failure that check_earlier() found before (a sticky one).
  unsettled.store(false, std::memory_order_release);
  if (const hipError_t e = hipStreamSynchronize(stream.native_handle()); e != hipSuccess)
    return earlier_work_failed(e, device);
  return {};
}

status device_lane::order_after_lane(hipStream_t other) {
  if (other == stream.native_handle()) return {};  // always: not every path that leaves work marks `unsettled`
  if (handoff_ == nullptr) DTL_HIP_TRY(hipEventCreateWithFlags(&handoff_, hipEventDisableTiming));
  DTL_HIP_TRY(hipEventRecord(handoff_, stream.native_handle()));
  DTL_HIP_TRY(hipStreamWaitEvent(other, handoff_, 0));
  return {};
}

bool sync_algorithms() noexcept {
  static const bool on = [] {
    const char* v = std::getenv("DTL_SYNC_ALGORITHMS");
    return v != nullptr && std::string_view(v) == "1";
  }();
  return on;
}

gpu::device_scratch& device_lane::scratch_for(hipStream_t s) {
  for (auto& [stream_of, scratch] : scratches_)
    if (stream_of == s) return scratch;
  return scratches_.emplace_back(s, gpu::device_scratch(device, s)).second;
}

result<void*> device_lane::take_slot() {
  std::lock_guard lock(slots_mutex_);
  if (free_slots_.empty()) {
    void* chunk = nullptr;
    DTL_HIP_TRY(hipHostMalloc(&chunk, result_slots_per_chunk * slot_bytes, hipHostMallocDefault));
    void* on_device = nullptr;
    if (const hipError_t e = hipHostGetDevicePointer(&on_device, chunk, 0); e != hipSuccess) {
      static_cast<void>(hipHostFree(chunk));
      return hip::to_status(e, "hipHostGetDevicePointer of a pinned result slot");
    }
    chunks_.push_back(chunk);
    device_chunks_.push_back(on_device);
    for (std::size_t i = 0; i < result_slots_per_chunk; ++i)
      free_slots_.push_back(static_cast<std::byte*>(chunk) + i * slot_bytes);
  }
  void* slot = free_slots_.back();
  free_slots_.pop_back();
  return slot;
}

result<void*> device_lane::device_address(void* slot) {
  constexpr std::uintptr_t chunk_bytes = result_slots_per_chunk * slot_bytes;
  std::lock_guard lock(slots_mutex_);
  const auto at = reinterpret_cast<std::uintptr_t>(slot);
  for (std::size_t c = 0; c < chunks_.size(); ++c) {
    const auto base = reinterpret_cast<std::uintptr_t>(chunks_[c]);
    if (at >= base && at - base < chunk_bytes) return static_cast<std::byte*>(device_chunks_[c]) + (at - base);
  }
  return status(status_code::invalid_argument, "device_address: not a result slot of this lane");
}

void device_lane::give_back(void* slot) noexcept {
  std::lock_guard lock(slots_mutex_);
  free_slots_.push_back(slot);
}

}  // namespace dtl::detail

namespace dtl {

// --- the stream-ordered collectives of a context ---

namespace {

hip::future<void> failed(status s) { return hip::make_failed_future<void>(std::move(s)); }

/// The stream-ordered form of a collective of the dispatcher's table. `caller` (the caller's own failure
/// so far) joins this rank's checks in the call's one agreement step. RCCL/NCCL enqueue on `stream`
/// (only the agreement waits, for the other ranks); the MPI paths wait for the stream first, then move
/// the data.
hip::future<void> collective_on_stream(detail::context_state* state, detail::collective_kind kind,
                                       const detail::collective_args& a, hip::stream_ref stream, const status& caller) {
  const detail::collective_desc& d = detail::describe(kind);
  const detail::prepared_collective p = detail::prepare_collective(state, d, a, caller);
  status local = p.local;
  detail::collective_call call(state, detail::collective_signature(d, a, p.device, true));
  if (!call.usable().ok()) return failed(call.usable());
  detail::device_resources& res = *state->resources;
  if (p.device && local.ok() && detail::nccl_takes(res, d, a)) {
    auto guard = hip::device_guard::enter(res.device);
    if (!guard) local = std::move(guard).error();
    if (status s = call.agree(local); !s.ok()) return failed(std::move(s));
    auto nc = detail::nccl_of(res, *state->comm);
    if (!nc) return failed(std::move(nc).error());
    if (status s = d.on_nccl(**nc, a, stream.get()); !s.ok()) return failed(std::move(s));
    return hip::event_poller::global().enqueue(stream, res.device);
  }
  if (local.ok())
    if (result<void> w = stream.synchronize(); !w) local = std::move(w).error();
  if (p.device && local.ok()) {
    status s = detail::device_collective(res, *state->comm, call, d, a, false);
    if (!s.ok()) return failed(std::move(s));
    return hip::make_ready_future();
  }
  if (status s = call.agree(local); !s.ok()) return failed(std::move(s));
  if (a.count == 0) return hip::make_ready_future();
  if (status s = d.on_comm(*state->comm, a); !s.ok()) return failed(std::move(s));
  return hip::make_ready_future();
}

}  // namespace

hip::future<void> context::allreduce_on_stream(const void* send, void* recv, std::size_t count, detail::datatype type,
                                               reduce_op op, hip::stream_ref stream) const {
  return collective_on_stream(state_.get(), detail::collective_kind::allreduce, {send, recv, count, type, op, 0},
                              stream, {});
}
hip::future<void> context::reduce_on_stream(const void* send, void* recv, std::size_t count, detail::datatype type,
                                            reduce_op op, int root, hip::stream_ref stream) const {
  return collective_on_stream(state_.get(), detail::collective_kind::reduce, {send, recv, count, type, op, root},
                              stream, {});
}
hip::future<void> context::broadcast_on_stream(void* data, std::size_t bytes, int root, hip::stream_ref stream) const {
  return collective_on_stream(state_.get(), detail::collective_kind::broadcast,
                              {data, data, bytes, detail::datatype::u8, reduce_op::sum, root}, stream, {});
}
hip::future<void> context::allgather_on_stream(const void* send, void* recv, std::size_t bytes_each,
                                               hip::stream_ref stream) const {
  return collective_on_stream(state_.get(), detail::collective_kind::allgather,
                              {send, recv, bytes_each, detail::datatype::u8, reduce_op::sum, 0}, stream, {});
}

namespace detail {

hip::future<void> allreduce_on_stream(const context& ctx, const void* send, void* recv, std::size_t count,
                                      datatype type, reduce_op op, hip::stream_ref stream, const status& local) {
  return collective_on_stream(context_access::state(ctx), collective_kind::allreduce, {send, recv, count, type, op, 0},
                              stream, local);
}
hip::future<void> reduce_on_stream(const context& ctx, const void* send, void* recv, std::size_t count, datatype type,
                                   reduce_op op, int root, hip::stream_ref stream, const status& local) {
  return collective_on_stream(context_access::state(ctx), collective_kind::reduce, {send, recv, count, type, op, root},
                              stream, local);
}

}  // namespace detail

}  // namespace dtl

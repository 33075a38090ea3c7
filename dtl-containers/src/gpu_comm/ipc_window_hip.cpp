// SPDX-License-Identifier: MIT
// The window of a device block through HIP IPC (ipc_window.hpp). Each rank exports its block once (the
// IPC handle of the allocation it lies in, its offset there, its node (its node leader: the one rule for
// which ranks share a node) and its GPU's PCI bus id); each rank opens the blocks of the ranks on its node,
// on its own device, and copies to and from them on its own stream. The owner takes no part in an access.
#include "gpu_comm/device_resources.hpp"
#include "gpu_comm/ipc_window.hpp"

#include <dtl/core/try.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>
#include <dtl/hip/pointer.hpp>

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dtl::detail::ipc_window {

namespace {

/// What a rank tells the others about its block: plain bytes, gathered once.
struct block_record {
  std::int32_t node;  // the rank's node leader (context_services.hpp: which ranks share a node)
  char host[64];      // its host name, for messages
  char bus_id[32];    // the PCI bus id of the block's GPU
  hipIpcMemHandle_t handle;
  std::uint64_t offset;   // the block's byte offset in the allocation `handle` names
  std::uint64_t bytes;    // the block's size (0: no elements)
  std::int32_t exported;  // 1 when `handle` is valid; otherwise `why` says why not
  char why[160];
};
static_assert(std::is_trivially_copyable_v<block_record>);

template <std::size_t N>
void put_text(char (&field)[N], const std::string& text) noexcept {
  const std::size_t n = std::min(text.size(), N - 1);
  std::memcpy(field, text.data(), n);
  field[n] = '\0';
}

/// This rank's record: its block exported, or why it cannot be.
block_record describe(int node_leader, int device, void* base, std::size_t bytes) {
  block_record r{};
  r.node = node_leader;
  char host[sizeof r.host] = {};
  if (gethostname(host, sizeof host - 1) != 0) std::strcpy(host, "?");
  put_text(r.host, host);
  r.bytes = bytes;
  const auto refuse = [&r](const std::string& why) {
    put_text(r.why, why);
    return r;
  };
  if (const hipError_t e = hipDeviceGetPCIBusId(r.bus_id, static_cast<int>(sizeof r.bus_id), device); e != hipSuccess)
    return refuse(hip::to_status(e, "hipDeviceGetPCIBusId").message());
  if (bytes == 0) return refuse("it has no elements");
  const result<hip::allocation_extent> extent = hip::find_allocation(base);
  if (!extent) return refuse(extent.error().message());
  const auto* block = static_cast<const std::byte*>(base);
  const auto* start = static_cast<const std::byte*>(extent->base);
  r.offset = static_cast<std::uint64_t>(block - start);
  if (r.offset > extent->bytes || bytes > extent->bytes - r.offset)
    return refuse(fmt::format("its block of {} bytes runs past its allocation of {} bytes", bytes, extent->bytes));
  if (const hipError_t e = hipIpcGetMemHandle(&r.handle, const_cast<void*>(extent->base)); e != hipSuccess)
    return refuse(hip::to_status(e, "hipIpcGetMemHandle on its block's allocation").message());
  r.exported = 1;
  return r;
}

/// How this rank reaches one rank's block.
struct route {
  std::byte* block = nullptr;  // the block in this process (own rank: its own pointer)
  void* opened = nullptr;      // what hipIpcOpenMemHandle gave, closed on release
  std::uint64_t bytes = 0;     // the block's size, for the range check
  std::string why;             // why `block` is null
};

/// Lets `device` reach `peer`'s memory (hipErrorPeerAccessAlreadyEnabled is fine).
status enable_peer(int device, int peer) {
  int can = 0;
  DTL_HIP_TRY(hipDeviceCanAccessPeer(&can, device, peer));
  if (can == 0)
    return status(status_code::not_supported, fmt::format("GPU {} cannot reach GPU {} as a peer", device, peer));
  DTL_ASSIGN_OR_RETURN(auto guard, hip::device_guard::enter(device));
  const hipError_t e = hipDeviceEnablePeerAccess(peer, 0);
  if (e == hipErrorPeerAccessAlreadyEnabled) {
    static_cast<void>(hip::to_status(e, "hipDeviceEnablePeerAccess"));  // clears it as the pending error
    return {};
  }
  return hip::to_status(e, fmt::format("hipDeviceEnablePeerAccess({}) on GPU {}", peer, device));
}

/// Opens the block `theirs` (rank `owner`'s) describes on `device` (this rank's), or says why it cannot be.
status open_block(route& to, const block_record& theirs, const block_record& mine, int device) {
  if (theirs.node != mine.node)
    return status(status_code::not_supported,
                  fmt::format("it is on another node ({}; this rank is on {}), and IPC reaches this node only",
                              theirs.host, mine.host));
  if (theirs.exported == 0) return status(status_code::not_supported, theirs.why);
  // Another GPU: where this process sees it, it must be a peer of this rank's. One this process does
  // not see (each rank given its own GPU) may still be opened: hipIpcOpenMemHandle says.
  int peer = -1;
  if (std::strcmp(theirs.bus_id, mine.bus_id) != 0) {
    if (const hipError_t e = hipDeviceGetByPCIBusId(&peer, theirs.bus_id); e != hipSuccess) {
      static_cast<void>(hip::to_status(e, "hipDeviceGetByPCIBusId"));  // clears it as the pending error
      peer = -1;
    }
    if (peer >= 0 && peer != device) DTL_TRY(enable_peer(device, peer));
  }
  DTL_ASSIGN_OR_RETURN(auto guard, hip::device_guard::enter(device));
  void* opened = nullptr;
  if (const hipError_t e = hipIpcOpenMemHandle(&opened, theirs.handle, hipIpcMemLazyEnablePeerAccess); e != hipSuccess)
    return hip::to_status(e, fmt::format("hipIpcOpenMemHandle of its block (GPU at PCI bus {})", theirs.bus_id));
  to.opened = opened;
  to.block = static_cast<std::byte*>(opened) + theirs.offset;
  return {};
}

class device_window final : public block_window {
 public:
  device_window(comm_backend& comm, int device, std::shared_ptr<device_lane> lane, std::vector<route> routes,
                std::shared_ptr<window> remote) noexcept
      : comm_(&comm), device_(device), lane_(std::move(lane)), routes_(std::move(routes)), remote_(std::move(remote)) {
    for (const route& r : routes_) extents_.push_back(r.bytes);
  }
  ~device_window() override { release(); }

  status get(int owner, std::size_t offset, void* dst, std::size_t bytes) override {
    return access(owner, offset, bytes, dst, nullptr);
  }
  status put(int owner, std::size_t offset, const void* src, std::size_t bytes) override {
    return access(owner, offset, bytes, nullptr, src);
  }
  std::vector<std::uint64_t> extents() const override { return extents_; }
  result<std::byte*> reach(int owner, std::size_t offset, std::size_t bytes) override {
    std::lock_guard lock(mutex_);
    DTL_ASSIGN_OR_RETURN(const route* to, route_to(owner, offset, bytes));
    if (to->block == nullptr) return out_of_reach(owner, *to);
    return to->block + offset;
  }

  // A rank's block is freed only after its window is released (the vector releases it before freeing
  // its block: in its destructor, and before a change of layout). A rank in release() makes no more
  // accesses (they are blocking, and later ones return invalid_state); it closes its mappings, then
  // waits for every rank to have done the same. So once release() returns on any rank, no rank maps or
  // reaches any block of this window, and a pool's block handed out again is never reached through a
  // stale mapping.
  void release() noexcept override {
    std::lock_guard lock(mutex_);
    if (released_) return;
    released_ = true;
    for (route& r : routes_) {
      if (r.opened == nullptr) continue;
      auto guard = hip::device_guard::enter(device_);
      if (!guard) {
        report_unhandled(guard.error());
        continue;
      }
      if (const hipError_t e = hipIpcCloseMemHandle(r.opened); e != hipSuccess)
        report_unhandled(hip::to_status(e, "hipIpcCloseMemHandle"));
      r = route{};
    }
    if (status s = comm_->barrier(); !s.ok()) report_unhandled(s);
    if (remote_) remote_->release();
  }

 private:
  static status out_of_reach(int owner, const route& to) {
    return status(status_code::not_supported, fmt::format("rank {}'s device block is out of reach: {}", owner, to.why));
  }

  /// The route to `owner`, once the window is live, the rank exists and the bytes lie in its block.
  /// Call with mutex_ held.
  result<const route*> route_to(int owner, std::size_t offset, std::size_t bytes) const {
    if (released_) return status(status_code::invalid_state, "the window was released");
    if (owner < 0 || static_cast<std::size_t>(owner) >= routes_.size())
      return status(status_code::invalid_rank, fmt::format("rank {} is outside [0, {})", owner, routes_.size()));
    const route& to = routes_[static_cast<std::size_t>(owner)];
    if (offset > to.bytes || bytes > to.bytes - offset)
      return status(status_code::out_of_range,
                    fmt::format("bytes [{}, {}) are outside the {} bytes that rank {} exposes", offset, offset + bytes,
                                to.bytes, owner));
    return &to;
  }

  status access(int owner, std::size_t offset, std::size_t bytes, void* dst, const void* src) {
    std::lock_guard lock(mutex_);
    DTL_ASSIGN_OR_RETURN(const route* found, route_to(owner, offset, bytes));
    const route& to = *found;
    if (bytes == 0) return {};
    if (to.block == nullptr) {
      if (remote_)
        return dst != nullptr ? remote_->get(owner, offset, dst, bytes) : remote_->put(owner, offset, src, bytes);
      return out_of_reach(owner, to);
    }
    std::byte* at = to.block + offset;
    return copy(dst != nullptr ? dst : at, dst != nullptr ? at : src, bytes);
  }

  /// A copy on this rank's stream for its device (host or device memory on either side), waited for.
  status copy(void* dst, const void* src, std::size_t bytes) {
    std::lock_guard lane_lock(lane_->mutex);
    DTL_TRY(lane_->check_earlier());
    DTL_ASSIGN_OR_RETURN(auto guard, hip::device_guard::enter(device_));
    DTL_HIP_TRY(hipMemcpyAsync(dst, src, bytes, hipMemcpyDefault, lane_->stream.native_handle()));
    return lane_->settle();
  }

  comm_backend* comm_;  // the context's: its end() releases this window before the communicator
  int device_;
  std::shared_ptr<device_lane> lane_;
  std::mutex mutex_;  // guards what follows
  bool released_ = false;
  std::vector<route> routes_;
  std::vector<std::uint64_t> extents_;  // each rank's bytes, kept past release (which clears the routes)
  std::shared_ptr<window> remote_;
};

}  // namespace

result<std::shared_ptr<block_window>> open(comm_backend& comm, device_resources& resources, int device, void* base,
                                           std::size_t bytes, int node_leader, std::shared_ptr<window> remote,
                                           std::string no_remote) {
  const block_record mine = describe(node_leader, device, base, bytes);
  std::vector<block_record> all(static_cast<std::size_t>(comm.size()));
  DTL_TRY(comm.allgather(&mine, all.data(), sizeof(block_record)));

  // What fails from here on is this rank's alone: it keeps blocks out of reach, each with its reason.
  result<std::shared_ptr<device_lane>> lane = lane_of(resources, device);
  std::vector<route> routes(all.size());
  for (std::size_t r = 0; r < all.size(); ++r) {
    route& to = routes[r];
    to.bytes = all[r].bytes;
    status reached;
    if (!lane)
      reached = lane.error();
    else if (static_cast<int>(r) == comm.rank())
      to.block = static_cast<std::byte*>(base);  // its own block: no mapping
    else
      reached = open_block(to, all[r], mine, device);
    if (!reached.ok()) to.why = reached.message() + (remote ? "" : "; and " + no_remote);
  }
  return std::shared_ptr<block_window>(std::make_shared<device_window>(
      comm, device, lane ? std::move(lane).value() : nullptr, std::move(routes), std::move(remote)));
}

}  // namespace dtl::detail::ipc_window

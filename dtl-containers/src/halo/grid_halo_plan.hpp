// SPDX-License-Identifier: MIT
#pragma once
// Private: what an N-d halo plan holds (grid_halo_host.cpp: the plan, the host path and the dispatch;
// grid_halo_device.hip: the device path, with grid_halo_device_none.cpp for builds without HIP).

#include "comm/state.hpp"
#include "transport/backend.hpp"

#include <dtl/containers/detail/grid_halo_exchange.hpp>

#include <cstddef>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace dtl::detail {

/// The device part of a plan: the lane it runs on, its copy table and buffers (grid_halo_device.hip).
struct grid_halo_device;
struct grid_halo_device_deleter {
  void operator()(grid_halo_device* dev) const noexcept;
};
using grid_halo_device_ptr = std::unique_ptr<grid_halo_device, grid_halo_device_deleter>;

struct grid_halo_plan final : in_flight_exchange {
  explicit grid_halo_plan(context c) noexcept : ctx(std::move(c)) {}
  grid_halo_plan(const grid_halo_plan&) = delete;
  grid_halo_plan& operator=(const grid_halo_plan&) = delete;
  ~grid_halo_plan() = default;
  void finish_at_end() noexcept override;

  context ctx;
  context_state* state = nullptr;
  int rank = 0;
  int device = no_device;  // no_device: the allocation is host memory
  std::size_t dims = 0;
  std::size_t padded[grid_halo_max_dims] = {};
  std::size_t element_bytes = 0;
  std::vector<grid_halo_region> regions;
  // One packed box per region, into one buffer each way (`storage`, or pinned memory on the device path):
  // `sent[k]` the send box of region k, `received[k]` what its peer sends (empty where the peer is this rank).
  std::vector<std::byte> storage;
  std::vector<std::span<std::byte>> sent, received;
  // Where the grid wraps onto this rank: (ghost, source) pairs of regions, the ghost box a copy of the
  // source's send box (the region in the opposite direction). Found once, with the plan.
  std::vector<std::pair<std::size_t, std::size_t>> own;
  // Host memory: the boxes the communicator moves straight from and into the allocation (MPI derived
  // datatypes), one each way per region of another rank; a null one is packed into `sent` / unpacked from
  // `received`. Made with the plan. (The reverse exchange packs: it combines what comes.)
  std::vector<comm_box_type_ptr> send_types, receive_types;
  std::vector<comm_request_ptr> pending;
  std::byte* base = nullptr;
  bool in_flight = false;
  grid_halo_device_ptr dev;
  std::byte* pinned = nullptr;  // the device path's packed boxes on the host (dev owns it)

  [[nodiscard]] bool on_device() const noexcept { return device != no_device; }
  /// Bytes of all send boxes (the other ranks' regions), and of all receive boxes.
  [[nodiscard]] std::size_t sent_bytes() const noexcept;
  [[nodiscard]] std::size_t received_bytes() const noexcept;
};

/// Elements of a box.
[[nodiscard]] std::size_t grid_box_elements(const grid_box& box, std::size_t dims) noexcept;
/// Posts one receive and one send per region whose peer is another rank (forward: `sent` out, `received`
/// in, or the boxes of the allocation where the region has box types; reverse: the other way, packed, under
/// the reverse tags).
[[nodiscard]] status post_grid_transfers(grid_halo_plan& plan, bool reverse);

// The device path (grid_halo_device.hip; grid_halo_device_none.cpp says there is no GPU).
/// Makes the device part: the copy table of the plan's regions, device buffers, and `bytes` of pinned memory
/// at plan.pinned for the packed boxes. No communication.
[[nodiscard]] status make_grid_halo_device(grid_halo_plan& plan, std::size_t bytes);
/// Packs the send boxes and copies the regions that wrap onto this rank, in one kernel on the device's
/// lane; with other ranks to send to, the packed boxes to pinned memory (the host waits for them).
[[nodiscard]] status grid_device_begin(grid_halo_plan& plan);
/// After the transfers: what came, to the device, and one kernel that writes every ghost box; left
/// running on the lane (the calls after it are ordered behind it).
[[nodiscard]] status grid_device_end(grid_halo_plan& plan);
/// The allocation to the host and back, for reduce on device memory: `to_host` copies the device's
/// allocation into `host` (the host waits); the other way after the host's reduce.
[[nodiscard]] status grid_device_copy_allocation(grid_halo_plan& plan, std::byte* host, bool to_host);

}  // namespace dtl::detail

// SPDX-License-Identifier: MIT
#pragma once
// Private: what a halo plan holds (halo_plan.cpp: the plan and the host path; halo_device_hip.cpp: the
// device paths, with halo_device_none.cpp for builds without HIP).

#include "comm/state.hpp"
#include "transport/backend.hpp"

#include <dtl/containers/communication/collective_types.hpp>
#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/detail/halo_exchange.hpp>
#include <dtl/core/result.hpp>

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace dtl::detail {

/// The device part of a plan: its stream, events, pinned and device buffers (halo_device_hip.cpp).
struct halo_device;
struct halo_device_deleter {
  void operator()(halo_device* dev) const noexcept;
};
using halo_device_ptr = std::unique_ptr<halo_device, halo_device_deleter>;

/// Tags on p2p_channel::internal: halo traffic never matches other internal transfers.
inline constexpr int halo_tag_forward = 0x4841;       // an edge to the next rank's prev ghosts
inline constexpr int halo_tag_backward = 0x4842;      // an edge to the previous rank's next ghosts
inline constexpr int halo_tag_reverse_prev = 0x4843;  // prev ghosts back to their owner (reduce)
inline constexpr int halo_tag_reverse_next = 0x4844;  // next ghosts back to their owner (reduce)

/// A context's end() finishes an exchange in flight (finish_at_end): nothing calls MPI after it ends.
struct halo_plan final : in_flight_exchange {
  explicit halo_plan(context c) noexcept : ctx(std::move(c)) {}
  halo_plan(const halo_plan&) = delete;
  halo_plan& operator=(const halo_plan&) = delete;
  ~halo_plan() = default;
  void finish_at_end() noexcept override;
  context ctx;
  context_state* state = nullptr;
  int rank = 0;
  int device = no_device;     // no_device: host memory
  std::byte* base = nullptr;  // the first prev ghost
  std::size_t prev_bytes = 0, next_bytes = 0, owned_bytes = 0;
  int prev_peer = -1, next_peer = -1;  // -1: no neighbour on that side (or an empty block)
  bool in_flight = false;
  std::vector<comm_request_ptr> pending;
  std::vector<std::byte> from_next, from_prev;  // host receive buffers of reduce
  halo_device_ptr dev;

  [[nodiscard]] bool self() const noexcept { return prev_peer == rank; }  // the only block, periodic
  [[nodiscard]] bool idle() const noexcept { return prev_peer < 0 && next_peer < 0; }
  [[nodiscard]] std::byte* prev_ghosts() const noexcept { return base; }
  [[nodiscard]] std::byte* first_owned() const noexcept { return base + prev_bytes; }
  [[nodiscard]] std::byte* next_ghosts() const noexcept { return base + prev_bytes + owned_bytes; }
  /// The last prev_bytes owned bytes: what the next rank's prev ghosts copy.
  [[nodiscard]] std::byte* last_owned() const noexcept { return base + owned_bytes; }
};

/// Posts an exchange's receives, then its sends (host or GPU-aware MPI buffers), into plan.pending:
/// forward = prev_bytes from fwd_send to the next peer, into fwd_recv from the previous one; backward =
/// next_bytes from bwd_send to the previous peer, into bwd_recv from the next one.
status post_exchange(halo_plan& plan, const void* fwd_send, void* fwd_recv, const void* bwd_send, void* bwd_recv);
/// Posts reduce's transfers: prev ghosts (to_prev) to the previous peer, next ghosts (to_next) to the
/// next one; into from_next (prev_bytes, from the next peer) and from_prev (next_bytes).
status post_reverse(halo_plan& plan, const void* to_prev, const void* to_next, void* from_next, void* from_prev);
/// Waits for every pending request (all of them, even after a failure); the first failure.
status wait_pending(halo_plan& plan);

// The device paths (halo_device_hip.cpp; halo_device_none.cpp says there is no GPU).
int device_path_code(context_state& state, int device) noexcept;
result<halo_device_ptr> make_halo_device(halo_plan& plan);
status connect_halo_device(halo_plan& plan);
/// A blocking exchange where the device needs no host step (RCCL/NCCL, copies); invalid_state (never
/// reached) elsewhere: the MPI paths are begin + end.
status device_exchange_now(halo_plan& plan);
bool device_exchange_on_stream_only(const halo_plan& plan) noexcept;
status device_exchange_begin(halo_plan& plan);
status device_exchange_end(halo_plan& plan);
status device_reduce(halo_plan& plan, datatype type, reduce_op op);
const char* device_path_name(const halo_plan& plan) noexcept;

}  // namespace dtl::detail

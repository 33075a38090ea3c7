// SPDX-License-Identifier: MIT
#pragma once
// The N-d halo exchange over a grid_decomposition (src/halo/grid_halo_host.cpp). Not for users: the
// N-d containers call these with the allocation they own.
//
// A plan is made once per allocation from the decomposition's transfers: for each ghost region, the box
// this rank sends, the box it receives into, the peer and the message tags. An exchange posts one receive
// and one send per region on the internal channel: on host memory straight from and into the allocation
// as MPI derived datatypes (the boxes are strided: a face of an N-d block), else packed into a buffer and
// unpacked into the ghost boxes; a region whose peer is this rank is one copy.

#include <dtl/containers/communication/collective_types.hpp>
#include <dtl/containers/config.hpp>
#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/detail/agreement.hpp>
#include <dtl/containers/detail/redistribute.hpp>
#include <dtl/containers/export.hpp>
#include <dtl/containers/grid_decomposition.hpp>
#include <dtl/core/device_id.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/try.hpp>

#include <array>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#if DTL_CONTAINERS_HAS_HIP
#include <dtl/hip/future.hpp>
#include <dtl/hip/stream_ref.hpp>
#endif

namespace dtl::detail {

/// A box in a runtime number of dimensions (at most grid_halo_max_dims).
inline constexpr std::size_t grid_halo_max_dims = 8;
struct grid_box {
  std::size_t offset[grid_halo_max_dims] = {};
  std::size_t extents[grid_halo_max_dims] = {};
};
/// One ghost region, as the plan moves it: `send` travels to `peer` under `send_tag`; `receive` is
/// written from what `peer` sends under `receive_tag`.
struct grid_halo_region {
  int peer = 0;
  int send_tag = 0;
  int receive_tag = 0;
  grid_box send;
  grid_box receive;
};

struct grid_halo_plan;
struct grid_halo_plan_deleter {
  DTL_CONTAINERS_API void operator()(grid_halo_plan* plan) const noexcept;
};
using grid_halo_plan_ptr = std::unique_ptr<grid_halo_plan, grid_halo_plan_deleter>;

/// This rank's plan over an allocation of `padded` extents (`dims` of them, row-major) of
/// `element_bytes`-byte elements, in host memory (`device` no_device) or in the memory of `device`
/// (packed and unpacked there by kernels on the device's lane). No communication.
[[nodiscard]] DTL_CONTAINERS_API result<grid_halo_plan_ptr> make_grid_halo_plan(const context& ctx, std::size_t dims,
                                                                                const std::size_t* padded,
                                                                                std::vector<grid_halo_region> regions,
                                                                                std::size_t element_bytes,
                                                                                int device = no_device);
/// A blocking exchange of the allocation at `base`: exchange_begin and exchange_end.
[[nodiscard]] DTL_CONTAINERS_API status grid_halo_exchange(grid_halo_plan& plan, void* base);
/// Starts an exchange: the ghost boxes are being written until grid_halo_exchange_end, and the owned
/// elements must not change until then. invalid_state when one is in flight.
[[nodiscard]] DTL_CONTAINERS_API status grid_halo_exchange_begin(grid_halo_plan& plan, void* base);
/// Waits for the exchange begun last and writes the ghosts.
[[nodiscard]] DTL_CONTAINERS_API status grid_halo_exchange_end(grid_halo_plan& plan);
[[nodiscard]] DTL_CONTAINERS_API bool grid_halo_in_flight(const grid_halo_plan& plan) noexcept;
#if DTL_CONTAINERS_HAS_HIP
/// The exchange ordered on `stream` (of the allocation's device): a rank that is its own only neighbour
/// enqueues its one box-copy kernel on `stream` and returns at once (the future completes when the stream
/// gets there); with other ranks the host waits for `stream`, exchanges, and `stream` waits on the device
/// for the exchange's last kernel (a ready future). Host memory: a blocking exchange.
[[nodiscard]] DTL_CONTAINERS_API hip::future<void> grid_halo_exchange_on_stream(grid_halo_plan& plan, void* base,
                                                                                hip::stream_ref stream);
#endif
/// The messages an exchange sends to other ranks, and how many of them (each way) travel straight from and
/// into the allocation as the communicator's box types (MPI derived datatypes) instead of packed.
struct grid_halo_messages {
  std::size_t messages = 0;
  std::size_t as_box_types = 0;
};
[[nodiscard]] DTL_CONTAINERS_API grid_halo_messages grid_halo_message_counts(const grid_halo_plan& plan) noexcept;
/// The reverse exchange: every ghost region travels back to the rank that owns its elements, which
/// combines it into them with `op` (elements of `type`); the ghosts keep their values. invalid_state while
/// an exchange is in flight; invalid_argument for a logical or bitwise op on floating-point elements.
[[nodiscard]] DTL_CONTAINERS_API status grid_halo_reduce(grid_halo_plan& plan, void* base, datatype type, reduce_op op);

/// The tag of a direction: its row-major number among the 3^N steps, above the 1-D halo's tags; the
/// reverse exchange's tags follow (3^8 further: all of them below 32767, MPI's least MPI_TAG_UB).
inline constexpr int grid_halo_reverse_tags = 6561;
template <std::size_t N>
[[nodiscard]] constexpr int grid_halo_tag(const std::array<int, N>& direction) noexcept {
  int code = 0;
  for (std::size_t d = 0; d < N; ++d) code = code * 3 + (direction[d] + 1);
  return 0x4900 + code;
}

/// The plan of this rank's block of `dec`, for elements of `element_bytes` bytes. Collective: every rank of
/// `ctx` gets the same status, invalid_argument when the grid's rank count is not the context's or the ranks
/// pass different decompositions (an exchange over them would pair messages wrongly or wait forever).
template <std::size_t N>
[[nodiscard]] result<grid_halo_plan_ptr> make_grid_halo_plan(const context& ctx, const grid_decomposition<N>& dec,
                                                             std::size_t element_bytes, int device = no_device) {
  static_assert(N <= grid_halo_max_dims, "an N-d halo has at most grid_halo_max_dims dimensions");
  status local;
  if (dec.grid().size() != ctx.size())
    local =
        status(status_code::invalid_argument, "grid halo: the process grid has " + std::to_string(dec.grid().size()) +
                                                  " ranks, the context " + std::to_string(ctx.size()));
  std::array<std::size_t, 2 * N> grid{};  // the grid's extents, then its periodicity
  for (std::size_t d = 0; d < N; ++d) {
    grid[d] = static_cast<std::size_t>(dec.grid().extent(d));
    grid[N + d] = dec.grid().periodic(d) ? 1 : 0;
  }
  const call_signature signature{
      "grid halo plan",
      {static_cast<std::int64_t>(N), sizes_fingerprint(std::span<const std::size_t>(dec.global_extents())),
       sizes_fingerprint(std::span<const std::size_t>(dec.halo_width())),
       sizes_fingerprint(std::span<const std::size_t>(grid)), static_cast<std::int64_t>(dec.shape()),
       static_cast<std::int64_t>(element_bytes)},
      {"number of dimensions", "hash of the global extents", "hash of the halo widths", "hash of the process grid",
       "stencil shape", "element bytes"}};
  // The plan is made before the ranks agree, so that a rank that cannot make it (device memory) fails them all.
  auto make = [&]() -> result<grid_halo_plan_ptr> {
    if (!local.ok()) return local;
    const int rank = ctx.rank();
    std::vector<grid_halo_region> regions;
    for (const auto& t : dec.transfers(rank)) {
      grid_halo_region r;
      r.peer = t.peer;
      r.send_tag = grid_halo_tag<N>(t.direction);
      auto opposite = t.direction;
      for (int& s : opposite) s = -s;
      r.receive_tag = grid_halo_tag<N>(opposite);
      for (std::size_t d = 0; d < N; ++d) {
        r.send.offset[d] = t.send.offset[d];
        r.send.extents[d] = t.send.extents[d];
        r.receive.offset[d] = t.receive.offset[d];
        r.receive.extents[d] = t.receive.extents[d];
      }
      regions.push_back(r);
    }
    const nd_extent<N> padded = dec.padded_extents(rank);
    return make_grid_halo_plan(ctx, N, padded.data(), std::move(regions), element_bytes, device);
  };
  result<grid_halo_plan_ptr> plan = make();
  DTL_TRY(agree(ctx, plan.has_value() ? status{} : plan.error(), signature));
  return plan;
}

}  // namespace dtl::detail

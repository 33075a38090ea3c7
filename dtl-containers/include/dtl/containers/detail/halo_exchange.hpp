// SPDX-License-Identifier: MIT
#pragma once
// The halo exchange plan of a distributed_vector (src/halo/halo_plan.cpp, and the device part in
// src/halo/halo_device_hip.cpp). Not for users: distributed_vector and dtl::vector_halo call these.
//
// A plan is made once per vector: its peers (the nearest non-empty blocks before and after this one),
// the byte ranges each message reads and writes, and on the device its stream and pinned buffers.
// With a 1-D block layout the ghosts and the edges are contiguous, so nothing is packed: sends read the
// edges of the owned block and receives write the ghost ranges.

#include <dtl/containers/block_partition.hpp>
#include <dtl/containers/communication/collective_types.hpp>
#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/config.hpp>
#include <dtl/containers/export.hpp>
#include <dtl/containers/halo.hpp>
#include <dtl/core/result.hpp>

#include <cstddef>
#include <memory>

#if DTL_CONTAINERS_HAS_HIP
#include <dtl/hip/future.hpp>
#include <dtl/hip/stream_ref.hpp>
#endif

namespace dtl::detail {

struct halo_plan;
struct halo_plan_deleter {
  DTL_CONTAINERS_API void operator()(halo_plan* plan) const noexcept;
};
using halo_plan_ptr = std::unique_ptr<halo_plan, halo_plan_deleter>;

/// The width rule and the granularity rule, from the partition alone (so every rank gets the same
/// answer without communicating): invalid_argument naming the first block that breaks them.
[[nodiscard]] DTL_CONTAINERS_API status check_halo(const block_partition<>& partition, const halo& h);

/// The path this rank's exchanges take, as a number the ranks compare at construction (0 host, then
/// 1 + collective_path for device memory on `device`).
[[nodiscard]] DTL_CONTAINERS_API int halo_path_code(const context& ctx, int device) noexcept;

/// This rank's plan (no communication). `base` is the start of the allocation (the first prev ghost);
/// `device` is no_device for host memory. Errors: the device's (its stream, pinned buffers).
[[nodiscard]] DTL_CONTAINERS_API result<halo_plan_ptr> make_halo_plan(const context& ctx,
                                                                      const block_partition<>& partition, const halo& h,
                                                                      std::size_t element_bytes, void* base,
                                                                      int device);
/// What must be made by every rank together once the plans agree (the RCCL/NCCL communicator).
/// Collective over the context; `plan` may be null (a rank whose plan failed to be made never gets here).
[[nodiscard]] DTL_CONTAINERS_API status connect_halo_plan(const context& ctx, halo_plan* plan);

/// A blocking exchange: exchange_begin and exchange_end, except that RCCL/NCCL and device copies are
/// enqueued on the context's stream for the device (ordered after its work without an event).
[[nodiscard]] DTL_CONTAINERS_API status halo_exchange(halo_plan& plan);
/// Starts an exchange: the ghosts are being written until halo_exchange_end. Device memory: ordered
/// after the work on the context's stream for the vector's device. invalid_state when one is in flight.
[[nodiscard]] DTL_CONTAINERS_API status halo_exchange_begin(halo_plan& plan);
/// Waits for the exchange begun last; the ghosts then hold the neighbours' edges.
[[nodiscard]] DTL_CONTAINERS_API status halo_exchange_end(halo_plan& plan);
/// The reverse exchange: every ghost travels to the element it copies and is combined into it with `op`.
[[nodiscard]] DTL_CONTAINERS_API status halo_reduce(halo_plan& plan, datatype type, reduce_op op);
/// Whether an exchange is in flight.
[[nodiscard]] DTL_CONTAINERS_API bool halo_in_flight(const halo_plan& plan) noexcept;
/// "host", "self", "nccl", "mpi_gpu_aware" or "mpi_staged".
[[nodiscard]] DTL_CONTAINERS_API const char* halo_path_name(const halo_plan& plan) noexcept;

#if DTL_CONTAINERS_HAS_HIP
/// The exchange ordered on `stream` (of the vector's device): enqueued on it for RCCL/NCCL (the future
/// completes when the stream gets there); the MPI paths wait for the stream, exchange, and return a
/// ready future.
[[nodiscard]] DTL_CONTAINERS_API hip::future<void> halo_exchange_on_stream(halo_plan& plan, hip::stream_ref stream);
#endif

}  // namespace dtl::detail

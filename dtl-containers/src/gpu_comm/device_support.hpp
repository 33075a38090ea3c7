// SPDX-License-Identifier: MIT
#pragma once
// Private: what the container layer needs from the GPU. device_hip.cpp implements it with the HIP
// layers; device_none.cpp (builds without HIP) says there is no GPU.

#include "comm/collective_dispatch.hpp"
#include "transport/backend.hpp"

#include <dtl/containers/communication/collective_types.hpp>
#include <dtl/containers/communication/context.hpp>
#include <dtl/core/device_id.hpp>
#include <dtl/core/memory_transfer.hpp>
#include <dtl/core/result.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace dtl::detail {

class collective_call;

/// A collective as an all-to-all in bytes, which gather, scatter, their v forms, allgatherv, alltoall
/// and alltoallv all are: this rank sends send_bytes[r] bytes at send + send_displs[r] to rank r and
/// receives recv_bytes[r] bytes from it at recv + recv_displs[r] (size() entries each).
struct byte_exchange {
  const void* send = nullptr;
  void* recv = nullptr;
  std::vector<std::size_t> send_bytes, send_displs, recv_bytes, recv_displs;
  // The devices of send and recv (dtl::no_device: host memory or none), found once when the buffers
  // were checked.
  int send_device = no_device, recv_device = no_device;
};

/// The GPU resources of one context (collective path, RCCL/NCCL communicator, staging buffers, lanes).
struct device_resources;
struct device_resources_deleter {
  void operator()(device_resources* resources) const noexcept;
};
using device_resources_ptr = std::unique_ptr<device_resources, device_resources_deleter>;

namespace device_support {

bool built() noexcept;
/// Devices this process sees (0 without a GPU or without HIP).
int device_count() noexcept;
/// ok when `device` is usable (see dtl::hip::check_device); backend_not_available without HIP.
status check_device(int device);
/// Makes `device` current on the calling thread.
status make_current(int device);
/// The calling thread's current device; backend_not_available without a GPU.
result<int> current_device();

/// Chooses how device buffers move between the ranks of `comm` (collective: every rank calls it) and
/// makes the context's GPU resources. `device` may be dtl::no_device.
result<device_resources_ptr> create_resources(comm_backend& comm, int device);
collective_path path(const device_resources& resources) noexcept;
const std::string& path_reason(const device_resources& resources) noexcept;
/// Releases what must go before MPI is finalised (the RCCL/NCCL communicator). Idempotent.
void release(device_resources& resources) noexcept;

/// Whether MPI may be handed device memory on this context (GPU-aware, confirmed by a probe).
bool mpi_takes_device_memory(const device_resources& resources) noexcept;

/// Sets `count` elements of `pattern_bytes` each at device (or managed) memory `dst` on `device`, with a
/// kernel on the context's stream for that device; returns when done.
status fill(const context& ctx, int device, void* dst, std::size_t count, const void* pattern,
            std::size_t pattern_bytes);
/// Waits for the work that calls left running on the context's stream for `device` (any_device: every
/// device's), and returns its failure (device_lane::settle()).
inline constexpr int any_device = -2;
status settle(device_resources& resources, int device);
/// hip_memory_transfer::copy.
status copy(void* dst, const void* src, std::size_t bytes, transfer_kind kind);

/// Whether `ptr` is device memory (hipMalloc), which collectives must not hand to a non-GPU-aware MPI.
result<bool> is_device_memory(const void* ptr);
/// The device whose memory (hipMalloc) `ptr` is, or dtl::no_device for any other memory.
result<int> device_of_memory(const void* ptr);

/// A blocking collective of the dispatcher's table on device buffers (the caller checked its arguments
/// and that they are device memory), on the context's device path. It first waits for all work on the
/// device, so that it sees every earlier write, and runs `call`'s agreement step once its own
/// preparation is done (what fails before data moves fails on every rank).
status collective(device_resources& resources, comm_backend& comm, collective_call& call, collective_kind kind,
                  const collective_args& args);
/// `x` on device buffers (collectives_device_hip.cpp): RCCL/NCCL grouped send/recv (RCCL's
/// ncclAllToAllv), MPI on device pointers, or MPI on pinned copies. A buffer of another device than the
/// context's is invalid_argument, on every rank.
status exchange(device_resources& resources, comm_backend& comm, collective_call& call, const byte_exchange& x);

}  // namespace device_support

}  // namespace dtl::detail

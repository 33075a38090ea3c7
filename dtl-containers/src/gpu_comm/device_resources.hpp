// SPDX-License-Identifier: MIT
#pragma once
// Private (HIP builds): the GPU resources of one context, shared by the files that move device buffers
// (device_hip.cpp and the point-to-point, all-to-all and halo files).

#include "transport/backend.hpp"
#include "transport/nccl_support.hpp"

#include <dtl/containers/communication/collective_types.hpp>
#include <dtl/containers/communication/detail/lane.hpp>
#include <dtl/core/placement.hpp>
#include <dtl/core/result.hpp>
#include <dtl/hip/error.hpp>

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace dtl::detail {

struct device_resources {
  int device = no_device;
  collective_path path = collective_path::self;
  std::string reason;
  bool mpi_gpu_aware = false;

  std::mutex mutex;  // guards what follows
  bool released = false;
  nccl::communicator_ptr nccl;  // made on the first RCCL/NCCL collective
  void* staging = nullptr;      // pinned host memory for the staged path
  std::size_t staging_bytes = 0;
  std::map<int, std::shared_ptr<device_lane>> lanes;
  // Pinned host buffers of point-to-point transfers in flight come from here and go back (p2p_device_hip.cpp).
  std::vector<std::pair<void*, std::size_t>> p2p_pinned;

  ~device_resources() {
    if (staging != nullptr)
      if (const hipError_t e = hipHostFree(staging); e != hipSuccess)
        report_unhandled(hip::to_status(e, "hipHostFree"));
    for (auto& [p, bytes] : p2p_pinned)
      if (const hipError_t e = hipHostFree(p); e != hipSuccess) report_unhandled(hip::to_status(e, "hipHostFree"));
  }
};

/// The context's stream (lane) for `device`, made on first use.
result<std::shared_ptr<device_lane>> lane_of(device_resources& res, int device);
/// The context's RCCL/NCCL communicator, made on the first call (collective over `comm`).
result<nccl::communicator*> nccl_of(device_resources& res, comm_backend& comm);
class collective_call;  // state.hpp

/// What a blocking collective on the RCCL/NCCL path enqueues on: the context's lane and communicator.
struct nccl_lane {
  std::shared_ptr<device_lane> lane;
  nccl::communicator* comm = nullptr;
  [[nodiscard]] hipStream_t stream() const { return lane->stream.native_handle(); }
};
/// The RCCL/NCCL path of a blocking collective: this rank's preparation `ready` and finding its lane are
/// its part of `call`'s agreement; after it, the communicator (made on the first RCCL/NCCL collective,
/// collectively, agreeing on its own failures).
result<nccl_lane> agreed_nccl_lane(device_resources& res, comm_backend& comm, collective_call& call, status ready);
/// Pinned host memory of at least `bytes` for the staged path; call with res.mutex held.
result<std::byte*> staging_of(device_resources& res, std::size_t bytes);

}  // namespace dtl::detail

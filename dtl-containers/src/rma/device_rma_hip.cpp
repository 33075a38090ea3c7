// SPDX-License-Identifier: MIT
// memory_window over device memory (device_rma.hpp): data through the IPC window of device blocks, epochs
// through a small MPI window beside it.
#include "comm/state.hpp"
#include "gpu_comm/device_resources.hpp"
#include "gpu_comm/ipc_window.hpp"
#include "rma/device_atomics.hpp"
#include "rma/device_rma.hpp"

#include <dtl/core/try.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

namespace dtl::detail::device_rma {

namespace {

class device_rma_window final : public rma_window {
 public:
  device_rma_window(void* base, int rank, int device, std::vector<std::uint64_t> extents,
                    std::shared_ptr<ipc_window::block_window> blocks, std::unique_ptr<rma_window> epochs,
                    std::shared_ptr<device_lane> lane) noexcept
      : base_(base),
        rank_(rank),
        device_(device),
        extents_(std::move(extents)),
        blocks_(std::move(blocks)),
        epochs_(std::move(epochs)),
        lane_(std::move(lane)) {}
  // The mappings close first (every rank, then a barrier), then the MPI window is freed: no rank reaches
  // a block once any rank may free it.
  ~device_rma_window() override { blocks_->release(); }

  void* base() const noexcept override { return base_; }
  const std::vector<std::uint64_t>& extents() const noexcept override { return extents_; }
  int rank() const noexcept override { return rank_; }
  void* native() noexcept override { return nullptr; }  // no MPI_Win holds the data
  bool uses_mpi() noexcept override { return true; }    // closing the mappings and the epochs' window does
  bool completes_on_return() const noexcept override { return true; }  // each access waits for its copy

  // Every access is finished on this rank's device before it returns, so the epochs only order them.
  result<bool> all_ready(bool ready) override { return epochs_->all_ready(ready); }
  status fence(int assert_flags) override { return epochs_->fence(assert_flags); }
  status lock(int target, rma_lock_mode mode) override { return epochs_->lock(target, mode); }
  status unlock(int target) override { return epochs_->unlock(target); }
  status lock_all() override { return epochs_->lock_all(); }
  status unlock_all() override { return epochs_->unlock_all(); }
  status flush(int target, bool local) override { return epochs_->flush(target, local); }

  status put(const void* origin, std::size_t bytes, int target, std::size_t offset) override {
    return blocks_->put(target, offset, origin, bytes);
  }
  status get(void* origin, std::size_t bytes, int target, std::size_t offset) override {
    return blocks_->get(target, offset, origin, bytes);
  }

  status accumulate(const void* origin, void* result, std::size_t count, rma_datatype type, int target,
                    std::size_t offset, rma_reduce_op op) override {
    return atomically(count, type, target, offset, origin, nullptr, result,
                      [&](void* at, const void* o, const void*, void* fetched, hipStream_t s) {
                        return device_atomics::accumulate(at, o, fetched, count, type, op, s);
                      });
  }
  status compare_and_swap(const void* origin, const void* compare, void* result, rma_datatype type, int target,
                          std::size_t offset) override {
    return atomically(1, type, target, offset, origin, compare, result,
                      [&](void* at, const void* o, const void* c, void* fetched, hipStream_t s) {
                        return device_atomics::compare_and_swap(at, o, c, fetched, type, s);
                      });
  }

 private:
  /// Stages the origin (and compare) elements in device memory, runs `kernel` on the target as this rank's
  /// device reaches it, brings the fetched elements back to `result` (when not null) and waits.
  template <class Kernel>
  status atomically(std::size_t count, rma_datatype type, int target, std::size_t offset, const void* origin,
                    const void* compare, void* result, Kernel kernel) {
    const std::size_t elem = datatype_size(type), bytes = count * elem;
    if (offset % elem != 0)
      return status(status_code::invalid_argument,
                    fmt::format("an atomic access of {}-byte elements at byte offset {} of device memory: the "
                                "offset must be a multiple of the element size",
                                elem, offset));
    DTL_ASSIGN_OR_RETURN(std::byte * at, blocks_->reach(target, offset, bytes));
    if (count == 0) return {};
    std::lock_guard lane_lock(lane_->mutex);
    DTL_TRY(lane_->check_earlier());
    DTL_ASSIGN_OR_RETURN(auto guard, hip::device_guard::enter(device_));
    const hipStream_t stream = lane_->stream.native_handle();
    // origin | compare | fetched, each `bytes` long
    DTL_ASSIGN_OR_RETURN(void* staged, lane_->scratch_for(stream).reserve(3 * bytes));
    auto* d_origin = static_cast<std::byte*>(staged);
    std::byte* d_compare = d_origin + bytes;
    std::byte* d_fetched = d_compare + bytes;
    DTL_HIP_TRY(hipMemcpyAsync(d_origin, origin, bytes, hipMemcpyDefault, stream));
    if (compare != nullptr) DTL_HIP_TRY(hipMemcpyAsync(d_compare, compare, bytes, hipMemcpyDefault, stream));
    DTL_TRY(kernel(at, d_origin, d_compare, result != nullptr ? d_fetched : nullptr, stream));
    if (result != nullptr) DTL_HIP_TRY(hipMemcpyAsync(result, d_fetched, bytes, hipMemcpyDefault, stream));
    return lane_->settle();
  }

  void* base_;
  int rank_;
  int device_;
  std::vector<std::uint64_t> extents_;
  std::shared_ptr<ipc_window::block_window> blocks_;
  std::unique_ptr<rma_window> epochs_;
  std::shared_ptr<device_lane> lane_;
};

}  // namespace

result<std::shared_ptr<device_lane>> prepare(context_state& state, int device) {
  return lane_of(*state.resources, device);
}

result<std::unique_ptr<rma_window>> open(context_state& state, int node_leader, int device, void* base,
                                         std::size_t bytes, std::shared_ptr<device_lane> lane) {
  comm_backend& comm = *state.comm;
  DTL_ASSIGN_OR_RETURN(std::unique_ptr<rma_window> epochs, comm.create_rma_window(nullptr, sizeof(std::uint64_t)));
  DTL_ASSIGN_OR_RETURN(std::shared_ptr<ipc_window::block_window> blocks,
                       ipc_window::open(comm, *state.resources, device, base, bytes, node_leader, nullptr,
                                        "a memory_window over device memory reaches the ranks of this node only"));
  state.track(blocks);
  std::vector<std::uint64_t> extents = blocks->extents();  // every rank's bytes, gathered by the block window
  return std::unique_ptr<rma_window>(std::make_unique<device_rma_window>(
      base, comm.rank(), device, std::move(extents), std::move(blocks), std::move(epochs), std::move(lane)));
}

}  // namespace dtl::detail::device_rma

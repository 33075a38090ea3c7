#pragma once
// Private: the communicator behind a context. MPI (comm_mpi.cpp) or a single process (comm_self.cpp).
// Buffers are host memory, or device memory when the caller knows MPI is GPU-aware.

#include <dtl/containers/communication/collective_types.hpp>
#include <dtl/containers/detail/window.hpp>
#include <dtl/core/result.hpp>

#include <cstddef>
#include <memory>
#include <vector>

namespace dtl::detail {

class comm_backend {
 public:
  comm_backend() = default;
  comm_backend(const comm_backend&) = delete;
  comm_backend& operator=(const comm_backend&) = delete;
  virtual ~comm_backend() = default;

  [[nodiscard]] virtual int rank() const noexcept = 0;
  [[nodiscard]] virtual int size() const noexcept = 0;
  [[nodiscard]] virtual bool is_mpi() const noexcept = 0;

  virtual status barrier() = 0;
  /// send == recv means in place.
  virtual status allreduce(const void* send, void* recv, std::size_t count, datatype type, reduce_op op) = 0;
  virtual status reduce(const void* send, void* recv, std::size_t count, datatype type, reduce_op op, int root) = 0;
  virtual status broadcast(void* data, std::size_t bytes, int root) = 0;
  virtual status allgather(const void* send, void* recv, std::size_t bytes_each) = 0;
  /// Root receives bytes_per_rank[r] bytes from each rank r, in rank order, into recv.
  virtual status gatherv(const void* send, std::size_t bytes, void* recv, const std::vector<std::size_t>& bytes_per_rank,
                         int root) = 0;
  /// A null pointer for a rank that passes undefined_color (it is in no sub-communicator).
  virtual result<std::unique_ptr<comm_backend>> split(int color, int key) = 0;
  /// Exposes [base, base + bytes) of every rank (collective). bytes may be 0 on some ranks.
  virtual result<std::shared_ptr<window>> create_window(void* base, std::size_t bytes) = 0;
  /// The MPI_Comm (as a pointer to it), or nullptr for a single process.
  [[nodiscard]] virtual const void* native() const noexcept = 0;
  /// Frees the MPI communicator (before MPI is finalised); later calls return invalid_state. Idempotent.
  virtual void release() noexcept = 0;
};

/// A single process: rank 0 of 1. Collectives copy send to recv.
std::unique_ptr<comm_backend> make_self_comm();

/// Checks a collective's root and sizes; common to every backend.
status check_root(int root, int size);

}  // namespace dtl::detail

// SPDX-License-Identifier: MIT
#pragma once
// Private: the communicator behind a context. MPI (mpi.cpp), a single process (self.cpp), or none
// (detached.cpp).
// Buffers are host memory, or device memory when the caller knows MPI is GPU-aware.

#include "comm/agreement_record.hpp"
#include "transport/rma_window.hpp"

#include <dtl/containers/communication/collective_types.hpp>
#include <dtl/containers/communication/detail/window.hpp>
#include <dtl/core/result.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace dtl::detail {

/// A pending point-to-point transfer of a backend: one or more MPI requests (a message past the
/// backend's message limit travels in pieces). Destroying a pending request waits for it.
class comm_request {
 public:
  comm_request() = default;
  comm_request(const comm_request&) = delete;
  comm_request& operator=(const comm_request&) = delete;
  virtual ~comm_request() = default;
  /// true once complete: a send's buffer may be reused, a receive's read.
  [[nodiscard]] virtual result<bool> test() = 0;
  [[nodiscard]] virtual status wait() = 0;
  /// The bytes a completed receive got (a message may be shorter than the buffer); a send's size.
  [[nodiscard]] virtual std::size_t bytes() const noexcept = 0;
};
using comm_request_ptr = std::unique_ptr<comm_request>;

/// Waits for every request (all of them, even after a failure, since their buffers are about to be reused)
/// and empties the list; the first failure.
inline status wait_all(std::vector<comm_request_ptr>& requests) {
  status first;
  for (comm_request_ptr& request : requests) {
    status s = request->wait();
    if (first.ok() && !s.ok()) first = std::move(s);
  }
  requests.clear();
  return first;
}

/// Point-to-point traffic that must never match across kinds travels on separate channels (separate
/// MPI communicators): the user's payloads (data), the headers of the user's messages (control), and the
/// transfers DTL makes inside its algorithms (internal: halo exchanges, all-to-all in pieces).
enum class p2p_channel { data, control, internal };

/// A box of an N-d row-major allocation (the halo's strided faces): `dims` extents of the allocation,
/// the box's offset and extents in it, in elements of `element_bytes`.
struct box_layout {
  std::size_t dims = 0;
  const std::size_t* padded = nullptr;
  const std::size_t* offset = nullptr;
  const std::size_t* extents = nullptr;
  std::size_t element_bytes = 0;
};

/// A box a backend moves as one message straight from and into the allocation (an MPI derived datatype),
/// made once and used for every exchange. Its bytes match a packed message of the same size, so the two
/// ends need not both use one.
class comm_box_type {
 public:
  comm_box_type() = default;
  comm_box_type(const comm_box_type&) = delete;
  comm_box_type& operator=(const comm_box_type&) = delete;
  virtual ~comm_box_type() = default;
};
using comm_box_type_ptr = std::unique_ptr<comm_box_type>;

/// What an all-to-all must know of every rank to choose how it moves: the largest block and offset in
/// bytes, and the most peers one rank exchanges bytes with.
struct exchange_extent {
  std::uint64_t count = 0;
  std::uint64_t offset = 0;
  std::uint64_t peers = 0;
};

class comm_backend {
 public:
  comm_backend() = default;
  comm_backend(const comm_backend&) = delete;
  comm_backend& operator=(const comm_backend&) = delete;
  virtual ~comm_backend() = default;

  [[nodiscard]] virtual int rank() const noexcept = 0;
  [[nodiscard]] virtual int size() const noexcept = 0;

  /// The size of this communicator's next agreement message (agreement.cpp keeps it).
  record_sizing agreement_sizing;

  virtual status barrier() = 0;
  /// send == recv means in place.
  virtual status allreduce(const void* send, void* recv, std::size_t count, datatype type, reduce_op op) = 0;
  virtual status reduce(const void* send, void* recv, std::size_t count, datatype type, reduce_op op, int root) = 0;
  virtual status broadcast(void* data, std::size_t bytes, int root) = 0;
  virtual status allgather(const void* send, void* recv, std::size_t bytes_each) = 0;
  /// Root receives bytes_per_rank[r] bytes from each rank r at offset displs[r] of recv (both arrays
  /// are read on the root only); every rank sends `bytes`. Non-root ranks send one message (MPI_Gatherv),
  /// never one per rank.
  virtual status gatherv(const void* send, std::size_t bytes, void* recv, const std::size_t* bytes_per_rank,
                         const std::size_t* displs, int root) = 0;
  /// Every rank sends bytes_each bytes at send + r * bytes_each to each rank r, which receives them at
  /// recv + this rank * bytes_each. Any size (every rank passes the same bytes_each).
  virtual status alltoall(const void* send, void* recv, std::size_t bytes_each) = 0;
  /// All-to-all with per-peer byte counts and byte offsets (arrays of size() entries). Counts past 2^31
  /// bytes are fine: the backend uses larger units, MPI-4 large-count calls, or pieces.
  virtual status alltoallv(const void* send, const std::size_t* send_bytes, const std::size_t* send_displs, void* recv,
                           const std::size_t* recv_bytes, const std::size_t* recv_displs) = 0;
  /// alltoallv for a caller that knows `most`, at least every rank's largest count and offset in bytes (the
  /// same on every rank), and that most pairs exchange bytes: no allreduce to find them. For DTL's own
  /// algorithms, whose counts agree by construction.
  virtual status alltoallv_known(const void* send, const std::size_t* send_bytes, const std::size_t* send_displs,
                                 void* recv, const std::size_t* recv_bytes, const std::size_t* recv_displs,
                                 std::size_t /*most*/) {
    return alltoallv(send, send_bytes, send_displs, recv, recv_bytes, recv_displs);
  }
  /// alltoallv for a caller whose agreement step found `most` over every rank (the same on every rank).
  virtual status alltoallv_agreed(const void* send, const std::size_t* send_bytes, const std::size_t* send_displs,
                                  void* recv, const std::size_t* recv_bytes, const std::size_t* recv_displs,
                                  const exchange_extent& /*most*/) {
    return alltoallv(send, send_bytes, send_displs, recv, recv_bytes, recv_displs);
  }
  /// An all-to-all whose few non-empty blocks go as messages between those peers only (on the internal
  /// channel), for DTL's own algorithms: each pair of ranks agrees by construction on which blocks are
  /// empty, and `most` (the same on every rank) bounds every block in bytes.
  virtual status exchange_with_peers(const void* send, const std::size_t* send_bytes, const std::size_t* send_displs,
                                     void* recv, const std::size_t* recv_bytes, const std::size_t* recv_displs,
                                     std::size_t /*most*/) {
    return alltoallv(send, send_bytes, send_displs, recv, recv_bytes, recv_displs);
  }
  /// Root sends bytes_per_rank[r] bytes (from offset displs[r] of send) to each rank r.
  virtual status scatterv(const void* send, const std::size_t* bytes_per_rank, const std::size_t* displs, void* recv,
                          std::size_t bytes, int root) = 0;
  /// Every rank gets bytes_per_rank[r] bytes of each rank r at offset displs[r] of recv.
  virtual status allgatherv(const void* send, std::size_t bytes, void* recv, const std::size_t* bytes_per_rank,
                            const std::size_t* displs) = 0;
  /// The agreement step's message (a record and its payload area, of the same size on every rank:
  /// agreement_sizing) combined over the ranks by combine_messages, in place.
  virtual status agree_record(std::span<std::byte> message) = 0;
  /// Inclusive (MPI_Scan) or exclusive (MPI_Exscan: rank 0's recv is left as it was) prefix reduction.
  virtual status scan(const void* send, void* recv, std::size_t count, datatype type, reduce_op op, bool exclusive) = 0;

  /// Non-blocking point-to-point on `channel`: `bytes` bytes to or from `peer`, matched by (peer, tag,
  /// channel) in the order posted (MPI's rules). A receive's buffer holds `bytes`; a shorter message
  /// is fine (see comm_request::bytes), a longer one is an error. 0 <= tag <= max_tag().
  [[nodiscard]] virtual result<comm_request_ptr> isend(const void* buf, std::size_t bytes, int peer, int tag,
                                                       p2p_channel channel) = 0;
  [[nodiscard]] virtual result<comm_request_ptr> irecv(void* buf, std::size_t bytes, int peer, int tag,
                                                       p2p_channel channel) = 0;
  /// The box as a type isend_box / irecv_box move without packing, or a null pointer where this backend
  /// has none for it (the caller packs): a backend without derived datatypes, an empty box, or one past
  /// a single piece or MPI's int counts.
  [[nodiscard]] virtual result<comm_box_type_ptr> make_box_type(const box_layout& /*box*/) {
    return comm_box_type_ptr();
  }
  /// isend / irecv of the box `type` (from make_box_type) of the allocation at `base`.
  [[nodiscard]] virtual result<comm_request_ptr> isend_box(const void* base, const comm_box_type& type, int peer,
                                                           int tag, p2p_channel channel);
  [[nodiscard]] virtual result<comm_request_ptr> irecv_box(void* base, const comm_box_type& type, int peer, int tag,
                                                           p2p_channel channel);
  /// The largest tag point-to-point calls may use (MPI_TAG_UB).
  [[nodiscard]] virtual int max_tag() const noexcept = 0;
  /// The largest message that travels as one piece (one MPI message): a longer one is split, and its
  /// receive must then be as long as it (a receive takes as many pieces as its own length makes). The
  /// same on every rank.
  [[nodiscard]] virtual std::size_t piece_bytes() const noexcept { return static_cast<std::size_t>(-1); }
  /// out_of_range for a message of `bytes` that this backend cannot move (past the address space, or in
  /// more pieces than it keeps in flight), before anything is posted: the same answer on every rank for
  /// the same `bytes`. isend and irecv check it themselves; callers check first where a refusal on one
  /// side only would leave the other waiting.
  [[nodiscard]] virtual status check_message(std::size_t bytes) const = 0;

  /// A null pointer for a rank that passes undefined_color (it is in no sub-communicator).
  virtual result<std::unique_ptr<comm_backend>> split(int color, int key) = 0;
  /// The ranks that share this rank's node (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED: they can share
  /// memory), ordered by their rank here. Collective.
  virtual result<std::unique_ptr<comm_backend>> split_shared() = 0;
  /// Exposes [base, base + bytes) of every rank (collective). bytes may be 0 on some ranks.
  virtual result<std::shared_ptr<window>> create_window(void* base, std::size_t bytes) = 0;
  /// A window of dtl::memory_window over [base, base + bytes) of every rank (collective); base == nullptr
  /// with bytes > 0: the window allocates the bytes, zeroed.
  virtual result<std::unique_ptr<rma_window>> create_rma_window(void* base, std::size_t bytes) = 0;
  /// A pointer to an MPI_Comm over these ranks that DTL never uses (the program's own MPI calls:
  /// context::native_mpi_comm), or nullptr for a single process.
  [[nodiscard]] virtual const void* native() const noexcept = 0;
  /// Frees the MPI communicator (before MPI is finalised); later calls return invalid_state. Idempotent.
  virtual void release() noexcept = 0;
  /// ok, or why this backend reaches no other rank (a detached one: its calls between ranks fail so).
  [[nodiscard]] virtual status can_communicate() const { return {}; }
};

/// out_of_range for `bytes` past the address space (no object holds more than PTRDIFF_MAX bytes),
/// before any arithmetic on it; `what` names the call.
status check_address_space(std::size_t bytes, const char* what);

/// A single process: rank 0 of 1. Collectives copy send to recv.
std::unique_ptr<comm_backend> make_self_comm();

/// Rank `rank` of `size` with no communicator (detached.cpp): every call between ranks returns
/// not_supported, saying so. For containers built from a context-like object.
std::unique_ptr<comm_backend> make_detached_comm(int rank, int size);

/// Checks a collective's root and sizes; common to every backend.
status check_root(int root, int size);

}  // namespace dtl::detail

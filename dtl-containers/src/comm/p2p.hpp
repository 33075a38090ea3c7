// SPDX-License-Identifier: MIT
#pragma once
// Private: point-to-point on a context (p2p.cpp), and the GPU side it needs (p2p_device_hip.cpp, or
// p2p_device_none.cpp in builds without HIP).
//
// The protocol (context.hpp states the contract): a message is one MPI message on the wire, or two.
// The sender sends a header (its count, element size and buffer kind, its own checks, how the content
// travels, and a ticket when a second message follows) on the control channel under the user's tag, so
// that headers match receives exactly as MPI matches messages. The content (the payload, or the
// sender's failure as text) travels in the same message after the header when it is a host buffer of
// at most the eager limit; else as a second message on the data channel under the ticket (a number the
// sender chose, unique among its sends in flight: it takes the payload to the receive that matched the
// header, whatever order the receiver's requests are stepped in), or on RCCL/NCCL (a blocking sender's
// device buffer, when nccl_ready). Nothing waits for the receiver. The receiver takes the header into a
// buffer as long as the longest header's message, checks it against its own side and always receives
// whatever follows (into a scratch buffer when it is not wanted), so nothing is left to match later.
// The receiver returns the sender's failure, else its own; the sender returns its own checks only.
// Every message is exactly as long as the receive that takes it, or one piece on both sides (the
// message layer splits messages past its piece limit: eager_limit keeps header messages in one).

#include "transport/backend.hpp"

#include <dtl/core/result.hpp>

#include <cstddef>
#include <memory>

namespace dtl::detail {

struct context_state;

/// One side of a point-to-point transfer in flight, driven by step() (never blocks). Pending transfers
/// are listed in their context (context_state::p2p_pending), and every wait or test on the context
/// steps them all: a transfer's progress can depend on another's (MPI's progress, and a receive whose
/// header has come posts what follows it when it is stepped).
struct p2p_transfer {
  p2p_transfer() = default;
  p2p_transfer(const p2p_transfer&) = delete;
  p2p_transfer& operator=(const p2p_transfer&) = delete;
  virtual ~p2p_transfer() = default;
  virtual void step() = 0;
  int peer = -1;  // the other rank
  bool done = false;
  status outcome;
};

namespace p2p {

// The blocking calls of a context. `stream` (a hipStream_t, or nullptr) makes them stream-ordered:
// RCCL/NCCL then enqueue on it without waiting, and the MPI paths wait for it. *used_nccl (when not
// null) says whether this rank's side could take RCCL/NCCL, or (a sendrecv with oneself, a device copy)
// whether the copy was enqueued on `stream`: either way the caller's future waits for the stream.
status send(context_state* st, const void* buf, std::size_t count, std::size_t elem, int dest, int tag, void* stream,
            bool* used_nccl);
status recv(context_state* st, void* buf, std::size_t count, std::size_t elem, int src, int tag, void* stream,
            bool* used_nccl);
status sendrecv(context_state* st, const void* send, std::size_t send_count, int dest, void* recv,
                std::size_t recv_count, int src, std::size_t elem, int tag, void* stream, bool* used_nccl);

}  // namespace p2p

namespace p2p_device {

/// Pinned host memory for the staged path, taken from (and given back to) the context's pool.
struct pinned_deleter {
  context_state* state = nullptr;
  std::size_t bytes = 0;
  void operator()(std::byte* p) const noexcept;
};
using pinned_ptr = std::unique_ptr<std::byte, pinned_deleter>;
/// Device memory of the context's device: an RCCL/NCCL payload for a host buffer, or one not wanted.
struct device_deleter {
  void operator()(std::byte* p) const noexcept;
};
using device_ptr = std::unique_ptr<std::byte, device_deleter>;

/// Whether `buf` is device memory (managed memory counts as host memory, as in collectives); an error
/// for device memory of another device than the context's.
result<bool> is_device(const context_state& state, const void* buf);
/// Whether RCCL/NCCL can take a transfer of device memory now: the context's path is nccl and its
/// communicator exists (it is made by the first device collective, which every rank calls; point-to-point
/// involves two ranks and cannot make it).
bool nccl_ready(context_state& state);
/// Whether MPI takes device pointers on this context (GPU-aware, and the path is not mpi_staged).
bool mpi_takes_device(const context_state& state);
/// Waits for the work that may touch a device buffer: `stream` (a hipStream_t), or the whole device.
status prepare(const context_state& state, void* stream);
result<pinned_ptr> take_pinned(context_state& state, std::size_t bytes);
result<device_ptr> take_device(const context_state& state, std::size_t bytes);
status to_host(const context_state& state, void* host, const void* device, std::size_t bytes);
status to_device(const context_state& state, void* device, const void* host, std::size_t bytes);
/// RCCL/NCCL: a send of `send_bytes` to `dest` and/or a receive of `recv_bytes` from `src` (a null
/// buffer leaves that half out), grouped, on `stream`, or on the context's lane, then waited for.
status nccl_exchange(context_state& state, const void* send, std::size_t send_bytes, int dest, void* recv,
                     std::size_t recv_bytes, int src, void* stream);
/// A rank's message to itself, `bytes` from `src` to `dst` (either may be device memory): enqueued on
/// `stream` when there is one (*enqueued set), else on the context's lane after the device's earlier
/// work, and waited for.
status self_copy(context_state& state, void* dst, const void* src, std::size_t bytes, void* stream, bool* enqueued);

}  // namespace p2p_device

}  // namespace dtl::detail

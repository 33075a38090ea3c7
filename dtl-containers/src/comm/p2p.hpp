// SPDX-License-Identifier: MIT
#pragma once
// Private: point-to-point on a context (p2p.cpp), and the GPU side it needs (p2p_device_hip.cpp, or
// p2p_device_none.cpp in builds without HIP).
//
// The protocol (context.hpp states the contract): the receiver sends a "ready" envelope (its count,
// element size, buffer kind, a payload ticket, its own checks) to the sender on the control channel,
// under the user's tag, so that envelopes match sends exactly as MPI matches messages; the sender
// compares it with its side, chooses the path and answers with a "status" envelope (the outcome both
// ranks return), followed, when ok, by the payload. Status and payload travel on the data channel
// under the receiver's ticket (a number it chose, unique among its receives in flight), not the
// user's tag: the match is made by the ready envelope, and the ticket takes each answer to the
// receive it belongs to, whatever order the sender's requests are stepped in (MPI keeps a status
// ahead of its payload). The control channel carries ready envelopes only (receiver to sender), so
// two ranks sending to each other never match each other's envelopes. A small payload into a host
// buffer travels inside the status envelope. Every message is exactly as long as the receive that
// takes it (the message layer splits both alike past its piece limit).

#include "transport/backend.hpp"

#include <dtl/core/result.hpp>

#include <cstddef>
#include <memory>

namespace dtl::detail {

struct context_state;

/// One side of a point-to-point transfer in flight, driven by step() (never blocks). Pending transfers
/// are listed in their context (context_state::p2p_pending), and every wait or test on the context
/// steps them all: a transfer's progress can depend on another's (the peer's envelope of one message
/// waits for this rank's answer to another).
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

// SPDX-License-Identifier: MIT
#pragma once
// Private: the collective dispatcher of a context, for the collectives that move one buffer per rank
// (allreduce, reduce, broadcast, allgather), blocking or ordered on a stream. Each kind is described
// once (collective_table): what its count means, which ranks receive, how it stages through pinned host
// memory, and what it calls on a communicator and on RCCL/NCCL. Every call of a kind then takes one
// route: this rank's checks (prepare_collective), one agreement step (collective_call), and the path of
// its buffers: host memory through the communicator, device memory through the context's device path
// (self, GPU-aware MPI, MPI staged through pinned memory, or RCCL/NCCL; device_hip.cpp).

#include "transport/backend.hpp"

#include <dtl/containers/communication/collective_types.hpp>
#include <dtl/containers/communication/detail/agreement.hpp>
#include <dtl/containers/config.hpp>
#include <dtl/core/result.hpp>

#include <array>
#include <cstddef>

#if DTL_CONTAINERS_HAS_HIP
#include "transport/nccl_support.hpp"
#endif

namespace dtl::detail {

struct context_state;

enum class collective_kind { allreduce, reduce, broadcast, allgather };

/// One call's arguments. `count` is elements of `type` for a reduction, bytes otherwise (each rank's
/// block for allgather); broadcast's data is `recv` (and `send`, the same pointer).
struct collective_args {
  const void* send = nullptr;
  void* recv = nullptr;
  std::size_t count = 0;
  datatype type = datatype::u8;
  reduce_op op = reduce_op::sum;
  int root = 0;
};

enum class which_ranks { every, root, all_but_root };

[[nodiscard]] constexpr bool includes(which_ranks ranks, int rank, int root) noexcept {
  return ranks == which_ranks::every || (ranks == which_ranks::root) == (rank == root);
}

/// What one kind of collective is.
struct collective_desc {
  const char* name;         // in the agreement's messages (blocking form)
  const char* stream_name;  // the stream-ordered form
  bool reduces;             // count is elements of type, combined by op; else bytes
  bool rooted;
  bool one_buffer;       // recv is the only buffer (broadcast's data, in place on every rank)
  which_ranks receives;  // the ranks whose recv buffer is used (and must not be null)
  // Staged through pinned host memory: which buffer goes to the host before the call (send, or recv's
  // contents), from which ranks; whether the host holds one block per rank (this rank's at rank * bytes);
  // and which ranks copy the host buffer back to recv after it.
  bool stage_from_recv;
  which_ranks stage_in;
  bool blocks_per_rank;
  which_ranks stage_out;
  status (*on_comm)(comm_backend& comm, const collective_args& a);
#if DTL_CONTAINERS_HAS_HIP
  status (*on_nccl)(nccl::communicator& comm, const collective_args& a, hipStream_t stream);
#endif
};

// clang-format off
inline constexpr std::array<collective_desc, 4> collective_table{{
    {.name = "allreduce", .stream_name = "allreduce (stream-ordered)", .reduces = true, .rooted = false,
     .one_buffer = false, .receives = which_ranks::every,
     .stage_from_recv = false, .stage_in = which_ranks::every, .blocks_per_rank = false,
     .stage_out = which_ranks::every,
     .on_comm = [](comm_backend& c, const collective_args& a) {
       return c.allreduce(a.send, a.recv, a.count, a.type, a.op); },
#if DTL_CONTAINERS_HAS_HIP
     .on_nccl = [](nccl::communicator& c, const collective_args& a, hipStream_t s) {
       return nccl::allreduce(c, a.send, a.recv, a.count, a.type, a.op, s); },
#endif
    },
    {.name = "reduce", .stream_name = "reduce (stream-ordered)", .reduces = true, .rooted = true,
     .one_buffer = false, .receives = which_ranks::root,
     .stage_from_recv = false, .stage_in = which_ranks::every, .blocks_per_rank = false,
     .stage_out = which_ranks::root,
     .on_comm = [](comm_backend& c, const collective_args& a) {
       return c.reduce(a.send, a.recv, a.count, a.type, a.op, a.root); },
#if DTL_CONTAINERS_HAS_HIP
     .on_nccl = [](nccl::communicator& c, const collective_args& a, hipStream_t s) {
       return nccl::reduce(c, a.send, a.recv, a.count, a.type, a.op, a.root, s); },
#endif
    },
    {.name = "broadcast", .stream_name = "broadcast (stream-ordered)", .reduces = false, .rooted = true,
     .one_buffer = true, .receives = which_ranks::every,
     .stage_from_recv = true, .stage_in = which_ranks::root, .blocks_per_rank = false,
     .stage_out = which_ranks::all_but_root,
     .on_comm = [](comm_backend& c, const collective_args& a) {
       return c.broadcast(a.recv, a.count, a.root); },
#if DTL_CONTAINERS_HAS_HIP
     .on_nccl = [](nccl::communicator& c, const collective_args& a, hipStream_t s) {
       return nccl::broadcast(c, a.recv, a.count, a.root, s); },
#endif
    },
    {.name = "allgather", .stream_name = "allgather (stream-ordered)", .reduces = false, .rooted = false,
     .one_buffer = false, .receives = which_ranks::every,
     .stage_from_recv = false, .stage_in = which_ranks::every, .blocks_per_rank = true,
     .stage_out = which_ranks::every,
     .on_comm = [](comm_backend& c, const collective_args& a) {
       return c.allgather(a.send, a.recv, a.count); },
#if DTL_CONTAINERS_HAS_HIP
     .on_nccl = [](nccl::communicator& c, const collective_args& a, hipStream_t s) {
       return nccl::allgather(c, a.send, a.recv, a.count, s); },
#endif
    },
}};
// clang-format on

[[nodiscard]] constexpr const collective_desc& describe(collective_kind kind) noexcept {
  return collective_table[static_cast<std::size_t>(kind)];
}

/// The bytes of one rank's block.
[[nodiscard]] inline std::size_t payload_bytes(const collective_desc& d, const collective_args& a) noexcept {
  return d.reduces ? a.count * datatype_size(a.type) : a.count;
}

/// A call as this rank sees it before communicating: its checks (`local`), and whether its buffers are
/// device memory (then it takes the context's device path).
struct prepared_collective {
  status local;
  bool device = false;
};

/// This rank's checks: `caller` (the caller's own failure so far) first, then the root, the reduction,
/// null buffers, and whether the buffers are device memory (both or neither). `state` may be null (an
/// empty context).
prepared_collective prepare_collective(const context_state* state, const collective_desc& d, const collective_args& a,
                                       const status& caller);

/// What the agreement compares: the kind (and form), and the arguments every rank must pass alike.
call_signature collective_signature(const collective_desc& d, const collective_args& a, bool device,
                                    bool stream_ordered);

/// A blocking collective (context.cpp): the checks, one agreement step, then the data. `caller` is the
/// caller's own failure so far; it joins this rank's checks.
status dispatch_collective(context_state* state, collective_kind kind, const collective_args& a,
                           const status& caller = {});

}  // namespace dtl::detail

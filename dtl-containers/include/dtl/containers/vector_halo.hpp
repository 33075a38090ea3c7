// SPDX-License-Identifier: MIT
#pragma once
// dtl::vector_halo<T>: what v.halo() of a distributed_vector built with a dtl::halo hands back, to move
// its ghosts. A light handle: it refers to the vector, which must outlive it. It belongs to the vector's
// layout: after a resize() or redistribute() its calls return invalid_state (take a new v.halo()).
//
//   v.halo().exchange();                 // blocking: the ghosts hold the neighbours' edges
//   v.halo().exchange_begin();           // split: compute the interior meanwhile ...
//   dtl::stencil_transform(v, out, interior_op, dtl::index_range{w, n - w});
//   v.halo().exchange_end();             // ... then the edges
//   auto done = v.halo().exchange(s);    // HIP builds: ordered on stream s, a dtl::hip::future<void>
//   v.halo().reduce(dtl::reduce_op::sum);  // the reverse: ghosts added into the elements they copy
//
// An exchange does no allocation, and nothing is packed: the plan (peers, byte ranges, and on the device
// a high-priority stream and pinned buffers for the staged path) is made when the vector is. Exchanges
// are not agreed between the ranks (the plan was, at construction): every rank that holds a block must
// exchange, the same exchanges in the same order. Errors: invalid_state (the context ended, an exchange
// already in flight, or none to end), the transport's (MPI, RCCL/NCCL, HIP) as it reports them.

#include <dtl/containers/communication/collective_types.hpp>
#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/config.hpp>
#include <dtl/containers/detail/halo_exchange.hpp>
#include <dtl/containers/detail/layout_generation.hpp>
#include <dtl/containers/halo.hpp>
#include <dtl/core/result.hpp>

#if DTL_CONTAINERS_HAS_HIP
#include <dtl/hip/future.hpp>
#include <dtl/hip/stream_ref.hpp>
#endif

namespace dtl {

template <class T>
class vector_halo {
 public:
  /// `made_in`: the vector's layout generation, which every call checks (the plan is made anew with it).
  vector_halo(const context& ctx, const halo& spec, detail::halo_plan* plan, detail::generation_stamp made_in) noexcept
      : ctx_(&ctx), spec_(spec), plan_(plan), made_in_(std::move(made_in)) {}

  [[nodiscard]] std::size_t prev() const noexcept { return spec_.prev; }
  [[nodiscard]] std::size_t next() const noexcept { return spec_.next; }
  [[nodiscard]] bool periodic() const noexcept { return spec_.periodic; }
  [[nodiscard]] std::size_t granularity() const noexcept { return spec_.granularity; }
  [[nodiscard]] const halo& spec() const noexcept { return spec_; }
  /// How the ghosts travel: "host", "self", "nccl", "mpi_gpu_aware" or "mpi_staged" ("none" without a halo,
  /// or after a change of layout).
  [[nodiscard]] const char* path() const noexcept { return usable() ? detail::halo_path_name(*plan_) : "none"; }

  /// Fills the ghosts from the neighbours' edges and returns when they have arrived.
  [[nodiscard]] result<void> exchange() const {
    if (!usable()) return result<void>(unusable());
    return result<void>(detail::halo_exchange(*plan_));
  }
  /// Starts an exchange; the ghosts are written until exchange_end(), the owned elements only read.
  [[nodiscard]] result<void> exchange_begin() const {
    if (!usable()) return result<void>(unusable());
    return result<void>(detail::halo_exchange_begin(*plan_));
  }
  [[nodiscard]] result<void> exchange_end() const {
    if (!usable()) return result<void>(unusable());
    return result<void>(detail::halo_exchange_end(*plan_));
  }
  /// Whether exchange_begin() was called without exchange_end() yet.
  [[nodiscard]] bool in_flight() const noexcept { return usable() && detail::halo_in_flight(*plan_); }

  /// The reverse exchange (Intel Distributed Ranges' reverse halo): every ghost is sent to the element
  /// it copies and combined into it, element = op(element, ghost). Ghosts that face no neighbour are
  /// left out; the ghosts keep their values. Blocking.
  [[nodiscard]] result<void> reduce(reduce_op op = reduce_op::sum) const requires(detail::has_datatype_v<T>) {
    if (!usable()) return result<void>(unusable());
    return result<void>(detail::halo_reduce(*plan_, detail::datatype_of<T>(), op));
  }

#if DTL_CONTAINERS_HAS_HIP
  /// The exchange ordered on `stream` (of the vector's device; a host vector exchanges at once): a
  /// future that completes when the ghosts have arrived. RCCL/NCCL enqueue it on the stream and return
  /// at once; the MPI paths wait for the stream first.
  [[nodiscard]] hip::future<void> exchange(hip::stream_ref stream) const {
    if (!usable()) {
      if (status s = unusable(); !s.ok()) return hip::make_failed_future<void>(std::move(s));
      return hip::make_ready_future<void>();
    }
    return detail::halo_exchange_on_stream(*plan_, stream);
  }
#endif

 private:
  // Whether there is a plan to use: the vector has a halo, and its layout is the one this handle was made in.
  [[nodiscard]] bool usable() const noexcept { return plan_ != nullptr && made_in_.current(); }
  // Why not: a change of layout since (the plan is gone), or else no halo (an exchange does nothing: ok
  // while the context lives).
  [[nodiscard]] status unusable() const {
    if (!made_in_.current()) return made_in_.check("this halo() handle");
    return ctx_->check();
  }

  const context* ctx_;
  halo spec_;
  detail::halo_plan* plan_;
  detail::generation_stamp made_in_;
};

}  // namespace dtl

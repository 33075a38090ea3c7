// SPDX-License-Identifier: MIT
// Halo plans: peers and byte ranges (made once per vector), and the host path of an exchange (MPI
// isend/irecv on p2p_channel::internal, or copies for a rank that is its own neighbour).
#include "halo/halo_plan.hpp"

#include "comm/host_combine.hpp"

#include <dtl/core/try.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace dtl::detail {

namespace {

/// The non-empty blocks' ranks, in order: the ranks that take part in an exchange.
std::vector<int> non_empty_ranks(const block_partition<>& partition) {
  std::vector<int> ranks;
  for (int r = 0; r < partition.ranks(); ++r)
    if (partition.local_range(r).value().size() != 0) ranks.push_back(r);
  return ranks;
}

struct peers {
  int prev = -1;
  int next = -1;
};

/// The neighbours of active[k], the k-th non-empty block.
peers peers_at(const std::vector<int>& active, std::size_t k, bool periodic) {
  peers p;
  if (k > 0)
    p.prev = active[k - 1];
  else if (periodic)
    p.prev = active.back();
  if (k + 1 < active.size())
    p.next = active[k + 1];
  else if (periodic)
    p.next = active.front();
  return p;
}

/// The neighbours of `rank`'s block; none for an empty block. `active` is in rank order: a binary search.
peers peers_of(const std::vector<int>& active, int rank, bool periodic) {
  const auto at = std::lower_bound(active.begin(), active.end(), rank);
  if (at == active.end() || *at != rank) return {};
  return peers_at(active, static_cast<std::size_t>(at - active.begin()), periodic);
}

status host_exchange_begin(halo_plan& plan) {
  if (plan.self()) {
    // The only block, periodic: its own edges are its ghosts.
    if (plan.prev_bytes != 0) std::memcpy(plan.prev_ghosts(), plan.last_owned(), plan.prev_bytes);
    if (plan.next_bytes != 0) std::memcpy(plan.next_ghosts(), plan.first_owned(), plan.next_bytes);
    return {};
  }
  return post_exchange(plan, plan.last_owned(), plan.prev_ghosts(), plan.first_owned(), plan.next_ghosts());
}

status host_reduce(halo_plan& plan, datatype type, reduce_op op) {
  if (plan.self()) {
    combine_host(plan.last_owned(), plan.prev_ghosts(), plan.prev_bytes, type, op);
    combine_host(plan.first_owned(), plan.next_ghosts(), plan.next_bytes, type, op);
    return {};
  }
  DTL_TRY(post_reverse(plan, plan.prev_ghosts(), plan.next_ghosts(), plan.from_next.data(), plan.from_prev.data()));
  DTL_TRY(wait_pending(plan));
  if (plan.next_peer >= 0) combine_host(plan.last_owned(), plan.from_next.data(), plan.prev_bytes, type, op);
  if (plan.prev_peer >= 0) combine_host(plan.first_owned(), plan.from_prev.data(), plan.next_bytes, type, op);
  return {};
}

status post(halo_plan& plan, bool receive, void* buffer, std::size_t bytes, int peer, int tag) {
  if (peer < 0 || bytes == 0) return {};
  comm_backend& comm = *plan.state->comm;
  auto request = receive ? comm.irecv(buffer, bytes, peer, tag, p2p_channel::internal)
                         : comm.isend(buffer, bytes, peer, tag, p2p_channel::internal);
  if (!request) return std::move(request).error();
  plan.pending.push_back(std::move(request).value());
  return {};
}

}  // namespace

void halo_plan_deleter::operator()(halo_plan* plan) const noexcept {
  if (plan == nullptr) return;
  // A plan destroyed with an exchange in flight waits for it (its buffers are about to be freed). Once
  // the environment has ended, its end() did (nothing is in flight then).
  if (plan->in_flight) static_cast<void>(halo_exchange_end(*plan));
  delete plan;
}

status check_halo(const block_partition<>& partition, const halo& h) {
  const std::size_t g = h.granularity;
  if (g == 0) return status(status_code::invalid_argument, "halo: the granularity must be at least 1 element");
  if (h.prev % g != 0 || h.next % g != 0)
    return status(status_code::invalid_argument,
                  fmt::format("halo: prev ({}) and next ({}) must be whole rows of the granularity ({} elements)",
                              h.prev, h.next, g));
  if (partition.global_size() % g != 0)
    return status(status_code::invalid_argument,
                  fmt::format("halo: the global size ({}) must be whole rows of the granularity ({} elements)",
                              partition.global_size(), g));
  // Every block is checked on every rank (the same answer everywhere): O(P), each block's neighbours by
  // its place among the non-empty ones.
  const std::vector<int> active = non_empty_ranks(partition);
  for (std::size_t k = 0; k < active.size(); ++k) {
    const int r = active[k];
    const peers p = peers_at(active, k, h.periodic);
    const std::size_t size = partition.local_range(r).value().size();
    // The next rank's prev ghosts copy this block's last `prev` elements, the previous rank's next
    // ghosts its first `next`: a block smaller than that would have to borrow from further ranks.
    if (p.next >= 0 && size < h.prev)
      return status(status_code::invalid_argument,
                    fmt::format("halo: rank {} holds {} elements, fewer than the prev width ({}) that rank {} reads "
                                "from it; use fewer ranks or a narrower halo",
                                r, size, h.prev, p.next));
    if (p.prev >= 0 && size < h.next)
      return status(status_code::invalid_argument,
                    fmt::format("halo: rank {} holds {} elements, fewer than the next width ({}) that rank {} reads "
                                "from it; use fewer ranks or a narrower halo",
                                r, size, h.next, p.prev));
  }
  return {};
}

int halo_path_code(const context& ctx, int device) noexcept {
  context_state* state = context_access::state(ctx);
  if (device == no_device || state == nullptr) return 0;
  return device_path_code(*state, device);
}

result<halo_plan_ptr> make_halo_plan(const context& ctx, const block_partition<>& partition, const halo& h,
                                     std::size_t element_bytes, void* base, int device) {
  context_state* state = context_access::state(ctx);
  if (state == nullptr) return empty_context();
  const int rank = state->comm->rank();
  halo_plan_ptr plan(new halo_plan(ctx));
  plan->state = state;
  plan->rank = rank;
  plan->device = device;
  plan->base = static_cast<std::byte*>(base);
  plan->prev_bytes = h.prev * element_bytes;
  plan->next_bytes = h.next * element_bytes;
  plan->owned_bytes = partition.local_range(rank).value().size() * element_bytes;
  const peers p = peers_of(non_empty_ranks(partition), rank, h.periodic);
  plan->prev_peer = p.prev;
  plan->next_peer = p.next;
  if (device == no_device) {
    if (!plan->self()) {
      plan->from_next.resize(plan->next_peer >= 0 ? plan->prev_bytes : 0);
      plan->from_prev.resize(plan->prev_peer >= 0 ? plan->next_bytes : 0);
    }
  } else {
    DTL_ASSIGN_OR_RETURN(plan->dev, make_halo_device(*plan));
  }
  return plan;
}

status connect_halo_plan(const context&, halo_plan* plan) {
  if (plan == nullptr || plan->device == no_device) return {};
  return connect_halo_device(*plan);
}

status halo_exchange(halo_plan& plan) {
  if (plan.device != no_device && !plan.idle() && !plan.in_flight && device_exchange_on_stream_only(plan)) {
    DTL_TRY(plan.state->check());
    return device_exchange_now(plan);
  }
  DTL_TRY(halo_exchange_begin(plan));
  return halo_exchange_end(plan);
}

void halo_plan::finish_at_end() noexcept {
  const status s = device == no_device || idle() ? wait_pending(*this) : device_exchange_end(*this);
  in_flight = false;
  if (!s.ok()) report_unhandled(s);
}

status halo_exchange_begin(halo_plan& plan) {
  DTL_TRY(plan.state->check());
  if (plan.in_flight)
    return status(status_code::invalid_state,
                  "halo exchange_begin: an exchange is already in flight; call exchange_end first");
  DTL_TRY(plan.state->add_exchange(plan));  // the environment's end finishes it
  if (plan.idle()) {
    plan.in_flight = true;
    return {};
  }
  status s = plan.device == no_device ? host_exchange_begin(plan) : device_exchange_begin(plan);
  plan.in_flight = true;  // even after a failure: exchange_end waits for what was posted
  return s;
}

status halo_exchange_end(halo_plan& plan) {
  if (!plan.in_flight) {
    DTL_TRY(plan.state->check());  // after the environment's end, which finished it: that is the reason
    return status(status_code::invalid_state, "halo exchange_end: no exchange is in flight");
  }
  plan.state->remove_exchange(plan);
  status s = plan.device == no_device || plan.idle() ? wait_pending(plan) : device_exchange_end(plan);
  plan.in_flight = false;
  return s;
}

status halo_reduce(halo_plan& plan, datatype type, reduce_op op) {
  DTL_TRY(plan.state->check());
  DTL_TRY(check_reduction(type, op));
  if (plan.in_flight)
    return status(status_code::invalid_state, "halo reduce: an exchange is in flight; call exchange_end first");
  if (plan.idle()) return {};
  return plan.device == no_device ? host_reduce(plan, type, op) : device_reduce(plan, type, op);
}

bool halo_in_flight(const halo_plan& plan) noexcept { return plan.in_flight; }

const char* halo_path_name(const halo_plan& plan) noexcept {
  return plan.device == no_device ? "host" : device_path_name(plan);
}

status post_exchange(halo_plan& plan, const void* fwd_send, void* fwd_recv, const void* bwd_send, void* bwd_recv) {
  DTL_TRY(post(plan, true, fwd_recv, plan.prev_bytes, plan.prev_peer, halo_tag_forward));
  DTL_TRY(post(plan, true, bwd_recv, plan.next_bytes, plan.next_peer, halo_tag_backward));
  DTL_TRY(post(plan, false, const_cast<void*>(fwd_send), plan.prev_bytes, plan.next_peer, halo_tag_forward));
  return post(plan, false, const_cast<void*>(bwd_send), plan.next_bytes, plan.prev_peer, halo_tag_backward);
}

status post_reverse(halo_plan& plan, const void* to_prev, const void* to_next, void* from_next, void* from_prev) {
  DTL_TRY(post(plan, true, from_next, plan.prev_bytes, plan.next_peer, halo_tag_reverse_prev));
  DTL_TRY(post(plan, true, from_prev, plan.next_bytes, plan.prev_peer, halo_tag_reverse_next));
  DTL_TRY(post(plan, false, const_cast<void*>(to_prev), plan.prev_bytes, plan.prev_peer, halo_tag_reverse_prev));
  return post(plan, false, const_cast<void*>(to_next), plan.next_bytes, plan.next_peer, halo_tag_reverse_next);
}

status wait_pending(halo_plan& plan) { return wait_all(plan.pending); }

}  // namespace dtl::detail

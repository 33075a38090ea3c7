// SPDX-License-Identifier: MIT
// The N-d halo exchange: one isend and one irecv per region on p2p_channel::internal, and a copy where the
// region's peer is this rank; and its reverse (reduce), where the ghost boxes travel back and are combined
// into the boxes they copy. On host memory the strided boxes travel as the communicator's box types (MPI
// subarrays, straight from and into the allocation), or packed here into one buffer per region where it
// has none; on device memory grid_halo_device.hip packs and unpacks, and the messages are the same
// (staged through pinned memory).
#include "comm/host_combine.hpp"
#include "halo/grid_halo_plan.hpp"
#include <dtl/core/try.hpp>

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

namespace dtl::detail {

namespace {

/// Copies `rows` runs of `run` bytes, `from` and `to` advancing by their strides. A run of one 4-, 8- or
/// 16-byte element (a face across the last dimension) is a copy of a constant size, which the compiler makes
/// a move, not a call to memcpy per element.
template <std::size_t Run>
void copy_rows_of(std::byte* to, std::ptrdiff_t to_stride, const std::byte* from, std::ptrdiff_t from_stride,
                  std::size_t rows) noexcept {
  for (std::size_t j = 0; j < rows; ++j, to += to_stride, from += from_stride) std::memcpy(to, from, Run);
}
void copy_rows(std::byte* to, std::ptrdiff_t to_stride, const std::byte* from, std::ptrdiff_t from_stride,
               std::size_t rows, std::size_t run) noexcept {
  switch (run) {
    case 4: return copy_rows_of<4>(to, to_stride, from, from_stride, rows);
    case 8: return copy_rows_of<8>(to, to_stride, from, from_stride, rows);
    case 16: return copy_rows_of<16>(to, to_stride, from, from_stride, rows);
    default:
      for (std::size_t j = 0; j < rows; ++j, to += to_stride, from += from_stride) std::memcpy(to, from, run);
  }
}

/// The element offset of a box's first element in the allocation.
std::ptrdiff_t box_start(const grid_halo_plan& plan, const grid_box& box) noexcept {
  std::size_t element = 0, stride = 1;
  for (std::size_t d = plan.dims; d-- > 0;) {
    element += box.offset[d] * stride;
    stride *= plan.padded[d];
  }
  return static_cast<std::ptrdiff_t>(element);
}

/// Calls `rows_at(first, rows, stride, run)` for each run of rows of `box` in the allocation: `rows` runs of
/// `run` bytes along the last dimension, `stride` bytes apart (the next-to-last dimension), in row-major
/// order; one call per position over the dimensions before those two.
template <class RowsAt>
void walk_box(const grid_halo_plan& plan, const grid_box& box, RowsAt rows_at) noexcept {
  const std::size_t dims = plan.dims, last = dims - 1;
  if (grid_box_elements(box, dims) == 0) return;
  std::size_t stride[grid_halo_max_dims];
  stride[last] = 1;
  for (std::size_t d = last; d-- > 0;) stride[d] = stride[d + 1] * plan.padded[d + 1];
  const std::size_t run = box.extents[last] * plan.element_bytes;
  const std::size_t rows = dims > 1 ? box.extents[last - 1] : 1;
  const auto row_stride = static_cast<std::ptrdiff_t>((dims > 1 ? stride[last - 1] : 0) * plan.element_bytes);
  const std::size_t outer = dims > 1 ? last - 1 : 0;  // the dimensions walked here: 0 .. outer-1
  const auto start = static_cast<std::size_t>(box_start(plan, box));
  std::size_t at[grid_halo_max_dims] = {};
  for (;;) {
    std::size_t element = start;
    for (std::size_t d = 0; d < outer; ++d) element += at[d] * stride[d];
    rows_at(plan.base + element * plan.element_bytes, rows, row_stride, run);
    std::size_t d = outer;
    while (d-- > 0) {
      if (++at[d] < box.extents[d]) break;
      at[d] = 0;
    }
    if (d == static_cast<std::size_t>(-1)) return;
  }
}

/// Copies `box` of the allocation to `packed` (pack) or back (unpack).
void copy_box(const grid_halo_plan& plan, const grid_box& box, std::byte* packed, bool pack) noexcept {
  walk_box(plan, box, [&](std::byte* first, std::size_t rows, std::ptrdiff_t stride, std::size_t run) {
    const auto packed_stride = static_cast<std::ptrdiff_t>(run);
    if (pack)
      copy_rows(packed, packed_stride, first, stride, rows, run);
    else
      copy_rows(first, stride, packed, packed_stride, rows, run);
    packed += rows * run;
  });
}

}  // namespace

std::size_t grid_box_elements(const grid_box& box, std::size_t dims) noexcept {
  std::size_t n = 1;
  for (std::size_t d = 0; d < dims; ++d) n *= box.extents[d];
  return n;
}

std::size_t grid_halo_plan::sent_bytes() const noexcept {
  std::size_t bytes = 0;
  for (const auto& s : sent) bytes += s.size();
  return bytes;
}
std::size_t grid_halo_plan::received_bytes() const noexcept {
  std::size_t bytes = 0;
  for (const auto& r : received) bytes += r.size();
  return bytes;
}

/// Forward, `sent` (the send boxes) out and `received` in; reverse, `received` (the ghost boxes) out and
/// `sent` in (as long as its send box), under the reverse tags.
status post_grid_transfers(grid_halo_plan& plan, bool reverse) {
  comm_backend& comm = *plan.state->comm;
  const int shift = reverse ? grid_halo_reverse_tags : 0;
  auto& incoming = reverse ? plan.sent : plan.received;
  auto& outgoing = reverse ? plan.received : plan.sent;
  // Receives first, so that a send can land as soon as it leaves.
  for (std::size_t k = 0; k < plan.regions.size(); ++k) {
    const grid_halo_region& r = plan.regions[k];
    if (r.peer == plan.rank) continue;
    const int tag = (reverse ? r.send_tag : r.receive_tag) + shift;
    const comm_box_type* type = reverse ? nullptr : plan.receive_types[k].get();
    auto request = type != nullptr
                       ? comm.irecv_box(plan.base, *type, r.peer, tag, p2p_channel::internal)
                       : comm.irecv(incoming[k].data(), incoming[k].size(), r.peer, tag, p2p_channel::internal);
    if (!request) return std::move(request).error();
    plan.pending.push_back(std::move(request).value());
  }
  for (std::size_t k = 0; k < plan.regions.size(); ++k) {
    const grid_halo_region& r = plan.regions[k];
    if (r.peer == plan.rank) continue;
    const int tag = (reverse ? r.receive_tag : r.send_tag) + shift;
    const comm_box_type* type = reverse ? nullptr : plan.send_types[k].get();
    auto request = type != nullptr
                       ? comm.isend_box(plan.base, *type, r.peer, tag, p2p_channel::internal)
                       : comm.isend(outgoing[k].data(), outgoing[k].size(), r.peer, tag, p2p_channel::internal);
    if (!request) return std::move(request).error();
    plan.pending.push_back(std::move(request).value());
  }
  return {};
}

namespace {

/// Where the grid wraps onto this rank, its ghost region `ghost` copies its own send box `source` (the region
/// in the opposite direction): the pairs, as (ghost, source).
std::vector<std::pair<std::size_t, std::size_t>> own_pairs(const grid_halo_plan& plan) {
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  for (std::size_t g = 0; g < plan.regions.size(); ++g) {
    if (plan.regions[g].peer != plan.rank) continue;
    for (std::size_t k = 0; k < plan.regions.size(); ++k)
      if (plan.regions[k].peer == plan.rank && plan.regions[k].send_tag == plan.regions[g].receive_tag)
        pairs.emplace_back(g, k);
  }
  return pairs;
}

/// The regions whose peer is this rank: each ghost box takes the box this rank sends the other way, copied
/// straight across the allocation (the two boxes have the same extents, so one is the other shifted).
void copy_to_self(grid_halo_plan& plan) {
  for (const auto& [ghost, source] : plan.own) {
    const grid_box& from = plan.regions[source].send;
    const std::ptrdiff_t shift = (box_start(plan, plan.regions[ghost].receive) - box_start(plan, from)) *
                                 static_cast<std::ptrdiff_t>(plan.element_bytes);
    walk_box(plan, from, [&](std::byte* first, std::size_t rows, std::ptrdiff_t stride, std::size_t run) {
      copy_rows(first + shift, stride, first, stride, rows, run);
    });
  }
}

/// The end of an exchange in flight (exchange_end, or the context's end): its transfers waited for, and
/// the ghost boxes written from what came.
status complete_exchange(grid_halo_plan& plan) {
  status s = wait_all(plan.pending);
  plan.in_flight = false;
  if (!s.ok()) return s;
  if (plan.on_device()) return grid_device_end(plan);
  for (std::size_t k = 0; k < plan.regions.size(); ++k)
    if (plan.regions[k].peer != plan.rank && plan.receive_types[k] == nullptr)
      copy_box(plan, plan.regions[k].receive, plan.received[k].data(), false);
  return {};
}

/// The reverse exchange over the allocation at plan.base (host memory).
status reduce_on_host(grid_halo_plan& plan, datatype type, reduce_op op) {
  // The ghost boxes out: into `received` for another rank, into a buffer of their own where this rank is the
  // peer (its `received` is empty).
  std::vector<std::vector<std::byte>> own(plan.regions.size());
  for (std::size_t k = 0; k < plan.regions.size(); ++k) {
    const grid_halo_region& r = plan.regions[k];
    std::byte* out = plan.received[k].data();
    if (r.peer == plan.rank) {
      own[k].resize(grid_box_elements(r.receive, plan.dims) * plan.element_bytes);
      out = own[k].data();
    }
    copy_box(plan, r.receive, out, true);
  }
  status posted = post_grid_transfers(plan, true);
  status waited = wait_all(plan.pending);  // all of what was posted, even after a failure
  DTL_TRY(posted);
  DTL_TRY(waited);
  // Each send box combined with what came back for it: from the peer (in `sent`), or this rank's own ghost
  // region that copies it.
  std::vector<const std::byte*> back(plan.regions.size(), nullptr);
  for (std::size_t k = 0; k < plan.regions.size(); ++k)
    if (plan.regions[k].peer != plan.rank) back[k] = plan.sent[k].data();
  for (const auto& [ghost, source] : plan.own) back[source] = own[ghost].data();
  std::vector<std::byte> current;
  for (std::size_t k = 0; k < plan.regions.size(); ++k) {
    if (back[k] == nullptr) continue;
    current.resize(plan.sent[k].size());
    copy_box(plan, plan.regions[k].send, current.data(), true);
    combine_host(current.data(), back[k], current.size(), type, op);
    copy_box(plan, plan.regions[k].send, current.data(), false);
  }
  return {};
}

}  // namespace

void grid_halo_plan_deleter::operator()(grid_halo_plan* plan) const noexcept {
  if (plan == nullptr) return;
  // Its buffers are about to be freed: an exchange in flight finishes first.
  if (plan->in_flight) static_cast<void>(grid_halo_exchange_end(*plan));
  delete plan;
}

void grid_halo_plan::finish_at_end() noexcept {
  const status s = complete_exchange(*this);
  if (!s.ok()) report_unhandled(s);
}

result<grid_halo_plan_ptr> make_grid_halo_plan(const context& ctx, std::size_t dims, const std::size_t* padded,
                                               std::vector<grid_halo_region> regions, std::size_t element_bytes,
                                               int device) {
  context_state* state = context_access::state(ctx);
  if (state == nullptr) return empty_context();
  if (dims == 0 || dims > grid_halo_max_dims)
    return status(status_code::invalid_argument,
                  "grid halo: 1 to " + std::to_string(grid_halo_max_dims) + " dimensions, not " + std::to_string(dims));
  grid_halo_plan_ptr plan(new grid_halo_plan(ctx));
  plan->state = state;
  plan->rank = state->comm->rank();
  plan->device = device;
  plan->dims = dims;
  std::copy(padded, padded + dims, plan->padded);
  plan->element_bytes = element_bytes;
  plan->regions = std::move(regions);
  std::vector<std::size_t> send_bytes, receive_bytes;
  for (const grid_halo_region& r : plan->regions) {
    const std::size_t bytes = grid_box_elements(r.send, dims) * element_bytes;
    if (r.peer != plan->rank) DTL_TRY(state->comm->check_message(bytes));
    send_bytes.push_back(bytes);
    receive_bytes.push_back(r.peer == plan->rank ? 0 : grid_box_elements(r.receive, dims) * element_bytes);
  }
  plan->own = own_pairs(*plan);
  // Host memory: the boxes of other ranks' regions as the communicator's types, where it has them (the
  // regions the grid wraps onto this rank are copies). A type MPI fails to make leaves its box packed: the
  // bytes on the wire are the same, so this rank's choice never changes its peer's outcome.
  plan->send_types.resize(plan->regions.size());
  plan->receive_types.resize(plan->regions.size());
  const auto box_type = [&](const grid_box& box) {
    result<comm_box_type_ptr> type = state->comm->make_box_type({dims, padded, box.offset, box.extents, element_bytes});
    return type ? std::move(type).value() : comm_box_type_ptr();
  };
  if (!plan->on_device())
    for (std::size_t k = 0; k < plan->regions.size(); ++k) {
      const grid_halo_region& r = plan->regions[k];
      if (r.peer == plan->rank) continue;
      plan->send_types[k] = box_type(r.send);
      plan->receive_types[k] = box_type(r.receive);
    }
  std::size_t total = 0;
  for (std::size_t k = 0; k < send_bytes.size(); ++k) total += send_bytes[k] + receive_bytes[k];
  // The packed boxes, sends then receives, in one buffer: host memory here, pinned memory on the device path.
  std::byte* at = nullptr;
  if (plan->on_device()) {
    DTL_TRY(make_grid_halo_device(*plan, total));
    at = plan->pinned;
  } else {
    plan->storage.resize(total);
    at = plan->storage.data();
  }
  for (const std::size_t bytes : send_bytes) {
    plan->sent.emplace_back(at, bytes);
    at += bytes;
  }
  for (const std::size_t bytes : receive_bytes) {
    plan->received.emplace_back(at, bytes);
    at += bytes;
  }
  return plan;
}

status grid_halo_exchange_begin(grid_halo_plan& plan, void* base) {
  DTL_TRY(plan.state->check());
  if (plan.in_flight)
    return status(status_code::invalid_state,
                  "halo exchange_begin: an exchange is already in flight; call exchange_end first");
  DTL_TRY(plan.state->add_exchange(plan));  // the environment's end finishes it
  plan.base = static_cast<std::byte*>(base);
  if (plan.on_device()) {
    if (status packed = grid_device_begin(plan); !packed.ok()) {
      plan.state->remove_exchange(plan);
      return packed;
    }
  } else {
    for (std::size_t k = 0; k < plan.regions.size(); ++k)
      if (plan.regions[k].peer != plan.rank && plan.send_types[k] == nullptr)
        copy_box(plan, plan.regions[k].send, plan.sent[k].data(), true);
    copy_to_self(plan);
  }
  status s = post_grid_transfers(plan, false);
  plan.in_flight = true;  // even after a failure: exchange_end waits for what was posted
  return s;
}

status grid_halo_exchange_end(grid_halo_plan& plan) {
  if (!plan.in_flight) {
    DTL_TRY(plan.state->check());
    return status(status_code::invalid_state, "halo exchange_end: no exchange is in flight");
  }
  plan.state->remove_exchange(plan);
  return complete_exchange(plan);
}

status grid_halo_exchange(grid_halo_plan& plan, void* base) {
  DTL_TRY(grid_halo_exchange_begin(plan, base));
  return grid_halo_exchange_end(plan);
}

bool grid_halo_in_flight(const grid_halo_plan& plan) noexcept { return plan.in_flight; }

grid_halo_messages grid_halo_message_counts(const grid_halo_plan& plan) noexcept {
  grid_halo_messages counts;
  for (std::size_t k = 0; k < plan.regions.size(); ++k) {
    if (plan.regions[k].peer == plan.rank) continue;
    ++counts.messages;
    if (plan.send_types[k] != nullptr && plan.receive_types[k] != nullptr) ++counts.as_box_types;
  }
  return counts;
}

status grid_halo_reduce(grid_halo_plan& plan, void* base, datatype type, reduce_op op) {
  DTL_TRY(plan.state->check());
  DTL_TRY(check_reduction(type, op));
  if (plan.in_flight)
    return status(status_code::invalid_state, "halo reduce: an exchange is in flight; call exchange_end first");
  if (plan.on_device()) {
    // Device memory: the allocation to the host, the host's reduce there, and back (a blocking call that
    // runs rarely; the exchange is the fast path).
    std::size_t elements = 1;
    for (std::size_t d = 0; d < plan.dims; ++d) elements *= plan.padded[d];
    std::vector<std::byte> host(elements * plan.element_bytes);
    plan.base = static_cast<std::byte*>(base);
    DTL_TRY(grid_device_copy_allocation(plan, host.data(), true));
    std::byte* device_base = plan.base;
    plan.base = host.data();
    const status reduced = reduce_on_host(plan, type, op);
    plan.base = device_base;
    DTL_TRY(reduced);
    return grid_device_copy_allocation(plan, host.data(), false);
  }
  plan.base = static_cast<std::byte*>(base);
  return reduce_on_host(plan, type, op);
}

}  // namespace dtl::detail

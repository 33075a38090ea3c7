// SPDX-License-Identifier: MIT
// The gather, scatter, all-to-all and scan collectives of a context. Each one checks its arguments on
// this rank, agrees on the outcome with the other ranks (collective_call), then moves host buffers
// through the context's communicator, or device buffers through device_support::exchange (each of these
// collectives is an all-to-all in bytes: byte_exchange). alltoallv, gatherv and scatterv also compare
// counts across ranks: a checksum of them travels in the agreement step (exchange_rider), and only when
// it says some pair disagrees does a count exchange name the pair, and a second agreement tell every
// rank. Small data moves in the agreement step itself.
#include "comm/agreement_record.hpp"
#include "comm/collectives.hpp"
#include "comm/host_combine.hpp"

#include <dtl/containers/communication/context.hpp>
#include <dtl/core/try.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <tuple>
#include <vector>

namespace dtl {

namespace detail {

result<bool> on_device(const void* a, const void* b, std::pair<int, int>* devices) {
  if (!device_support::built()) return false;
  int device_a = no_device, device_b = no_device;
  if (a != nullptr) {
    DTL_ASSIGN_OR_RETURN(device_a, device_support::device_of_memory(a));
  }
  if (b != nullptr) {
    if (b == a) {
      device_b = device_a;
    } else {
      DTL_ASSIGN_OR_RETURN(device_b, device_support::device_of_memory(b));
    }
  }
  if (devices != nullptr) *devices = {device_a, device_b};
  const bool on_a = device_a != no_device, on_b = device_b != no_device;
  if (a != nullptr && b != nullptr && b != a && on_a != on_b)
    return status(status_code::invalid_argument,
                  "a collective's buffers must both be device memory or both host memory");
  return on_a || on_b;
}

namespace {

constexpr std::size_t size_max = std::numeric_limits<std::size_t>::max();

status invalid(std::string message) { return status(status_code::invalid_argument, std::move(message)); }

/// count * elem, false on overflow.
bool times(std::size_t count, std::size_t elem, std::size_t& out) noexcept {
  if (elem != 0 && count > size_max / elem) return false;
  out = count * elem;
  return true;
}

/// One side's counts and displacements (elements) in bytes, checked: one of each per rank, no overflow,
/// and, for a side that receives, blocks that do not overlap (MPI's rule: a byte is written once).
status side_in_bytes(const char* what, const char* side, std::size_t ranks, std::span<const std::size_t> counts,
                     std::span<const std::size_t> displs, std::size_t elem, bool receives,
                     std::vector<std::size_t>& bytes, std::vector<std::size_t>& offsets) {
  if (counts.size() != ranks || displs.size() != ranks)
    return invalid(fmt::format("{}: {} has {} counts and {} displacements; the context has {} ranks", what, side,
                               counts.size(), displs.size(), ranks));
  bytes.resize(ranks);
  offsets.resize(ranks);
  for (std::size_t r = 0; r < ranks; ++r)
    if (!times(counts[r], elem, bytes[r]) || !times(displs[r], elem, offsets[r]) || offsets[r] > size_max - bytes[r])
      return status(status_code::out_of_range,
                    fmt::format("{}: {} block {} ({} elements at {}) is past the address space", what, side, r,
                                counts[r], displs[r]));
  // An empty block moves nothing: its displacement never offsets a pointer (it may be null).
  for (std::size_t r = 0; r < ranks; ++r)
    if (bytes[r] == 0) offsets[r] = 0;
  if (!receives) return {};
  std::vector<std::tuple<std::size_t, std::size_t, std::size_t>> blocks;  // start, end, rank
  for (std::size_t r = 0; r < ranks; ++r)
    if (bytes[r] != 0) blocks.emplace_back(offsets[r], offsets[r] + bytes[r], r);
  std::sort(blocks.begin(), blocks.end());
  for (std::size_t i = 1; i < blocks.size(); ++i)
    if (std::get<0>(blocks[i]) < std::get<1>(blocks[i - 1]))
      return invalid(fmt::format("{}: the blocks received from ranks {} and {} overlap (displacements {} and {})", what,
                                 std::get<2>(blocks[i - 1]), std::get<2>(blocks[i]), displs[std::get<2>(blocks[i - 1])],
                                 displs[std::get<2>(blocks[i])]));
  return {};
}

bool any_nonzero(const std::vector<std::size_t>& bytes) noexcept {
  return std::any_of(bytes.begin(), bytes.end(), [](std::size_t b) { return b != 0; });
}

/// Null buffers that would move data, then where the buffers live.
void check_buffers(prepared_exchange& p, const char* what) {
  const bool sends = any_nonzero(p.x.send_bytes), receives = any_nonzero(p.x.recv_bytes);
  if (p.local.ok() && sends && p.x.send == nullptr)
    p.local = invalid(fmt::format("{}: the send buffer is nullptr", what));
  if (p.local.ok() && receives && p.x.recv == nullptr)
    p.local = invalid(fmt::format("{}: the receive buffer is nullptr", what));
  if (!p.local.ok()) return;
  std::pair<int, int> devices{no_device, no_device};
  result<bool> device = on_device(p.x.send, p.x.recv, &devices);
  p.x.send_device = devices.first;
  p.x.recv_device = devices.second;
  if (device) {
    p.device = *device;
    p.says = p.x.send != nullptr || p.x.recv != nullptr;
  } else {
    p.local = std::move(device).error();
  }
}

/// What a rank tells the others in a count check: its count for the receiver, and where its buffers live.
struct count_and_kind {
  std::size_t count;
  std::size_t kind;  // 0: no buffers given, 1: host memory, 2: device memory
};
std::size_t kind_of(const prepared_exchange& p) noexcept { return !p.says ? 0 : p.device ? 2 : 1; }

/// Device or host, as every rank sees it from every rank's kind: device when some rank's buffers are,
/// and none's are host memory (then it is invalid_argument on every rank).
void settle_device(prepared_exchange& p, const std::vector<count_and_kind>& all, const char* what) {
  const bool host = std::any_of(all.begin(), all.end(), [](const count_and_kind& c) { return c.kind == 1; });
  const bool device = std::any_of(all.begin(), all.end(), [](const count_and_kind& c) { return c.kind == 2; });
  p.device = device && !host;
  if (device && host)
    p.local = invalid(fmt::format("{}: some ranks pass device buffers and others host buffers", what));
}

prepared_exchange empty_exchange(std::size_t ranks) {
  prepared_exchange p;
  p.x.send_bytes.assign(ranks, 0);
  p.x.send_displs.assign(ranks, 0);
  p.x.recv_bytes.assign(ranks, 0);
  p.x.recv_displs.assign(ranks, 0);
  return p;
}

/// One block of an exchange (from, to, bytes), hashed for the count checksum (splitmix64's finaliser).
std::uint64_t block_hash(std::size_t from, std::size_t to, std::size_t bytes) noexcept {
  std::uint64_t z = (static_cast<std::uint64_t>(from) << 32 ^ to) * 0x9e3779b97f4a7c15ull + bytes;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// After the agreement step of a collective whose counts each rank gives on its own (alltoallv, gatherv,
/// scatterv), with its exchange_rider: host or device as every rank's flags say (both: invalid_argument
/// on every rank), and, when the count checksum says some pair disagrees, `exchange_counts()` (which names
/// the pair in p.local) and a second agreement. One rank checks its counts against each other (no
/// communication); under DTL_AGREEMENT=off nothing is checked across ranks.
template <class ExchangeCounts>
status settle_exchange(collective_call& call, prepared_exchange& p, const agreement_rider& rider, const char* what,
                       ExchangeCounts exchange_counts) {
  if (call.state().comm->size() == 1) {
    exchange_counts();
    return p.local;
  }
  if (!agreement_enabled()) return {};
  const bool host = (rider.flags_of_all & host_buffers_flag) != 0;
  const bool device = (rider.flags_of_all & device_buffers_flag) != 0;
  p.device = device && !host;
  if (device && host) {
    p.local = invalid(fmt::format("{}: some ranks pass device buffers and others host buffers", what));
    return call.agree(p.local);
  }
  if (rider.counts_sum == 0) return {};
  exchange_counts();
  return call.agree(p.local);
}

/// Rooted v-collectives (gatherv, scatterv), once agreed: the check that rank r's count is the root's
/// counts[r]. Every rank's count (and the kind of its buffers) goes to every rank (one small allgather,
/// which takes no root), and the root compares; its finding goes to p.local, for the next agreement.
void exchange_rooted_counts(comm_backend& comm, prepared_exchange& p, const char* what, std::size_t count,
                            std::span<const std::size_t> root_counts, int root) {
  const auto n = static_cast<std::size_t>(comm.size());
  const count_and_kind mine{count, kind_of(p)};
  std::vector<count_and_kind> all(n, mine);
  if (status s = comm.allgather(&mine, all.data(), sizeof mine); !s.ok()) {
    p.local = std::move(s);
    return;
  }
  settle_device(p, all, what);
  if (!p.local.ok() || comm.rank() != root) return;
  for (std::size_t r = 0; r < n; ++r)
    if (all[r].count != root_counts[r]) {
      p.local = invalid(fmt::format("{}: rank {} passes count {}, the root's counts[{}] is {}", what, r, all[r].count,
                                    r, root_counts[r]));
      break;
    }
}

/// Checks a rooted v-collective across ranks (one agreement step with the counts' checksum, and more only
/// when it finds something), then moves host data: in the step itself when it fits, else `on_host`.
/// Device buffers go through device_support::exchange.
template <class OnHost>
result<void> rooted_v(collective_call& call, prepared_exchange& p, exchange_rider& rider, const char* what,
                      std::size_t count, std::span<const std::size_t> root_counts, int root, OnHost on_host) {
  DTL_TRY(call.agree(p.local));  // from here, every rank's arguments are well formed
  if (rider.carried) return {};
  DTL_TRY(settle_exchange(call, p, rider, what,
                          [&] { exchange_rooted_counts(*call.state().comm, p, what, count, root_counts, root); }));
  if (p.device) return device_support::exchange(*call.state().resources, *call.state().comm, call, p.x);
  return on_host();
}

/// A collective whose counts every rank passes alike (its signature agrees on them), once its local
/// checks are done: device buffers through device_support::exchange (which runs the agreement); host
/// buffers after the agreement, whose message moves small data itself (exchange_rider).
template <class OnHost>
result<void> finish(context_state* state, call_signature signature, const prepared_exchange& p, OnHost on_host) {
  exchange_rider rider(p, state != nullptr ? state->comm->rank() : 0);
  if (!p.device) signature.rider = &rider;
  collective_call call(state, signature);
  DTL_TRY(call.usable());
  if (p.device && p.local.ok()) return device_support::exchange(*state->resources, *state->comm, call, p.x);
  DTL_TRY(call.agree(p.local));
  if (rider.carried) return {};
  return on_host();
}

call_signature rooted_signature(const char* what, std::size_t count, std::size_t elem, int root, bool device) {
  return {what,
          {static_cast<std::int64_t>(count), static_cast<std::int64_t>(elem), root, device ? 1 : 0},
          {"count", "element bytes", "root", "device buffers"}};
}

template <class T>
T identity_of(reduce_op op) noexcept {
  using limits = std::numeric_limits<T>;
  switch (op) {
    case reduce_op::sum: return T(0);
    case reduce_op::product: return T(1);
    case reduce_op::min: return limits::has_infinity ? limits::infinity() : limits::max();
    case reduce_op::max: return limits::has_infinity ? -limits::infinity() : limits::lowest();
    case reduce_op::land: return T(1);
    case reduce_op::band:
      if constexpr (std::is_integral_v<T>) return static_cast<T>(~T(0));
      break;
    case reduce_op::lor:
    case reduce_op::bor:
    case reduce_op::bxor: break;
  }
  return T(0);
}

template <class T>
void fill_identity_as(void* out, std::size_t count, reduce_op op) {
  std::fill_n(static_cast<T*>(out), count, identity_of<T>(op));
}

/// What MPI_Exscan leaves undefined on rank 0: op's identity.
void fill_identity(void* out, std::size_t count, datatype type, reduce_op op) {
  switch (type) {
    case datatype::i8: return fill_identity_as<std::int8_t>(out, count, op);
    case datatype::u8: return fill_identity_as<std::uint8_t>(out, count, op);
    case datatype::i16: return fill_identity_as<std::int16_t>(out, count, op);
    case datatype::u16: return fill_identity_as<std::uint16_t>(out, count, op);
    case datatype::i32: return fill_identity_as<std::int32_t>(out, count, op);
    case datatype::u32: return fill_identity_as<std::uint32_t>(out, count, op);
    case datatype::i64: return fill_identity_as<std::int64_t>(out, count, op);
    case datatype::u64: return fill_identity_as<std::uint64_t>(out, count, op);
    case datatype::f32: return fill_identity_as<float>(out, count, op);
    case datatype::f64: return fill_identity_as<double>(out, count, op);
  }
}

/// A scan whose blocks fit the agreement record: each rank's block at its rank's place, or-ed; then each
/// rank combines, in rank order, the blocks of the ranks before it (and its own, unless exclusive).
class scan_rider final : public agreement_rider {
 public:
  scan_rider(const void* send, void* recv, std::size_t count, datatype type, reduce_op op, bool exclusive, int rank,
             int size) noexcept
      : send_(send),
        recv_(recv),
        bytes_(count * datatype_size(type)),
        fits_(count <= one_way_payload_bytes),  // so that no product below wraps
        ranks_(static_cast<std::size_t>(std::max(size, 1))),
        type_(type),
        op_(op),
        exclusive_(exclusive),
        rank_(static_cast<std::size_t>(std::max(rank, 0))) {}
  payload_kind kind() const noexcept override { return payload_kind::bitwise_or; }
  std::size_t wanted_bytes() const noexcept override {
    return fits_ && bytes_ * ranks_ <= one_way_payload_bytes ? bytes_ * ranks_ : 0;
  }
  bool put(std::span<std::byte> area) const override {
    if (!fits_ || bytes_ * (rank_ + 1) > area.size()) return false;
    std::memcpy(area.data() + rank_ * bytes_, send_, bytes_);
    return true;
  }
  void take(std::span<const std::byte> area) override {
    const std::size_t blocks = exclusive_ ? rank_ : rank_ + 1;
    if (blocks == 0) return;  // exclusive on rank 0: op's identity, filled in by the caller
    auto* out = static_cast<std::byte*>(recv_);
    std::memcpy(out, area.data(), bytes_);
    for (std::size_t q = 1; q < blocks; ++q) combine_host(out, area.data() + q * bytes_, bytes_, type_, op_);
  }

 private:
  const void* send_;
  void* recv_;
  std::size_t bytes_;
  bool fits_;
  std::size_t ranks_;
  datatype type_;
  reduce_op op_;
  bool exclusive_;
  std::size_t rank_;
};

}  // namespace

exchange_rider::exchange_rider(const prepared_exchange& p, int rank, bool may_carry) noexcept
    : p_(p), me_(static_cast<std::size_t>(std::max(rank, 0))), n_(p.x.send_bytes.size()), may_carry_(may_carry) {
  for (std::size_t r = 0; r < n_; ++r) {
    counts_check += block_hash(me_, r, p.x.send_bytes[r]) - block_hash(r, me_, p.x.recv_bytes[r]);
    // The extent every rank's move needs (transport's exchange_extent), found in the same step.
    maxima[0] = std::max<std::uint64_t>({maxima[0], p.x.send_bytes[r], p.x.recv_bytes[r]});
    maxima[1] = std::max<std::uint64_t>({maxima[1], p.x.send_displs[r], p.x.recv_displs[r]});
    if (r != me_ && (p.x.send_bytes[r] != 0 || p.x.recv_bytes[r] != 0)) ++maxima[2];
  }
  flags = static_cast<std::uint16_t>(!p.says ? 0 : p.device ? device_buffers_flag : host_buffers_flag);
}

std::size_t exchange_rider::slot(std::size_t area_bytes) const noexcept { return n_ == 0 ? 0 : area_bytes / n_ / n_; }

std::size_t exchange_rider::wanted_bytes() const noexcept {
  // Every block in a slot of the largest block's size (maxima[0]), one per pair of ranks.
  if (!may_carry_ || p_.device || n_ == 0 || maxima[0] > slot(one_way_payload_bytes)) return 0;
  return static_cast<std::size_t>(maxima[0]) * n_ * n_;
}

bool exchange_rider::put(std::span<std::byte> area) const {
  if (!may_carry_ || p_.device) return false;
  const std::size_t s = slot(area.size());
  for (std::size_t r = 0; r < n_; ++r)
    if (p_.x.send_bytes[r] > s || p_.x.recv_bytes[r] > s) return false;
  for (std::size_t r = 0; r < n_; ++r)
    if (p_.x.send_bytes[r] != 0)
      std::memcpy(area.data() + (me_ * n_ + r) * s, static_cast<const std::byte*>(p_.x.send) + p_.x.send_displs[r],
                  p_.x.send_bytes[r]);
  return true;
}

void exchange_rider::take(std::span<const std::byte> area) {
  const std::size_t s = slot(area.size());
  for (std::size_t r = 0; r < n_; ++r)
    if (p_.x.recv_bytes[r] != 0)
      std::memcpy(static_cast<std::byte*>(p_.x.recv) + p_.x.recv_displs[r], area.data() + (r * n_ + me_) * s,
                  p_.x.recv_bytes[r]);
}

prepared_exchange prepare_alltoall(int ranks, const void* send, void* recv, std::size_t count_each, std::size_t elem) {
  const auto n = static_cast<std::size_t>(std::max(ranks, 0));
  prepared_exchange p = empty_exchange(n);
  p.x.send = send;
  p.x.recv = recv;
  std::size_t bytes = 0, total = 0;
  if (!times(count_each, elem, bytes) || !times(bytes, n, total)) {
    p.local = status(status_code::out_of_range,
                     fmt::format("alltoall: {} elements to each of {} ranks is past the address space", count_each, n));
    return p;
  }
  for (std::size_t r = 0; r < n; ++r) {
    p.x.send_bytes[r] = p.x.recv_bytes[r] = bytes;
    p.x.send_displs[r] = p.x.recv_displs[r] = r * bytes;
  }
  if (bytes != 0 && send == recv)
    p.local = invalid("alltoall: send and recv are one buffer (in place is not supported)");
  if (bytes != 0) check_buffers(p, "alltoall");  // nothing to move (on every rank): no path to agree on
  return p;
}

prepared_exchange prepare_alltoallv(int ranks, const void* send, std::span<const std::size_t> send_counts,
                                    std::span<const std::size_t> send_displs, void* recv,
                                    std::span<const std::size_t> recv_counts, std::span<const std::size_t> recv_displs,
                                    std::size_t elem) {
  const auto n = static_cast<std::size_t>(std::max(ranks, 0));
  prepared_exchange p = empty_exchange(n);
  p.x.send = send;
  p.x.recv = recv;
  p.local = side_in_bytes("alltoallv", "the send side", n, send_counts, send_displs, elem, false, p.x.send_bytes,
                          p.x.send_displs);
  if (p.local.ok())
    p.local = side_in_bytes("alltoallv", "the receive side", n, recv_counts, recv_displs, elem, true, p.x.recv_bytes,
                            p.x.recv_displs);
  if (!p.local.ok()) {
    p.x = empty_exchange(n).x;
    return p;
  }
  if (send == recv && send != nullptr && any_nonzero(p.x.recv_bytes))
    p.local = invalid("alltoallv: send and recv are one buffer (in place is not supported)");
  check_buffers(p, "alltoallv");
  return p;
}

call_signature alltoall_signature(const char* what, std::size_t count_each, std::size_t elem, bool device) {
  return {what,
          {static_cast<std::int64_t>(count_each), static_cast<std::int64_t>(elem), device ? 1 : 0},
          {"count each", "element bytes", "device buffers"}};
}

namespace {

/// alltoallv's count exchange (see agree_on_alltoallv_counts), once agreed.
void exchange_alltoallv_counts(comm_backend& comm, prepared_exchange& p, std::span<const std::size_t> send_counts,
                               std::span<const std::size_t> recv_counts) {
  const auto n = static_cast<std::size_t>(comm.size());
  std::vector<count_and_kind> out(n, count_and_kind{0, kind_of(p)}), in(n);
  for (std::size_t r = 0; r < n; ++r) out[r].count = send_counts[r];
  if (n == 1)
    in = out;
  else if (status s = comm.alltoall(out.data(), in.data(), sizeof(count_and_kind)); !s.ok()) {
    p.local = std::move(s);
    return;
  }
  settle_device(p, in, "alltoallv");
  if (!p.local.ok()) return;
  for (std::size_t r = 0; r < n; ++r)
    if (in[r].count != recv_counts[r]) {
      p.local = invalid(fmt::format("alltoallv: rank {} sends {} elements to rank {}, whose recv_counts[{}] is {}", r,
                                    in[r].count, comm.rank(), r, recv_counts[r]));
      break;
    }
}

}  // namespace

status agree_on_alltoallv_counts(collective_call& call, prepared_exchange& p, const exchange_rider& rider,
                                 std::span<const std::size_t> send_counts, std::span<const std::size_t> recv_counts) {
  DTL_TRY(call.agree(p.local));  // from here, every rank has one count per rank on each side
  if (rider.carried) return {};
  return settle_exchange(call, p, rider, "alltoallv",
                         [&] { exchange_alltoallv_counts(*call.state().comm, p, send_counts, recv_counts); });
}

}  // namespace detail

result<void> context::alltoall_raw(const void* send, void* recv, std::size_t count_each, std::size_t elem) const {
  const detail::prepared_exchange p = detail::prepare_alltoall(size(), send, recv, count_each, elem);
  return detail::finish(state_.get(), detail::alltoall_signature("alltoall", count_each, elem, p.device), p,
                        [&]() -> result<void> {
                          if (count_each == 0) return {};
                          return state_->comm->alltoall(send, recv, count_each * elem);
                        });
}

result<void> context::alltoallv_raw(const void* send, std::span<const std::size_t> send_counts,
                                    std::span<const std::size_t> send_displs, void* recv,
                                    std::span<const std::size_t> recv_counts, std::span<const std::size_t> recv_displs,
                                    std::size_t elem) const {
  detail::prepared_exchange p =
      detail::prepare_alltoallv(size(), send, send_counts, send_displs, recv, recv_counts, recv_displs, elem);
  detail::exchange_rider rider(p, rank());
  detail::call_signature signature = detail::alltoall_signature("alltoallv", 0, elem, false);
  signature.rider = &rider;
  detail::collective_call call(state_.get(), signature);
  DTL_TRY(call.usable());
  DTL_TRY(detail::agree_on_alltoallv_counts(call, p, rider, send_counts, recv_counts));
  if (rider.carried) return {};
  if (p.device) return detail::device_support::exchange(*state_->resources, *state_->comm, call, p.x);
  const detail::byte_exchange& x = p.x;
  if (rider.settled) {  // the step found every rank's extent: no allreduce of its own
    const auto& most = rider.maxima_of_all;
    return state_->comm->alltoallv_agreed(send, x.send_bytes.data(), x.send_displs.data(), recv, x.recv_bytes.data(),
                                          x.recv_displs.data(), {most[0], most[1], most[2]});
  }
  return state_->comm->alltoallv(send, x.send_bytes.data(), x.send_displs.data(), recv, x.recv_bytes.data(),
                                 x.recv_displs.data());
}

namespace detail {
namespace {

/// gather (every rank's `count` elements to the root) or scatter (the root's blocks to every rank) as a
/// byte exchange: the non-root side is one block to or from the root, the root's side one block per rank.
prepared_exchange prepare_rooted(const char* what, int ranks, int rank, const void* send, void* recv, std::size_t count,
                                 std::size_t elem, int root, bool to_root, std::size_t& bytes) {
  const auto n = static_cast<std::size_t>(std::max(ranks, 0));
  prepared_exchange p = empty_exchange(n);
  p.local = check_root(root, ranks);
  std::size_t total = 0;
  bytes = 0;
  if (p.local.ok() && (!times(count, elem, bytes) || !times(bytes, n, total)))
    p.local = status(status_code::out_of_range,
                     fmt::format("{}: {} elements for each of {} ranks is past the address space", what, count, n));
  if (!p.local.ok() || bytes == 0) return p;
  // The side every rank has (one block, exchanged with the root), and the root's other side.
  std::vector<std::size_t>& one = to_root ? p.x.send_bytes : p.x.recv_bytes;
  std::vector<std::size_t>& each = to_root ? p.x.recv_bytes : p.x.send_bytes;
  std::vector<std::size_t>& each_displs = to_root ? p.x.recv_displs : p.x.send_displs;
  one[static_cast<std::size_t>(root)] = bytes;
  const bool at_root = rank == root;
  if (to_root || at_root) p.x.send = send;
  if (!to_root || at_root) p.x.recv = recv;
  if (at_root) {
    for (std::size_t r = 0; r < n; ++r) {
      each[r] = bytes;
      each_displs[r] = r * bytes;
    }
  }
  check_buffers(p, what);
  return p;
}

/// gatherv (to_root: every rank's `count` elements into the root's blocks) or scatterv (the root's blocks,
/// one to each rank) as a byte exchange: the root's side from its counts and displacements, every rank's
/// own block (`bytes`) exchanged with the root.
prepared_exchange prepare_rooted_v(const char* what, int ranks, int rank, const void* send, void* recv,
                                   std::size_t count, std::size_t elem, std::span<const std::size_t> root_counts,
                                   std::span<const std::size_t> displs, int root, bool to_root, std::size_t& bytes) {
  const auto n = static_cast<std::size_t>(std::max(ranks, 0));
  prepared_exchange p = empty_exchange(n);
  p.local = check_root(root, ranks);
  bytes = 0;
  if (p.local.ok() && !times(count, elem, bytes))
    p.local = status(status_code::out_of_range, fmt::format("{}: {} elements is past the address space", what, count));
  const bool at_root = rank == root;
  if (p.local.ok() && at_root)
    p.local =
        to_root ? side_in_bytes(what, "the root", n, root_counts, displs, elem, true, p.x.recv_bytes, p.x.recv_displs)
                : side_in_bytes(what, "the root", n, root_counts, displs, elem, false, p.x.send_bytes, p.x.send_displs);
  if (p.local.ok()) {
    p.x.send = to_root || at_root ? send : nullptr;
    p.x.recv = !to_root || at_root ? recv : nullptr;
    (to_root ? p.x.send_bytes : p.x.recv_bytes)[static_cast<std::size_t>(root)] = bytes;
    check_buffers(p, what);
  }
  if (!p.local.ok()) p.x = empty_exchange(n).x;
  return p;
}

}  // namespace
}  // namespace detail

result<void> context::gather_raw(const void* send, void* recv, std::size_t count, std::size_t elem, int root) const {
  std::size_t bytes = 0;
  const detail::prepared_exchange p =
      detail::prepare_rooted("gather", size(), rank(), send, recv, count, elem, root, true, bytes);
  return detail::finish(
      state_.get(), detail::rooted_signature("gather", count, elem, root, p.device), p, [&]() -> result<void> {
        if (bytes == 0) return {};
        return state_->comm->gatherv(send, bytes, recv, p.x.recv_bytes.data(), p.x.recv_displs.data(), root);
      });
}

result<void> context::scatter_raw(const void* send, void* recv, std::size_t count, std::size_t elem, int root) const {
  std::size_t bytes = 0;
  const detail::prepared_exchange p =
      detail::prepare_rooted("scatter", size(), rank(), send, recv, count, elem, root, false, bytes);
  return detail::finish(
      state_.get(), detail::rooted_signature("scatter", count, elem, root, p.device), p, [&]() -> result<void> {
        if (bytes == 0) return {};
        return state_->comm->scatterv(send, p.x.send_bytes.data(), p.x.send_displs.data(), recv, bytes, root);
      });
}

result<void> context::gatherv_raw(const void* send, std::size_t count, void* recv,
                                  std::span<const std::size_t> recv_counts, std::span<const std::size_t> displs,
                                  std::size_t elem, int root) const {
  std::size_t bytes = 0;
  detail::prepared_exchange p = detail::prepare_rooted_v("gatherv", size(), rank(), send, recv, count, elem,
                                                         recv_counts, displs, root, true, bytes);
  detail::exchange_rider rider(p, rank());
  detail::call_signature signature = detail::rooted_signature("gatherv", 0, elem, root, false);
  signature.rider = &rider;
  detail::collective_call call(state_.get(), signature);
  DTL_TRY(call.usable());
  return detail::rooted_v(call, p, rider, "gatherv", count, recv_counts, root, [&]() -> result<void> {
    return state_->comm->gatherv(p.x.send, bytes, p.x.recv, p.x.recv_bytes.data(), p.x.recv_displs.data(), root);
  });
}

result<void> context::scatterv_raw(const void* send, std::span<const std::size_t> send_counts,
                                   std::span<const std::size_t> displs, void* recv, std::size_t count, std::size_t elem,
                                   int root) const {
  std::size_t bytes = 0;
  detail::prepared_exchange p = detail::prepare_rooted_v("scatterv", size(), rank(), send, recv, count, elem,
                                                         send_counts, displs, root, false, bytes);
  detail::exchange_rider rider(p, rank());
  detail::call_signature signature = detail::rooted_signature("scatterv", 0, elem, root, false);
  signature.rider = &rider;
  detail::collective_call call(state_.get(), signature);
  DTL_TRY(call.usable());
  return detail::rooted_v(call, p, rider, "scatterv", count, send_counts, root, [&]() -> result<void> {
    return state_->comm->scatterv(p.x.send, p.x.send_bytes.data(), p.x.send_displs.data(), recv, bytes, root);
  });
}

result<void> context::allgatherv_raw(const void* send, std::size_t count, void* recv,
                                     std::span<const std::size_t> recv_counts, std::span<const std::size_t> displs,
                                     std::size_t elem) const {
  const auto n = static_cast<std::size_t>(std::max(size(), 0));
  detail::prepared_exchange p = detail::empty_exchange(n);
  std::size_t bytes = 0;
  if (!detail::times(count, elem, bytes))
    p.local =
        status(status_code::out_of_range, fmt::format("allgatherv: {} elements is past the address space", count));
  if (p.local.ok())
    p.local = detail::side_in_bytes("allgatherv", "the receive side", n, recv_counts, displs, elem, true,
                                    p.x.recv_bytes, p.x.recv_displs);
  const auto me = static_cast<std::size_t>(std::max(rank(), 0));
  if (p.local.ok() && me < recv_counts.size() && recv_counts[me] != count)
    p.local = detail::invalid(fmt::format("allgatherv: this rank ({}) passes count {}, its recv_counts entry is {}", me,
                                          count, recv_counts[me]));
  if (p.local.ok()) {
    p.x.send = send;
    p.x.recv = recv;
    p.x.send_bytes.assign(n, bytes);
    // Every rank passes the same counts: when they are all zero, no rank has a path to agree on.
    if (detail::any_nonzero(p.x.recv_bytes)) detail::check_buffers(p, "allgatherv");
  }
  if (!p.local.ok()) p.x = detail::empty_exchange(n).x;
  // Every rank must pass the same counts (its displacements are its own): their hash is agreed on.
  const std::uint64_t counts_hash = detail::fnv1a(recv_counts.data(), recv_counts.size_bytes());
  const detail::call_signature signature{
      "allgatherv",
      {static_cast<std::int64_t>(counts_hash >> 1), static_cast<std::int64_t>(elem), p.device ? 1 : 0},
      {"recv_counts (hashed)", "element bytes", "device buffers"}};
  return detail::finish(state_.get(), signature, p, [&]() -> result<void> {
    return state_->comm->allgatherv(send, bytes, recv, p.x.recv_bytes.data(), p.x.recv_displs.data());
  });
}

result<void> context::scan_raw(const void* send, void* recv, std::size_t count, detail::datatype type, reduce_op op,
                               bool exclusive) const {
  const char* what = exclusive ? "exscan" : "scan";
  status local = detail::check_reduction(type, op);
  if (local.ok()) local = detail::check_element_count(count, type);
  if (local.ok() && count != 0 && (send == nullptr || recv == nullptr))
    local = detail::invalid(fmt::format("{}: a buffer is nullptr", what));
  if (local.ok() && count != 0) {
    result<bool> device = detail::on_device(send, recv);
    if (!device)
      local = std::move(device).error();
    else if (*device)
      local = detail::invalid(fmt::format("{} takes host buffers (copy device data to the host first)", what));
  }
  detail::scan_rider rider(send, recv, count, type, op, exclusive, rank(), size());
  detail::collective_call call(
      state_.get(), {what,
                     {static_cast<std::int64_t>(count), static_cast<std::int64_t>(type), static_cast<std::int64_t>(op)},
                     {"count", "type", "operation"},
                     count != 0 ? &rider : nullptr});
  DTL_TRY(call.usable());
  DTL_TRY(call.agree(local));
  if (count == 0) return {};
  if (rider.carried) {
    if (exclusive && rank() == 0) detail::fill_identity(recv, count, type, op);
    return {};
  }
  DTL_TRY(state_->comm->scan(send, recv, count, type, op, exclusive));
  if (exclusive && rank() == 0) detail::fill_identity(recv, count, type, op);
  return {};
}

}  // namespace dtl

// SPDX-License-Identifier: MIT
// Point-to-point on a context: the handshake of p2p.hpp, the requests (dtl::request) and the blocking
// calls. Device buffers reach the GPU through p2p_device (p2p_device_hip.cpp / p2p_device_none.cpp).
#include "comm/p2p.hpp"
#include "comm/state.hpp"

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/request.hpp>
#include <dtl/core/try.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>
#include <thread>
#include <vector>

namespace dtl {

namespace detail {

namespace {

constexpr std::size_t reason_bytes = 200;
/// Payloads up to this size travel in the status envelope: one message instead of two.
constexpr std::size_t envelope_payload_bytes = 1024;

enum class payload_path : std::int32_t { mpi = 0, nccl = 1, in_envelope = 2 };

/// Receiver to sender: "my receive is posted; this is what it takes".
struct ready_envelope {
  std::uint64_t count = 0;
  std::uint64_t elem = 0;
  std::int32_t ticket = 0;       // the data-channel tag the payload must carry
  std::int32_t code = 0;         // the receiver's own checks: 0 or a status_code
  std::uint8_t device = 0;       // the buffer is device memory
  std::uint8_t nccl = 0;         // the receiver can take the payload over RCCL/NCCL
  std::uint8_t in_envelope = 0;  // a host buffer of at most envelope_payload_bytes, which the status carries
  char reason[reason_bytes] = {};
};

/// Sender to receiver: the outcome both return, how the payload comes, and a small payload itself
/// (only the bytes used travel).
struct status_envelope {
  std::int32_t code = 0;
  std::int32_t path = 0;
  char reason[reason_bytes] = {};
  std::byte payload[envelope_payload_bytes];
};
constexpr std::size_t envelope_header_bytes = offsetof(status_envelope, payload);

void put_reason(char (&out)[reason_bytes], std::string_view text) noexcept {
  const std::size_t n = std::min(text.size(), reason_bytes - 1);
  std::memcpy(out, text.data(), n);
  out[n] = '\0';
}

/// A status as it travels: code and message (cut to fit), so that both ranks return the same one.
status on_wire(const status& s) {
  if (s.ok()) return {};
  char text[reason_bytes];
  put_reason(text, s.message());
  return status(s.code(), text);
}
status from_wire(std::int32_t code, const char (&reason)[reason_bytes]) {
  if (code == 0) return {};
  return status(static_cast<status_code>(code), std::string(reason, strnlen(reason, reason_bytes)));
}

/// Payload tickets: unique among this process's receives in flight (they wrap after max_tag + 1).
std::atomic<std::uint64_t> g_ticket{0};
int next_ticket(const comm_backend& comm) noexcept {
  const auto range = static_cast<std::uint64_t>(comm.max_tag()) + 1;
  return static_cast<int>(g_ticket.fetch_add(1, std::memory_order_relaxed) % range);
}

/// One rank's part of a transfer, and its own checks.
struct side {
  void* buf = nullptr;
  std::size_t count = 0;
  std::size_t elem = 0;
  int peer = 0;
  int tag = 0;
  bool device = false;     // device memory of the context's device
  bool nccl = false;       // this side can take RCCL/NCCL
  void* stream = nullptr;  // stream-ordered forms: a hipStream_t
  status local;
  [[nodiscard]] std::size_t bytes() const noexcept { return count * elem; }
};

/// What fails at once, before any message: a context that cannot communicate, a peer or tag out of
/// range. Nothing reaches the peer then (it named this rank, or another, with a tag it chose).
status check_call(const context_state* st, int peer, int tag, int max_tag, const char* what) {
  if (st == nullptr) return empty_context();
  DTL_TRY(st->check());
  if (status s = st->comm->can_communicate(); !s.ok()) return s.with_context(what);
  const int size = st->comm->size();
  if (peer < 0 || peer >= size)
    return status(status_code::invalid_rank, fmt::format("{}: rank {} is outside [0, {})", what, peer, size));
  if (tag < 0 || tag > max_tag)
    return status(status_code::invalid_argument,
                  fmt::format("{}: tag {} is outside [0, {}] (context::max_tag())", what, tag, max_tag));
  return {};
}

/// A send and its receive that disagree on the count or the element size: the same words on both ranks.
status count_mismatch(std::size_t send_count, std::size_t send_elem, int from, int to, int tag, std::size_t recv_count,
                      std::size_t recv_elem) {
  return status(status_code::invalid_argument,
                fmt::format("a send of {} elements of {} bytes from rank {} to rank {} (tag {}) met a receive of {} "
                            "elements of {} bytes",
                            send_count, send_elem, from, to, tag, recv_count, recv_elem));
}

/// This rank's checks of its buffer, which travel to the peer in the envelopes.
side make_side(context_state& st, const void* buf, std::size_t count, std::size_t elem, int peer, int tag,
               bool allow_nccl, void* stream, const char* what) {
  side s;
  s.buf = const_cast<void*>(buf);
  s.count = count;
  s.elem = elem;
  s.peer = peer;
  s.tag = tag;
  s.stream = stream;
  const int rank = st.comm->rank();
  auto fail = [&](status_code code, std::string_view why) {
    s.local = status(code, fmt::format("{} (rank {}, peer {}, tag {}): {}", what, rank, peer, tag, why));
  };
  // The count against the address space first, before any arithmetic on it: a byte count that wraps,
  // or one the transport cannot move, fails here and travels in the envelopes, so both ranks return it
  // and no payload is posted.
  if (elem != 0 && count > std::numeric_limits<std::size_t>::max() / elem) {
    fail(status_code::out_of_range,
         fmt::format("{} elements of {} bytes overflow a byte count (past the address space)", count, elem));
  } else if (status m = st.comm->check_message(count * elem); !m.ok()) {
    fail(m.code(), m.message());
  } else if (count != 0 && buf == nullptr) {
    fail(status_code::invalid_argument, fmt::format("the buffer is nullptr with a count of {}", count));
  } else if (count != 0) {
    if (result<bool> d = p2p_device::is_device(st, buf); d)
      s.device = *d;
    else
      fail(d.error().code(), d.error().message());
  }
  s.nccl = allow_nccl && s.local.ok() && s.device && p2p_device::nccl_ready(st);
  return s;
}

/// Tests `req` (reset once complete); false while pending. A failure ends `t`.
bool poll(comm_request_ptr& req, p2p_transfer& t) {
  if (!req) return true;
  result<bool> r = req->test();
  if (!r) {
    t.done = true;
    t.outcome = std::move(r).error();
    return false;
  }
  if (*r) req.reset();
  return *r;
}

/// What both halves of a transfer keep: the envelopes, their requests, the staging memory and the
/// outcome once the handshake has decided it.
class transfer_half : public p2p_transfer {
 public:
  [[nodiscard]] bool answered() const noexcept { return answered_ || done; }
  [[nodiscard]] bool nccl_pending() const noexcept { return nccl_pending_ && !done; }
  [[nodiscard]] const side& part() const noexcept { return s_; }
  /// The RCCL/NCCL transfer of both ranks is done: after both agreed, a failure is this rank's own.
  void nccl_done(const status& s) {
    nccl_pending_ = false;
    if (!s.ok()) verdict_ = s;
  }

 protected:
  transfer_half(context_state& st, side s) : st_(st), s_(std::move(s)) { peer = s_.peer; }
  void end(status s) {
    done = true;
    outcome = std::move(s);
  }

  context_state& st_;
  side s_;
  ready_envelope ready_;
  status_envelope reply_;
  comm_request_ptr ready_req_, status_req_, payload_req_;
  p2p_device::pinned_ptr staging_;
  status verdict_;
  bool answered_ = false;
  bool nccl_pending_ = false;
};

class send_transfer final : public transfer_half {
 public:
  send_transfer(context_state& st, side s) : transfer_half(st, std::move(s)) {
    auto r = st_.comm->irecv(&ready_, sizeof ready_, s_.peer, s_.tag, p2p_channel::control);
    if (r)
      ready_req_ = std::move(r).value();
    else
      end(std::move(r).error());
  }
  void step() override {
    if (done) return;
    if (!answered_) {
      if (!poll(ready_req_, *this)) return;
      answer();
      if (done) return;
    }
    if (!poll(status_req_, *this) || !poll(payload_req_, *this) || nccl_pending_) return;
    end(verdict_);
  }

 private:
  /// The receiver has posted: decide, tell it, and send the payload.
  void answer() {
    answered_ = true;
    status out;
    if (ready_.code != 0)
      out = from_wire(ready_.code, ready_.reason);
    else if (!s_.local.ok())
      out = s_.local;
    else if (ready_.count != s_.count || ready_.elem != s_.elem)
      out = count_mismatch(s_.count, s_.elem, st_.comm->rank(), s_.peer, s_.tag, ready_.count, ready_.elem);
    // A receive in the envelope is a host buffer: never RCCL/NCCL. Equal counts and element sizes
    // make this payload as large as the receive.
    const bool in_envelope = ready_.in_envelope != 0;
    const bool nccl = !in_envelope && out.ok() && ready_.nccl != 0 && s_.nccl;
    const void* data = s_.buf;
    if (out.ok() && !nccl && s_.bytes() != 0) {
      if (s_.device)
        out = device_to_wire(data, in_envelope ? reply_.payload : nullptr);
      else if (in_envelope)
        std::memcpy(reply_.payload, s_.buf, s_.bytes());
    }
    verdict_ = on_wire(out);
    // The status is exactly as long as the receiver expects (the message layer splits both alike).
    const std::size_t carried =
        in_envelope ? std::min<std::size_t>(ready_.count * ready_.elem, envelope_payload_bytes) : 0;
    if (!verdict_.ok() && carried != 0) std::memset(reply_.payload, 0, carried);
    reply_.code = static_cast<std::int32_t>(verdict_.code());
    reply_.path = static_cast<std::int32_t>(in_envelope ? payload_path::in_envelope
                                            : nccl      ? payload_path::nccl
                                                        : payload_path::mpi);
    put_reason(reply_.reason, verdict_.message());
    auto r = st_.comm->isend(&reply_, envelope_header_bytes + carried, s_.peer, ready_.ticket, p2p_channel::data);
    if (!r) return end(std::move(r).error());
    status_req_ = std::move(r).value();
    if (in_envelope) return;
    if (nccl) {
      nccl_pending_ = s_.bytes() != 0;
      return;
    }
    // The payload message, exactly as long as the receive that the receiver posts once it has the
    // status; under the same ticket, after the status (MPI keeps their order).
    if (!verdict_.ok() || s_.bytes() == 0) return;
    auto p = st_.comm->isend(data, s_.bytes(), s_.peer, ready_.ticket, p2p_channel::data);
    if (!p) return end(std::move(p).error());
    payload_req_ = std::move(p).value();
  }
  /// A device buffer on an MPI path: waits for its earlier work, and stages it (into `envelope` when
  /// the payload travels there) unless MPI takes device memory.
  status device_to_wire(const void*& data, std::byte* envelope) {
    const int rank = st_.comm->rank();
    auto local = [&](const status& s) {
      return s.with_context(fmt::format("send (rank {}, peer {}, tag {})", rank, s_.peer, s_.tag));
    };
    if (status p = p2p_device::prepare(st_, s_.stream); !p.ok()) return local(p);
    if (envelope != nullptr) {
      if (status c = p2p_device::to_host(st_, envelope, s_.buf, s_.bytes()); !c.ok()) return local(c);
      return {};
    }
    if (p2p_device::mpi_takes_device(st_)) return {};
    auto pinned = p2p_device::take_pinned(st_, s_.bytes());
    if (!pinned) return local(pinned.error());
    staging_ = std::move(pinned).value();
    if (status c = p2p_device::to_host(st_, staging_.get(), s_.buf, s_.bytes()); !c.ok()) return local(c);
    data = staging_.get();
    return {};
  }
};

class recv_transfer final : public transfer_half {
 public:
  recv_transfer(context_state& st, side s) : transfer_half(st, std::move(s)) {
    // A small host receive gets its payload in the status envelope; any other posts its payload receive
    // once the status has come (the payload's path and length are agreed then, and the ticket lets
    // it match whenever it is posted).
    const bool in_envelope = !s_.device && s_.local.ok() && s_.bytes() != 0 && s_.bytes() <= envelope_payload_bytes;
    if (s_.local.ok() && s_.device && s_.bytes() != 0) take_staging();
    ready_.count = s_.count;
    ready_.elem = s_.elem;
    ready_.ticket = next_ticket(*st_.comm);
    ready_.code = static_cast<std::int32_t>(s_.local.code());
    ready_.device = s_.device ? 1 : 0;
    ready_.nccl = s_.nccl ? 1 : 0;
    ready_.in_envelope = in_envelope ? 1 : 0;
    put_reason(ready_.reason, s_.local.message());
    // Receives first, then the envelope that lets the sender answer them.
    if (status p = post(); !p.ok()) end(std::move(p));
  }
  void step() override {
    if (done) return;
    if (!answered_) {
      if (!poll(status_req_, *this)) return;
      read_answer();
      if (done) return;
    }
    if (!poll(payload_req_, *this) || !poll(ready_req_, *this) || nccl_pending_) return;
    if (verdict_.ok() && staged_payload_) {
      // After both ranks agreed: a failure here is this rank's own.
      status c = p2p_device::prepare(st_, s_.stream);
      if (c.ok()) c = p2p_device::to_device(st_, s_.buf, staging_.get(), s_.bytes());
      if (!c.ok()) verdict_ = c;
    }
    end(verdict_);
  }

 private:
  /// A device receive takes its staging memory now, unless MPI takes device memory: a failure here
  /// travels to the sender; after the status, nothing may fail that would leave the sender's payload
  /// unreceived. (One that ends up on RCCL/NCCL gives it back unused.)
  void take_staging() {
    if (p2p_device::mpi_takes_device(st_)) return;
    auto pinned = p2p_device::take_pinned(st_, s_.bytes());
    if (pinned) {
      staging_ = std::move(pinned).value();
      return;
    }
    const status& e = pinned.error();
    s_.local = status(
        e.code(), fmt::format("recv (rank {}, peer {}, tag {}): {}", st_.comm->rank(), s_.peer, s_.tag, e.message()));
  }
  /// The status receive (exactly as long as the sender's status: the message layer splits both alike),
  /// then the envelope that lets the sender answer it.
  status post() {
    const std::size_t bytes = envelope_header_bytes + (ready_.in_envelope != 0 ? s_.bytes() : 0);
    auto r = st_.comm->irecv(&reply_, bytes, s_.peer, ready_.ticket, p2p_channel::data);
    if (!r) return std::move(r).error();
    status_req_ = std::move(r).value();
    auto e = st_.comm->isend(&ready_, sizeof ready_, s_.peer, s_.tag, p2p_channel::control);
    if (!e) return std::move(e).error();
    ready_req_ = std::move(e).value();
    return {};
  }
  status post_payload(std::size_t bytes) {
    void* into = bytes == 0 ? nullptr : staging_ ? static_cast<void*>(staging_.get()) : s_.buf;
    auto p = st_.comm->irecv(into, bytes, s_.peer, ready_.ticket, p2p_channel::data);
    if (!p) return std::move(p).error();
    payload_req_ = std::move(p).value();
    staged_payload_ = bytes != 0 && staging_;
    return {};
  }
  void read_answer() {
    answered_ = true;
    verdict_ = from_wire(reply_.code, reply_.reason);
    if (!verdict_.ok() || s_.bytes() == 0) return;
    if (ready_.in_envelope != 0) {
      std::memcpy(s_.buf, reply_.payload, s_.bytes());
      return;
    }
    if (reply_.path == static_cast<std::int32_t>(payload_path::nccl)) {
      nccl_pending_ = true;
      return;
    }
    // MPI: into the staging memory, or into device memory once its earlier work is done.
    if (s_.device && !staging_) {
      if (status p = p2p_device::prepare(st_, s_.stream); !p.ok()) verdict_ = p;  // still receive the payload
    }
    if (status p = post_payload(s_.bytes()); !p.ok()) end(std::move(p));
  }

  bool staged_payload_ = false;  // the payload arrives in staging_
};

/// Steps every request in flight on the context (a blocking call's progress may need theirs).
void step_pending(context_state& st) {
  for (std::size_t i = 0; i < st.p2p_pending.size(); ++i) st.p2p_pending[i]->step();
}

/// Spins on `ready`, stepping the context's requests; yields now and then (ranks may share cores),
/// rarely enough that a rank with a core of its own loses no latency.
template <class Ready>
void spin_until(context_state& st, Ready ready) {
  for (unsigned tries = 1; !ready(); ++tries) {
    step_pending(st);
    if (tries % 1024 == 0) std::this_thread::yield();
  }
}

class p2p_request final : public request_state {
 public:
  p2p_request(std::shared_ptr<context_state> st, std::unique_ptr<p2p_transfer> t)
      : st_(std::move(st)), t_(std::move(t)) {
    if (!t_->done) st_->p2p_pending.push_back(t_.get());
  }
  ~p2p_request() override {
    // A failure nobody collected (the request was dropped pending) is reported.
    if (status s = finish(); !s.ok() && !collected_) report_unhandled(s);
  }
  result<bool> test() override {
    step_pending(*st_);
    if (!t_->done) return false;
    forget();
    collected_ = true;
    if (!t_->outcome.ok()) return t_->outcome;
    return true;
  }
  result<void> wait() override {
    collected_ = true;
    if (status s = finish(); !s.ok()) return s;
    return {};
  }

 private:
  status finish() {
    spin_until(*st_, [&] { return t_->done; });
    forget();
    return t_->outcome;
  }
  void forget() noexcept { std::erase(st_->p2p_pending, t_.get()); }
  std::shared_ptr<context_state> st_;
  std::unique_ptr<p2p_transfer> t_;
  bool collected_ = false;
};

/// A blocking send and/or receive (either may be null): both handshakes, then RCCL/NCCL for the halves
/// that take it (grouped), then the rest. The send's failure first, then the receive's.
status run_blocking(context_state& st, send_transfer* s, recv_transfer* r) {
  spin_until(st, [&] {
    if (s != nullptr) s->step();
    if (r != nullptr) r->step();
    return (s == nullptr || s->answered()) && (r == nullptr || r->answered());
  });
  const bool send_nccl = s != nullptr && s->nccl_pending(), recv_nccl = r != nullptr && r->nccl_pending();
  if (send_nccl || recv_nccl) {
    const side* sp = send_nccl ? &s->part() : nullptr;
    const side* rp = recv_nccl ? &r->part() : nullptr;
    const status moved = p2p_device::nccl_exchange(st, sp ? sp->buf : nullptr, sp ? sp->bytes() : 0, sp ? sp->peer : 0,
                                                   rp ? rp->buf : nullptr, rp ? rp->bytes() : 0, rp ? rp->peer : 0,
                                                   sp ? sp->stream : rp->stream);
    if (send_nccl) s->nccl_done(moved);
    if (recv_nccl) r->nccl_done(moved);
  }
  spin_until(st, [&] {
    if (s != nullptr) s->step();
    if (r != nullptr) r->step();
    return (s == nullptr || s->done) && (r == nullptr || r->done);
  });
  if (s != nullptr && !s->outcome.ok()) return s->outcome;
  if (r != nullptr) return r->outcome;
  return {};
}

int max_tag_of(const context_state* st) noexcept { return st != nullptr ? st->comm->max_tag() : -1; }

status self_blocking(const context_state& st, int peer, const char* what) {
  if (peer != st.comm->rank()) return {};
  return status(status_code::invalid_argument,
                fmt::format("{}: a blocking {} with oneself has no partner (rank {}); use sendrecv, or isend and irecv",
                            what, what, peer));
}

/// A sendrecv of a rank with itself decides alone: both halves are here, so no envelope travels and the
/// data is one copy (on the device where a buffer is device memory). Not while an earlier transfer with
/// oneself is in flight: MPI's order would match that one first.
bool self_shortcut(const context_state& st, int dest, int src) {
  const int rank = st.comm->rank();
  if (dest != rank || src != rank) return false;
  return std::none_of(st.p2p_pending.begin(), st.p2p_pending.end(),
                      [&](const p2p_transfer* t) { return t->peer == rank; });
}

status self_sendrecv(context_state& st, const side& s, const side& r, bool* enqueued) {
  // The receive's own failure first, as the handshake decides it.
  if (!r.local.ok()) return r.local;
  if (!s.local.ok()) return s.local;
  if (s.count != r.count || s.elem != r.elem)
    return count_mismatch(s.count, s.elem, s.peer, s.peer, s.tag, r.count, r.elem);
  if (s.bytes() == 0) return {};
  if (!s.device && !r.device) {
    std::memmove(r.buf, s.buf, s.bytes());
    return {};
  }
  return p2p_device::self_copy(st, r.buf, s.buf, s.bytes(), s.stream, enqueued);
}

}  // namespace

namespace p2p {

status send(context_state* st, const void* buf, std::size_t count, std::size_t elem, int dest, int tag, void* stream,
            bool* used_nccl) {
  DTL_TRY(check_call(st, dest, tag, max_tag_of(st), "send"));
  DTL_TRY(self_blocking(*st, dest, "send"));
  send_transfer s(*st, make_side(*st, buf, count, elem, dest, tag, true, stream, "send"));
  const status out = run_blocking(*st, &s, nullptr);
  if (used_nccl != nullptr) *used_nccl = s.part().nccl;
  return out;
}

status recv(context_state* st, void* buf, std::size_t count, std::size_t elem, int src, int tag, void* stream,
            bool* used_nccl) {
  DTL_TRY(check_call(st, src, tag, max_tag_of(st), "recv"));
  DTL_TRY(self_blocking(*st, src, "recv"));
  recv_transfer r(*st, make_side(*st, buf, count, elem, src, tag, true, stream, "recv"));
  const status out = run_blocking(*st, nullptr, &r);
  if (used_nccl != nullptr) *used_nccl = r.part().nccl;
  return out;
}

status sendrecv(context_state* st, const void* send, std::size_t send_count, int dest, void* recv,
                std::size_t recv_count, int src, std::size_t elem, int tag, void* stream, bool* used_nccl) {
  DTL_TRY(check_call(st, dest, tag, max_tag_of(st), "sendrecv (its send)"));
  DTL_TRY(check_call(st, src, tag, max_tag_of(st), "sendrecv (its receive)"));
  if (self_shortcut(*st, dest, src))
    return self_sendrecv(*st, make_side(*st, send, send_count, elem, dest, tag, true, stream, "sendrecv (its send)"),
                         make_side(*st, recv, recv_count, elem, src, tag, true, stream, "sendrecv (its receive)"),
                         used_nccl);
  // The receive is posted first, so that a sendrecv with oneself finds it.
  recv_transfer r(*st, make_side(*st, recv, recv_count, elem, src, tag, true, stream, "sendrecv (its receive)"));
  send_transfer s(*st, make_side(*st, send, send_count, elem, dest, tag, true, stream, "sendrecv (its send)"));
  const status out = run_blocking(*st, &s, &r);
  if (used_nccl != nullptr) *used_nccl = s.part().nccl || r.part().nccl;
  return out;
}

}  // namespace p2p

}  // namespace detail

// --- dtl::request ---

request::request(std::unique_ptr<detail::request_state> state) noexcept : state_(std::move(state)) {}
request::request(request&& other) noexcept = default;
request& request::operator=(request&& other) noexcept {
  if (this != &other) {
    state_.reset();  // waits for a pending transfer first
    state_ = std::move(other.state_);
  }
  return *this;
}
request::~request() = default;

result<void> request::wait() {
  if (!state_) return {};
  result<void> r = state_->wait();
  state_.reset();
  return r;
}

result<bool> request::test() {
  if (!state_) return true;
  return state_->test();
}

// --- the context's point-to-point calls ---

int context::max_tag() const noexcept { return detail::max_tag_of(state_.get()); }

result<void> context::send_raw(const void* buf, std::size_t count, std::size_t elem, int dest, int tag) const {
  if (status s = detail::p2p::send(state_.get(), buf, count, elem, dest, tag, nullptr, nullptr); !s.ok()) return s;
  return {};
}

result<void> context::recv_raw(void* buf, std::size_t count, std::size_t elem, int src, int tag) const {
  if (status s = detail::p2p::recv(state_.get(), buf, count, elem, src, tag, nullptr, nullptr); !s.ok()) return s;
  return {};
}

result<void> context::sendrecv_raw(const void* send, std::size_t send_count, int dest, void* recv,
                                   std::size_t recv_count, int src, std::size_t elem, int tag) const {
  if (status s = detail::p2p::sendrecv(state_.get(), send, send_count, dest, recv, recv_count, src, elem, tag, nullptr,
                                       nullptr);
      !s.ok())
    return s;
  return {};
}

// Requests take MPI for device buffers too: RCCL/NCCL pair transfers in the order they are issued, and
// requests complete in whatever order the program tests them.
result<request> context::isend_raw(const void* buf, std::size_t count, std::size_t elem, int dest, int tag) const {
  detail::context_state* st = state_.get();
  DTL_TRY(detail::check_call(st, dest, tag, max_tag(), "isend"));
  auto t = std::make_unique<detail::send_transfer>(
      *st, detail::make_side(*st, buf, count, elem, dest, tag, false, nullptr, "isend"));
  t->step();  // the fast path: the receiver may be posted already
  return request(std::make_unique<detail::p2p_request>(state_, std::move(t)));
}

result<request> context::irecv_raw(void* buf, std::size_t count, std::size_t elem, int src, int tag) const {
  detail::context_state* st = state_.get();
  DTL_TRY(detail::check_call(st, src, tag, max_tag(), "irecv"));
  auto t = std::make_unique<detail::recv_transfer>(
      *st, detail::make_side(*st, buf, count, elem, src, tag, false, nullptr, "irecv"));
  return request(std::make_unique<detail::p2p_request>(state_, std::move(t)));
}

}  // namespace dtl

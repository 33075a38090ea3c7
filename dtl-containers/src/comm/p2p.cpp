// SPDX-License-Identifier: MIT
// Point-to-point on a context: the messages of p2p.hpp, the requests (dtl::request) and the blocking
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
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace dtl {

namespace detail {

namespace {

constexpr std::size_t reason_bytes = 200;
/// The longest header's message (p2p.hpp): host payloads up to this size less the header travel in it,
/// one MPI message instead of two. 4 KiB is the eager limit of Open MPI's shared-memory transport:
/// past it MPI itself turns to a rendezvous, and the copies into and out of the header's message cost
/// more than a second message (measured with dtl-comm-bench on 2 ranks of one node, 1024 doubles:
/// ping-pong 7.2 us with 16 KiB here, 4.7 us with 4 KiB; raw MPI 3.7 us). Every receive keeps a buffer
/// of this size for its header.
constexpr std::size_t header_message_bytes = 4096;

/// How the content of a message (its payload, or the sender's failure as text) travels.
enum class content_path : std::uint8_t { body = 0, mpi = 1, nccl = 2 };

/// The start of every message, sender to receiver on the control channel under the user's tag. The
/// sender fills it from its own side alone.
struct header {
  std::uint64_t count = 0;  // the sender's count and element size
  std::uint64_t elem = 0;
  std::uint64_t follow = 0;  // content bytes of the second message (data channel, `ticket`), or on RCCL/NCCL
  std::int32_t code = 0;     // the sender's own checks: 0, or a status_code whose text is the content
  std::int32_t ticket = 0;   // the data-channel tag of the second message
  std::uint32_t body = 0;    // content bytes after the header in this message
  std::uint8_t path = 0;     // content_path
  std::uint8_t device = 0;   // the sender's buffer is device memory
  std::uint8_t unused[2] = {};
};
constexpr std::size_t header_bytes = sizeof(header);

/// The most content bytes a header's message carries: less where the backend's pieces are smaller than
/// header_message_bytes, so that a header's message and the receive that takes it are one piece each
/// (with no room past the header, every header's message is header_bytes long: the same pieces on both
/// sides).
std::size_t eager_limit(const comm_backend& comm) noexcept {
  const std::size_t longest = std::min(header_message_bytes, comm.piece_bytes());
  return longest > header_bytes ? longest - header_bytes : 0;
}

/// A status as it travels: code and message (cut to fit), so that the sender and its receiver return
/// the same sender's failure.
status on_wire(const status& s) {
  if (s.ok()) return {};
  return status(s.code(), s.message().substr(0, reason_bytes - 1));
}
status from_wire(std::int32_t code, const std::byte* text, std::size_t bytes) {
  if (code == 0) return {};
  return status(static_cast<status_code>(code), std::string(reinterpret_cast<const char*>(text), bytes));
}

/// Second-message tickets: unique among this process's sends in flight (they wrap after max_tag + 1).
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

/// This rank's checks of its buffer (a sender's travel to its receiver in the header).
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
  // or one the transport cannot move, fails here, and no payload is posted (a sender's failure travels
  // in its header, and its receiver returns it too).
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

/// A header and the body after it: the buffer of one message, of `size` bytes.
struct wire_buffer {
  [[nodiscard]] std::byte* data() noexcept { return bytes; }
  [[nodiscard]] std::byte* body() noexcept { return bytes + header_bytes; }
  alignas(header) std::byte bytes[header_message_bytes];
  std::size_t size = 0;
};

class send_transfer final : public p2p_transfer {
 public:
  send_transfer(context_state& st, side s) : st_(st), s_(std::move(s)) {
    peer = s_.peer;
    if (status p = post(); !p.ok()) end(std::move(p));
  }
  void step() override {
    if (done) return;
    if (!poll(header_req_, *this) || !poll(follow_req_, *this) || nccl_pending()) return;
    end(own_);
  }
  [[nodiscard]] bool nccl_pending() const noexcept { return nccl_pending_ && !done; }
  [[nodiscard]] const side& part() const noexcept { return s_; }
  /// The RCCL/NCCL payload has gone (or failed: this rank's own failure then).
  void nccl_done(const status& s) {
    nccl_pending_ = false;
    if (own_.ok()) own_ = s;
  }

 private:
  void end(status s) {
    done = true;
    outcome = std::move(s);
  }
  /// Decides the content and its path from this side alone, and sends the header's message and the
  /// second one at once: nothing waits for the receiver.
  status post() {
    const std::size_t eager = eager_limit(*st_.comm);
    own_ = s_.local;
    const void* content = s_.buf;
    std::size_t bytes = s_.bytes();
    auto path = content_path::body;
    if (own_.ok() && bytes != 0) {
      if (s_.nccl) {
        path = content_path::nccl;
      } else if (s_.device) {
        path = content_path::mpi;
        own_ = device_to_wire(content);
      } else if (bytes > eager) {
        path = content_path::mpi;
      }
    }
    if (!own_.ok()) {  // the content is the failure's text; no payload
      own_ = on_wire(own_);
      staging_.reset();
      content = own_.message().data();
      bytes = own_.message().size();
      path = bytes <= eager ? content_path::body : content_path::mpi;
    }
    header h;
    h.count = s_.count;
    h.elem = s_.elem;
    h.code = static_cast<std::int32_t>(own_.code());
    h.path = static_cast<std::uint8_t>(path);
    h.device = s_.device ? 1 : 0;
    h.body = path == content_path::body ? static_cast<std::uint32_t>(bytes) : 0;
    h.follow = path == content_path::body ? 0 : bytes;
    if (path == content_path::mpi) h.ticket = next_ticket(*st_.comm);
    wire_.size = header_bytes + h.body;
    std::memcpy(wire_.data(), &h, header_bytes);
    if (h.body != 0) std::memcpy(wire_.body(), content, h.body);
    DTL_ASSIGN_OR_RETURN(header_req_, st_.comm->isend(wire_.data(), wire_.size, s_.peer, s_.tag, p2p_channel::control));
    if (path == content_path::mpi) {
      DTL_ASSIGN_OR_RETURN(follow_req_, st_.comm->isend(content, bytes, s_.peer, h.ticket, p2p_channel::data));
    }
    nccl_pending_ = path == content_path::nccl;
    return {};
  }
  /// A device buffer on MPI: waits for its earlier work, and stages it unless MPI takes device memory.
  status device_to_wire(const void*& data) {
    auto local = [&](const status& s) {
      return s.with_context(fmt::format("send (rank {}, peer {}, tag {})", st_.comm->rank(), s_.peer, s_.tag));
    };
    if (status p = p2p_device::prepare(st_, s_.stream); !p.ok()) return local(p);
    if (p2p_device::mpi_takes_device(st_)) return {};
    auto pinned = p2p_device::take_pinned(st_, s_.bytes());
    if (!pinned) return local(pinned.error());
    staging_ = std::move(pinned).value();
    if (status c = p2p_device::to_host(st_, staging_.get(), s_.buf, s_.bytes()); !c.ok()) return local(c);
    data = staging_.get();
    return {};
  }

  context_state& st_;
  side s_;
  status own_;  // what this rank returns: its own checks only
  wire_buffer wire_;
  comm_request_ptr header_req_, follow_req_;
  p2p_device::pinned_ptr staging_;
  bool nccl_pending_ = false;
};

class recv_transfer final : public p2p_transfer {
 public:
  /// `grouped`: a blocking call runs an RCCL/NCCL payload itself (run_blocking, grouped with its send);
  /// a request runs it when stepped.
  recv_transfer(context_state& st, side s, bool grouped) : st_(st), s_(std::move(s)), grouped_(grouped) {
    peer = s_.peer;
    if (status p = post(); !p.ok()) end(std::move(p));
  }
  void step() override {
    if (done) return;
    if (!answered_) {
      if (!poll(header_req_, *this)) return;
      read_header();
      if (done) return;
    }
    if (!poll(follow_req_, *this)) return;
    if (nccl_pending_) {
      if (grouped_) return;
      nccl_done(p2p_device::nccl_exchange(st_, nullptr, 0, 0, nccl_into(), h_.follow, s_.peer, s_.stream));
    }
    finish();
  }
  /// The header has come (and what follows it is posted).
  [[nodiscard]] bool answered() const noexcept { return answered_ || done; }
  [[nodiscard]] bool nccl_pending() const noexcept { return nccl_pending_ && !done; }
  [[nodiscard]] const side& part() const noexcept { return s_; }
  /// Whether the payload was enqueued on the call's stream (RCCL/NCCL into this rank's device buffer).
  [[nodiscard]] bool used_nccl() const noexcept { return nccl_direct_; }
  [[nodiscard]] void* nccl_into() const noexcept { return nccl_direct_ ? s_.buf : device_temp_.get(); }
  [[nodiscard]] std::size_t nccl_bytes() const noexcept { return h_.follow; }
  void nccl_done(const status& s) {
    nccl_pending_ = false;
    if (verdict_.ok()) verdict_ = s;
  }

 private:
  void end(status s) {
    done = true;
    outcome = std::move(s);
  }
  status local(const status& s) const {
    return s.with_context(fmt::format("recv (rank {}, peer {}, tag {})", st_.comm->rank(), s_.peer, s_.tag));
  }
  /// The header's receive, as long as the longest header's message: it takes whichever comes first.
  status post() {
    wire_.size = header_bytes + eager_limit(*st_.comm);
    DTL_ASSIGN_OR_RETURN(header_req_, st_.comm->irecv(wire_.data(), wire_.size, s_.peer, s_.tag, p2p_channel::control));
    return {};
  }
  /// The sender's failure, else this rank's own, else the payload: whatever follows the header is
  /// received in every case, so that nothing is left to match a later receive.
  void read_header() {
    answered_ = true;
    std::memcpy(&h_, wire_.data(), header_bytes);
    const auto path = static_cast<content_path>(h_.path);
    if (h_.code != 0) {
      sender_failed_ = true;
      if (h_.follow == 0) verdict_ = from_wire(h_.code, wire_.body(), h_.body);
      return drain(path);  // the text, finished in finish()
    }
    verdict_ = s_.local;
    if (verdict_.ok() && (h_.count != s_.count || h_.elem != s_.elem))
      verdict_ = count_mismatch(h_.count, h_.elem, s_.peer, st_.comm->rank(), s_.tag, s_.count, s_.elem);
    if (!verdict_.ok() || s_.bytes() == 0) return drain(path);
    switch (path) {
      case content_path::body:
        if (!s_.device) {
          std::memcpy(s_.buf, wire_.body(), s_.bytes());
        } else {
          status c = p2p_device::prepare(st_, s_.stream);
          if (c.ok()) c = p2p_device::to_device(st_, s_.buf, wire_.body(), s_.bytes());
          if (!c.ok()) verdict_ = local(c);
        }
        return;
      case content_path::mpi: return receive_mpi();
      case content_path::nccl: return receive_nccl();
    }
  }
  /// The payload on MPI: into the buffer, or a device buffer's staging memory (pinned, else pageable).
  void receive_mpi() {
    void* into = s_.buf;
    if (s_.device) {
      if (status p = p2p_device::prepare(st_, s_.stream); !p.ok()) {
        verdict_ = local(p);
        return drain(content_path::mpi);
      }
      if (!p2p_device::mpi_takes_device(st_)) {
        if (auto pinned = p2p_device::take_pinned(st_, s_.bytes()); pinned)
          pinned_ = std::move(pinned).value();
        else if (status t = take_drain(s_.bytes()); !t.ok())
          return end(local(t));  // nothing can take the payload
        into = pinned_ ? pinned_.get() : drain_.get();
        staged_ = true;
      }
    }
    post_follow(into, h_.follow);
  }
  /// The payload on RCCL/NCCL (the sender's buffer is device memory): into this rank's device buffer,
  /// or a device temporary (copied into a host buffer afterwards).
  void receive_nccl() {
    if (s_.device) {
      nccl_direct_ = true;
      nccl_pending_ = true;
      return;
    }
    drain(content_path::nccl);
  }
  /// Takes what follows the header where it is not wanted (or is the sender's failure's text).
  void drain(content_path path) {
    if (h_.follow == 0) return;
    if (path == content_path::nccl) {
      auto temp = p2p_device::take_device(st_, h_.follow);
      if (!temp) return end(local(temp.error()));  // the sender's RCCL/NCCL send is left unmatched
      device_temp_ = std::move(temp).value();
      nccl_pending_ = true;
      return;
    }
    if (status t = take_drain(h_.follow); !t.ok()) return end(local(t));
    post_follow(drain_.get(), h_.follow);
  }
  status take_drain(std::size_t bytes) {
    try {
      drain_ = std::make_unique_for_overwrite<std::byte[]>(bytes);
    } catch (const std::bad_alloc&) {
      return status(status_code::out_of_memory, fmt::format("no memory for a message of {} bytes", bytes));
    }
    return {};
  }
  void post_follow(void* into, std::size_t bytes) {
    auto r = st_.comm->irecv(into, bytes, s_.peer, h_.ticket, p2p_channel::data);
    if (!r) return end(std::move(r).error());
    follow_req_ = std::move(r).value();
  }
  /// Everything has come: the sender's failure's text, or the staged payload to its place.
  void finish() {
    if (sender_failed_ && h_.follow != 0) {
      verdict_ = from_wire(h_.code, drain_.get(), h_.follow);
    } else if (verdict_.ok() && staged_) {
      status c = p2p_device::to_device(st_, s_.buf, pinned_ ? pinned_.get() : drain_.get(), s_.bytes());
      if (!c.ok()) verdict_ = local(c);
    } else if (verdict_.ok() && device_temp_ && s_.bytes() != 0) {
      status c = p2p_device::prepare(st_, s_.stream);
      if (c.ok()) c = p2p_device::to_host(st_, s_.buf, device_temp_.get(), s_.bytes());
      if (!c.ok()) verdict_ = local(c);
    }
    end(verdict_);
  }

  context_state& st_;
  side s_;
  bool grouped_;
  header h_;
  status verdict_;  // what this rank returns: the sender's failure, else its own
  wire_buffer wire_;
  comm_request_ptr header_req_, follow_req_;
  p2p_device::pinned_ptr pinned_;       // a device buffer's staging memory
  std::unique_ptr<std::byte[]> drain_;  // what is not wanted, the failure's text, or pageable staging
  p2p_device::device_ptr device_temp_;  // an RCCL/NCCL payload into a host buffer, or not wanted
  bool answered_ = false;
  bool sender_failed_ = false;
  bool staged_ = false;  // the payload arrives in pinned_ or drain_, for a device buffer
  bool nccl_pending_ = false;
  bool nccl_direct_ = false;  // RCCL/NCCL into s_.buf
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

/// A blocking send and/or receive (either may be null): the receive's header, then RCCL/NCCL for the
/// halves that take it (grouped), then the rest. The send's failure first, then the receive's.
status run_blocking(context_state& st, send_transfer* s, recv_transfer* r) {
  if (r != nullptr)
    spin_until(st, [&] {
      r->step();
      if (s != nullptr) s->step();
      return r->answered();
    });
  const bool send_nccl = s != nullptr && s->nccl_pending(), recv_nccl = r != nullptr && r->nccl_pending();
  if (send_nccl || recv_nccl) {
    const side* sp = send_nccl ? &s->part() : nullptr;
    const status moved = p2p_device::nccl_exchange(
        st, sp ? sp->buf : nullptr, sp ? sp->bytes() : 0, sp ? sp->peer : 0, recv_nccl ? r->nccl_into() : nullptr,
        recv_nccl ? r->nccl_bytes() : 0, recv_nccl ? r->part().peer : 0, sp ? sp->stream : r->part().stream);
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

/// A sendrecv of a rank with itself decides alone: both halves are here, so no message travels and the
/// data is one copy (on the device where a buffer is device memory). Not while an earlier transfer with
/// oneself is in flight: MPI's order would match that one first.
bool self_shortcut(const context_state& st, int dest, int src) {
  const int rank = st.comm->rank();
  if (dest != rank || src != rank) return false;
  return std::none_of(st.p2p_pending.begin(), st.p2p_pending.end(),
                      [&](const p2p_transfer* t) { return t->peer == rank; });
}

status self_sendrecv(context_state& st, const side& s, const side& r, bool* enqueued) {
  // The sender's failure first, as the receive of a message returns it.
  if (!s.local.ok()) return s.local;
  if (!r.local.ok()) return r.local;
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
  recv_transfer r(*st, make_side(*st, buf, count, elem, src, tag, true, stream, "recv"), true);
  const status out = run_blocking(*st, nullptr, &r);
  if (used_nccl != nullptr) *used_nccl = r.used_nccl();
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
  recv_transfer r(*st, make_side(*st, recv, recv_count, elem, src, tag, true, stream, "sendrecv (its receive)"), true);
  send_transfer s(*st, make_side(*st, send, send_count, elem, dest, tag, true, stream, "sendrecv (its send)"));
  const status out = run_blocking(*st, &s, &r);
  if (used_nccl != nullptr) *used_nccl = s.part().nccl || r.used_nccl();
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

// isend takes MPI for device buffers too: RCCL/NCCL pair transfers in the order they are issued, and
// requests complete in whatever order the program tests them. An irecv follows its sender's path (a
// blocking sender's RCCL/NCCL payload is received when the request is stepped).
result<request> context::isend_raw(const void* buf, std::size_t count, std::size_t elem, int dest, int tag) const {
  detail::context_state* st = state_.get();
  DTL_TRY(detail::check_call(st, dest, tag, max_tag(), "isend"));
  auto t = std::make_unique<detail::send_transfer>(
      *st, detail::make_side(*st, buf, count, elem, dest, tag, false, nullptr, "isend"));
  t->step();  // the fast path: an eager message completes at once
  return request(std::make_unique<detail::p2p_request>(state_, std::move(t)));
}

result<request> context::irecv_raw(void* buf, std::size_t count, std::size_t elem, int src, int tag) const {
  detail::context_state* st = state_.get();
  DTL_TRY(detail::check_call(st, src, tag, max_tag(), "irecv"));
  auto t = std::make_unique<detail::recv_transfer>(
      *st, detail::make_side(*st, buf, count, elem, src, tag, false, nullptr, "irecv"), false);
  return request(std::make_unique<detail::p2p_request>(state_, std::move(t)));
}

}  // namespace dtl

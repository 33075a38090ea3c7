// SPDX-License-Identifier: MIT
// rpc_context: requests and replies as two point-to-point messages each on a context of their own, a
// message_header (tag header_tag) then, when it has one, the payload (tag payload_tag). Each rank keeps
// a header receive posted for every other rank while an epoch is open (from its first rpc call to the
// end of its fence). fence() sends every other rank a fence marker: after it that rank sends no more
// requests (a rank's messages arrive in order), but it still answers those that reach it before the
// other ranks' markers. So after a peer's marker a receive is posted only while a call to that peer
// waits for its reply. fence() ends once every other rank's marker has come and no receive is posted:
// an epoch leaves nothing behind.
#include <dtl/remote/rpc.hpp>

#include <dtl/core/status.hpp>

#include <algorithm>
#include <cstdint>
#include <list>
#include <map>
#include <optional>
#include <thread>
#include <utility>

namespace dtl::remote {

namespace {
constexpr int header_tag = 1;
constexpr int payload_tag = 2;
constexpr std::uint8_t fence_type = 5;  // a message kind of this file only: the sender's epoch ends

/// The handlers as process_rpc_message finds them.
struct handler_list {
  std::vector<action_handler> handlers;
  [[nodiscard]] std::optional<action_handler> find(action_id id) const {
    const auto it =
        std::find_if(handlers.begin(), handlers.end(), [id](const action_handler& h) { return h.id() == id; });
    if (it == handlers.end()) return std::nullopt;
    return *it;
  }
};

/// The message header then payload, as one buffer (what process_rpc_message and read_response take).
std::vector<std::byte> whole_message(const message_header& h, std::span<const std::byte> payload) {
  std::vector<std::byte> bytes(message_header::serialized_size() + payload.size());
  message_header::serialize(h, bytes.data());
  std::copy(payload.begin(), payload.end(),
            bytes.begin() + static_cast<std::ptrdiff_t>(message_header::serialized_size()));
  return bytes;
}
}  // namespace

struct rpc_context::impl {
  /// What comes from one other rank: its next header, then that message's payload.
  struct channel {
    message_header header{};
    std::vector<std::byte> payload;
    request header_recv;
    request payload_recv;
    bool posted = false;  // header_recv is a receive in flight
    bool expecting_payload = false;
    bool ended = false;  // its fence marker came: only replies to this rank's calls may follow
  };
  /// A message on its way out; its buffers live until both parts are sent.
  struct outgoing {
    message_header header{};
    std::vector<std::byte> payload;
    request header_send;
    request payload_send;
  };

  explicit impl(context own) : ctx(std::move(own)) {}

  context ctx;
  handler_list handlers;
  std::map<action_id, active_handler> active;  // active messages' handlers, by id
  std::vector<channel> peers;  // by rank (this rank's entry unused); never resized: receives point into it
  std::list<outgoing> sends;   // a list: the entries do not move while their sends are in flight
  std::map<request_id, std::vector<std::byte>> replies;
  request_id next_request = 1;
  std::map<request_id, rank_t> outstanding;  // calls whose reply has not come, and their targets
  bool epoch_open = false;

  [[nodiscard]] bool awaits(rank_t peer) const {
    return std::any_of(outstanding.begin(), outstanding.end(),
                       [peer](const auto& call) { return call.second == peer; });
  }

  /// Sends a request and records that its reply is awaited.
  [[nodiscard]] status start_call(rank_t target, const message_header& head, std::span<const std::byte> args) {
    if (auto s = open_epoch(); !s.ok()) return s;
    channel& ch = peers[static_cast<std::size_t>(target)];
    if (ch.ended && !ch.posted)  // the target is in its fence: its reply comes after its marker
      if (auto s = post_header_recv(target); !s.ok()) return s;
    if (auto s = post_send(target, head, args); !s.ok()) return s;
    outstanding[head.request] = target;
    return ok_status();
  }

  [[nodiscard]] status post_header_recv(rank_t peer) {
    auto r = ctx.irecv(&peers[static_cast<std::size_t>(peer)].header, 1, peer, header_tag);
    if (!r.has_value()) return r.error();
    peers[static_cast<std::size_t>(peer)].header_recv = std::move(r.value());
    peers[static_cast<std::size_t>(peer)].posted = true;
    return ok_status();
  }

  [[nodiscard]] status open_epoch() {
    if (epoch_open) return ok_status();
    for (rank_t p = 0; p < ctx.size(); ++p) {
      if (p == ctx.rank()) continue;
      peers[static_cast<std::size_t>(p)].ended = false;
      if (auto s = post_header_recv(p); !s.ok()) return s;
    }
    epoch_open = true;
    return ok_status();
  }

  [[nodiscard]] status post_send(rank_t dest, const message_header& h, std::span<const std::byte> payload) {
    outgoing& out = sends.emplace_back();
    out.header = h;
    out.payload.assign(payload.begin(), payload.end());
    auto head = ctx.isend(&out.header, 1, dest, header_tag);
    if (!head.has_value()) return head.error();
    out.header_send = std::move(head.value());
    if (!out.payload.empty()) {
      auto body = ctx.isend(out.payload.data(), out.payload.size(), dest, payload_tag);
      if (!body.has_value()) return body.error();
      out.payload_send = std::move(body.value());
    }
    return ok_status();
  }

  /// The reply to a request (nothing for fire-and-forget) from this rank's handlers.
  [[nodiscard]] std::optional<std::vector<std::byte>> run_here(const message_header& h,
                                                               std::span<const std::byte> payload) const {
    if (const auto am = active.find(h.action); am != active.end()) return run_active(am->second, h, payload);
    const auto message = whole_message(h, payload);
    return process_rpc_message(handlers, message.data(), message.size(), ctx.rank());
  }

  /// An active message's handler: its bytes are the reply (none for fire-and-forget); a throw is
  /// operation_failed, as an action's.
  [[nodiscard]] std::optional<std::vector<std::byte>> run_active(const active_handler& handler, const message_header& h,
                                                                 std::span<const std::byte> payload) const {
    std::vector<std::byte> out;
    try {
      out = handler(h.source_rank, payload);
    } catch (...) {
      if (h.msg_type != message_header::request_type) return std::nullopt;
      return serialize_error(h.request, ctx.rank(), static_cast<std::int32_t>(status_code::operation_failed),
                             "rpc: the active message's handler failed");
    }
    if (h.msg_type != message_header::request_type) return std::nullopt;
    return whole_message(message_header::make_response(h.request, out.size(), ctx.rank()), out);
  }

  /// One message from peer has fully arrived.
  [[nodiscard]] result<size_type> take(rank_t peer) {
    channel& ch = peers[static_cast<std::size_t>(peer)];
    const message_header h = ch.header;
    std::vector<std::byte> payload = std::move(ch.payload);
    ch.payload.clear();
    ch.expecting_payload = false;
    ch.posted = false;
    if (h.msg_type == fence_type) {
      ch.ended = true;  // only the reply to a call still waiting on it may follow
      if (awaits(peer))
        if (auto s = post_header_recv(peer); !s.ok()) return s;
      return size_type{0};
    }
    if (h.msg_type == message_header::response_type || h.msg_type == message_header::error_type) {
      replies[h.request] = whole_message(h, payload);
      outstanding.erase(h.request);
      if (!ch.ended || awaits(peer))
        if (auto s = post_header_recv(peer); !s.ok()) return s;
      return size_type{0};
    }
    if (auto s = post_header_recv(peer); !s.ok()) return s;
    if (auto reply = run_here(h, payload); reply.has_value()) {
      const auto head = message_header::deserialize(reply->data());
      const std::span<const std::byte> body(reply->data() + message_header::serialized_size(), head.payload_size);
      if (auto s = post_send(peer, head, body); !s.ok()) return s;
    }
    return size_type{1};
  }

  /// Moves every transfer on without blocking; the requests served.
  [[nodiscard]] result<size_type> step() {
    size_type served = 0;
    for (rank_t p = 0; p < ctx.size(); ++p) {
      channel& ch = peers[static_cast<std::size_t>(p)];
      if (p == ctx.rank() || !ch.posted) continue;
      if (!ch.expecting_payload) {
        auto arrived = ch.header_recv.test();
        if (!arrived.has_value()) return arrived.error();
        if (!arrived.value()) continue;
        if (ch.header.payload_size > 0) {
          ch.payload.resize(ch.header.payload_size);
          auto body = ctx.irecv(ch.payload.data(), ch.payload.size(), p, payload_tag);
          if (!body.has_value()) return body.error();
          ch.payload_recv = std::move(body.value());
          ch.expecting_payload = true;
        }
      }
      if (ch.expecting_payload) {
        auto arrived = ch.payload_recv.test();
        if (!arrived.has_value()) return arrived.error();
        if (!arrived.value()) continue;
      }
      auto n = take(p);
      if (!n.has_value()) return n.error();
      served += n.value();
    }
    for (auto it = sends.begin(); it != sends.end();) {
      auto head = it->header_send.test();
      if (!head.has_value()) return head.error();
      auto body = it->payload_send.test();
      if (!body.has_value()) return body.error();
      it = head.value() && body.value() ? sends.erase(it) : std::next(it);
    }
    return served;
  }

  [[nodiscard]] status check_target(rank_t target) const {
    if (target < 0 || target >= ctx.size())
      return error_status(status_code::invalid_rank, target, "rpc: target rank outside the context");
    return ok_status();
  }
};

rpc_context::rpc_context(std::shared_ptr<impl> state) noexcept : impl_(std::move(state)) {}
rpc_context::rpc_context(rpc_context&&) noexcept = default;
rpc_context& rpc_context::operator=(rpc_context&&) noexcept = default;

rpc_context::~rpc_context() {
  if (impl_ == nullptr || !impl_->epoch_open) return;
  // Receives are posted and MPI cannot take them back: waiting for them could hang forever, so their
  // state (and the buffers they point into) is abandoned, and the mistake reported.
  report_unhandled(error_status(status_code::invalid_state, impl_->ctx.rank(),
                                "rpc_context destroyed between fences: its receives are abandoned (end with fence())"));
  static_cast<void>(new std::shared_ptr<impl>(std::move(impl_)));  // kept alive, never freed
}

rank_t rpc_context::rank() const noexcept { return impl_ ? impl_->ctx.rank() : no_rank; }
rank_t rpc_context::size() const noexcept { return impl_ ? impl_->ctx.size() : 0; }

namespace {
status moved_from() { return error_status(status_code::invalid_state, no_rank, "rpc_context: moved from"); }
}  // namespace

result<request_id> rpc_context::start_call(rank_t target, action_id id, std::span<const std::byte> args) {
  if (!impl_) return moved_from();
  if (auto s = impl_->check_target(target); !s.ok()) return s;
  const request_id rid = impl_->next_request++;
  const auto head = message_header::make_request(id, rid, args.size(), rank());
  if (target == rank()) {  // runs here at once; its reply waits for take_reply like any other
    auto reply = impl_->run_here(head, args);
    if (!reply.has_value()) return error_status(status_code::internal_error, target, "rpc: no reply to a request");
    impl_->replies[rid] = std::move(*reply);
    return rid;
  }
  if (auto s = impl_->start_call(target, head, args); !s.ok()) return s;
  return rid;
}

result<std::optional<std::vector<std::byte>>> rpc_context::take_reply(impl& state, request_id id) {
  auto it = state.replies.find(id);
  if (it == state.replies.end()) {
    if (auto n = state.step(); !n.has_value()) return n.error();
    it = state.replies.find(id);
    if (it == state.replies.end()) return std::optional<std::vector<std::byte>>{};
  }
  auto reply = std::move(it->second);
  state.replies.erase(it);
  return std::optional(std::move(reply));
}

result<std::optional<std::vector<std::byte>>> rpc_context::take_reply(request_id id) {
  if (!impl_) return moved_from();
  return take_reply(*impl_, id);
}

result<std::vector<std::byte>> rpc_context::call_raw(rank_t target, action_id id, std::span<const std::byte> args) {
  auto rid = start_call(target, id, args);
  if (!rid.has_value()) return rid.error();
  for (;;) {
    auto reply = take_reply(rid.value());
    if (!reply.has_value()) return reply.error();
    if (reply.value().has_value()) return std::move(*reply.value());
    std::this_thread::yield();
  }
}

result<void> rpc_context::send_raw(rank_t target, action_id id, std::span<const std::byte> args) {
  if (!impl_) return moved_from();
  if (auto s = impl_->check_target(target); !s.ok()) return s;
  const auto head = message_header::make_fire_forget(id, args.size(), rank());
  if (target == rank()) {
    static_cast<void>(impl_->run_here(head, args));  // fire and forget: no reply, here either
    return {};
  }
  if (auto s = impl_->open_epoch(); !s.ok()) return s;
  return impl_->post_send(target, head, args);
}

status rpc_context::register_active(action_id id, active_handler handler) {
  if (!impl_) return moved_from();
  if (id == invalid_action_id || !handler || impl_->handlers.find(id).has_value() || impl_->active.contains(id))
    return error_status(status_code::invalid_argument, rank(),
                        "rpc: an active message needs a handler and an id that no action or handler has");
  impl_->active.emplace(id, std::move(handler));
  return ok_status();
}

bool rpc_context::unregister_active(action_id id) { return impl_ && impl_->active.erase(id) > 0; }

result<size_type> rpc_context::progress() {
  if (!impl_) return moved_from();
  if (auto s = impl_->open_epoch(); !s.ok()) return s;
  return impl_->step();
}

result<void> rpc_context::fence() {
  if (!impl_) return moved_from();
  if (auto s = impl_->open_epoch(); !s.ok()) return s;
  while (!impl_->outstanding.empty()) {  // this rank's own calls are answered before its marker goes
    if (auto n = impl_->step(); !n.has_value()) return n.error();
    std::this_thread::yield();
  }
  message_header marker;
  marker.msg_type = fence_type;
  marker.source_rank = rank();
  for (rank_t p = 0; p < size(); ++p)
    if (p != rank())
      if (auto s = impl_->post_send(p, marker, {}); !s.ok()) return s;
  for (;;) {
    if (auto n = impl_->step(); !n.has_value()) return n.error();
    bool all_ended = true;
    for (rank_t p = 0; p < size(); ++p) {
      const auto& ch = impl_->peers[static_cast<std::size_t>(p)];
      all_ended = all_ended && (p == rank() || (ch.ended && !ch.posted));
    }
    if (all_ended && impl_->sends.empty()) break;
    std::this_thread::yield();
  }
  impl_->epoch_open = false;
  return {};
}

result<rpc_context> make_rpc_context_from(const context& ctx, std::vector<action_handler> handlers) {
  auto own = ctx.split(0);  // collective: RPC messages never meet the program's
  if (!own.has_value()) return own.error();
  auto state = std::make_shared<rpc_context::impl>(std::move(own.value()));
  state->handlers.handlers = std::move(handlers);
  state->peers = std::vector<rpc_context::impl::channel>(static_cast<std::size_t>(state->ctx.size()));
  return rpc_context(std::move(state));
}

}  // namespace dtl::remote

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's active messages: bytes sent to a handler that the target registered under an id (an
// action's id names it conveniently), with or without a reply of bytes. They travel as rpc_context's
// requests (rpc.hpp): the target runs its handler while inside an rpc call of its own, fence included.
//
//   register_am_handler<&on_halo>(rpc, [&](dtl::rank_t from, std::span<const std::byte> bytes) { ... });
//   rpc.fence();                                   // every rank has registered
//   send_am<&on_halo>(rpc, peer, bytes);           // fire and forget
//   auto echoed = send_am_with_reply(rpc, peer, id, bytes);   // result<std::vector<std::byte>>

#include <dtl/core/result.hpp>
#include <dtl/core/status.hpp>
#include <dtl/core/types.hpp>
#include <dtl/remote/action.hpp>
#include <dtl/remote/rpc.hpp>
#include <dtl/remote/rpc_serialization.hpp>

#include <cstddef>
#include <functional>
#include <span>
#include <utility>
#include <vector>

namespace dtl::remote {

/// A handler without a reply, and one whose bytes are the reply.
using am_handler = std::function<void(rank_t source, std::span<const std::byte> payload)>;
using am_handler_with_reply = rpc_context::active_handler;

[[nodiscard]] inline status register_am_handler(rpc_context& rpc, action_id id, am_handler handler) {
  if (!handler) return error_status(status_code::invalid_argument, rpc.rank(), "active message: empty handler");
  return rpc.register_active(id, [h = std::move(handler)](rank_t source, std::span<const std::byte> payload) {
    h(source, payload);
    return std::vector<std::byte>{};
  });
}
[[nodiscard]] inline status register_am_handler_with_reply(rpc_context& rpc, action_id id,
                                                           am_handler_with_reply handler) {
  return rpc.register_active(id, std::move(handler));
}
/// The same under the id of action<Func> (which must not also be in the context's registry).
template <auto Func>
[[nodiscard]] status register_am_handler(rpc_context& rpc, am_handler handler) {
  return register_am_handler(rpc, action<Func>::id(), std::move(handler));
}
template <auto Func>
[[nodiscard]] status register_am_handler_with_reply(rpc_context& rpc, am_handler_with_reply handler) {
  return register_am_handler_with_reply(rpc, action<Func>::id(), std::move(handler));
}
template <auto Func>
bool unregister_am_handler(rpc_context& rpc) {
  return rpc.unregister_active(action<Func>::id());
}

/// payload to target's handler id, without waiting (nor learning of its failures).
[[nodiscard]] inline result<void> send_am(rpc_context& rpc, rank_t target, action_id id,
                                          std::span<const std::byte> payload) {
  return rpc.send_raw(target, id, payload);
}
template <auto Func>
[[nodiscard]] result<void> send_am(rpc_context& rpc, rank_t target, std::span<const std::byte> payload) {
  return send_am(rpc, target, action<Func>::id(), payload);
}

/// payload to target's handler id; the handler's reply (empty for a handler without one), or the status
/// of what failed (not_found when target has no handler or action of that id).
[[nodiscard]] inline result<std::vector<std::byte>> send_am_with_reply(rpc_context& rpc, rank_t target, action_id id,
                                                                       std::span<const std::byte> payload) {
  auto reply = rpc.call_raw(target, id, payload);
  if (!reply.has_value()) return reply.error();
  auto head = read_header(reply.value().data(), reply.value().size());
  if (!head.has_value()) return head.error();
  const std::byte* body = reply.value().data() + message_header::serialized_size();
  if (head.value().msg_type == message_header::error_type) {
    status s = deserialize_error(body, head.value().payload_size);
    return error_status(s.code(), head.value().source_rank, std::string(s.message()));
  }
  return std::vector<std::byte>(body, body + head.value().payload_size);
}

}  // namespace dtl::remote

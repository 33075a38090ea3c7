// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's RPC message header: what precedes every request, response and error on the wire
// (the action, the request it answers, the payload's size, the sender and the kind of message).

#include <dtl/core/types.hpp>
#include <dtl/remote/action.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace dtl::remote {

using request_id = std::uint64_t;
inline constexpr request_id invalid_request_id = 0;

/// Fixed-size header, copied as bytes (every rank runs the same program on the same kind of host).
struct message_header {
  enum type : std::uint8_t { request_type = 1, response_type = 2, error_type = 3, fire_forget_type = 4 };

  action_id action = invalid_action_id;
  request_id request = invalid_request_id;
  size_type payload_size = 0;
  rank_t source_rank = no_rank;
  std::uint8_t msg_type = 0;
  std::uint8_t reserved[3] = {};

  static message_header make_request(action_id act, request_id req, size_type size, rank_t src) noexcept {
    return make(request_type, act, req, size, src);
  }
  static message_header make_response(request_id req, size_type size, rank_t src) noexcept {
    return make(response_type, invalid_action_id, req, size, src);
  }
  static message_header make_error(request_id req, size_type size, rank_t src) noexcept {
    return make(error_type, invalid_action_id, req, size, src);
  }
  static message_header make_fire_forget(action_id act, size_type size, rank_t src) noexcept {
    return make(fire_forget_type, act, invalid_request_id, size, src);
  }

  static constexpr size_type serialized_size() noexcept { return sizeof(message_header); }
  static size_type serialize(const message_header& h, std::byte* buffer) noexcept {
    std::memcpy(buffer, &h, sizeof(message_header));
    return sizeof(message_header);
  }
  /// The header at buffer (serialized_size() bytes there: check a message's size first).
  static message_header deserialize(const std::byte* buffer) noexcept {
    message_header h;
    std::memcpy(&h, buffer, sizeof(message_header));
    return h;
  }

 private:
  static message_header make(std::uint8_t kind, action_id act, request_id req, size_type size, rank_t src) noexcept {
    message_header h;
    h.action = act;
    h.request = req;
    h.payload_size = size;
    h.source_rank = src;
    h.msg_type = kind;
    return h;
  }
};

static_assert(std::is_trivially_copyable_v<message_header>);

}  // namespace dtl::remote

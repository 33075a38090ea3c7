// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's RPC messages: a header (rpc_request.hpp) then a payload. A request's payload is the
// arguments (argument_pack), a response's the serialized result (none for a void action), an error's a
// status code then its text. process_rpc_message runs a request against a registry and gives the reply;
// read_response turns a reply back into a result.

#include <dtl/core/result.hpp>
#include <dtl/core/status.hpp>
#include <dtl/core/types.hpp>
#include <dtl/remote/action.hpp>
#include <dtl/remote/action_registry.hpp>
#include <dtl/remote/argument_pack.hpp>
#include <dtl/remote/rpc_request.hpp>
#include <dtl/serialization/serializer.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace dtl::remote {

namespace detail {
inline std::vector<std::byte> with_header(const message_header& h) {
  std::vector<std::byte> bytes(message_header::serialized_size() + h.payload_size);
  message_header::serialize(h, bytes.data());
  return bytes;
}
}  // namespace detail

/// A request for A with args, from source_rank; A's arguments must take args.
template <Action A, typename... Args>
requires std::is_invocable_v < decltype(A::function()), const std::decay_t<Args>
&... > [[nodiscard]] std::vector<std::byte> serialize_request(rank_t source_rank, request_id id, const Args&... args) {
  using pack = argument_pack_for<typename A::request_type>;
  const typename A::request_type converted{args...};  // the action's own argument types travel
  auto bytes =
      detail::with_header(message_header::make_request(A::id(), id, pack::serialized_size(converted), source_rank));
  pack::serialize(converted, bytes.data() + message_header::serialized_size());
  return bytes;
}

template <Serializable T>
[[nodiscard]] std::vector<std::byte> serialize_response(request_id id, rank_t source_rank, const T& value) {
  auto bytes = detail::with_header(message_header::make_response(id, serialized_size(value), source_rank));
  serialize(value, bytes.data() + message_header::serialized_size());
  return bytes;
}

[[nodiscard]] inline std::vector<std::byte> serialize_void_response(request_id id, rank_t source_rank) {
  return detail::with_header(message_header::make_response(id, 0, source_rank));
}

/// An error reply: the status code (int32) then message's text.
[[nodiscard]] inline std::vector<std::byte> serialize_error(request_id id, rank_t source_rank, std::int32_t code,
                                                            std::string_view message) {
  auto bytes = detail::with_header(message_header::make_error(id, sizeof(std::int32_t) + message.size(), source_rank));
  std::byte* payload = bytes.data() + message_header::serialized_size();
  std::memcpy(payload, &code, sizeof code);
  if (!message.empty()) std::memcpy(payload + sizeof code, message.data(), message.size());
  return bytes;
}

/// The status an error payload carries (serialization_error when it is too short to be one).
[[nodiscard]] inline status deserialize_error(const std::byte* payload, size_type size) {
  std::int32_t code = 0;
  if (payload == nullptr || size < sizeof code)
    return error_status(status_code::serialization_error, no_rank, "rpc: malformed error payload");
  std::memcpy(&code, payload, sizeof code);
  const auto c = code == 0 ? status_code::internal_error : static_cast<status_code>(code);
  return error_status(c, no_rank,
                      std::string(reinterpret_cast<const char*>(payload + sizeof code), size - sizeof code));
}

/// The header of a whole message, when it is one: at least a header, and exactly its payload after it.
[[nodiscard]] inline result<message_header> read_header(const std::byte* message, size_type size) {
  if (message == nullptr || size < message_header::serialized_size())
    return error_status(status_code::invalid_format, no_rank, "rpc: message shorter than its header");
  const auto h = message_header::deserialize(message);
  if (h.payload_size != size - message_header::serialized_size() || h.msg_type < message_header::request_type ||
      h.msg_type > message_header::fire_forget_type)
    return error_status(status_code::invalid_format, no_rank, "rpc: damaged message header");
  return h;
}

/// The result a reply carries: T's value (nothing for void), the error a remote rank sent, or
/// deserialize_failed / invalid_format when the bytes are not a reply of that type.
template <typename T>
[[nodiscard]] result<T> read_response(const std::byte* message, size_type size) {
  auto h = read_header(message, size);
  if (!h.has_value()) return h.error();
  const std::byte* payload = message + message_header::serialized_size();
  if (h.value().msg_type == message_header::error_type) {
    status s = deserialize_error(payload, h.value().payload_size);
    return error_status(s.code(), h.value().source_rank, std::string(s.message()));
  }
  if (h.value().msg_type != message_header::response_type)
    return error_status(status_code::invalid_format, no_rank, "rpc: not a response");
  if constexpr (std::is_void_v<T>) {
    if (h.value().payload_size != 0)
      return error_status(status_code::deserialize_failed, no_rank, "rpc: a void action's response has a payload");
    return {};
  } else {
    return try_deserialize<T>(payload, h.value().payload_size);
  }
}

/// Runs the request in message against registry (an action_registry, or what finds handlers alike) on my_rank and gives
/// the reply to send back: the response, or an error reply (not_found for an unknown action, deserialize_failed for
/// arguments that are not the action's, invalid_format for a damaged message). Nothing for a fire-and-forget message
/// and for what is not a request (an unusable header cannot be answered).
template <typename Registry>
requires requires(const Registry& r, action_id id) {
  { r.find(id) } -> std::same_as<std::optional<action_handler>>;
}
[[nodiscard]] std::optional<std::vector<std::byte>> process_rpc_message(const Registry& registry,
                                                                        const std::byte* message, size_type size,
                                                                        rank_t my_rank) {
  auto h = read_header(message, size);
  if (!h.has_value()) return std::nullopt;
  const message_header& head = h.value();
  const bool answer = head.msg_type == message_header::request_type;
  if (!answer && head.msg_type != message_header::fire_forget_type) return std::nullopt;
  const auto handler = registry.find(head.action);
  if (!handler.has_value()) {
    if (!answer) return std::nullopt;
    return serialize_error(head.request, my_rank, static_cast<std::int32_t>(status_code::not_found),
                           "rpc: unknown action");
  }
  const std::byte* payload = message + message_header::serialized_size();
  std::vector<std::byte> reply(message_header::serialized_size() + 256);
  handler_result done{};
  for (;;) {  // a response that does not fit is run again with room for 16 times more (at most 16 MiB)
    const size_type room = reply.size() - message_header::serialized_size();
    done =
        handler->invoke_with_result(payload, head.payload_size, reply.data() + message_header::serialized_size(), room);
    if (done.error_code != handler_result::err_buffer_too_small || room >= (size_type{16} << 20)) break;
    reply.resize(message_header::serialized_size() + room * 16);
  }
  if (!answer) return std::nullopt;
  if (!done.ok()) {
    const bool bad_args = done.error_code == handler_result::err_deserialize_failed;
    const auto code = bad_args ? status_code::deserialize_failed : status_code::operation_failed;
    return serialize_error(head.request, my_rank, static_cast<std::int32_t>(code),
                           bad_args ? "rpc: the arguments are not the action's" : "rpc: the action failed");
  }
  reply.resize(message_header::serialized_size() + done.bytes_written);
  message_header::serialize(message_header::make_response(head.request, done.bytes_written, my_rank), reply.data());
  return reply;
}

}  // namespace dtl::remote

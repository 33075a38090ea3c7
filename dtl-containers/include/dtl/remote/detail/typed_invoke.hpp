// SPDX-License-Identifier: MIT
#pragma once
// Private: running an action on serialized arguments, writing its serialized response; what both
// action_registry's handlers and dynamic_handler's extended handlers call.

#include <dtl/remote/action.hpp>
#include <dtl/remote/argument_pack.hpp>
#include <dtl/serialization/serializer.hpp>

#include <cstddef>
#include <cstdint>

namespace dtl::remote {

/// What a handler did: the response's bytes, or why there is none.
struct handler_result {
  static constexpr int err_none = 0;
  static constexpr int err_invalid_handler = 1;
  static constexpr int err_deserialize_failed = 2;
  static constexpr int err_buffer_too_small = 3;
  static constexpr int err_exception = 4;

  size_type bytes_written = 0;
  int error_code = err_none;

  [[nodiscard]] bool ok() const noexcept { return error_code == err_none; }
  static handler_result make_ok(size_type bytes) noexcept { return {bytes, err_none}; }
  static handler_result make_error(int code) noexcept { return {0, code}; }
};

namespace detail {

/// Deserializes A's arguments, calls A and serializes its response into response (capacity bytes).
/// Exceptions from the function become err_exception: a handler runs on behalf of another rank.
template <Action A>
handler_result invoke_typed(const std::byte* request, size_type request_size, std::byte* response,
                            size_type capacity) noexcept {
  using pack = argument_pack_for<typename A::request_type>;
  try {
    auto args = pack::try_deserialize(request, request_size);
    if (!args.has_value()) return handler_result::make_error(handler_result::err_deserialize_failed);
    if constexpr (A::is_void) {
      A::invoke_tuple(args.value());
      return handler_result::make_ok(0);
    } else {
      const auto value = A::invoke_tuple(args.value());
      if (dtl::serialized_size(value) > capacity || response == nullptr)
        return handler_result::make_error(handler_result::err_buffer_too_small);
      return handler_result::make_ok(dtl::serialize(value, response));
    }
  } catch (...) {
    return handler_result::make_error(handler_result::err_exception);
  }
}

/// The plain handler form: the response's bytes, 0 on any failure (and for a void action).
template <Action A>
size_type invoke_bytes(const std::byte* request, size_type request_size, std::byte* response,
                       size_type capacity) noexcept {
  return invoke_typed<A>(request, request_size, response, capacity).bytes_written;
}

}  // namespace detail
}  // namespace dtl::remote

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's dynamic handlers: action handlers made at run time from an action type, the extended
// form that says why a call failed (handler_result), and invoke_handler, a typed local call through a
// handler (serialize, run, deserialize) that checks what a remote call would do.

#include <dtl/core/result.hpp>
#include <dtl/core/status.hpp>
#include <dtl/remote/action.hpp>
#include <dtl/remote/action_registry.hpp>
#include <dtl/remote/argument_pack.hpp>
#include <dtl/remote/detail/typed_invoke.hpp>
#include <dtl/serialization/serializer.hpp>

#include <cstddef>
#include <type_traits>
#include <vector>

namespace dtl::remote {

/// An action handler that also knows the action's arity and whether it returns nothing, and that says
/// why a call gave no response (invoke_with_result).
class extended_action_handler {
 public:
  using handler_with_result_fn = handler_result (*)(const std::byte* request, size_type request_size,
                                                    std::byte* response, size_type capacity) noexcept;

  extended_action_handler() noexcept = default;
  extended_action_handler(action_id id, handler_with_result_fn fn, size_type arity, bool is_void) noexcept
      : id_(id), fn_(fn), arity_(arity), is_void_(is_void) {}

  [[nodiscard]] action_id id() const noexcept { return id_; }
  [[nodiscard]] bool valid() const noexcept { return fn_ != nullptr && id_ != invalid_action_id; }
  [[nodiscard]] size_type arity() const noexcept { return arity_; }
  [[nodiscard]] bool is_void() const noexcept { return is_void_; }

  handler_result invoke_with_result(const std::byte* request, size_type request_size, std::byte* response,
                                    size_type capacity) const noexcept {
    if (!valid()) return handler_result::make_error(handler_result::err_invalid_handler);
    return fn_(request, request_size, response, capacity);
  }
  /// The plain form (action_handler::invoke's contract).
  size_type invoke(const std::byte* request, size_type request_size, std::byte* response,
                   size_type capacity) const noexcept {
    return invoke_with_result(request, request_size, response, capacity).bytes_written;
  }

 private:
  action_id id_ = invalid_action_id;
  handler_with_result_fn fn_ = nullptr;
  size_type arity_ = 0;
  bool is_void_ = false;
};

template <Action A>
[[nodiscard]] extended_action_handler make_extended_handler() noexcept {
  return extended_action_handler(A::id(), &detail::invoke_typed<A>, A::arity, A::is_void);
}

/// Calls handler here with args and reads its response as a Result. invalid_argument for an invalid
/// handler; operation_failed when the handler gives no response (wrong arguments for the action), and
/// deserialize_failed when the response is not a Result.
template <typename Result, typename... Args>
[[nodiscard]] result<Result> invoke_handler(const action_handler& handler, const Args&... args) {
  if (!handler.valid()) return error_status(status_code::invalid_argument, no_rank, "invoke_handler: invalid handler");
  using pack = argument_pack<std::decay_t<Args>...>;
  const std::vector<std::byte> request = pack::serialize_to_vector(args...);
  if constexpr (std::is_void_v<Result>) {
    handler.invoke(request.data(), request.size(), nullptr, 0);
    return {};
  } else {
    // The plain handler cannot say "too small": 256 bytes, then 4 KiB, then 64 KiB (beyond: failed).
    std::vector<std::byte> response(sizeof(Result) < 256 ? 256 : sizeof(Result));
    for (int attempt = 0; attempt < 3; ++attempt) {
      const size_type written = handler.invoke(request.data(), request.size(), response.data(), response.size());
      if (written != 0) return try_deserialize<Result>(response.data(), written);
      response.resize(response.size() * 16);
    }
    return error_status(status_code::operation_failed, no_rank, "invoke_handler: the handler gave no response");
  }
}

}  // namespace dtl::remote

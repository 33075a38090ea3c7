// SPDX-License-Identifier: MIT
#pragma once
// Remote procedure calls between the ranks of a context: a rank calls an action on another rank, where
// the handler registered for it runs, and gets the result back.
//
//   auto reg = dtl::remote::registry_builder<8>{}.add<dtl::remote::action<&add>>().build();  // same on every rank
//   auto rpc = dtl::remote::make_rpc_context(ctx, reg).value();   // collective
//   auto sum = dtl::remote::call<&add>(rpc, peer, 1, 2);          // result<int>
//   rpc.fence();                                                   // collective: serve until all calls end
//
// A rank runs the requests sent to it only while it is inside an rpc call of its own: call (while it
// waits for its reply), progress or fence. So every rank ends each phase of calls with fence(), which
// serves until every rank has reached it. Failures come back as statuses on the caller: invalid_rank for
// a target outside the context, not_found for an action the target's registry lacks, deserialize_failed
// for arguments that are not the action's (call_raw), operation_failed when the action throws.
// Messages travel on a context of their own (split from the one given), apart from the program's.

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/export.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/types.hpp>
#include <dtl/remote/action.hpp>
#include <dtl/remote/action_registry.hpp>
#include <dtl/remote/argument_pack.hpp>
#include <dtl/remote/rpc_serialization.hpp>

#include <cstddef>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

namespace dtl::remote {

class DTL_CONTAINERS_API rpc_context {
 public:
  rpc_context(rpc_context&&) noexcept;
  rpc_context& operator=(rpc_context&&) noexcept;
  rpc_context(const rpc_context&) = delete;
  rpc_context& operator=(const rpc_context&) = delete;
  /// Destroying it between fences (requests may still come) abandons its receives: reported, not waited.
  ~rpc_context();

  [[nodiscard]] rank_t rank() const noexcept;
  [[nodiscard]] rank_t size() const noexcept;

  /// Sends the request `id` with the serialized arguments to target and serves requests until its reply
  /// comes; the whole reply message (read_response reads it). invalid_rank when target is outside the
  /// context. A call to this rank runs here at once.
  [[nodiscard]] result<std::vector<std::byte>> call_raw(rank_t target, action_id id, std::span<const std::byte> args);
  /// The same without a reply (fire and forget): the handler runs on target, whose failures are dropped.
  [[nodiscard]] result<void> send_raw(rank_t target, action_id id, std::span<const std::byte> args);
  /// Runs the requests that have arrived; how many.
  [[nodiscard]] result<size_type> progress();
  /// Collective: serves requests until every rank has called fence (each one's calls are then answered).
  [[nodiscard]] result<void> fence();

  struct impl;

 private:
  friend result<rpc_context> make_rpc_context_from(const context& ctx, std::vector<action_handler> handlers);
  explicit rpc_context(std::unique_ptr<impl> state) noexcept;
  std::unique_ptr<impl> impl_;
};

/// Collective over ctx: an rpc_context serving handlers (the registry's, which every rank builds alike).
[[nodiscard]] DTL_CONTAINERS_API result<rpc_context> make_rpc_context_from(const context& ctx,
                                                                           std::vector<action_handler> handlers);

template <size_type N>
[[nodiscard]] result<rpc_context> make_rpc_context(const context& ctx, const action_registry<N>& registry) {
  std::vector<action_handler> handlers;
  for (size_type i = 0; i < registry.size(); ++i) handlers.push_back(registry.at(i));
  return make_rpc_context_from(ctx, std::move(handlers));
}

namespace detail {
template <Action A, typename... Args>
std::vector<std::byte> request_bytes(const Args&... args) {
  const typename A::request_type converted{args...};  // the action's own argument types travel
  return argument_pack_for<typename A::request_type>::serialize_to_vector(converted);
}
}  // namespace detail

/// Func(args...) run on target; its result, or the status of what failed.
template <auto Func, typename... Args>
requires std::is_invocable_v<decltype(Func), const Args&...>
[[nodiscard]] result<typename action<Func>::response_type> call(rpc_context& rpc, rank_t target, const Args&... args) {
  using A = action<Func>;
  const auto request = detail::request_bytes<A>(args...);
  auto reply = rpc.call_raw(target, A::id(), request);
  if (!reply.has_value()) return reply.error();
  return read_response<typename A::response_type>(reply.value().data(), reply.value().size());
}

/// Func(args...) run on target, without waiting for it (nor learning of its failures).
template <auto Func, typename... Args>
requires std::is_invocable_v<decltype(Func), const Args&...>
[[nodiscard]] result<void> send(rpc_context& rpc, rank_t target, const Args&... args) {
  using A = action<Func>;
  return rpc.send_raw(target, A::id(), detail::request_bytes<A>(args...));
}

}  // namespace dtl::remote

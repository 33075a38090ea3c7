// SPDX-License-Identifier: MIT
#pragma once
// Remote procedure calls between the ranks of a context: a rank calls an action on another rank, where
// the handler registered for it runs, and gets the result back.
//
//   auto reg = dtl::remote::registry_builder<8>{}.add<dtl::remote::action<&add>>().build();  // same on every rank
//   auto rpc = dtl::remote::make_rpc_context(ctx, reg).value();   // collective
//   auto sum = dtl::remote::call<&add>(rpc, peer, 1, 2);          // result<int>
//   auto later = dtl::remote::call_async<&add>(rpc, peer, 3, 4);   // distributed_future<int>
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
#include <dtl/futures/distributed_future.hpp>
#include <dtl/futures/progress.hpp>
#include <dtl/remote/action.hpp>
#include <dtl/remote/action_registry.hpp>
#include <dtl/remote/argument_pack.hpp>
#include <dtl/remote/rpc_serialization.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

namespace dtl::remote {

class DTL_CONTAINERS_API rpc_context {
 public:
  struct impl;  // src/remote/rpc_context.cpp

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
  /// call_raw in two halves: start_call sends the request (a call to this rank runs at once) and gives
  /// its id; take_reply moves transfers on once, then gives the reply once it is in (after which the id
  /// is forgotten), or nothing yet.
  [[nodiscard]] result<request_id> start_call(rank_t target, action_id id, std::span<const std::byte> args);
  [[nodiscard]] result<std::optional<std::vector<std::byte>>> take_reply(request_id id);
  /// take_reply on the state of a context, which weak_state() gives to callbacks that may outlive it.
  [[nodiscard]] static result<std::optional<std::vector<std::byte>>> take_reply(impl& state, request_id id);
  [[nodiscard]] std::weak_ptr<impl> weak_state() const noexcept { return impl_; }
  /// The same without a reply (fire and forget): the handler runs on target, whose failures are dropped.
  [[nodiscard]] result<void> send_raw(rank_t target, action_id id, std::span<const std::byte> args);
  /// Runs the requests that have arrived; how many.
  [[nodiscard]] result<size_type> progress();
  /// Collective: waits for this rank's calls (call_async's too), then serves requests until every rank
  /// has called fence.
  [[nodiscard]] result<void> fence();

  /// Active messages (active_message.hpp): handler runs here for requests naming id, on their bytes,
  /// and what it returns is the reply. invalid_argument for id 0, an empty handler, or an id that an
  /// action or another handler has. Every rank registers before the fence that precedes their use.
  using active_handler = std::function<std::vector<std::byte>(rank_t source, std::span<const std::byte> payload)>;
  [[nodiscard]] status register_active(action_id id, active_handler handler);
  /// false when no handler had id.
  bool unregister_active(action_id id);

 private:
  friend result<rpc_context> make_rpc_context_from(const context& ctx, std::vector<action_handler> handlers);
  explicit rpc_context(std::shared_ptr<impl> state) noexcept;
  std::shared_ptr<impl> impl_;  // call_async's progress callbacks hold it weakly
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

namespace detail {
/// Waiting on an rpc future polls the progress engine (the caller's: header code), which steps the
/// rpc_context.
class engine_driver final : public futures::detail::progress_driver {
 public:
  void drive() noexcept override { static_cast<void>(futures::poll()); }
};
}  // namespace detail

/// Func(args...) run on target, as a future (upstream's call): ready once the reply is in, which
/// dtl::futures::poll(), or waiting on the future, brings about.
template <auto Func, typename... Args>
requires std::is_invocable_v<decltype(Func), const Args&...>
[[nodiscard]] futures::distributed_future<typename action<Func>::response_type> call_async(rpc_context& rpc,
                                                                                           rank_t target,
                                                                                           const Args&... args) {
  using A = action<Func>;
  using R = typename A::response_type;
  futures::distributed_promise<R> promise;
  auto future = promise.get_future();
  auto started = rpc.start_call(target, A::id(), detail::request_bytes<A>(args...));
  if (!started.has_value()) {
    promise.set_error(started.error());
    return future;
  }
  future.state()->add_driver(std::make_shared<detail::engine_driver>());
  // Registered from this header: the engine that the program's futures::poll() runs.
  futures::progress_engine::instance().register_callback([weak = rpc.weak_state(), id = started.value(),
                                                          promise]() mutable {
    const auto state = weak.lock();
    if (!state) {
      promise.set_error(error_status(status_code::canceled, no_rank, "rpc: the rpc_context ended before the reply"));
      return false;
    }
    auto reply = rpc_context::take_reply(*state, id);
    if (reply.has_value() && !reply.value().has_value()) return true;  // not yet
    if (!reply.has_value()) {
      promise.set_error(reply.error());
      return false;
    }
    auto value = read_response<R>(reply.value()->data(), reply.value()->size());
    if (!value.has_value()) {
      promise.set_error(value.error());
    } else if constexpr (std::is_void_v<R>) {
      promise.set_value();
    } else {
      promise.set_value(std::move(value.value()));
    }
    return false;
  });
  return future;
}

/// Func(args...) run on target, without waiting for it (nor learning of its failures).
template <auto Func, typename... Args>
requires std::is_invocable_v<decltype(Func), const Args&...>
[[nodiscard]] result<void> send(rpc_context& rpc, rank_t target, const Args&... args) {
  using A = action<Func>;
  return rpc.send_raw(target, A::id(), detail::request_bytes<A>(args...));
}

}  // namespace dtl::remote

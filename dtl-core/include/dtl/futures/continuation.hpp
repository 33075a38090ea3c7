// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's future combinators: when_all, when_any, on_error, chain, fmap, flatten, flat_map (and
// the .then() of distributed_future.hpp), in dtl::futures and dtl::.
//
//   auto both = dtl::when_all(std::move(f1), std::move(f2));   // distributed_future<std::tuple<int, double>>
//   auto [a, b] = both.get();
//   auto all = dtl::when_all(std::move(vec_of_futures));        // distributed_future<std::vector<T>>
//   auto first = dtl::when_any(std::move(vec_of_futures));      // when_any_result<T>{index, value}
//
// when_all completes once every input is ready: with all the values, or with the first error in input
// order (only once all are ready, so no input still runs when the caller sees it). A void input gives
// std::monostate in the tuple; a vector of void futures gives distributed_future<void>. when_any
// completes with the first input to become ready (inputs ready already: the lowest index), its value
// or its error. The combinators run on the thread that completes their last (when_any: first) input.

#include <dtl/futures/distributed_future.hpp>

#include <atomic>
#include <cstddef>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace dtl::futures {

namespace detail {

template <class T>
using when_all_value_t = std::conditional_t<std::is_void_v<T>, std::monostate, T>;

/// An input's state, or a failed one standing for an invalid future.
template <class T>
std::shared_ptr<shared_state<T>> state_or_failed(const distributed_future<T>& f) {
  if (f.valid()) return f.state();
  auto failed = std::make_shared<shared_state<T>>();
  failed->fail(invalid_future_status());
  return failed;
}

template <class T>
when_all_value_t<T> take_value(shared_state<T>& s) {
  if constexpr (std::is_void_v<T>) {
    return std::monostate{};
  } else {
    return std::move(s.take()).value();
  }
}

}  // namespace detail

/// Completes when every future is ready: a tuple of their values (std::monostate for void ones), or
/// the first error in argument order.
template <class... Futures>
requires(sizeof...(Futures) > 0 && (detail::is_distributed_future_v<std::remove_cvref_t<Futures>> && ...))
    [[nodiscard]] auto when_all(Futures&&... futures) {
  using tuple_type = std::tuple<detail::when_all_value_t<typename std::remove_cvref_t<Futures>::value_type>...>;
  auto out = std::make_shared<detail::shared_state<tuple_type>>();
  auto inputs = std::make_tuple(detail::state_or_failed(futures)...);
  std::apply([&](const auto&... in) { (out->add_drivers_of(*in), ...); }, inputs);
  auto j = detail::make_join(sizeof...(Futures), [out, inputs]() mutable noexcept {
    const status* first_error = nullptr;
    std::apply(
        [&](const auto&... in) {
          ((first_error == nullptr && !in->outcome().ok() ? void(first_error = &in->outcome()) : void()), ...);
        },
        inputs);
    if (first_error != nullptr) {
      out->fail(*first_error);
      return;
    }
    detail::deliver(
        *out, [&] { return std::apply([](auto&... in) { return tuple_type(detail::take_value(*in)...); }, inputs); });
  });
  std::apply([&](const auto&... in) { (in->on_ready([j] { j->arrive(); }), ...); }, inputs);
  j->arrive();
  return distributed_future<tuple_type>(std::move(out));
}

/// Completes when every future is ready: their values in order (a future<void> for void futures), or
/// the first error in input order. An empty vector gives a ready future.
template <class T>
[[nodiscard]] auto when_all(std::vector<distributed_future<T>> futures) {
  using V = std::conditional_t<std::is_void_v<T>, void, std::vector<T>>;
  auto out = std::make_shared<detail::shared_state<V>>();
  std::vector<std::shared_ptr<detail::shared_state<T>>> inputs;
  inputs.reserve(futures.size());
  for (const auto& f : futures) {
    inputs.push_back(detail::state_or_failed(f));
    out->add_drivers_of(*inputs.back());
  }
  auto j = detail::make_join(inputs.size(), [out, inputs]() mutable noexcept {
    for (const auto& in : inputs) {
      if (!in->outcome().ok()) {
        out->fail(in->outcome());
        return;
      }
    }
    if constexpr (std::is_void_v<T>) {
      out->set_value();
    } else {
      detail::deliver(*out, [&] {
        std::vector<T> values;
        values.reserve(inputs.size());
        for (const auto& in : inputs) values.push_back(std::move(in->take()).value());
        return values;
      });
    }
  });
  for (const auto& in : inputs) in->on_ready([j] { j->arrive(); });
  j->arrive();
  return distributed_future<V>(std::move(out));
}

/// Completes with the first future to become ready: its index and value, or its error. An empty vector
/// fails with invalid_argument.
template <class T>
[[nodiscard]] distributed_future<when_any_result<T>> when_any(std::vector<distributed_future<T>> futures) {
  using R = when_any_result<T>;
  auto out = std::make_shared<detail::shared_state<R>>();
  if (futures.empty()) {
    out->fail(status(status_code::invalid_argument, "when_any of no futures"));
    return distributed_future<R>(std::move(out));
  }
  std::vector<std::shared_ptr<detail::shared_state<T>>> inputs;
  inputs.reserve(futures.size());
  for (const auto& f : futures) {
    inputs.push_back(detail::state_or_failed(f));
    out->add_drivers_of(*inputs.back());
  }
  auto won = std::make_shared<std::atomic<bool>>(false);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    inputs[i]->on_ready([out, won, in = inputs[i].get(), i]() noexcept {
      if (won->exchange(true, std::memory_order_acq_rel)) return;
      if (!in->outcome().ok()) {
        out->fail(in->outcome());
        return;
      }
      detail::deliver(*out, [&] {
        R r;
        r.index = i;
        if constexpr (!std::is_void_v<T>) r.value = std::move(in->take()).value();
        return r;
      });
    });
  }
  return distributed_future<R>(std::move(out));
}

/// A future with this one's value, or handler(error) when it fails (handler(const status&) -> T).
template <class T, class Handler>
requires std::invocable<Handler, const status&>
[[nodiscard]] distributed_future<T> on_error(distributed_future<T> future, Handler&& handler) {
  auto out = std::make_shared<detail::shared_state<T>>();
  auto in = detail::state_or_failed(future);
  out->add_drivers_of(*in);
  in->on_ready([in = in.get(), out, h = std::decay_t<Handler>(std::forward<Handler>(handler))]() mutable noexcept {
    if (!in->outcome().ok()) {
      detail::deliver(*out, [&]() -> T { return h(in->outcome()); });
    } else if constexpr (std::is_void_v<T>) {
      out->set_value();
    } else {
      out->set_value(std::move(in->take()).value());
    }
  });
  return distributed_future<T>(std::move(out));
}

/// future.then(f1).then(f2)...
template <class T, class F, class... Fs>
[[nodiscard]] auto chain(distributed_future<T> future, F&& f, Fs&&... fs) {
  if constexpr (sizeof...(Fs) == 0) {
    return future.then(std::forward<F>(f));
  } else {
    return chain(future.then(std::forward<F>(f)), std::forward<Fs>(fs)...);
  }
}

/// future.then(f).
template <class T, class F>
[[nodiscard]] auto fmap(distributed_future<T> future, F&& f) {
  return future.then(std::forward<F>(f));
}

/// The inner future's outcome, once the outer and then the inner future are ready.
template <class T>
[[nodiscard]] distributed_future<T> flatten(distributed_future<distributed_future<T>> future) {
  auto out = std::make_shared<detail::shared_state<T>>();
  auto outer = detail::state_or_failed(future);
  out->add_drivers_of(*outer);
  outer->on_ready([outer = outer.get(), out]() noexcept {
    if (!outer->outcome().ok()) {
      out->fail(outer->outcome());
      return;
    }
    auto in = detail::state_or_failed(std::move(outer->take()).value());
    out->add_drivers_of(*in);
    in->on_ready([in, out]() noexcept {
      if (!in->outcome().ok()) {
        out->fail(in->outcome());
      } else if constexpr (std::is_void_v<T>) {
        out->set_value();
      } else {
        out->set_value(std::move(in->take()).value());
      }
    });
  });
  return distributed_future<T>(std::move(out));
}

/// flatten(future.then(f)), for f returning a distributed_future.
template <class T, class F>
[[nodiscard]] auto flat_map(distributed_future<T> future, F&& f) {
  return flatten(future.then(std::forward<F>(f)));
}

}  // namespace dtl::futures

namespace dtl {
using futures::chain;
using futures::flat_map;
using futures::flatten;
using futures::fmap;
using futures::on_error;
using futures::when_all;
using futures::when_any;
}  // namespace dtl

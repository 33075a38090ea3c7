// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's policy dispatch over plain iterator ranges (a rank's own elements: no communication):
// the policy traits (is_seq_policy_v, ...), execution_dispatcher<Policy> with the standard algorithms as
// static members, the dispatch_* functions that pick the dispatcher from a policy object, and
// dispatch_algorithm, which picks one of the caller's implementations.
//
//   dtl::dispatch_sort(dtl::par{}, v.begin(), v.end());
//   int s = dtl::dispatch_reduce(dtl::seq{}, v.begin(), v.end(), 0, std::plus<>{});
//
// seq and async run the standard algorithm on the calling thread. par splits a range of
// random-access iterators into chunks on host threads (detail::parallel_for: one thread below 2^15
// elements), other iterators run as under seq; the user's functions are then called concurrently, and an
// exception from one is rethrown on the calling thread once every chunk has finished. Under par, reduce
// folds each chunk in order and then the chunks' results in order after init: the same as seq's
// std::accumulate for an associative operator, with no commutativity needed; for_each returns nothing
// (as upstream's: each chunk calls its own copy of the function). sort sorts contiguous ranges in
// chunks merged pairwise (detail::host_local_sort, not stable), others with std::sort.
// dispatcher<async>::invoke runs the work inline and returns a ready std::future (async never overlaps
// on the host: execution.hpp).

#include <dtl/containers/algorithms/detail/host_sort.hpp>
#include <dtl/containers/algorithms/detail/support.hpp>
#include <dtl/containers/algorithms/execution.hpp>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <functional>
#include <future>
#include <iterator>
#include <memory>
#include <numeric>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace dtl {

template <class T>
struct is_seq_policy : std::is_same<T, seq> {};
template <class T>
inline constexpr bool is_seq_policy_v = is_seq_policy<std::decay_t<T>>::value;
template <class T>
struct is_par_policy : std::is_same<T, par> {};
template <class T>
inline constexpr bool is_par_policy_v = is_par_policy<std::decay_t<T>>::value;
template <class T>
struct is_async_policy : std::is_same<T, async> {};
template <class T>
inline constexpr bool is_async_policy_v = is_async_policy<std::decay_t<T>>::value;

namespace detail {

/// The standard algorithms on the calling thread (seq, and async's algorithms).
struct sequential_dispatch {
  template <class It, class F>
  static F for_each(It first, It last, F f) {
    return std::for_each(first, last, std::move(f));
  }
  template <class In, class Out, class Op>
  static Out transform(In first, In last, Out d_first, Op op) {
    return std::transform(first, last, d_first, std::move(op));
  }
  template <class It, class T, class Op>
  static T reduce(It first, It last, T init, Op op) {
    return std::accumulate(first, last, std::move(init), std::move(op));
  }
  template <class It, class Comp = std::less<>>
  static void sort(It first, It last, Comp comp = {}) {
    std::sort(first, last, std::move(comp));
  }
  template <class It, class T>
  static void fill(It first, It last, const T& value) {
    std::fill(first, last, value);
  }
  template <class In, class Out>
  static Out copy(In first, In last, Out d_first) {
    return std::copy(first, last, d_first);
  }
  template <class It, class T>
  static std::iter_difference_t<It> count(It first, It last, const T& value) {
    return std::count(first, last, value);
  }
  template <class It, class Pred>
  static std::iter_difference_t<It> count_if(It first, It last, Pred pred) {
    return std::count_if(first, last, std::move(pred));
  }
  template <class It, class T>
  static It find(It first, It last, const T& value) {
    return std::find(first, last, value);
  }
  template <class It, class Pred>
  static It find_if(It first, It last, Pred pred) {
    return std::find_if(first, last, std::move(pred));
  }
  template <class It, class Pred>
  static bool all_of(It first, It last, Pred pred) {
    return std::all_of(first, last, std::move(pred));
  }
  template <class It, class Pred>
  static bool any_of(It first, It last, Pred pred) {
    return std::any_of(first, last, std::move(pred));
  }
  template <class It, class Pred>
  static bool none_of(It first, It last, Pred pred) {
    return std::none_of(first, last, std::move(pred));
  }
};

/// The standard algorithms in chunks on host threads, for random-access ranges (others: sequential).
struct threaded_dispatch {
  template <class It, class F>
  static void for_each(It first, It last, F f) {
    if constexpr (std::random_access_iterator<It>) {
      in_chunks(first, last, [&](std::size_t b, std::size_t e) { std::for_each(first + at(b), first + at(e), f); });
    } else {
      std::for_each(first, last, std::move(f));
    }
  }
  template <class In, class Out, class Op>
  static Out transform(In first, In last, Out d_first, Op op) {
    if constexpr (std::random_access_iterator<In> && std::random_access_iterator<Out>) {
      in_chunks(first, last, [&](std::size_t b, std::size_t e) {
        std::transform(first + at(b), first + at(e), d_first + at(b), op);
      });
      return d_first + (last - first);
    } else {
      return std::transform(first, last, d_first, std::move(op));
    }
  }
  template <class It, class T, class Op>
  static T reduce(It first, It last, T init, Op op) {
    if constexpr (std::random_access_iterator<It>) {
      auto fold = [&](std::size_t b, std::size_t e) {
        if (b == e) return std::optional<T>{};
        T acc(first[at(b)]);
        for (std::size_t i = b + 1; i < e; ++i) acc = op(std::move(acc), first[at(i)]);
        return std::optional<T>(std::move(acc));
      };
      for (std::optional<T>& part : fold_in_chunks(size_of(first, last), std::optional<T>{}, fold))
        if (part) init = op(std::move(init), std::move(*part));
      return init;
    } else {
      return std::accumulate(first, last, std::move(init), std::move(op));
    }
  }
  template <class It, class Comp = std::less<>>
  static void sort(It first, It last, Comp comp = {}) {
    if constexpr (std::contiguous_iterator<It>) {
      host_local_sort<false, true>(std::to_address(first), size_of(first, last), comp);
    } else {
      std::sort(first, last, std::move(comp));
    }
  }
  template <class It, class T>
  static void fill(It first, It last, const T& value) {
    if constexpr (std::random_access_iterator<It>) {
      in_chunks(first, last, [&](std::size_t b, std::size_t e) { std::fill(first + at(b), first + at(e), value); });
    } else {
      std::fill(first, last, value);
    }
  }
  template <class In, class Out>
  static Out copy(In first, In last, Out d_first) {
    return transform(first, last, d_first, [](const auto& x) -> decltype(auto) { return x; });
  }
  template <class It, class Pred>
  static std::iter_difference_t<It> count_if(It first, It last, Pred pred) {
    using D = std::iter_difference_t<It>;
    if constexpr (std::random_access_iterator<It>) {
      D total = 0;
      for (D part : fold_in_chunks(size_of(first, last), D{0}, [&](std::size_t b, std::size_t e) {
             return static_cast<D>(std::count_if(first + at(b), first + at(e), std::ref(pred)));
           }))
        total += part;
      return total;
    } else {
      return std::count_if(first, last, std::move(pred));
    }
  }
  template <class It, class T>
  static std::iter_difference_t<It> count(It first, It last, const T& value) {
    return count_if(first, last, [&value](const auto& x) { return x == value; });
  }
  /// The first match: each chunk finds its own, the earliest chunk with one wins.
  template <class It, class Pred>
  static It find_if(It first, It last, Pred pred) {
    if constexpr (std::random_access_iterator<It>) {
      const std::size_t n = size_of(first, last);
      std::size_t found = n;
      for (std::size_t part : fold_in_chunks(n, n, [&](std::size_t b, std::size_t e) {
             const It hit = std::find_if(first + at(b), first + at(e), std::ref(pred));
             return hit == first + at(e) ? n : static_cast<std::size_t>(hit - first);
           }))
        found = std::min(found, part);
      return first + at(found);
    } else {
      return std::find_if(first, last, std::move(pred));
    }
  }
  template <class It, class T>
  static It find(It first, It last, const T& value) {
    return find_if(first, last, [&value](const auto& x) { return x == value; });
  }
  template <class It, class Pred>
  static bool any_of(It first, It last, Pred pred) {
    return find_if(first, last, std::ref(pred)) != last;
  }
  template <class It, class Pred>
  static bool none_of(It first, It last, Pred pred) {
    return !any_of(first, last, std::ref(pred));
  }
  template <class It, class Pred>
  static bool all_of(It first, It last, Pred pred) {
    return !any_of(first, last, [&pred](const auto& x) { return !pred(x); });
  }

 private:
  static std::ptrdiff_t at(std::size_t i) noexcept { return static_cast<std::ptrdiff_t>(i); }
  template <class It>
  static std::size_t size_of(It first, It last) noexcept {
    return static_cast<std::size_t>(last - first);
  }
  template <class It, class Body>
  static void in_chunks(It first, It last, Body body) {
    parallel_for(size_of(first, last), body);
  }
};

}  // namespace detail

/// The dispatcher of a policy without one of its own: invoke only.
template <class Policy>
struct execution_dispatcher {
  template <class F, class... Args>
  static decltype(auto) invoke(F&& f, Args&&... args) {
    return std::invoke(std::forward<F>(f), std::forward<Args>(args)...);
  }
};

template <>
struct execution_dispatcher<seq> : detail::sequential_dispatch {
  template <class F, class... Args>
  static decltype(auto) invoke(F&& f, Args&&... args) {
    return std::invoke(std::forward<F>(f), std::forward<Args>(args)...);
  }
};

template <>
struct execution_dispatcher<par> : detail::threaded_dispatch {
  template <class F, class... Args>
  static decltype(auto) invoke(F&& f, Args&&... args) {
    return std::invoke(std::forward<F>(f), std::forward<Args>(args)...);
  }
};

template <>
struct execution_dispatcher<async> : detail::sequential_dispatch {
  /// Runs f inline; a ready future holds its value or its exception.
  template <class F, class... Args>
  static auto invoke(F&& f, Args&&... args) {
    using R = std::invoke_result_t<F, Args...>;
    std::promise<R> done;
    try {
      if constexpr (std::is_void_v<R>) {
        std::invoke(std::forward<F>(f), std::forward<Args>(args)...);
        done.set_value();
      } else {
        done.set_value(std::invoke(std::forward<F>(f), std::forward<Args>(args)...));
      }
    } catch (...) {
      done.set_exception(std::current_exception());
    }
    return done.get_future();
  }
};

namespace detail {
template <class P>
using dispatcher_of = execution_dispatcher<std::decay_t<P>>;
}  // namespace detail

template <class P, class It, class F>
auto dispatch_for_each(P&&, It first, It last, F f) {
  return detail::dispatcher_of<P>::for_each(first, last, std::move(f));
}
template <class P, class In, class Out, class Op>
auto dispatch_transform(P&&, In first, In last, Out d_first, Op op) {
  return detail::dispatcher_of<P>::transform(first, last, d_first, std::move(op));
}
template <class P, class It, class T, class Op>
auto dispatch_reduce(P&&, It first, It last, T init, Op op) {
  return detail::dispatcher_of<P>::reduce(first, last, std::move(init), std::move(op));
}
template <class P, class It>
void dispatch_sort(P&&, It first, It last) {
  detail::dispatcher_of<P>::sort(first, last);
}
template <class P, class It, class Comp>
void dispatch_sort(P&&, It first, It last, Comp comp) {
  detail::dispatcher_of<P>::sort(first, last, std::move(comp));
}
template <class P, class It, class T>
void dispatch_fill(P&&, It first, It last, const T& value) {
  detail::dispatcher_of<P>::fill(first, last, value);
}
template <class P, class In, class Out>
auto dispatch_copy(P&&, In first, In last, Out d_first) {
  return detail::dispatcher_of<P>::copy(first, last, d_first);
}
template <class P, class It, class T>
auto dispatch_count(P&&, It first, It last, const T& value) {
  return detail::dispatcher_of<P>::count(first, last, value);
}
template <class P, class It, class Pred>
auto dispatch_count_if(P&&, It first, It last, Pred pred) {
  return detail::dispatcher_of<P>::count_if(first, last, std::move(pred));
}
template <class P, class It, class T>
auto dispatch_find(P&&, It first, It last, const T& value) {
  return detail::dispatcher_of<P>::find(first, last, value);
}
template <class P, class It, class Pred>
auto dispatch_find_if(P&&, It first, It last, Pred pred) {
  return detail::dispatcher_of<P>::find_if(first, last, std::move(pred));
}
template <class P, class It, class Pred>
auto dispatch_all_of(P&&, It first, It last, Pred pred) {
  return detail::dispatcher_of<P>::all_of(first, last, std::move(pred));
}
template <class P, class It, class Pred>
auto dispatch_any_of(P&&, It first, It last, Pred pred) {
  return detail::dispatcher_of<P>::any_of(first, last, std::move(pred));
}
template <class P, class It, class Pred>
auto dispatch_none_of(P&&, It first, It last, Pred pred) {
  return detail::dispatcher_of<P>::none_of(first, last, std::move(pred));
}

template <class F>
concept DispatchImpl = std::invocable<F>;

/// Calls the implementation for Policy: par_impl under par, async_impl under async, seq_impl otherwise.
template <class Policy, class Seq, class Par, class Async>
auto dispatch_algorithm(Seq&& seq_impl, Par&& par_impl, Async&& async_impl) -> decltype(std::forward<Seq>(seq_impl)()) {
  if constexpr (is_par_policy_v<Policy>)
    return std::forward<Par>(par_impl)();
  else if constexpr (is_async_policy_v<Policy>)
    return std::forward<Async>(async_impl)();
  else
    return std::forward<Seq>(seq_impl)();
}
/// Calls par_impl under par, seq_impl under any other policy.
template <class Policy, class Seq, class Par>
auto dispatch_algorithm(Seq&& seq_impl, Par&& par_impl) -> decltype(std::forward<Seq>(seq_impl)()) {
  if constexpr (is_par_policy_v<Policy>)
    return std::forward<Par>(par_impl)();
  else
    return std::forward<Seq>(seq_impl)();
}

}  // namespace dtl

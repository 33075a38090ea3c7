// SPDX-License-Identifier: MIT
#pragma once
// What the search, extremes and two-vector algorithms share: a fold over the indices of a block, in which
// at(i) reads whatever the algorithm needs (an element and its global index, or a[i] and b[i]), and the
// candidates (an element with its global index) that find and min_element fold, on the host and on the
// device alike. Not for users.

#include <dtl/containers/algorithms/detail/portable_compare.hpp>
#include <dtl/containers/algorithms/detail/support.hpp>
#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/host_device.hpp>
#include <dtl/core/result.hpp>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <limits>
#include <thread>
#include <vector>

namespace dtl::detail {

/// The index of no element.
inline constexpr std::size_t no_index = std::numeric_limits<std::size_t>::max();

/// An element with its global index; index no_index: none (value unspecified).
template <class T>
struct indexed {
  T value;
  std::size_t index;
  DTL_HOST_DEVICE constexpr bool present() const { return index != no_index; }
};

/// The smallest and the largest element with their indices (minmax_element).
template <class T>
struct indexed_pair {
  indexed<T> low;
  indexed<T> high;
};

// --- the candidates' folds: associative and commutative, ties to the lowest index ---

/// The candidate with the lowest index (find).
struct first_of {
  template <class T>
  DTL_HOST_DEVICE constexpr indexed<T> operator()(const indexed<T>& a, const indexed<T>& b) const {
    return b.index < a.index ? b : a;
  }
};

/// The candidate whose value comes first under comp, the lower index among equivalent ones.
template <class Comp>
struct least_of {
  Comp comp;
  template <class T>
  DTL_HOST_DEVICE constexpr indexed<T> operator()(const indexed<T>& a, const indexed<T>& b) const {
    if (!a.present()) return b;
    if (!b.present()) return a;
    if (comp(b.value, a.value)) return b;
    if (comp(a.value, b.value)) return a;
    return b.index < a.index ? b : a;
  }
};

/// comp with its arguments swapped.
template <class Comp>
struct swapped {
  Comp comp;
  template <class A, class B>
  DTL_HOST_DEVICE constexpr bool operator()(const A& a, const B& b) const {
    return comp(b, a);
  }
};

/// The candidate whose value comes last under comp, the lower index among equivalent ones: the least
/// under comp reversed.
template <class Comp>
struct greatest_of {
  Comp comp;
  template <class T>
  DTL_HOST_DEVICE constexpr indexed<T> operator()(const indexed<T>& a, const indexed<T>& b) const {
    return least_of<swapped<Comp>>{swapped<Comp>{comp}}(a, b);
  }
};

template <class Comp>
struct extremes_of {
  Comp comp;
  template <class T>
  DTL_HOST_DEVICE constexpr indexed_pair<T> operator()(const indexed_pair<T>& a, const indexed_pair<T>& b) const {
    return {least_of<Comp>{comp}(a.low, b.low), greatest_of<Comp>{comp}(a.high, b.high)};
  }
};

// --- what at(i) reads: element i of a block whose first element has global index `offset` ---
// Each also says what element x at index i makes (of): a fold that reads the elements itself (the
// device's 16-byte loads, gpu/element_fold.hpp) asks it that.

/// Element i when pred holds for it, else none.
template <class T, class Pred>
struct match_at {
  const T* data;
  std::size_t offset;
  Pred pred;
  DTL_HOST_DEVICE indexed<T> of(const T& x, std::size_t i) const {
    return indexed<T>{x, pred(x) ? offset + i : no_index};
  }
  DTL_HOST_DEVICE indexed<T> operator()(std::size_t i) const { return of(data[i], i); }
};

template <class T>
struct element_at {
  const T* data;
  std::size_t offset;
  DTL_HOST_DEVICE indexed<T> of(const T& x, std::size_t i) const { return indexed<T>{x, offset + i}; }
  DTL_HOST_DEVICE indexed<T> operator()(std::size_t i) const { return of(data[i], i); }
};

template <class T>
struct element_pair_at {
  const T* data;
  std::size_t offset;
  DTL_HOST_DEVICE indexed_pair<T> of(const T& x, std::size_t i) const {
    const indexed<T> e{x, offset + i};
    return {e, e};
  }
  DTL_HOST_DEVICE indexed_pair<T> operator()(std::size_t i) const { return of(data[i], i); }
};

/// An at(i) that reads element i of `data` (the three above).
template <class At>
concept reads_elements = requires(const At& at, std::size_t i) {
  at.data;
  at.of(at.data[i], i);
};

/// !pred(x) (find_if_not, all_of).
template <class Pred>
struct negated {
  Pred pred;
  template <class X>
  DTL_HOST_DEVICE constexpr bool operator()(const X& x) const {
    return !pred(x);
  }
};

/// Never stops a fold early.
struct never_stop {
  template <class C>
  constexpr bool operator()(const C&) const {
    return false;
  }
};

/// Stops a find once it has a match: later indices cannot come first.
struct stop_at_match {
  template <class T>
  constexpr bool operator()(const indexed<T>& c) const {
    return c.present();
  }
};

/// init op at(0) op ... op at(n - 1) on host threads, chunks combined in order; a fold may end once
/// stop(accumulated) holds (the chunks after the first that stops are then not read).
template <bool Parallel, class C, class Op, class At, class Stop = never_stop>
C host_fold_indexed(std::size_t n, const C& init, Op& op, At& at, Stop stop = {}) {
  auto fold = [&](std::size_t begin, std::size_t end) {
    C acc = init;
    for (std::size_t i = begin; i < end; ++i) {
      acc = op(acc, at(i));
      if (stop(acc)) break;
    }
    return acc;
  };
  if constexpr (!Parallel) {
    return fold(0, n);
  } else {
    const std::vector<C> parts = fold_in_chunks(n, init, fold);
    C acc = init;
    for (const C& p : parts) {
      acc = op(acc, p);
      if (stop(acc)) break;
    }
    return acc;
  }
}

/// Every rank's candidate (an allgather of small structs), folded with op in rank order.
template <class C, class Op>
result<C> combine_candidates_on_host(const context& ctx, const C& mine, const C& none, Op& op) {
  if (ctx.size() == 1) return mine;
  std::vector<C> all(static_cast<std::size_t>(ctx.size()));
  if (result<void> r = allgather_host(ctx, &mine, all.data(), sizeof(C)); !r) return std::move(r).error();
  C acc = none;
  for (const C& c : all) acc = op(acc, c);
  return acc;
}

}  // namespace dtl::detail

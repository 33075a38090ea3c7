// SPDX-License-Identifier: MIT
#pragma once
// Comparators as both the host and the device can call them: std::less and std::greater have constexpr
// host call operators, which nvcc refuses in device code, so they become less_than and greater_than;
// any other comparator stays as it is. Shared by the extremes (minmax.hpp) and the sort. Not for users.

#include <dtl/containers/host_device.hpp>

#include <functional>
#include <type_traits>

namespace dtl::detail {

/// a < b.
struct less_than {
  template <class A, class B>
  DTL_HOST_DEVICE constexpr bool operator()(const A& a, const B& b) const {
    return a < b;
  }
};
/// b < a.
struct greater_than {
  template <class A, class B>
  DTL_HOST_DEVICE constexpr bool operator()(const A& a, const B& b) const {
    return b < a;
  }
};

template <class Comp>
struct portable_compare {
  using type = Comp;
};
template <class X>
struct portable_compare<std::less<X>> {
  using type = less_than;
};
template <class X>
struct portable_compare<std::greater<X>> {
  using type = greater_than;
};
template <class Comp>
using portable_compare_t = typename portable_compare<Comp>::type;

template <class Comp>
portable_compare_t<Comp> to_portable(const Comp& comp) {
  if constexpr (std::is_same_v<portable_compare_t<Comp>, Comp>)
    return comp;
  else
    return {};
}

}  // namespace dtl::detail

// SPDX-License-Identifier: MIT
#pragma once
// The small kernels of the distributed sort (algorithms/sort.hpp): samples of a sorted block, where
// the splitters cut it, and whether a range has a descent. Kernel-compiled; not for users. They
// sit with the sort, not with the shared GPU machinery (gpu/), because they follow its plan (sort_plan.hpp).

#include <dtl/containers/algorithms/detail/portable_compare.hpp>
#include <dtl/containers/algorithms/detail/sort_plan.hpp>
#include <dtl/containers/gpu/kernels.hpp>
#include <dtl/containers/gpu/ops.hpp>
#include <dtl/containers/host_device.hpp>

#include <cstddef>
#include <functional>
#include <type_traits>

namespace dtl::detail::device {

/// 1 when comp is std::less / std::greater (typed or transparent) on the arithmetic key K, radix-
/// sortable ascending; 2 descending; 0 for any other comparator (a merge sort).
template <class Comp, class K>
constexpr int radix_order() {
  if constexpr (!std::is_arithmetic_v<K> || std::is_same_v<K, bool>)
    return 0;
  else if constexpr (std::is_same_v<Comp, std::less<>> || std::is_same_v<Comp, std::less<K>>)
    return 1;
  else if constexpr (std::is_same_v<Comp, std::greater<>> || std::is_same_v<Comp, std::greater<K>>)
    return 2;
  else
    return 0;
}

/// out[i] = data[positions[i]] (the samples of a splitter round, at positions sort_plan chose).
template <class K>
struct gather_body {
  const K* data;
  const std::size_t* positions;
  K* out;
  __device__ void operator()(std::size_t i) const { out[i] = data[positions[i]]; }
};

/// cuts[j] = where point j cuts the sorted block data[0, n) of rank `me` (sort_plan::cut_of at a key).
template <class K, class Comp>
struct cut_body {
  const K* data;
  std::size_t n, me;
  const sort_plan::keyed_point<K>* points;
  Comp comp;
  std::size_t* cuts;
  DTL_DEVICE_EXEC_CHECK_DISABLE
  __device__ void operator()(std::size_t j) const {
    const sort_plan::keyed_point<K> s = points[j];
    if (s.where != sort_plan::place::at_key) {
      cuts[j] = s.where == sort_plan::place::before_all ? 0 : n;
      return;
    }
    std::size_t lo = 0, hi = n;  // lower_bound: the first element not before key
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (comp(data[mid], s.key))
        lo = mid + 1;
      else
        hi = mid;
    }
    const std::size_t lower = lo;
    hi = n;  // upper_bound: the first element after key
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (comp(s.key, data[mid]))
        hi = mid;
      else
        lo = mid + 1;
    }
    cuts[j] = sort_plan::cut_of(me, s.rank, s.position, lower, lo);
  }
};

/// *flag = 1 when data[i + 1] is before data[i] for some i in [0, n - 1): the body runs for i < n - 1.
template <class K, class Comp>
struct descent_body {
  const K* data;
  Comp comp;
  int* flag;
  DTL_DEVICE_EXEC_CHECK_DISABLE
  __device__ void operator()(std::size_t i) const {
    if (comp(data[i + 1], data[i])) *flag = 1;  // every writer writes 1: no race on the value
  }
};

}  // namespace dtl::detail::device

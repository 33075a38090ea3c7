// SPDX-License-Identifier: MIT
#pragma once
// adjacent_difference over every rank, rank boundaries included.
//
//   auto r = dtl::adjacent_difference(in, out);          // out[0] = in[0], out[i] = in[i] - in[i - 1]
//   dtl::adjacent_difference(dtl::par{}, in, out, op);   // out[i] = op(in[i], in[i - 1])
//
// Collective: each rank takes the last element of the ranks before it (one allgather of one element a
// rank), so the first element of every block but the global first is a difference too. in and out share
// context, size and partition (the shared checks of algorithm_fn.hpp) and may be one vector. It returns
// result<adjacent_difference_result>, the same on every rank (count: the elements written over every
// rank, size()). Host placements; a device placement gives not_supported.

#include <dtl/containers/algorithms/detail/algorithm_fn.hpp>
#include <dtl/containers/algorithms/detail/global_moves.hpp>
#include <dtl/containers/algorithms/detail/group_forms.hpp>
#include <dtl/containers/algorithms/detail/host_only.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/core/types.hpp>

#include <cstddef>
#include <functional>

namespace dtl {

/// What adjacent_difference did (upstream DTL's type).
struct adjacent_difference_result {
  size_type count = 0;
  bool success = true;
};

namespace detail {

struct adjacent_difference_impl {
  static constexpr const char* name = "adjacent_difference";
  static constexpr bool communicates = true;
  template <class Pol, class T, class P, class U, class Q, class Op = std::minus<>>
  static result<adjacent_difference_result> host(const Pol&, const distributed_vector<T, P>& in,
                                                 distributed_vector<U, Q>& out, Op op = {}) {
    const context& ctx = in.get_context();
    const T* src = in.local_data();
    U* dst = out.local_data();
    const std::size_t n = in.local_size();
    DTL_ASSIGN_OR_RETURN(const maybe<T> before, last_before(ctx, src, n));
    // Forward, keeping the element before: in and out may be one vector.
    maybe<T> previous = before;
    for (std::size_t i = 0; i < n; ++i) {
      const T current = src[i];
      dst[i] = previous.present != 0 ? static_cast<U>(op(current, previous.value)) : static_cast<U>(current);
      previous = maybe<T>{current, 1};
    }
    return adjacent_difference_result{in.global_size(), true};
  }
  template <class Pol, class T, class P, class U, class Q, class Op = std::minus<>>
  static auto device(const Pol&, const distributed_vector<T, P>&, distributed_vector<U, Q>&, Op = {}) {
    return host_only_outcome<Pol, adjacent_difference_result>(name);
  }
};

}  // namespace detail

inline constexpr detail::with_group_forms<detail::status_algorithm<detail::adjacent_difference_impl>,
                                          detail::adjacent_difference_impl>
    adjacent_difference{};

}  // namespace dtl

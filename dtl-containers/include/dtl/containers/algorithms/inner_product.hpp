// SPDX-License-Identifier: MIT
#pragma once
// Inner products of two vectors of one layout: inner_product and dot (upstream DTL's names).
//
//   double d = dtl::dot(x, y);                                            // sum of x[i] * y[i], every rank
//   double e = dtl::inner_product(dtl::par{}, x, y, 1.0);                 // 1 + sum of x[i] * y[i]
//   auto m = dtl::inner_product(x, y, 0.0, dtl::reduce_max<double>{},    // op1 reduces, op2 combines,
//                               [] __device__ (double a, double b) { return a - b; });  // as std::
//   dtl::result<double> r = dtl::try_dot(x, y);                          // the same, without exceptions
//
// inner_product(a, b, init[, op1, op2]) is init op1 (op2(a[i], b[i]) for every i of every rank), in the
// type of init, with std::plus<> and std::multiplies<> by default; dot(a, b) is inner_product(a, b, T{})
// (T the element type of a). Both are transform_reduce of two vectors (reduce.hpp): one pass over each
// vector, no temporary; the ranks combine as reduce's do (native operators through a collective). The
// vectors must share their context, global size and partition, else every rank gets the error.

#include <dtl/containers/algorithms/reduce.hpp>

#include <functional>

namespace dtl {

namespace detail {

struct inner_product_impl : global_value {
  static constexpr const char* name = "inner_product";
  static constexpr bool communicates = true;
  template <class Pol, class A, class PA, class B, class PB, class Init, class Op1 = std::plus<>,
            class Op2 = std::multiplies<>>
  static auto host(const Pol& p, const distributed_vector<A, PA>& a, const distributed_vector<B, PB>& b,
                   const Init& init, Op1 op1 = {}, Op2 op2 = {}) {
    return transform_reduce_impl::host(p, a, b, init, op1, op2);
  }
  template <class Pol, class A, class PA, class B, class PB, class Init, class Op1 = std::plus<>,
            class Op2 = std::multiplies<>>
  static auto device(const Pol& p, const distributed_vector<A, PA>& a, const distributed_vector<B, PB>& b,
                     const Init& init, Op1 op1 = {}, Op2 op2 = {}) {
    return transform_reduce_impl::device(p, a, b, init, op1, op2);
  }
};

struct dot_impl : global_value {
  static constexpr const char* name = "dot";
  static constexpr bool communicates = true;
  template <class Pol, class A, class PA, class B, class PB>
  static auto host(const Pol& p, const distributed_vector<A, PA>& a, const distributed_vector<B, PB>& b) {
    return transform_reduce_impl::host(p, a, b, A{}, std::plus<>{}, std::multiplies<>{});
  }
  template <class Pol, class A, class PA, class B, class PB>
  static auto device(const Pol& p, const distributed_vector<A, PA>& a, const distributed_vector<B, PB>& b) {
    return transform_reduce_impl::device(p, a, b, A{}, std::plus<>{}, std::multiplies<>{});
  }
};

}  // namespace detail

inline constexpr detail::value_algorithm<detail::inner_product_impl> inner_product{};
inline constexpr detail::try_value_algorithm<detail::inner_product_impl> try_inner_product{};
inline constexpr detail::with_grid_forms<detail::value_algorithm<detail::dot_impl>, detail::grid_dot_impl,
                                         detail::algorithm_form::value>
    dot{};
inline constexpr detail::with_grid_forms<detail::try_value_algorithm<detail::dot_impl>, detail::grid_dot_impl,
                                         detail::algorithm_form::try_value>
    try_dot{};

}  // namespace dtl

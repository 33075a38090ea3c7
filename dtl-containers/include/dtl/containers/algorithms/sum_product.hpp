// SPDX-License-Identifier: MIT
#pragma once
// sum and product of every element (upstream DTL's shortcuts of reduce), and their forms over upstream's
// communicator; sum_of_squares, sum_of_abs, local_sum and local_product at the end of this file.
//
//   int s = dtl::sum(vec);                          // = dtl::reduce(vec, int{}, std::plus<>{})
//   int p = dtl::product(dtl::par{}, vec);          // = dtl::reduce(dtl::par{}, vec, int{1}, std::multiplies<>{})
//   int q = dtl::product(dtl::par{}, vec, comm);    // comm: ctx.get<dtl::mpi_domain>().communicator()
//   dtl::result<int> r = dtl::try_sum(vec);
//   dtl::sum(comm, std::span<const int>(in), std::span<int>(out), root);   // upstream's buffer form
//
// Collective: every rank gets the value over every rank's elements. An empty vector gives the identity
// (T{} for sum, T{1} for product). Each is reduce underneath (reduce.hpp), with its placements, policies
// (async gives a future) and failures. The buffer form is upstream's collective free function (its
// collective_ops.hpp): the element-wise sum of every rank's send_data, in recv_data on the root only (the
// size rule of communication/detail/free_functions.hpp); a failure throws dtl::communication_error on
// every rank.

#include <dtl/containers/algorithms/reduce.hpp>
#include <dtl/containers/host_device.hpp>

#include <functional>
#include <span>
#include <numeric>

namespace dtl {

namespace detail {

/// reduce from `Identity<T>::value()` with `Op`.
template <class Op, template <class> class Identity>
struct identity_reduction : global_value {
  static constexpr bool communicates = true;
  template <class Pol, class T, class P>
  static auto host(const Pol& p, const distributed_vector<T, P>& vec) {
    return reduce_vector_on_host(p, vec, Identity<T>::value(), Op{}, identity_transform{}, reduce_scope::all, 0);
  }
  template <class Pol, class T, class P>
  static auto device(const Pol& p, const distributed_vector<T, P>& vec) {
    return reduce_vector_on_device(p, vec, Identity<T>::value(), Op{}, identity_transform{}, reduce_scope::all, 0);
  }
};

template <class T>
struct zero_of {
  static T value() { return T{}; }
};
template <class T>
struct one_of {
  static T value() { return T{1}; }
};

struct sum_impl : identity_reduction<std::plus<>, zero_of> {
  static constexpr const char* name = "sum";
};
struct product_impl : identity_reduction<std::multiplies<>, one_of> {
  static constexpr const char* name = "product";
};

/// An algorithm object with upstream's communicator form (policy, c, group) beside its own.
template <class Algorithm, class Impl>
struct with_group_form : Algorithm {
  using Algorithm::operator();
  template <blocking_policy P, class C, rank_group G>
  auto operator()(P&& policy, C&& c, G&& group) const {
    return run_on_group(Impl::name, c, group, [&] { return Algorithm::operator()(policy, c); });
  }
};

/// sum's object, with upstream's buffer form beside (the most specialised overload for it).
struct sum_fn : with_group_form<value_algorithm<sum_impl>, sum_impl> {
  using with_group_form::operator();
  template <upstream_comm Comm, class T>
  result<void> operator()(Comm& comm, std::span<const T> send_data, std::span<T> recv_data, rank_t root = 0) const {
    reduce_buffers<std::plus<T>>("sum", comm, send_data, recv_data, root);
    return {};
  }
};

}  // namespace detail

inline constexpr detail::sum_fn sum{};
inline constexpr detail::try_value_algorithm<detail::sum_impl> try_sum{};
inline constexpr detail::with_group_form<detail::value_algorithm<detail::product_impl>, detail::product_impl> product{};
inline constexpr detail::try_value_algorithm<detail::product_impl> try_product{};

// Upstream DTL's sum and product of this rank's block alone (no communication; host placements): T{} and
// T{1} for an empty block.
template <class T, class P>
requires(P::host_accessible) T local_sum(const distributed_vector<T, P>& vec) {
  return std::accumulate(vec.local_data(), vec.local_data() + vec.local_size(), T{});
}
template <class T, class P>
requires(P::host_accessible) T local_product(const distributed_vector<T, P>& vec) {
  return std::accumulate(vec.local_data(), vec.local_data() + vec.local_size(), T{1}, std::multiplies<>{});
}

namespace detail {
/// x * x, and |x|, for host and device placements alike.
struct square_of {
  template <class T>
  DTL_HOST_DEVICE constexpr T operator()(const T& x) const {
    return x * x;
  }
};
struct abs_of {
  template <class T>
  DTL_HOST_DEVICE constexpr T operator()(const T& x) const {
    return x < T{} ? -x : x;
  }
};
}  // namespace detail

// Upstream DTL's transform-reduce patterns (collective, as transform_reduce): the sum of the squares and
// the sum of the absolute values (the L1 norm), in the element type.
template <ExecutionPolicy Pol, class T, class P>
auto sum_of_squares(Pol&& policy, const distributed_vector<T, P>& vec) {
  return dtl::transform_reduce(policy, vec, T{}, std::plus<>{}, detail::square_of{});
}
template <ExecutionPolicy Pol, class T, class P>
auto sum_of_abs(Pol&& policy, const distributed_vector<T, P>& vec) {
  return dtl::transform_reduce(policy, vec, T{}, std::plus<>{}, detail::abs_of{});
}

}  // namespace dtl

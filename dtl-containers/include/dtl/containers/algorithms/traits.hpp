// SPDX-License-Identifier: MIT
#pragma once
// What each algorithm is, as a compile-time table (upstream DTL's algorithm_traits): its domain (local:
// each rank on its own elements; collective: every rank takes part and the ranks communicate), whether it
// changes the elements, and whether it produces one value. A tag names each algorithm.
//
//   static_assert(dtl::CollectiveAlgorithm<dtl::sort_tag>);
//   static_assert(!dtl::requires_communication_v<dtl::fill_tag>);
//
// An algorithm with no row is local, non-modifying and without a value (the primary template).

#include <concepts>

namespace dtl {

struct local_algorithm_tag {};
struct collective_algorithm_tag {};
struct distributed_algorithm_tag {};

namespace detail {
/// One row of the table: communication and all ranks' participation follow from the domain.
template <class Domain, bool Modifying, bool Scalar>
struct algorithm_row {
  using domain_tag = Domain;
  static constexpr bool requires_communication = !std::same_as<Domain, local_algorithm_tag>;
  static constexpr bool requires_all_ranks = requires_communication;
  static constexpr bool is_modifying = Modifying;
  static constexpr bool produces_scalar = Scalar;
};
using local_modifying = algorithm_row<local_algorithm_tag, true, false>;
using collective_modifying = algorithm_row<collective_algorithm_tag, true, false>;
using collective_query = algorithm_row<collective_algorithm_tag, false, false>;  // a position, not a value
using collective_value = algorithm_row<collective_algorithm_tag, false, true>;
}  // namespace detail

template <class Algorithm>
struct algorithm_traits : detail::algorithm_row<local_algorithm_tag, false, false> {};

// The tags, by family.
struct for_each_tag {};
struct find_tag {};
struct count_tag {};
struct all_of_tag {};
struct any_of_tag {};
struct none_of_tag {};
struct transform_tag {};
struct fill_tag {};
struct copy_tag {};
struct replace_tag {};
struct generate_tag {};
struct reduce_tag {};
struct transform_reduce_tag {};
struct accumulate_tag {};
struct sum_tag {};
struct product_tag {};
struct min_element_tag {};
struct max_element_tag {};
struct sort_tag {};
struct stable_sort_tag {};
struct partial_sort_tag {};
struct nth_element_tag {};
struct unique_tag {};

// Element-wise on each rank's own elements: no communication.
template <>
struct algorithm_traits<for_each_tag> : detail::local_modifying {};
template <>
struct algorithm_traits<transform_tag> : detail::local_modifying {};
template <>
struct algorithm_traits<fill_tag> : detail::local_modifying {};
template <>
struct algorithm_traits<copy_tag> : detail::local_modifying {};
template <>
struct algorithm_traits<replace_tag> : detail::local_modifying {};
template <>
struct algorithm_traits<generate_tag> : detail::local_modifying {};
// A global position (find: the first match across the ranks).
template <>
struct algorithm_traits<find_tag> : detail::collective_query {};
// One value from every rank's elements.
template <>
struct algorithm_traits<count_tag> : detail::collective_value {};
template <>
struct algorithm_traits<all_of_tag> : detail::collective_value {};
template <>
struct algorithm_traits<any_of_tag> : detail::collective_value {};
template <>
struct algorithm_traits<none_of_tag> : detail::collective_value {};
template <>
struct algorithm_traits<reduce_tag> : detail::collective_value {};
template <>
struct algorithm_traits<transform_reduce_tag> : detail::collective_value {};
template <>
struct algorithm_traits<accumulate_tag> : detail::collective_value {};
template <>
struct algorithm_traits<sum_tag> : detail::collective_value {};
template <>
struct algorithm_traits<product_tag> : detail::collective_value {};
template <>
struct algorithm_traits<min_element_tag> : detail::collective_value {};
template <>
struct algorithm_traits<max_element_tag> : detail::collective_value {};
// Elements move between ranks.
template <>
struct algorithm_traits<sort_tag> : detail::collective_modifying {};
template <>
struct algorithm_traits<stable_sort_tag> : detail::collective_modifying {};
template <>
struct algorithm_traits<partial_sort_tag> : detail::collective_modifying {};
template <>
struct algorithm_traits<nth_element_tag> : detail::collective_modifying {};
template <>
struct algorithm_traits<unique_tag> : detail::collective_modifying {};

template <class Alg>
concept LocalAlgorithm = std::same_as<typename algorithm_traits<Alg>::domain_tag, local_algorithm_tag>;
template <class Alg>
concept CollectiveAlgorithm = std::same_as<typename algorithm_traits<Alg>::domain_tag, collective_algorithm_tag>;
template <class Alg>
concept DistributedAlgorithm = std::same_as<typename algorithm_traits<Alg>::domain_tag, distributed_algorithm_tag>;

template <class Alg>
inline constexpr bool requires_communication_v = algorithm_traits<Alg>::requires_communication;
template <class Alg>
inline constexpr bool requires_all_ranks_v = algorithm_traits<Alg>::requires_all_ranks;
template <class Alg>
inline constexpr bool is_modifying_algorithm_v = algorithm_traits<Alg>::is_modifying;
template <class Alg>
inline constexpr bool produces_scalar_v = algorithm_traits<Alg>::produces_scalar;

}  // namespace dtl

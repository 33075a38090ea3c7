// SPDX-License-Identifier: MIT
#pragma once
// Policy categories (upstream DTL's names): a policy says which kind it is with a nested
// `policy_category` tag, and is_<kind>_policy_v reads it. The concepts PartitionPolicy,
// ConsistencyPolicy and ErrorPolicy build on these; PlacementPolicy is in <dtl/core/placement.hpp> and
// ExecutionPolicy with the execution policies (dtl-containers), each where its policies are.

#include <dtl/core/types.hpp>

#include <concepts>
#include <type_traits>

namespace dtl {

struct partition_policy_tag {};
struct placement_policy_tag {};
struct consistency_policy_tag {};
struct execution_policy_tag {};
struct error_policy_tag {};

namespace detail {
/// Whether T declares policy_category == Tag.
template <class T, class Tag>
struct has_policy_category : std::false_type {};
template <class T, class Tag>
requires requires { typename T::policy_category; }
struct has_policy_category<T, Tag> : std::is_same<typename T::policy_category, Tag> {};
}  // namespace detail

template <class T>
struct is_partition_policy : detail::has_policy_category<T, partition_policy_tag> {};
template <class T>
struct is_placement_policy : detail::has_policy_category<T, placement_policy_tag> {};
template <class T>
struct is_consistency_policy : detail::has_policy_category<T, consistency_policy_tag> {};
template <class T>
struct is_execution_policy : detail::has_policy_category<T, execution_policy_tag> {};
template <class T>
struct is_error_policy : detail::has_policy_category<T, error_policy_tag> {};

template <class T>
inline constexpr bool is_partition_policy_v = is_partition_policy<T>::value;
template <class T>
inline constexpr bool is_placement_policy_v = is_placement_policy<T>::value;
template <class T>
inline constexpr bool is_consistency_policy_v = is_consistency_policy<T>::value;
template <class T>
inline constexpr bool is_execution_policy_v = is_execution_policy<T>::value;
template <class T>
inline constexpr bool is_error_policy_v = is_error_policy<T>::value;

/// A partition: says so, and maps a global index to its owner and a rank to its element count.
template <class P>
concept PartitionPolicy = is_partition_policy_v<P> &&
    requires(const P& p, index_t i, size_type n, rank_t ranks, rank_t rank) {
  { p.owner(i, n, ranks) } -> std::convertible_to<rank_t>;
  { p.local_size(n, ranks, rank) } -> std::convertible_to<size_type>;
};

template <class P>
concept ConsistencyPolicy = is_consistency_policy_v<P>;
/// Another name some of upstream's tests use.
template <class P>
concept ConsistencyPolicyType = ConsistencyPolicy<P>;

template <class P>
concept ErrorPolicy = is_error_policy_v<P>;
/// Another name some of upstream's tests use.
template <class P>
concept ErrorPolicyType = ErrorPolicy<P>;

}  // namespace dtl

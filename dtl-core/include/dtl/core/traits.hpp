// SPDX-License-Identifier: MIT
#pragma once
// Compile-time traits (upstream DTL's names):
//   is_trivially_serializable_v<T>  memcpy-safe: trivially copyable and standard layout
//   is_transportable_v<T>           can cross ranks; the trivially serializable types, and any type a
//                                   specialization of is_transportable<T> says so for
//   is_distributed_{container,vector,tensor,span,map}_v<T>, is_{local,global,segmented}_view_v<T>,
//   is_remote_ref_v<T>              false here; each container and view says true for itself, in its
//                                   own header, by specializing the trait
//   is_{static,dynamic}_extents_v<E>, extents_rank_v<E>   about a dtl::extents type
//   remove_cvref_t<T>, is_same_cvref_v<T, U>

#include <dtl/core/extents.hpp>
#include <dtl/core/types.hpp>
#include <dtl/policies/policy_category.hpp>  // the policy tags, as upstream's traits bring them

#include <type_traits>

namespace dtl {

template <class T>
struct is_trivially_serializable : std::bool_constant<std::is_trivially_copyable_v<T> && std::is_standard_layout_v<T>> {
};
template <class T>
inline constexpr bool is_trivially_serializable_v = is_trivially_serializable<T>::value;

/// Specialize as std::true_type for a type with its own serialization.
template <class T>
struct is_transportable : is_trivially_serializable<T> {};
template <class T>
inline constexpr bool is_transportable_v = is_transportable<T>::value;

// What a type is; the containers and views specialize these for themselves.
template <class T>
struct is_distributed_container : std::false_type {};
template <class T>
struct is_distributed_vector : std::false_type {};
template <class T>
struct is_distributed_tensor : std::false_type {};
template <class T>
struct is_distributed_span : std::false_type {};
template <class T>
struct is_distributed_map : std::false_type {};
template <class T>
struct is_local_view : std::false_type {};
template <class T>
struct is_global_view : std::false_type {};
template <class T>
struct is_segmented_view : std::false_type {};
template <class T>
struct is_remote_ref : std::false_type {};

template <class T>
inline constexpr bool is_distributed_container_v = is_distributed_container<T>::value;
template <class T>
inline constexpr bool is_distributed_vector_v = is_distributed_vector<T>::value;
template <class T>
inline constexpr bool is_distributed_tensor_v = is_distributed_tensor<T>::value;
template <class T>
inline constexpr bool is_distributed_span_v = is_distributed_span<T>::value;
template <class T>
inline constexpr bool is_distributed_map_v = is_distributed_map<T>::value;
template <class T>
inline constexpr bool is_local_view_v = is_local_view<T>::value;
template <class T>
inline constexpr bool is_global_view_v = is_global_view<T>::value;
template <class T>
inline constexpr bool is_segmented_view_v = is_segmented_view<T>::value;
template <class T>
inline constexpr bool is_remote_ref_v = is_remote_ref<T>::value;

/// Every extent known at compile time.
template <class E>
struct is_static_extents : std::false_type {};
template <size_type... E>
struct is_static_extents<extents<E...>> : std::bool_constant<((E != dynamic_extent) && ...)> {};
template <class E>
inline constexpr bool is_static_extents_v = is_static_extents<E>::value;

/// Every extent known only at run time.
template <class E>
struct is_dynamic_extents : std::false_type {};
template <size_type... E>
struct is_dynamic_extents<extents<E...>> : std::bool_constant<((E == dynamic_extent) && ...)> {};
template <class E>
inline constexpr bool is_dynamic_extents_v = is_dynamic_extents<E>::value;

template <class E>
inline constexpr size_type extents_rank_v = E::rank();

template <class T>
using remove_cvref_t = std::remove_cvref_t<T>;
template <class T, class U>
inline constexpr bool is_same_cvref_v = std::is_same_v<std::remove_cvref_t<T>, std::remove_cvref_t<U>>;

}  // namespace dtl

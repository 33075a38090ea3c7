// SPDX-License-Identifier: MIT
#pragma once
// What a view is, at compile time (upstream DTL's names):
//   may_communicate_v<V>   its accesses may reach other ranks: global_view, remote_ref, and strided
//                          views and subviews of those
//   is_stl_safe_v<V>       the opposite: STL algorithms over it never communicate
//   is_batching_view_v<V>  it yields pieces of a range: chunk_view, window_view, chunk_by_view, tile_view
//   DistributedView<V>     begin(), end() and size()

#include <dtl/containers/global_view.hpp>
#include <dtl/containers/remote_ref.hpp>
#include <dtl/containers/strided_view.hpp>
#include <dtl/core/types.hpp>
#include <dtl/views/chunk_by_view.hpp>
#include <dtl/views/chunk_view.hpp>
#include <dtl/views/subview.hpp>
#include <dtl/views/tile_view.hpp>
#include <dtl/views/window_view.hpp>

#include <concepts>
#include <type_traits>

namespace dtl {

template <class V>
struct may_communicate : std::bool_constant<is_global_view_v<V> || is_remote_ref_v<V>> {};
template <class V>
struct may_communicate<strided_view<V>> : may_communicate<V> {};
template <class V>
struct may_communicate<subview<V>> : may_communicate<V> {};
template <class V>
inline constexpr bool may_communicate_v = may_communicate<std::remove_cvref_t<V>>::value;

template <class V>
inline constexpr bool is_stl_safe_v = !may_communicate_v<V>;

template <class V>
inline constexpr bool is_batching_view_v =
    is_chunk_view_v<V> || is_window_view_v<V> || is_chunk_by_view_v<V> || is_tile_view_v<V>;

template <class V>
concept DistributedView = requires(V v) {
  v.begin();
  v.end();
  { v.size() } -> std::convertible_to<size_type>;
};

}  // namespace dtl

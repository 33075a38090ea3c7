// SPDX-License-Identifier: MIT
#pragma once
// Concepts over element types, containers and views (upstream DTL's names). The policy concepts are
// with their policies (PlacementPolicy in <dtl/core/placement.hpp>; PartitionPolicy, ConsistencyPolicy
// and ErrorPolicy in <dtl/policies/policy_category.hpp>, included here as upstream's concepts.hpp has
// them), the communicator concepts with the communicators.
//   Transportable<T>, TriviallySerializable<T>   the traits of <dtl/core/traits.hpp> as concepts
//   DistributedContainer<C>     a sequence container: size(), local_size() and its three views
//   DistributedAssociativeContainer<M> (= DistributedMap<M>)   keyed: local_size(), is_local(key),
//                               owner(key), begin()/end(); no global or segmented view
//   DistributedCollection<C>    either of the two: local_size() and begin()/end()
//   LocalView<V>, GlobalView<V>, SegmentedView<V>

#include <dtl/core/traits.hpp>
#include <dtl/core/types.hpp>
#include <dtl/policies/policy_category.hpp>

#include <concepts>
#include <iterator>
#include <ranges>
#include <utility>

namespace dtl {

template <class T>
concept Transportable = is_transportable_v<T>;
template <class T>
concept TriviallySerializable = is_trivially_serializable_v<T>;

template <class T>
concept ValueType = std::copyable<T> && std::equality_comparable<T>;
template <class T>
concept Numeric = std::integral<T> || std::floating_point<T>;

template <class C>
concept DistributedContainer = requires(C& c, const C& cc) {
  typename C::value_type;
  typename C::size_type;
  { cc.size() } -> std::convertible_to<typename C::size_type>;
  { cc.local_size() } -> std::convertible_to<typename C::size_type>;
  c.local_view();
  c.global_view();
  c.segmented_view();
};

template <class M>
concept DistributedAssociativeContainer = requires(M& m, const M& cm, const typename M::key_type& key) {
  typename M::mapped_type;
  typename M::size_type;
  { cm.local_size() } -> std::convertible_to<typename M::size_type>;
  { cm.is_local(key) } -> std::same_as<bool>;
  { cm.owner(key) } -> std::convertible_to<rank_t>;
  m.begin();
  m.end();
};
template <class M>
concept DistributedMap = DistributedAssociativeContainer<M>;

template <class C>
concept DistributedCollection = requires(C& c, const C& cc) {
  typename C::size_type;
  { cc.local_size() } -> std::convertible_to<typename C::size_type>;
  c.begin();
  c.end();
};

/// This rank's elements, contiguous.
template <class V>
concept LocalView = std::ranges::sized_range<V> && requires(V& v) {
  { v.data() } -> std::contiguous_iterator;
};
/// Every element by its global index (an element may be a remote_ref).
template <class V>
concept GlobalView = requires(V& v, index_t i) {
  typename V::value_type;
  v[i];
  { v.size() } -> std::convertible_to<size_type>;
};
/// One block per rank, each a range of elements.
template <class V>
concept SegmentedView = std::ranges::range<V> && std::ranges::range<std::ranges::range_value_t<V>>;

}  // namespace dtl

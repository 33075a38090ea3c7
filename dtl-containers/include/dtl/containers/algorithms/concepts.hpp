// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's concepts for constraining algorithms (users name them in their own templates):
//   ExecutionPolicyType<P>                     a policy the algorithms take (our ExecutionPolicy)
//   LocallyIterable<R>, ContiguousLocalRange<R>, SegmentedIterable<R>   what a rank's elements offer
//   BinaryReductionOp<Op, T>, UnaryElementFunction<F, T>, UnaryTransformOp<F, T>,
//   BinaryTransformOp<F, T1, T2>, ElementPredicate<P, T>, SortComparator<Cmp, T>, Generator<G, T>
//                                              the user functions the algorithms call
//   ForEachIterator, TransformOutputIterator, SortableIterator, ReducibleIterator   iterator roles
//   HasLocalView<C>, HasSegmentedView<C>, InPlaceModifiable<C>, RankAware<C>, SupportsBarrier<C>
//   ReductionResult<T>, HasAdditiveIdentity<T>, HasMultiplicativeIdentity<T>, Sortable<T>,
//   Incrementable<T>, Countable<T, C>, Findable<T, C>                  element requirements
//   DistributedAlgorithmTarget<C>, DistributedAlgorithmArgs<P, C>, CollectiveAlgorithmArgs<P, C, Comm>

#include <dtl/containers/algorithms/execution.hpp>
#include <dtl/containers/communication/communicator_concepts.hpp>
#include <dtl/core/concepts.hpp>
#include <dtl/core/types.hpp>

#include <concepts>
#include <functional>
#include <iterator>
#include <ranges>
#include <type_traits>

namespace dtl {

template <class P>
concept ExecutionPolicyType = ExecutionPolicy<P>;

template <class R>
concept LocallyIterable = std::ranges::input_range<R>;
template <class R>
concept ContiguousLocalRange = std::ranges::contiguous_range<R> && std::ranges::sized_range<R>;
template <class R>
concept SegmentedIterable = requires(R& r) {
  r.segmented_view();
};

template <class Op, class T>
concept BinaryReductionOp = std::invocable<Op, T, T> && std::convertible_to<std::invoke_result_t<Op, T, T>, T>;
template <class F, class T>
concept UnaryElementFunction = std::invocable<F, T&>;
template <class F, class T>
concept UnaryTransformOp = std::invocable<F, const T&>;
template <class F, class T1, class T2>
concept BinaryTransformOp = std::invocable<F, const T1&, const T2&>;
template <class P, class T>
concept ElementPredicate = std::predicate<P, const T&>;
template <class Cmp, class T>
concept SortComparator = std::strict_weak_order<Cmp, T, T>;
template <class G, class T>
concept Generator = std::invocable<G> && std::convertible_to<std::invoke_result_t<G>, T>;

template <class It>
concept ForEachIterator = std::input_iterator<It>;
template <class It>
concept TransformOutputIterator = std::output_iterator<It, std::iter_value_t<It>>;
template <class It>
concept SortableIterator = std::random_access_iterator<It> && std::sortable<It>;
template <class It>
concept ReducibleIterator = std::input_iterator<It>;

template <class C>
concept HasLocalView = requires(C& c) {
  { c.local_view() } -> LocallyIterable;
};
template <class C>
concept HasSegmentedView = SegmentedIterable<C>;
/// Its local view hands out the elements themselves (not copies or proxies).
template <class C>
concept InPlaceModifiable = HasLocalView<C> && requires(C& c) {
  { *std::ranges::begin(c.local_view()) } -> std::same_as<typename C::value_type&>;
};
template <class C>
concept RankAware = requires(const C& c) {
  { c.rank() } -> std::convertible_to<rank_t>;
  { c.num_ranks() } -> std::convertible_to<rank_t>;
};
template <class C>
concept SupportsBarrier = requires(C& c) {
  c.barrier();
};

template <class T>
concept ReductionResult = std::default_initializable<T> && std::copyable<T>;
/// T{} is the identity of +.
template <class T>
concept HasAdditiveIdentity = std::default_initializable<T> && requires(T a) {
  {
    a + T {}
    } -> std::convertible_to<T>;
};
/// T{1} is the identity of *.
template <class T>
concept HasMultiplicativeIdentity = requires(T a) {
  {
    a* T { 1 }
    } -> std::convertible_to<T>;
};
template <class T>
concept Sortable = requires(const T& a, const T& b) {
  { a < b } -> std::convertible_to<bool>;
};
template <class T>
concept Incrementable = requires(T& t) {
  { ++t } -> std::same_as<T&>;
  { t++ } -> std::convertible_to<T>;
};
template <class T, class C>
concept Countable = std::equality_comparable_with<T, typename C::value_type>;
template <class T, class C>
concept Findable = Countable<T, C>;

template <class C>
concept DistributedAlgorithmTarget = DistributedContainer<C> && HasLocalView<C> && HasSegmentedView<C>;
template <class P, class C>
concept DistributedAlgorithmArgs = ExecutionPolicyType<P> && DistributedContainer<C>;
template <class P, class C, class Comm>
concept CollectiveAlgorithmArgs = DistributedAlgorithmArgs<P, C> && Communicator<Comm>;

}  // namespace dtl

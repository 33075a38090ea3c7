// SPDX-License-Identifier: MIT
#pragma once
// dtl::distributed_tensor<T, N, Placement>: an N-dimensional array of extents() (row-major: the last
// dimension varies fastest) whose first dimension is split into blocks of whole rows over the ranks of
// a context, as upstream DTL's. The first (extent(0) % ranks) ranks hold one row more; a rank may hold
// none. It is built on a distributed_vector<T, Placement> of the same elements in row-major order (the
// vector's blocks in whole rows of extent(1) * ... * extent(N-1) elements), so it has the vector's
// placements, memory, construction rules and collectives, and every dtl algorithm takes it where it takes
// a vector (elementwise, in that linear order); one that changes the element count (dtl::unique) changes
// the first extent, and fails (the tensor unchanged) when the count left is not whole rows.
//
//   dtl::distributed_tensor<double, 2> t(dtl::nd_extent<2>{100, 64}, ctx);   // host_only, zeros
//   auto v = t.local_view();                      // dtl::tensor_view: v(i, j), v.extent(0), v[linear]
//   v(0, 3) = 1.0;                                // global row t.global_offset()[0] + 0, column 3
//   auto made = dtl::distributed_tensor<float, 3, dtl::device_only_runtime>::create({8, 8, 8}, ctx);
//
// Construction is collective: every rank passes the same extents (checked: invalid_argument on every
// rank otherwise). The constructors throw dtl::status_error; create() returns the status. Errors as the
// vector's, and invalid_argument for extents whose product overflows, not_supported for a partition
// dimension other than 0 (upstream's argument; only the first dimension is split here). Movable, not
// copyable. T trivially copyable.
//
// Indices: nd_index<N> (signed, as upstream's); local(...) and local_view() count rows from this rank's
// first (global row global_offset()[0]). The linear forms of is_local, owner, to_local and to_global
// take row-major positions in the whole tensor. rank() is the number of dimensions, as upstream's;
// my_rank() is this process's rank. nd_partition_map_type (nd_partition_map.hpp) is the row split as a map.
// global(i) is upstream's element access without communication (this rank's elements; global_view()
// reaches every rank's). allocator_type / get_allocator() are the placement's (memory_space_allocator.hpp);
// storage_type is a block of elements in host memory, as replace_local_partition() takes it.

#include <dtl/core/thread_fence.hpp>
#include <dtl/containers/block_partition.hpp>
#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/context_like.hpp>
#include <dtl/containers/communication/detail/agreement.hpp>
#include <dtl/containers/detail/redistribute.hpp>
#include <dtl/containers/detail/vector_access.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/containers/global_view.hpp>
#include <dtl/containers/halo.hpp>
#include <dtl/containers/nd_extent.hpp>
#include <dtl/containers/nd_partition_map.hpp>
#include <dtl/containers/remote_ref.hpp>
#include <dtl/containers/tensor_view.hpp>
#include <dtl/containers/views.hpp>
#include <dtl/core/placement.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/traits.hpp>
#include <dtl/core/try.hpp>
#include <dtl/core/types.hpp>

#include <atomic>
#include <concepts>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dtl {

template <class T, size_type N, PlacementPolicy P = host_only>
class distributed_tensor {
  static_assert(N >= 1, "a distributed_tensor has at least one dimension");

 public:
  using placement_policy = P;
  using vector_type = distributed_vector<T, P>;
  using value_type = T;
  /// The allocator of the placement's memory (the vector's).
  using allocator_type = typename vector_type::allocator_type;
  /// This rank's elements in host memory, row-major: what replace_local_partition() takes.
  using storage_type = std::vector<T>;
  using size_type = dtl::size_type;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using pointer = T*;
  using const_pointer = const T*;
  using index_type = nd_index<N>;
  using extent_type = nd_extent<N>;
  using extents_type = nd_extent<N>;
  using layout_type = row_major;
  /// The row split as upstream's map: block_partition<> along dimension 0.
  using nd_partition_map_type = nd_partition_map<block_partition<>, N>;
  using local_view_type = tensor_view<T, N>;
  using const_local_view_type = tensor_view<const T, N>;
  using global_view_type = dtl::global_view<T>;
  using segmented_view_type = dtl::segmented_view<T>;
  using const_segmented_view_type = dtl::segmented_view<const T>;

  /// The number of dimensions.
  static constexpr size_type tensor_rank = N;

  /// No elements (every extent 0), on this process alone (a CPU context of its own), as upstream's.
  distributed_tensor() : distributed_tensor(extent_type{}, make_cpu_context()) {}
  /// Value-initialised elements of `extents` over the ranks of `ctx` (a dtl::context or a context-like
  /// object: context_like.hpp). Collective; throws dtl::status_error (see create()).
  template <context_like C>
  distributed_tensor(const extent_type& extents, const C& ctx, size_type partition_dim = 0)
      : distributed_tensor(value_or_throw(create(extents, ctx, partition_dim))) {}
  /// Copies of `value` (upstream's argument order).
  template <context_like C>
  distributed_tensor(const extent_type& extents, const T& value, const C& ctx, size_type partition_dim = 0)
      : distributed_tensor(value_or_throw(create(extents, value, ctx, partition_dim))) {}

  /// The constructors without exceptions (errors: see the top of this file).
  template <context_like C>
  [[nodiscard]] static result<distributed_tensor> create(const extent_type& extents, const C& ctx,
                                                         size_type partition_dim = 0) {
    return make(extents, ctx, nullptr, partition_dim);
  }
  template <context_like C>
  [[nodiscard]] static result<distributed_tensor> create(const extent_type& extents, const T& value, const C& ctx,
                                                         size_type partition_dim = 0) {
    return make(extents, ctx, &value, partition_dim);
  }

  distributed_tensor(distributed_tensor&&) noexcept = default;
  distributed_tensor& operator=(distributed_tensor&&) noexcept = default;
  distributed_tensor(const distributed_tensor&) = delete;
  distributed_tensor& operator=(const distributed_tensor&) = delete;
  ~distributed_tensor() = default;

  // --- shape ---
  [[nodiscard]] static constexpr size_type rank() noexcept { return N; }
  [[nodiscard]] extent_type extents() const noexcept {
    extent_type e = extents_;
    e[0] = global_rows();
    return e;
  }
  [[nodiscard]] extent_type global_extents() const noexcept { return extents(); }
  [[nodiscard]] size_type extent(size_type d) const noexcept { return d == 0 ? global_rows() : extents_[d]; }
  /// This rank's block: its rows, then the other extents.
  [[nodiscard]] extent_type local_extents() const noexcept {
    extent_type e = extents_;
    e[0] = local_rows().size();
    return e;
  }
  [[nodiscard]] size_type local_extent(size_type d) const noexcept {
    return d == 0 ? local_rows().size() : extents_[d];
  }
  [[nodiscard]] size_type size() const noexcept { return vector_.global_size(); }
  [[nodiscard]] size_type global_size() const noexcept { return vector_.global_size(); }
  [[nodiscard]] bool empty() const noexcept { return size() == 0; }
  [[nodiscard]] size_type local_size() const noexcept { return vector_.local_size(); }
  /// The element count of rank r's block (0 for a rank outside the context).
  [[nodiscard]] size_type local_size_for_rank(rank_t r) const noexcept {
    return vector_.partition().local_range(r).value_or(index_range{}).size();
  }

  // --- this rank's elements (placements the host can touch) ---
  [[nodiscard]] local_view_type local_view() noexcept requires(P::host_accessible) {
    return {vector_.local_data(), local_extents()};
  }
  [[nodiscard]] const_local_view_type local_view() const noexcept requires(P::host_accessible) {
    return {vector_.local_data(), local_extents()};
  }
  /// The same view for kernels (placements the device can touch).
  [[nodiscard]] local_view_type device_view() noexcept requires(P::device_accessible) {
    return {vector_.local_data(), local_extents()};
  }
  [[nodiscard]] const_local_view_type device_view() const noexcept requires(P::device_accessible) {
    return {vector_.local_data(), local_extents()};
  }
  [[nodiscard]] std::span<T> local_span() noexcept requires(P::host_accessible) {
    return {vector_.local_data(), local_size()};
  }
  [[nodiscard]] std::span<const T> local_span() const noexcept requires(P::host_accessible) {
    return {vector_.local_data(), local_size()};
  }
  /// The element at local index `i` (unchecked).
  [[nodiscard]] reference local(const index_type& i) noexcept requires(P::host_accessible) {
    return vector_.local_data()[local_linear_of(i)];
  }
  [[nodiscard]] const_reference local(const index_type& i) const noexcept requires(P::host_accessible) {
    return vector_.local_data()[local_linear_of(i)];
  }
  template <std::integral... I>
  [[nodiscard]] reference local(I... i) noexcept requires(P::host_accessible && sizeof...(I) == N) {
    return local_view()(i...);
  }
  template <std::integral... I>
  [[nodiscard]] const_reference local(I... i) const noexcept requires(P::host_accessible && sizeof...(I) == N) {
    return local_view()(i...);
  }
  template <std::integral... I>
  [[nodiscard]] reference operator()(I... i) noexcept requires(P::host_accessible && sizeof...(I) == N) {
    return local_view()(i...);
  }
  template <std::integral... I>
  [[nodiscard]] const_reference operator()(I... i) const noexcept requires(P::host_accessible && sizeof...(I) == N) {
    return local_view()(i...);
  }
  /// The local element at row-major position i (unchecked).
  [[nodiscard]] reference local_linear(size_type i) noexcept requires(P::host_accessible) {
    return vector_.local_data()[i];
  }
  [[nodiscard]] const_reference local_linear(size_type i) const noexcept requires(P::host_accessible) {
    return vector_.local_data()[i];
  }
  /// This rank's elements (a device pointer for device placements; nullptr for an empty block).
  [[nodiscard]] pointer local_data() noexcept { return vector_.local_data(); }
  [[nodiscard]] const_pointer local_data() const noexcept { return vector_.local_data(); }
  [[nodiscard]] result<std::vector<T>> copy_to_host() const { return vector_.copy_to_host(); }
  [[nodiscard]] result<void> copy_from_host(const T* src, size_type count) {
    return vector_.copy_from_host(src, count);
  }
  /// Upstream's: element g as a remote_ref, without communication (placements the host can touch). One of
  /// this rank's is read and written in place; another rank's has no window here, so its get() and put()
  /// return not_supported (global_view()[row-major position] reaches it, collectively made).
  [[nodiscard]] remote_ref<T> global(const index_type& g) requires(P::host_accessible) {
    return {owner(g), row_major::linearize(g, extents()), is_local(g) ? &local(to_local(g)) : nullptr};
  }
  [[nodiscard]] remote_ref<const T> global(const index_type& g) const requires(P::host_accessible) {
    return {owner(g), row_major::linearize(g, extents()), is_local(g) ? &local(to_local(g)) : nullptr};
  }
  /// Every element on `root`, row-major (collective).
  [[nodiscard]] result<std::vector<T>> gather(int root = 0) const { return vector_.gather(root); }
  /// Waits for the device work left running on this rank's block (the vector's synchronize()).
  [[nodiscard]] result<void> synchronize() const { return vector_.synchronize(); }

  // --- the whole tensor, by row-major position (the vector's views) ---
  [[nodiscard]] global_view_type global_view() { return vector_.global_view(); }
  [[nodiscard]] segmented_view_type segmented_view() noexcept { return vector_.segmented_view(); }
  [[nodiscard]] const_segmented_view_type segmented_view() const noexcept { return vector_.segmented_view(); }

  // --- the distribution ---
  [[nodiscard]] rank_t my_rank() const noexcept { return vector_.rank(); }
  [[nodiscard]] rank_t num_ranks() const noexcept { return vector_.num_ranks(); }
  [[nodiscard]] const context& get_context() const noexcept { return vector_.get_context(); }
  /// The dimension split over the ranks: always the first.
  [[nodiscard]] static constexpr size_type partition_dim() noexcept { return 0; }
  /// The row-major partition of the elements (blocks of whole rows).
  [[nodiscard]] const block_partition<>& partition() const noexcept { return vector_.partition(); }
  /// Upstream's check: this rank's block and its allocation agree with the partition (the vector's).
  [[nodiscard]] bool structural_metadata_consistent() const noexcept {
    return vector_.structural_metadata_consistent();
  }
  /// The global index of this rank's first element: {first row, 0, ...}.
  [[nodiscard]] index_type global_offset() const noexcept {
    index_type offset{};
    offset[0] = static_cast<index_t>(local_rows().begin);
    return offset;
  }
  [[nodiscard]] bool is_local(const index_type& g) const noexcept {
    return in_bounds(g) && local_rows().contains(static_cast<size_type>(g[0]));
  }
  [[nodiscard]] bool is_local(index_t g) const noexcept {
    return g >= 0 && vector_.local_range().contains(static_cast<size_type>(g));
  }
  /// The rank holding element g; dtl::no_rank outside the extents.
  [[nodiscard]] rank_t owner(const index_type& g) const noexcept {
    return in_bounds(g) ? owner(row_major::linearize(g, extents())) : no_rank;
  }
  [[nodiscard]] rank_t owner(index_t g) const noexcept {
    return g < 0 ? no_rank : vector_.owner(static_cast<size_type>(g)).value_or(no_rank);
  }
  /// Local index of global element g (meaningful where is_local(g)), and back.
  [[nodiscard]] index_type to_local(index_type g) const noexcept {
    g[0] -= static_cast<index_t>(local_rows().begin);
    return g;
  }
  [[nodiscard]] index_type to_global(index_type l) const noexcept {
    l[0] += static_cast<index_t>(local_rows().begin);
    return l;
  }
  [[nodiscard]] index_t to_local(index_t g) const noexcept { return g - linear_offset(); }
  [[nodiscard]] index_t to_global(index_t l) const noexcept { return l + linear_offset(); }

  // --- where the data is ---
  [[nodiscard]] static constexpr bool is_host_accessible() noexcept { return P::host_accessible; }
  [[nodiscard]] static constexpr bool is_device_accessible() noexcept { return P::device_accessible; }
  /// The device of this rank's block, or dtl::no_device for host_only.
  [[nodiscard]] int device_id() const noexcept { return vector_.device_id(); }
  [[nodiscard]] bool has_device_affinity() const noexcept { return vector_.has_device_affinity(); }
  /// An allocator of the placement's memory on this rank's device (the vector's get_allocator()).
  [[nodiscard]] allocator_type get_allocator() const { return vector_.get_allocator(); }

  // --- synchronisation ---
  /// Waits for every rank (collective).
  result<void> barrier() const { return vector_.barrier(); }
  /// A memory fence on this rank; no communication (upstream's).
  result<void> fence() noexcept {
    dtl::thread_fence(std::memory_order_seq_cst);
    return {};
  }
  /// Waits for this rank's device work and every rank, and marks the tensor clean (the vector's sync()).
  result<void> sync() { return vector_.sync(); }
  // Upstream's sync state: the vector's (distributed_vector.hpp, dtl/core/sync_domain.hpp).
  [[nodiscard]] bool is_clean() const noexcept { return vector_.is_clean(); }
  [[nodiscard]] bool is_dirty() const noexcept { return vector_.is_dirty(); }
  void mark_local_modified() noexcept { vector_.mark_local_modified(); }
  void mark_clean() noexcept { vector_.mark_clean(); }
  [[nodiscard]] sync_state& sync_state_ref() noexcept { return vector_.sync_state_ref(); }
  [[nodiscard]] const sync_state& sync_state_ref() const noexcept { return vector_.sync_state_ref(); }

  /// New extents (collective; every rank passes the same). When only the first extent changes, element
  /// (i, ...) keeps its value for the rows that remain and new rows are T{} (the vector's resize, which
  /// moves only the rows that change owner); when another extent changes, every element is T{}. On
  /// failure the tensor is unchanged. Views and pointers taken before are invalidated.
  [[nodiscard]] result<void> resize(const extent_type& extents) {
    if (!same_rows(extents, extents_)) {
      DTL_ASSIGN_OR_RETURN(distributed_tensor fresh, create(extents, vector_.get_context()));
      *this = std::move(fresh);
      return {};
    }
    const context& ctx = vector_.get_context();
    DTL_TRY(detail::agree(ctx, check_extents(extents, 0), signature(extents, 0)));
    DTL_TRY(vector_.resize(extents_size(extents)));
    extents_ = extents;
    return {};
  }

  /// Upstream's: this rank's elements become `elements` (row-major, local_size() of them), copied into the
  /// block (to the device for device placements). No communication. invalid_argument for another count,
  /// the tensor unchanged.
  [[nodiscard]] result<void> replace_local_partition(storage_type elements) {
    if (elements.size() != local_size())
      return status(status_code::invalid_argument,
                    "distributed_tensor::replace_local_partition: " + std::to_string(elements.size()) +
                        " elements for a block of " + std::to_string(local_size()));
    return vector_.copy_from_host(elements.data(), elements.size());
  }
  /// The same with new extents (collective: every rank passes the same): the tensor becomes `new_extents`,
  /// this rank's block holding `elements`, its share of the new rows (nd_partition_map_type's
  /// local_size()). A rank whose count is not its share fails the call on every rank (invalid_argument,
  /// or collective_failure naming the ranks when only some are wrong), as do extents that differ between
  /// ranks (invalid_argument); on failure the tensor is unchanged. Views and pointers taken before are
  /// invalidated.
  [[nodiscard]] result<void> replace_local_partition(storage_type elements, const extent_type& new_extents) {
    const context& ctx = vector_.get_context();
    status own = check_extents(new_extents, 0);
    if (own.ok()) {
      const auto layout = nd_partition_map_type::create(new_extents, 0, num_ranks(), my_rank());
      if (!layout)
        own = layout.error();
      else if (elements.size() != layout->local_size())
        own = status(status_code::invalid_argument,
                     "distributed_tensor::replace_local_partition: " + std::to_string(elements.size()) +
                         " elements for rank " + std::to_string(my_rank()) + "'s block of " +
                         std::to_string(layout->local_size()) + " in the new extents");
    }
    const detail::call_signature call{
        "distributed_tensor::replace_local_partition",
        {static_cast<std::int64_t>(N), detail::sizes_fingerprint(std::span<const size_type>(new_extents))},
        {"number of dimensions", "hash of the extents"}};
    DTL_TRY(detail::agree(ctx, own, call));
    DTL_ASSIGN_OR_RETURN(distributed_tensor fresh, create(new_extents, ctx));
    const result<void> copied = fresh.vector_.copy_from_host(elements.data(), elements.size());
    DTL_TRY(detail::agree(ctx, copied ? status{} : copied.error()));
    *this = std::move(fresh);
    return {};
  }

 private:
  friend struct detail::vector_access;

  distributed_tensor(vector_type v, const extent_type& extents) noexcept : vector_(std::move(v)), extents_(extents) {}

  template <class C>
  static result<distributed_tensor> make(const extent_type& extents, const C& c, const T* value,
                                         size_type partition_dim) {
    DTL_ASSIGN_OR_RETURN(const context ctx, detail::context_from(c));
    // The vector checks the element count; the extents themselves are agreed on here (two shapes of one
    // count would split different rows).
    DTL_TRY(detail::agree(ctx, check_extents(extents, partition_dim), signature(extents, partition_dim)));
    const size_type row = row_size(extents);
    const dtl::halo whole_rows{.prev = 0, .next = 0, .periodic = false, .granularity = row == 0 ? 1 : row};
    const size_type count = extents_size(extents);
    DTL_ASSIGN_OR_RETURN(vector_type v, value != nullptr ? vector_type::create(count, *value, ctx, whole_rows)
                                                         : vector_type::create(count, ctx, whole_rows));
    return distributed_tensor(std::move(v), extents);
  }

  static status check_extents(const extent_type& extents, size_type partition_dim) {
    if (partition_dim != 0)
      return status(status_code::not_supported, "distributed_tensor splits the first dimension only, not dimension " +
                                                    std::to_string(partition_dim));
    size_type count = 1;
    for (const size_type e : extents) {
      if (e != 0 && count > std::numeric_limits<size_type>::max() / e)
        return status(status_code::invalid_argument, "distributed_tensor: the product of the extents overflows");
      count *= e;
    }
    return {};
  }

  static detail::call_signature signature(const extent_type& extents, size_type partition_dim) {
    return {"distributed_tensor construction",
            {static_cast<std::int64_t>(N), detail::sizes_fingerprint(std::span<const size_type>(extents)),
             static_cast<std::int64_t>(partition_dim)},
            {"number of dimensions", "hash of the extents", "partition dimension"}};
  }

  // Elements per row: the product of the extents after the first.
  static size_type row_size(const extent_type& extents) noexcept {
    size_type row = 1;
    for (size_type d = 1; d < N; ++d) row *= extents[d];
    return row;
  }
  static bool same_rows(const extent_type& a, const extent_type& b) noexcept {
    for (size_type d = 1; d < N; ++d)
      if (a[d] != b[d]) return false;
    return true;
  }

  // The rows: whole rows of the vector's elements; rows of no elements split by the same block rule.
  [[nodiscard]] size_type global_rows() const noexcept {
    const size_type row = row_size(extents_);
    return row != 0 ? vector_.global_size() / row : extents_[0];
  }
  [[nodiscard]] index_range local_rows() const noexcept {
    const size_type row = row_size(extents_);
    if (row != 0) return {vector_.local_range().begin / row, vector_.local_range().end / row};
    const auto ranks = static_cast<size_type>(num_ranks() < 1 ? 1 : num_ranks());
    const auto me = static_cast<size_type>(my_rank() < 0 ? 0 : my_rank());
    return {even_block_begin(extents_[0], ranks, me), even_block_begin(extents_[0], ranks, me + 1)};
  }

  [[nodiscard]] bool in_bounds(const index_type& g) const noexcept {
    for (size_type d = 0; d < N; ++d)
      if (g[d] < 0 || static_cast<size_type>(g[d]) >= extent(d)) return false;
    return true;
  }
  [[nodiscard]] size_type local_linear_of(const index_type& i) const noexcept {
    return static_cast<size_type>(row_major::linearize(i, local_extents()));
  }
  [[nodiscard]] index_t linear_offset() const noexcept { return static_cast<index_t>(vector_.global_offset()); }

  vector_type vector_;
  // The extents after the first are these; the first is the vector's rows (an algorithm that changes the
  // element count, as dtl::unique, changes the rows), except for rows of no elements, which the vector
  // does not count.
  extent_type extents_{};
};

template <class T, class... Placement>
using tensor1d = distributed_tensor<T, 1, Placement...>;
template <class T, class... Placement>
using tensor2d = distributed_tensor<T, 2, Placement...>;
template <class T, class... Placement>
using tensor3d = distributed_tensor<T, 3, Placement...>;
template <class T, class... Placement>
using distributed_matrix = distributed_tensor<T, 2, Placement...>;

template <class T, size_type N, PlacementPolicy P>
struct is_distributed_tensor<distributed_tensor<T, N, P>> : std::true_type {};
template <class T, size_type N, PlacementPolicy P>
struct is_distributed_container<distributed_tensor<T, N, P>> : std::true_type {};

}  // namespace dtl

// SPDX-License-Identifier: MIT
#pragma once
// distributed_array<T, N, Placement>: N elements (a compile-time size, as std::array's) split into blocks
// over the ranks of a context: upstream DTL's distributed_array, built on a distributed_vector<T,
// Placement> (the same even block layout, memory, views and rules), with no resize(), redistribute() or
// clear(). Every dtl algorithm takes it where it takes a vector (fill, transform, reduce, sort, ...), and
// with vectors of the same layout.
//
//   dtl::distributed_array<int, 1000> a(ctx);                            // host_only, value-initialised
//   dtl::distributed_array<double, 50> b(3.14, ctx);                     // upstream's (value, ctx) order
//   dtl::distributed_array<float, 1 << 20, dtl::device_only_runtime> d(ctx);   // on this rank's GPU
//   static_assert(decltype(a)::extent == 1000);
//   DTL_TRY(dtl::transform(a, a, [](int x) { return 2 * x; }));
//
// Construction is collective and throws dtl::status_error as the vector's does (create() returns
// result<>). The default constructor holds every element on one rank (a CPU context of its own), as
// upstream's does. The Placement pack takes DTL's placements (host_only by default); upstream's other
// policies (partition, consistency, execution, error) are not taken. Movable, not copyable (upstream's
// is copyable). Global indices are index_t, as upstream's; owner(i) is dtl::no_rank past the end.

#include <dtl/core/thread_fence.hpp>
#include <dtl/containers/block_partition.hpp>
#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/context_like.hpp>
#include <dtl/containers/detail/vector_access.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/containers/global_view.hpp>
#include <dtl/containers/views.hpp>
#include <dtl/core/placement.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/traits.hpp>
#include <dtl/core/try.hpp>
#include <dtl/core/types.hpp>

#include <algorithm>
#include <atomic>
#include <type_traits>
#include <utility>
#include <vector>

namespace dtl {

namespace detail {
/// The placement among an array's policies: host_only without one; at most one.
template <class... Policies>
struct array_placement {
  static_assert(sizeof...(Policies) <= 1,
                "distributed_array takes one placement policy (upstream's other policies are not supported)");
  using type = host_only;
};
template <class P>
struct array_placement<P> {
  static_assert(PlacementPolicy<P>,
                "distributed_array's policy must be a DTL placement (host_only, device_only<N>, device_only_runtime, "
                "unified_memory, device_preferred_on<N>)");
  using type = P;
};
}  // namespace detail

template <class T, size_type N, class... Policies>
class distributed_array {
 public:
  using placement_policy = typename detail::array_placement<Policies...>::type;
  using vector_type = distributed_vector<T, placement_policy>;
  using value_type = T;
  using allocator_type = typename vector_type::allocator_type;
  using size_type = dtl::size_type;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using pointer = T*;
  using const_pointer = const T*;
  using local_view_type = dtl::local_view<T>;
  using const_local_view_type = dtl::local_view<const T>;
  using global_view_type = dtl::global_view<T>;
  using segmented_view_type = dtl::segmented_view<T>;
  using const_segmented_view_type = dtl::segmented_view<const T>;

  /// The global size, known at compile time.
  static constexpr size_type extent = N;

  /// Every element on this process alone (rank 0 of 1, no device: host placements).
  distributed_array() : distributed_array(make_cpu_context()) {}
  /// N value-initialised elements over the ranks of `ctx`. Collective; throws dtl::status_error.
  explicit distributed_array(const context& ctx) : vector_(N, ctx) {}
  /// N copies of `value` (upstream's argument order). Collective; throws dtl::status_error.
  distributed_array(const T& value, const context& ctx) : vector_(N, value, ctx) {}

  /// From a context-like object: rank() of size(), with no communicator (context_like.hpp).
  template <detail::other_context_like C>
  explicit distributed_array(const C& ctx) : vector_(N, ctx) {}
  template <detail::other_context_like C>
  distributed_array(const T& value, const C& ctx) : vector_(N, value, ctx) {}

  /// The constructors without exceptions.
  template <detail::other_context_like C>
  [[nodiscard]] static result<distributed_array> create(const C& ctx) {
    DTL_ASSIGN_OR_RETURN(const context made, detail::context_from(ctx));
    return create(made);
  }
  template <detail::other_context_like C>
  [[nodiscard]] static result<distributed_array> create(const T& value, const C& ctx) {
    DTL_ASSIGN_OR_RETURN(const context made, detail::context_from(ctx));
    return create(value, made);
  }
  /// Upstream's: rank `my_rank`'s block among `num_ranks` ranks, with no communicator (a detached context,
  /// as from a context-like object; context_like.hpp). invalid_argument for a bad rank or count.
  [[nodiscard]] static result<distributed_array> create(rank_t num_ranks, rank_t my_rank) {
    DTL_ASSIGN_OR_RETURN(const context made, detail::make_detached_context(my_rank, num_ranks));
    return create(made);
  }
  [[nodiscard]] static result<distributed_array> create(const context& ctx) {
    DTL_ASSIGN_OR_RETURN(vector_type v, vector_type::create(N, ctx));
    return distributed_array(std::move(v));
  }
  [[nodiscard]] static result<distributed_array> create(const T& value, const context& ctx) {
    DTL_ASSIGN_OR_RETURN(vector_type v, vector_type::create(N, value, ctx));
    return distributed_array(std::move(v));
  }

  distributed_array(distributed_array&&) noexcept = default;
  distributed_array& operator=(distributed_array&&) noexcept = default;
  distributed_array(const distributed_array&) = delete;
  distributed_array& operator=(const distributed_array&) = delete;
  ~distributed_array() = default;

  // --- sizes ---
  [[nodiscard]] static constexpr size_type size() noexcept { return N; }
  [[nodiscard]] static constexpr size_type global_size() noexcept { return N; }
  [[nodiscard]] static constexpr size_type max_size() noexcept { return N; }
  [[nodiscard]] static constexpr bool empty() noexcept { return N == 0; }
  [[nodiscard]] size_type local_size() const noexcept { return vector_.local_size(); }
  /// The block size of rank r (0 for a rank outside the context).
  [[nodiscard]] size_type local_size_for_rank(rank_t r) const noexcept {
    return vector_.partition().local_range(r).value_or(index_range{}).size();
  }

  // --- views ---
  [[nodiscard]] local_view_type local_view() noexcept requires(placement_policy::host_accessible) {
    return vector_.local_view();
  }
  [[nodiscard]] const_local_view_type local_view() const noexcept requires(placement_policy::host_accessible) {
    return vector_.local_view();
  }
  [[nodiscard]] auto device_view() noexcept requires(placement_policy::device_accessible) {
    return vector_.device_view();
  }
  [[nodiscard]] auto device_view() const noexcept requires(placement_policy::device_accessible) {
    return vector_.device_view();
  }
  /// Every element by global index (slow; collective the first time, see global_view.hpp).
  [[nodiscard]] global_view_type global_view() { return vector_.global_view(); }
  [[nodiscard]] segmented_view_type segmented_view() noexcept { return vector_.segmented_view(); }
  [[nodiscard]] const_segmented_view_type segmented_view() const noexcept { return vector_.segmented_view(); }

  // --- this rank's elements ---
  /// Local element i (unchecked; host-accessible placements).
  [[nodiscard]] reference local(size_type i) noexcept requires(placement_policy::host_accessible) {
    return vector_.local_data()[i];
  }
  [[nodiscard]] const_reference local(size_type i) const noexcept requires(placement_policy::host_accessible) {
    return vector_.local_data()[i];
  }
  /// This rank's elements (a device pointer for device placements; nullptr for an empty block).
  [[nodiscard]] pointer local_data() noexcept { return vector_.local_data(); }
  [[nodiscard]] const_pointer local_data() const noexcept { return vector_.local_data(); }
  /// Sets this rank's elements to `value` and marks the array local_dirty (no communication; upstream's
  /// member, host placements). dtl::fill(array, value) fills every placement.
  void fill(const T& value) noexcept requires(placement_policy::host_accessible) {
    std::fill_n(vector_.local_data(), local_size(), value);
    vector_.mark_local_modified();
  }
  [[nodiscard]] result<void> copy_to_host(T* dst, size_type count) const { return vector_.copy_to_host(dst, count); }
  [[nodiscard]] result<std::vector<T>> copy_to_host() const { return vector_.copy_to_host(); }
  [[nodiscard]] result<void> copy_from_host(const T* src, size_type count) {
    return vector_.copy_from_host(src, count);
  }
  /// Every element on `root`, in global order (collective).
  [[nodiscard]] result<std::vector<T>> gather(int root = 0) const { return vector_.gather(root); }

  // --- synchronisation ---
  /// Waits for every rank (collective).
  result<void> barrier() const { return vector_.barrier(); }
  /// A memory fence on this rank; no communication (upstream's).
  result<void> fence() noexcept {
    dtl::thread_fence(std::memory_order_seq_cst);
    return {};
  }
  /// Waits for this rank's device work and every rank, and marks the array clean (the vector's sync()).
  result<void> sync() { return vector_.sync(); }
  // Upstream's sync state: the vector's (distributed_vector.hpp, dtl/core/sync_domain.hpp).
  [[nodiscard]] bool is_clean() const noexcept { return vector_.is_clean(); }
  [[nodiscard]] bool is_dirty() const noexcept { return vector_.is_dirty(); }
  void mark_local_modified() noexcept { vector_.mark_local_modified(); }
  void mark_clean() noexcept { vector_.mark_clean(); }
  [[nodiscard]] sync_state& sync_state_ref() noexcept { return vector_.sync_state_ref(); }
  [[nodiscard]] const sync_state& sync_state_ref() const noexcept { return vector_.sync_state_ref(); }

  // --- the distribution ---
  [[nodiscard]] rank_t rank() const noexcept { return vector_.rank(); }
  [[nodiscard]] rank_t num_ranks() const noexcept { return vector_.num_ranks(); }
  [[nodiscard]] const context& get_context() const noexcept { return vector_.get_context(); }
  [[nodiscard]] const block_partition<>& partition() const noexcept { return vector_.partition(); }
  /// Upstream's check: this rank's block and its allocation agree with the partition (the vector's).
  [[nodiscard]] bool structural_metadata_consistent() const noexcept {
    return vector_.structural_metadata_consistent();
  }
  [[nodiscard]] index_range local_range() const noexcept { return vector_.local_range(); }
  /// The global index of this rank's first element.
  [[nodiscard]] index_t global_offset() const noexcept { return static_cast<index_t>(vector_.global_offset()); }
  [[nodiscard]] bool is_local(index_t i) const noexcept {
    return i >= 0 && vector_.local_range().contains(static_cast<std::size_t>(i));
  }
  /// The rank holding global element i; dtl::no_rank outside [0, N).
  [[nodiscard]] rank_t owner(index_t i) const noexcept {
    if (i < 0) return no_rank;
    return vector_.owner(static_cast<std::size_t>(i)).value_or(no_rank);
  }
  /// Local index of global element i (meaningful where is_local(i)).
  [[nodiscard]] index_t to_local(index_t i) const noexcept { return i - global_offset(); }
  /// Global index of local element i.
  [[nodiscard]] index_t to_global(index_t i) const noexcept { return i + global_offset(); }

  // --- where the data is ---
  [[nodiscard]] static constexpr bool is_host_accessible() noexcept { return placement_policy::host_accessible; }
  [[nodiscard]] static constexpr bool is_device_accessible() noexcept { return placement_policy::device_accessible; }
  /// The device of this rank's block, or dtl::no_device for host_only.
  [[nodiscard]] int device_id() const noexcept { return vector_.device_id(); }
  /// Whether the block is on one device only (device placements; not unified_memory): the vector's.
  [[nodiscard]] bool has_device_affinity() const noexcept { return vector_.has_device_affinity(); }
  /// The allocator of the placement's memory on this rank's device (the vector's get_allocator()).
  [[nodiscard]] allocator_type get_allocator() const { return vector_.get_allocator(); }

 private:
  friend struct detail::vector_access;
  explicit distributed_array(vector_type v) noexcept : vector_(std::move(v)) {}

  vector_type vector_;
};

template <class A>
struct is_distributed_array : std::false_type {};
template <class T, size_type N, class... Policies>
struct is_distributed_array<distributed_array<T, N, Policies...>> : std::true_type {};
template <class A>
inline constexpr bool is_distributed_array_v = is_distributed_array<A>::value;
template <class T, size_type N, class... Policies>
struct is_distributed_container<distributed_array<T, N, Policies...>> : std::true_type {};

}  // namespace dtl

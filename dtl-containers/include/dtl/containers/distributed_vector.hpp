// SPDX-License-Identifier: MIT
#pragma once
// dtl::distributed_vector<T, Placement>: a vector of global_size() elements split into contiguous blocks
// over the ranks of a context (dtl::block_partition<>), each rank's block allocated in the placement's
// memory on the right device.
//
//   dtl::distributed_vector<float, dtl::device_only<0>> vec(1000, ctx);        // hipMalloc on device 0
//   dtl::distributed_vector<float, dtl::unified_memory> vec_unified(1000, ctx);  // hipMallocManaged
//   auto made = dtl::distributed_vector<float, dtl::device_only_runtime>::create(n, ctx);   // no exceptions
//   dtl::distributed_vector<float> u(n, ctx, dtl::halo{.prev = 1, .next = 1});  // ghosts: see halo.hpp
//   dtl::distributed_vector<int> part(100, rank_of{2, 4});  // rank 2 of 4, no communicator (context_like.hpp)
//
// Construction is collective: every rank of the context constructs the vector, with the same global size,
// placement and element type (checked: ranks that disagree all get invalid_argument, naming what differs),
// and if any rank fails (out of memory, a bad device id, ...) every rank gets a status. The constructors throw
// dtl::status_error carrying it; create() returns it. Elements start value-initialised (zero), or as
// `value`. Nothing is staged through the host.
//
// Capabilities (checked at compile time; see docs/containers.md for the matrix):
//   local_view()   host_only, unified_memory, device_preferred_on<N>  (placements the host can touch)
//   device_view()  device_only<N>, device_only_runtime, unified_memory, device_preferred_on<N>
//   local_data(), segmented_view(), global_view(), copy_to_host/copy_from_host, gather, clone: all
// Movable, not copyable (clone() copies); a moved-from vector is empty, and its collectives return
// invalid_state. T must be trivially copyable.
// redistribute(sizes) / redistribute(partition) / redistribute() and resize(n[, value]) change the
// layout, collectively (docs/containers.md, "Redistribute and resize"); a redistributed vector's
// partition() holds explicit per-rank sizes (block_partition<>::from_sizes).
//
// With a dtl::halo, the allocation holds halo.prev ghosts before the owned block and halo.next after
// it: local_data() and the views still mean the owned elements; local_data_with_ghosts(),
// local_view_with_ghosts() and device_view_with_ghosts() include the ghosts. halo() moves them
// (vector_halo.hpp); sync_halo() is upstream DTL's name for halo().exchange(). With a granularity g the
// blocks hold whole rows of g elements. Construction checks the width rule of halo.hpp.

#include <dtl/containers/block_partition.hpp>
#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/context_like.hpp>
#include <dtl/containers/communication/detail/agreement.hpp>
#include <dtl/containers/communication/detail/context_services.hpp>
#include <dtl/containers/detail/segment_ops.hpp>
#include <dtl/containers/detail/halo_exchange.hpp>
#include <dtl/containers/detail/layout_generation.hpp>
#include <dtl/containers/detail/redistribute.hpp>
#include <dtl/containers/global_view.hpp>
#include <dtl/containers/halo.hpp>
#include <dtl/containers/memory_space_allocator.hpp>
#include <dtl/containers/placement_traits.hpp>
#include <dtl/containers/vector_halo.hpp>
#include <dtl/containers/views.hpp>
#include <dtl/core/memory_space.hpp>
#include <dtl/core/placement.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/sync_domain.hpp>
#include <dtl/core/traits.hpp>
#include <dtl/core/status_error.hpp>
#include <dtl/core/try.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if DTL_CONTAINERS_HAS_HIP
#include <dtl/hip/hip_memory_transfer.hpp>
#include <dtl/hip/stream_ref.hpp>
#endif

namespace dtl {

template <class T, PlacementPolicy P = host_only>
class distributed_vector;

// Said before the class: its global_view() names global_view<distributed_vector>, which they select.
template <class T, PlacementPolicy P>
struct is_distributed_vector<distributed_vector<T, P>> : std::true_type {};
template <class T, PlacementPolicy P>
struct is_distributed_container<distributed_vector<T, P>> : std::true_type {};

template <class T, PlacementPolicy P>
class distributed_vector {
  static_assert(std::is_trivially_copyable_v<T> && !std::is_const_v<T>,
                "distributed_vector holds trivially copyable, non-const element types");

 public:
  using value_type = T;
  using size_type = std::size_t;
  using placement_policy = P;
  using memory_space_type = typename placement_traits<P>::space_type;
  /// Upstream's: the allocator of the placement's memory (memory_space_allocator.hpp).
  using allocator_type = select_allocator_t<T, P>;

  /// `global_size` value-initialised elements. Throws dtl::status_error on failure (see create()).
  distributed_vector(size_type global_size, const context& ctx)
      : distributed_vector(value_or_throw(create(global_size, ctx))) {}
  /// `global_size` copies of `value`. Throws dtl::status_error on failure.
  distributed_vector(size_type global_size, const T& value, const context& ctx)
      : distributed_vector(value_or_throw(create(global_size, value, ctx))) {}

  /// From a context-like object instead of a dtl::context (context_like.hpp): the layout and local block
  /// of its rank() of size(), with no communicator (calls between ranks return not_supported). Throws
  /// dtl::status_error for a rank outside [0, size()), and as the constructors above.
  template <detail::other_context_like C>
  distributed_vector(size_type global_size, const C& ctx)
      : distributed_vector(global_size, value_or_throw(detail::context_from(ctx))) {}
  template <detail::other_context_like C>
  distributed_vector(size_type global_size, const T& value, const C& ctx)
      : distributed_vector(global_size, value, value_or_throw(detail::context_from(ctx))) {}

  /// With no context at all (upstream's one-rank vector): every element local, on the one-rank context
  /// with no communicator that a context-like object of rank 0 of 1 gives, on every process that builds
  /// it (so an MPI job's ranks each hold all `global_size` elements). Throws as the constructors above.
  /// An empty vector on the one-rank context below (upstream's default constructor).
  distributed_vector() : distributed_vector(0) {}
  explicit distributed_vector(size_type global_size)
      : distributed_vector(global_size, value_or_throw(detail::make_detached_context(0, 1))) {}
  distributed_vector(size_type global_size, const T& value)
      : distributed_vector(global_size, value, value_or_throw(detail::make_detached_context(0, 1))) {}

  /// With ghost cells (see halo.hpp): `global_size` value-initialised elements, ghosts T{}. Throws
  /// dtl::status_error on failure (see create()).
  distributed_vector(size_type global_size, const context& ctx, const dtl::halo& ghosts)
      : distributed_vector(value_or_throw(create(global_size, ctx, ghosts))) {}
  distributed_vector(size_type global_size, const T& value, const context& ctx, const dtl::halo& ghosts)
      : distributed_vector(value_or_throw(create(global_size, value, ctx, ghosts))) {}

  /// Like the constructors, without exceptions. Errors: invalid_state (the context's environment ended),
  /// invalid_argument (a device id past the devices there are, a context without a device for
  /// device_only_runtime), backend_not_available (no GPU), out_of_memory, collective_failure (another
  /// rank failed). With a halo also invalid_argument, on every rank, for a granularity of 0, widths or
  /// a global size that are not whole rows, or a block smaller than a width it feeds (halo.hpp).
  [[nodiscard]] static result<distributed_vector> create(size_type global_size, const context& ctx) {
    return make(global_size, ctx, nullptr, std::shared_ptr<memory_space_type>());
  }
  [[nodiscard]] static result<distributed_vector> create(size_type global_size, const T& value, const context& ctx) {
    return make(global_size, ctx, &value, std::shared_ptr<memory_space_type>());
  }
  [[nodiscard]] static result<distributed_vector> create(size_type global_size, const context& ctx,
                                                         const dtl::halo& ghosts) {
    return make(global_size, ctx, nullptr, std::shared_ptr<memory_space_type>(), true, &ghosts);
  }
  [[nodiscard]] static result<distributed_vector> create(size_type global_size, const T& value, const context& ctx,
                                                         const dtl::halo& ghosts) {
    return make(global_size, ctx, &value, std::shared_ptr<memory_space_type>(), true, &ghosts);
  }
  /// From a context-like object (see the constructors above).
  template <detail::other_context_like C>
  [[nodiscard]] static result<distributed_vector> create(size_type global_size, const C& ctx) {
    DTL_ASSIGN_OR_RETURN(const context made, detail::context_from(ctx));
    return create(global_size, made);
  }
  template <detail::other_context_like C>
  [[nodiscard]] static result<distributed_vector> create(size_type global_size, const T& value, const C& ctx) {
    DTL_ASSIGN_OR_RETURN(const context made, detail::context_from(ctx));
    return create(global_size, value, made);
  }
  /// Value-initialised elements in an explicit layout: rank r holds sizes[r] of them, in global order (as
  /// redistribute(sizes) leaves them). Collective: invalid_argument on every rank when the ranks pass
  /// different sizes, or not one per rank.
  [[nodiscard]] static result<distributed_vector> create_with_sizes(std::span<const size_type> sizes,
                                                                    const context& ctx) {
    DTL_TRY(ctx.check());
    const status local = sizes.size() == static_cast<std::size_t>(ctx.size())
                             ? status{}
                             : status(status_code::invalid_argument,
                                      "distributed_vector::create_with_sizes: " + std::to_string(sizes.size()) +
                                          " sizes for " + std::to_string(ctx.size()) + " ranks");
    const detail::call_signature call{"distributed_vector construction with sizes",
                                      {static_cast<std::int64_t>(sizes.size()), detail::sizes_fingerprint(sizes)},
                                      {"number of sizes", "hash of the sizes"}};
    DTL_TRY(detail::agree(ctx, local, call));
    DTL_ASSIGN_OR_RETURN(const block_partition<> layout, block_partition<>::from_sizes(sizes));
    return make(layout.global_size(), ctx, nullptr, std::shared_ptr<memory_space_type>(), true, nullptr, &layout);
  }
  /// With a memory space of your own (a pool, say): any MemorySpace whose accessibility matches P. The
  /// vector keeps `space` alive and deallocates through it.
  template <MemorySpace Space>
  [[nodiscard]] static result<distributed_vector> create(size_type global_size, const context& ctx,
                                                         std::shared_ptr<Space> space) {
    static_assert(Space::host_accessible == P::host_accessible && Space::device_accessible == P::device_accessible,
                  "the memory space must be as accessible as the placement");
    if (!space) return status(status_code::null_pointer, "create() was given a null memory space");
    return make(global_size, ctx, nullptr, std::move(space));
  }

  /// `other` is left empty: no elements, an empty context (its collectives return invalid_state).
  distributed_vector(distributed_vector&& other) noexcept
      : ctx_(std::move(other.ctx_)),
        partition_(std::exchange(other.partition_, empty_partition())),
        range_(std::exchange(other.range_, index_range{})),
        device_(std::exchange(other.device_, no_device)),
        storage_(std::move(other.storage_)),
        sort_spare_(std::move(other.sort_spare_)),
        window_(std::move(other.window_)),
        window_error_(std::move(other.window_error_)),
        ghosts_(std::exchange(other.ghosts_, dtl::halo{})),
        plan_(std::move(other.plan_)),
        generation_(std::move(other.generation_)),
        sync_(std::exchange(other.sync_, sync_state{})) {}
  distributed_vector& operator=(distributed_vector&& other) noexcept {
    if (this != &other) {
      distributed_vector gone(std::move(*this));  // frees this one's segment (and window) on return, settled
      ctx_ = std::move(other.ctx_);
      partition_ = std::exchange(other.partition_, empty_partition());
      range_ = std::exchange(other.range_, index_range{});
      device_ = std::exchange(other.device_, no_device);
      storage_ = std::move(other.storage_);
      sort_spare_ = std::move(other.sort_spare_);
      window_ = std::move(other.window_);
      window_error_ = std::move(other.window_error_);
      ghosts_ = std::exchange(other.ghosts_, dtl::halo{});
      plan_ = std::move(other.plan_);
      generation_ = std::move(other.generation_);
      sync_ = std::exchange(other.sync_, sync_state{});
    }
    return *this;
  }
  distributed_vector(const distributed_vector&) = delete;
  distributed_vector& operator=(const distributed_vector&) = delete;
  /// Frees this rank's segment, once the device work left running on it is done (a failure of that work
  /// goes to dtl::report_unhandled()). Collective when global_view() was used (it releases the window).
  ~distributed_vector() {
    if (status s = settle(); !s.ok()) report_unhandled(s);
    // Before the block goes (its views may keep the window): once every rank has released it, no rank
    // reaches this block through it, and a pool's block handed out again is safe from it.
    if (window_) window_->release();
  }

  // --- sizes and the partition ---
  [[nodiscard]] size_type global_size() const noexcept { return partition_.global_size(); }
  [[nodiscard]] size_type size() const noexcept { return global_size(); }
  [[nodiscard]] bool empty() const noexcept { return global_size() == 0; }
  [[nodiscard]] size_type local_size() const noexcept { return range_.size(); }
  /// Global index of this rank's first element.
  [[nodiscard]] size_type global_offset() const noexcept { return range_.begin; }
  [[nodiscard]] index_range local_range() const noexcept { return range_; }
  /// The rank owning global element i; out_of_range past the end.
  [[nodiscard]] result<int> owner(size_type i) const { return partition_.owner(i); }
  [[nodiscard]] const block_partition<>& partition() const noexcept { return partition_; }
  /// Upstream's check after an algorithm that moves elements between ranks: this rank's block is the
  /// partition's, and the allocation holds it with its ghosts.
  [[nodiscard]] bool structural_metadata_consistent() const noexcept {
    const auto mine = partition_.local_range(rank());
    return mine && *mine == range_ && storage_.bytes() >= local_size_with_ghosts() * sizeof(T);
  }
  [[nodiscard]] int rank() const noexcept { return ctx_.rank(); }
  [[nodiscard]] int num_ranks() const noexcept { return ctx_.size(); }
  [[nodiscard]] const context& get_context() const noexcept { return ctx_; }

  // --- where the data is ---
  [[nodiscard]] static constexpr bool is_host_accessible() noexcept { return P::host_accessible; }
  [[nodiscard]] static constexpr bool is_device_accessible() noexcept { return P::device_accessible; }
  /// The device this rank's segment lives on (for unified_memory: the device it was allocated with),
  /// or dtl::no_device for host_only.
  [[nodiscard]] int device_id() const noexcept { return device_; }
  /// Upstream's: whether the segment lives on one device only (device placements; unified_memory,
  /// which the host reaches too, has none, as upstream's).
  [[nodiscard]] bool has_device_affinity() const noexcept { return !P::host_accessible && device_ >= 0; }
  /// Upstream's: an allocator of the placement's memory on this rank's device, from the process-wide space
  /// the placement's blocks come from there (for a vector made with a space of your own, not that space).
  /// A moved-from device vector's has no space (its allocations fail with invalid_state).
  [[nodiscard]] allocator_type get_allocator() const { return detail::placement_allocator<T, P>(device_); }
  /// This rank's elements: a device pointer for device placements. nullptr when local_size() is 0.
  [[nodiscard]] T* local_data() noexcept { return owned(storage_.data()); }
  [[nodiscard]] const T* local_data() const noexcept { return owned(storage_.data()); }
  /// The allocation with its ghosts: halo().prev() ghosts, the owned elements, halo().next() ghosts
  /// (local_data() - halo().prev()). nullptr when local_size() is 0.
  [[nodiscard]] T* local_data_with_ghosts() noexcept { return static_cast<T*>(storage_.data()); }
  [[nodiscard]] const T* local_data_with_ghosts() const noexcept { return static_cast<const T*>(storage_.data()); }
  /// Elements of local_data_with_ghosts(): 0 for an empty block, else prev + local_size() + next.
  [[nodiscard]] size_type local_size_with_ghosts() const noexcept {
    return local_size() == 0 ? 0 : ghosts_.prev + local_size() + ghosts_.next;
  }

  /// Waits for the device work that calls left running on this rank's segment (algorithms on device
  /// placements return once their work is enqueued; docs/containers.md, "When a call waits"), and
  /// returns its failure: the fence before your own kernel on another stream or your own MPI call on
  /// local_data(). This rank only. Nothing to wait for on host_only.
  [[nodiscard]] result<void> synchronize() const {
    if (status s = settle(); !s.ok()) return s;
    return {};
  }

  // --- the halo ---
  /// Moves the ghosts (vector_halo.hpp). Without a halo it has no widths and its exchanges do nothing.
  [[nodiscard]] vector_halo<T> halo() const noexcept {
    return vector_halo<T>(ctx_, ghosts_, plan_.get(), generation_.stamp());
  }
  /// Upstream DTL's spelling of halo().exchange().
  [[nodiscard]] result<void> sync_halo() const { return halo().exchange(); }

  // --- views ---
  [[nodiscard]] dtl::local_view<T> local_view() noexcept requires(P::host_accessible) {
    return {local_data(), local_size(), rank(), static_cast<index_t>(global_offset())};
  }
  [[nodiscard]] dtl::local_view<const T> local_view() const noexcept requires(P::host_accessible) {
    return {local_data(), local_size(), rank(), static_cast<index_t>(global_offset())};
  }
  /// This rank's element i (unchecked, as local_view()[i]; upstream's vec.local(i)).
  [[nodiscard]] T& local(size_type i) noexcept requires(P::host_accessible) { return local_data()[i]; }
  [[nodiscard]] const T& local(size_type i) const noexcept requires(P::host_accessible) { return local_data()[i]; }
  [[nodiscard]] dtl::device_view<T> device_view() noexcept requires(P::device_accessible) {
    return {local_data(), local_size(), device_};
  }
  [[nodiscard]] dtl::device_view<const T> device_view() const noexcept requires(P::device_accessible) {
    return {local_data(), local_size(), device_};
  }
  /// The views with the ghosts (local_data_with_ghosts(), local_size_with_ghosts()).
  [[nodiscard]] dtl::local_view<T> local_view_with_ghosts() noexcept requires(P::host_accessible) {
    return {local_data_with_ghosts(), local_size_with_ghosts(), rank(), ghosted_offset()};
  }
  [[nodiscard]] dtl::local_view<const T> local_view_with_ghosts() const noexcept requires(P::host_accessible) {
    return {local_data_with_ghosts(), local_size_with_ghosts(), rank(), ghosted_offset()};
  }
  [[nodiscard]] dtl::device_view<T> device_view_with_ghosts() noexcept requires(P::device_accessible) {
    return {local_data_with_ghosts(), local_size_with_ghosts(), device_};
  }
  [[nodiscard]] dtl::device_view<const T> device_view_with_ghosts() const noexcept requires(P::device_accessible) {
    return {local_data_with_ghosts(), local_size_with_ghosts(), device_};
  }
  [[nodiscard]] dtl::segmented_view<T> segmented_view() noexcept { return {partition_, rank(), local_data()}; }
  [[nodiscard]] dtl::segmented_view<const T> segmented_view() const noexcept {
    return {partition_, rank(), local_data()};
  }

  /// Every element by global index (slow; see global_view.hpp). Collective the first time it is called
  /// on a vector: every rank calls it.
  [[nodiscard]] dtl::global_view<distributed_vector> global_view() { return {element_global_view<T>(), *this}; }
  /// A read-only view (no put()); collective the first time, as the other.
  [[nodiscard]] dtl::global_view<const distributed_vector> global_view() const {
    return {element_global_view<const T>(), *this};
  }

  // --- bulk copies of this rank's segment ---
  /// Copies the local segment into `dst` (host memory for `count` == local_size() elements).
  [[nodiscard]] result<void> copy_to_host(T* dst, size_type count) const {
    DTL_TRY(check_host_buffer(dst, count));
    if (count == 0) return {};
    DTL_TRY(settle());
    return detail::copy_segment(dst, local_data(), count * sizeof(T), transfer_between_v<P, host_only>);
  }
  [[nodiscard]] result<std::vector<T>> copy_to_host() const {
    std::vector<T> out(local_size());
    DTL_TRY(copy_to_host(out.data(), out.size()));
    return out;
  }
  /// Copies `count` == local_size() elements from host memory `src` into the local segment.
  [[nodiscard]] result<void> copy_from_host(const T* src, size_type count) {
    DTL_TRY(check_host_buffer(src, count));
    if (count == 0) return {};
    DTL_TRY(settle());  // earlier work may still read the elements this overwrites
    sync_.mark_local_modified();
    return detail::copy_segment(local_data(), src, count * sizeof(T), transfer_between_v<host_only, P>);
  }

  /// Every element, in global order, on `root` (an empty vector on the other ranks). Collective.
  /// A rank that fails (the root cannot hold every element, say) fails the gather on every rank.
  [[nodiscard]] result<std::vector<T>> gather(int root = 0) const {
    std::vector<std::size_t> bytes(static_cast<std::size_t>(num_ranks()));
    for (int r = 0; r < num_ranks(); ++r)
      bytes[static_cast<std::size_t>(r)] = partition_.local_range(r).value().size() * sizeof(T);
    std::vector<T> mine, all;
    status local = detail::catch_allocation_failure("gather", [&]() -> status {
      if (root < 0 || root >= num_ranks())
        return status(status_code::invalid_rank, "gather: root " + std::to_string(root) + " is not a rank");
      if (rank() == root) all.resize(global_size());
      mine.resize(local_size());
      return copy_to_host(mine.data(), mine.size()).error();
    });
    DTL_TRY(detail::gatherv(ctx_, mine.data(), mine.size() * sizeof(T), all.data(), bytes, root, local));
    return all;
  }

  /// A new vector with the same context, partition, halo, placement and elements, ghosts included
  /// (copied on the device for device placements). Collective.
  [[nodiscard]] result<distributed_vector> clone() const {
    DTL_ASSIGN_OR_RETURN(distributed_vector copy,
                         make(global_size(), ctx_, nullptr, std::shared_ptr<memory_space_type>(),
                              /*initialise=*/false, plan_ ? &ghosts_ : nullptr, &partition_));
    if (local_size() != 0) {
      DTL_TRY(settle());
      DTL_TRY(detail::copy_segment(copy.local_data_with_ghosts(), local_data_with_ghosts(),
                                   local_size_with_ghosts() * sizeof(T), transfer_between_v<P, P>));
    }
    return copy;
  }

  /// Waits for every rank of the vector's context.
  [[nodiscard]] result<void> barrier() const { return ctx_.barrier(); }

  // --- upstream's sync state (dtl/core/sync_domain.hpp): bookkeeping for the program. A new vector is
  // clean; copy_from_host marks it local_dirty, a change of layout global_dirty, sync() clean; the rest
  // is the program's to mark (dtl algorithms do not, as upstream's do not). ---
  [[nodiscard]] bool is_clean() const noexcept { return sync_.is_clean(); }
  [[nodiscard]] bool is_dirty() const noexcept { return sync_.is_dirty(); }
  void mark_local_modified() noexcept { sync_.mark_local_modified(); }
  void mark_clean() noexcept { sync_.mark_clean(); }
  [[nodiscard]] sync_state& sync_state_ref() noexcept { return sync_; }
  [[nodiscard]] const sync_state& sync_state_ref() const noexcept { return sync_; }
  /// Waits for this rank's device work and then for every rank (a barrier), and marks the vector clean.
  /// Collective.
  result<void> sync() {
    DTL_TRY(synchronize());
    DTL_TRY(barrier());
    sync_.mark_clean();
    return {};
  }

  // --- changing the layout (collective; see docs/containers.md, "Redistribute and resize") ---
  // Pointers, views, halo()s and global_view()s taken before are invalidated: a global_view's and a
  // halo()'s calls then return invalid_state on every rank (pointers and local views are not checked).
  // Every rank gets the same outcome; on failure the vector is unchanged. A vector with a halo keeps it:
  // the new blocks must be whole rows of its granularity and meet its width rule (halo.hpp; else
  // invalid_argument), its ghosts start as T{} again, and its exchange plan is made anew for the new blocks.

  /// Moves the elements so that rank r holds sizes[r] of them (global order kept; only the elements
  /// that change owner move). invalid_argument on every rank when the sizes have another length than
  /// the ranks, do not add up to global_size(), or differ between ranks.
  [[nodiscard]] result<void> redistribute(std::span<const size_type> sizes) {
    return relayout("redistribute", std::vector<size_type>(sizes.begin(), sizes.end()), global_size(),
                    block_partition<>::from_sizes(sizes), nullptr);
  }
  /// To the blocks of `layout` (its ranks and global size must be the vector's).
  [[nodiscard]] result<void> redistribute(const block_partition<>& layout) {
    return relayout("redistribute", detail::partition_sizes(layout), global_size(), layout, nullptr);
  }
  /// Back to the even block layout that construction gives (block_partition<>::create, in whole rows of
  /// the halo's granularity).
  [[nodiscard]] result<void> redistribute() {
    auto even = block_partition<>::create(global_size(), std::max(num_ranks(), 1), row_unit());
    return relayout("redistribute", detail::partition_sizes(even), global_size(), std::move(even), nullptr);
  }
  /// n elements, in the even block layout of n (in whole rows of the halo's granularity, which must
  /// divide n): elements [0, min(n, size())) keep their global index (and value), new ones at the end
  /// are T{} (or `value`), and shrinking drops the tail.
  [[nodiscard]] result<void> resize(size_type n) {
    const T zero{};
    return resize_to(n, zero);
  }
  [[nodiscard]] result<void> resize(size_type n, const T& value) { return resize_to(n, value); }
  /// resize(0).
  [[nodiscard]] result<void> clear() { return resize(0); }

 private:
  friend struct detail::storage_access;

  distributed_vector(context ctx, block_partition<> partition, index_range range, int device,
                     detail::segment_allocation storage) noexcept
      : ctx_(std::move(ctx)), partition_(partition), range_(range), device_(device), storage_(std::move(storage)) {}

  template <class Space = memory_space_type>
  static result<distributed_vector> make(size_type global_size, const context& ctx, const T* value,
                                         std::shared_ptr<Space> space, bool initialise = true,
                                         const dtl::halo* ghosts = nullptr, const block_partition<>* layout = nullptr) {
    DTL_TRY(ctx.check());
    const dtl::halo spec = ghosts != nullptr ? *ghosts : dtl::halo{};
    // A halo's rules are checked from the arguments alone, and agreed on below with the rest: a rank
    // given other arguments gets the same failure as the others instead of leaving them waiting.
    // `layout`: another vector's (clone()), the same on every rank; else the even block layout.
    const auto partition = layout != nullptr ? result<block_partition<>>(*layout)
                                             : block_partition<>::create(global_size, ctx.size(),
                                                                         spec.granularity == 0 ? 1 : spec.granularity);
    const status local_status = !partition          ? partition.error()
                                : ghosts != nullptr ? detail::check_halo(*partition, spec)
                                                    : status{};
    const index_range range = local_status.ok() ? partition->local_range(ctx.rank()).value() : index_range{};
    // (void) on the assignments: nvcc warns on assigning a [[nodiscard]] type.
    result<local_part> local(local_status);
    if (local_status.ok()) local = allocate_local(ctx, range.size(), value, std::move(space), initialise, spec);
    detail::halo_plan_ptr plan;
    int path = 0;
    if (local.has_value() && ghosts != nullptr) {
      const int ghost_device = P::location == memory_location::host ? no_device : local->device;
      path = detail::halo_path_code(ctx, ghost_device);
      auto made = detail::make_halo_plan(ctx, *partition, spec, sizeof(T), local->storage.data(), ghost_device);
      if (made)
        plan = std::move(made).value();
      else
        local = result<local_part>(std::move(made).error());
    }
    // Every rank must build the same vector: a rank with another size would read and write past the
    // others' blocks; one with another halo would wait for messages that never come.
    const detail::call_signature call{
        "distributed_vector construction",
        {static_cast<std::int64_t>(global_size), static_cast<std::int64_t>(sizeof(T)),
         static_cast<std::int64_t>(P::location) * 4 + (P::host_accessible ? 2 : 0) + (P::device_accessible ? 1 : 0),
         static_cast<std::int64_t>(spec.prev), static_cast<std::int64_t>(spec.next),
         static_cast<std::int64_t>(spec.granularity) * 16 + path * 2 + (spec.periodic ? 1 : 0)},
        {"global size", "element size", "placement (location * 4 + host accessible * 2 + device accessible)",
         "halo prev", "halo next", "halo granularity * 16 + exchange path * 2 + periodic"}};
    DTL_TRY(detail::agree(ctx, local.has_value() ? status{} : local.error(), call));
    if (ghosts != nullptr) DTL_TRY(detail::connect_halo_plan(ctx, plan.get()));
    auto [device, storage] = std::move(local).value();
    distributed_vector made(ctx, *partition, range, device, std::move(storage));
    made.ghosts_ = spec;
    made.plan_ = std::move(plan);
    made.generation_ = detail::layout_generation::start();
    return made;
  }

  result<void> resize_to(size_type n, const T& value) {
    auto even = block_partition<>::create(n, std::max(num_ranks(), 1), row_unit());
    return relayout("resize", detail::partition_sizes(even), n, std::move(even), &value);
  }

  // The new layout `next` (its per-rank `sizes`, new_size elements in all); `value` fills elements past
  // the old global size. Peak memory: the old block and the new one.
  result<void> relayout(const char* what, const std::vector<size_type>& sizes, size_type new_size,
                        result<block_partition<>> next, const T* value) {
    DTL_TRY(ctx_.check());
    // First every rank must ask for the same layout; then the checks below fail alike on every rank.
    const detail::call_signature call{
        what,
        {static_cast<std::int64_t>(sizes.size()), static_cast<std::int64_t>(new_size), detail::sizes_fingerprint(sizes),
         static_cast<std::int64_t>(sizeof(T)), static_cast<std::int64_t>(P::location)},
        {"number of sizes", "global size", "hash of the sizes", "element size", "placement location"}};
    DTL_TRY(detail::agree(ctx_, status{}, call));
    // An even layout that cannot be made (a size that is not whole rows of the halo's granularity) has
    // no sizes to check: the partition's own reason says why.
    if (!next && sizes.empty()) return next.error().with_context(what);
    DTL_TRY(detail::check_layout_sizes(what, sizes, num_ranks(), new_size));
    if (!next) return std::move(next).error();
    if (plan_) {  // the halo's rules, from the layout alone: the same answer on every rank
      for (const size_type size : sizes)
        if (size % row_unit() != 0)
          return status(status_code::invalid_argument, std::string(what) + ": a block of " + std::to_string(size) +
                                                           " elements is not whole rows of the halo's granularity (" +
                                                           std::to_string(row_unit()) + ")");
      DTL_TRY(detail::check_halo(*next, ghosts_));
    }
    if (new_size == global_size() && next->same_layout(partition_)) {  // no element moves: only the description
      partition_ = std::move(next).value();
      generation_.next();  // one rule for every change of layout: the views made before are refused
      sync_.mark_global_dirty();
      return {};
    }
    const std::vector<size_type> from = detail::partition_offsets(partition_);
    const std::vector<size_type> to = detail::layout_offsets(sizes);
    const auto me = static_cast<std::size_t>(rank());
    const detail::relayout_plan plan = detail::plan_relayout(from, to, me);
    // The new block (with its ghosts), what stays and the new elements in place, and its halo plan:
    // agreed before anything moves.
    result<detail::segment_allocation> fresh = status(status_code::invalid_state, "not allocated");
    detail::halo_plan_ptr fresh_plan;
    const int fill_device = P::location == memory_location::host ? no_device : device_;
    const status local = detail::catch_allocation_failure(what, [&]() -> status {
      DTL_TRY(settle());  // the old block is copied from on the host's side of time, then freed
      if (plan_ && detail::halo_in_flight(*plan_))
        return status(status_code::invalid_state, std::string(what) + ": a halo exchange is in flight; end it first");
      const size_type count = sizes[me];
      const size_type ghosts = count == 0 ? 0 : ghosts_.prev + ghosts_.next;
      if (count > std::numeric_limits<size_type>::max() / sizeof(T) - ghosts)
        return status(status_code::out_of_memory, std::string(what) + ": " + std::to_string(count) + " elements of " +
                                                      std::to_string(sizeof(T)) + " bytes overflow");
      fresh = storage_.allocate_like((count + ghosts) * sizeof(T), std::max(alignof(T), alignof(std::max_align_t)));
      if (!fresh) return fresh.error();
      T* data = owned(fresh->data());
      if (ghosts != 0) {  // ghosts start as T{}, as at construction
        const T zero{};
        if (ghosts_.prev != 0)
          DTL_TRY(detail::fill_segment(ctx_, fill_device, fresh->data(), ghosts_.prev, &zero, sizeof(T)));
        if (ghosts_.next != 0)
          DTL_TRY(detail::fill_segment(ctx_, fill_device, data + count, ghosts_.next, &zero, sizeof(T)));
      }
      if (plan.keep_count != 0) {
        DTL_TRY(detail::copy_segment(data + plan.keep_to, local_data() + plan.keep_from, plan.keep_count * sizeof(T),
                                     transfer_between_v<P, P>));
      }
      if (plan.fill_count != 0)
        DTL_TRY(detail::fill_segment(ctx_, fill_device, data + plan.fill_begin, plan.fill_count, value, sizeof(T)));
      if (plan_) {
        auto made = detail::make_halo_plan(ctx_, *next, ghosts_, sizeof(T), fresh->data(), fill_device);
        if (!made) return std::move(made).error();
        fresh_plan = std::move(made).value();
      }
      return {};
    });
    DTL_TRY(detail::agree(ctx_, local, call));
    if (plan.any_rank_exchanges)
      DTL_TRY(ctx_.alltoallv(local_data(), std::span<const size_type>(plan.moves.send_counts),
                             std::span<const size_type>(plan.moves.send_displs), owned(fresh->data()),
                             std::span<const size_type>(plan.moves.recv_counts),
                             std::span<const size_type>(plan.moves.recv_displs)));
    if (plan_) DTL_TRY(detail::connect_halo_plan(ctx_, fresh_plan.get()));
    // A window on the old blocks would reach freed memory: close it (every rank has one, or none).
    if (window_) window_->release();
    window_.reset();
    window_error_ = status{};
    partition_ = std::move(next).value();
    range_ = partition_.local_range(rank()).value();
    storage_ = std::move(fresh).value();
    sort_spare_ = detail::segment_allocation();  // the old layout's (settled above)
    if (plan_) plan_ = std::move(fresh_plan);
    generation_.next();  // the views made before reach the old block (now freed), the old plan or window
    sync_.mark_global_dirty();
    return {};
  }

  // The even layout's unit: whole rows of the halo's granularity (1 without a halo).
  [[nodiscard]] size_type row_unit() const noexcept { return ghosts_.granularity == 0 ? 1 : ghosts_.granularity; }

  struct local_part {
    int device;
    detail::segment_allocation storage;
  };

  template <class Space>
  static result<local_part> allocate_local(const context& ctx, size_type owned, const T* value,
                                           std::shared_ptr<Space> space, bool initialise, const dtl::halo& ghosts) {
    DTL_ASSIGN_OR_RETURN(const int device, placement_traits<P>::device(ctx));
    if constexpr (std::is_same_v<Space, memory_space_type>) {
      if (!space) {
        DTL_ASSIGN_OR_RETURN(space, placement_traits<P>::space(device));
      }
    }
    // An empty block has no ghosts either; it keeps the space, for a later change of layout.
    if (owned == 0) return local_part{device, detail::segment_allocation(space, nullptr, 0)};
    const size_type limit = std::numeric_limits<size_type>::max() / sizeof(T);
    if (ghosts.prev > limit || ghosts.next > limit - ghosts.prev || owned > limit - ghosts.prev - ghosts.next)
      return status(status_code::out_of_memory, "distributed_vector: " + std::to_string(owned) +
                                                    " elements and their ghosts of " + std::to_string(sizeof(T)) +
                                                    " bytes overflow");
    const size_type count = ghosts.prev + owned + ghosts.next;
    if (count > limit)
      return status(status_code::out_of_memory, "distributed_vector: " + std::to_string(count) + " elements of " +
                                                    std::to_string(sizeof(T)) + " bytes overflow");
    const size_type bytes = count * sizeof(T);
    DTL_ASSIGN_OR_RETURN(void* data, space->allocate(bytes, std::max(alignof(T), alignof(std::max_align_t))));
    detail::segment_allocation storage(space, data, bytes);
    if (initialise) {
      // Ghosts start as T{} (boundary values go there), the owned elements as `value`.
      const int fill_device = P::location == memory_location::host ? no_device : device;
      const T zero{};
      const bool ghosts_differ = value != nullptr && count != owned;
      DTL_TRY(detail::fill_segment(ctx, fill_device, data, count,
                                   ghosts_differ ? &zero : (value != nullptr ? value : &zero), sizeof(T)));
      if (ghosts_differ)
        DTL_TRY(detail::fill_segment(ctx, fill_device, static_cast<T*>(data) + ghosts.prev, owned, value, sizeof(T)));
    }
    return local_part{device, std::move(storage)};
  }

  template <class E>
  dtl::global_view<E> element_global_view() const {
    if (status s = settle(); !s.ok()) report_unhandled(s);  // the view reads the elements as they are now
    if (!window_ && window_error_.ok()) open_window();
    return dtl::global_view<E>(partition_, rank(), const_cast<T*>(local_data()), P::host_accessible, window_,
                               window_error_, generation_.stamp());
  }

  void open_window() const {
    // Device blocks of several ranks: HIP IPC within a node, MPI beyond it where MPI is GPU-aware.
    const bool device_blocks = !P::host_accessible && num_ranks() > 1;
    const std::size_t bytes = local_size() * sizeof(T);
    auto w = device_blocks ? detail::open_device_window(ctx_, device_, const_cast<T*>(local_data()), bytes)
                           : detail::open_window(ctx_, const_cast<T*>(local_data()), bytes);
    if (w.has_value())
      window_ = std::move(w).value();
    else
      window_error_ = std::move(w).error();
  }

  // Waits for the device work left running on this rank's device by calls on the context (segment_ops.hpp).
  status settle() const {
    if constexpr (P::location == memory_location::host) {
      return {};
    } else {
      return local_size_with_ghosts() == 0 ? status{} : detail::settle_device_work(ctx_, device_);
    }
  }

  status check_host_buffer(const void* buffer, size_type count) const {
    if (count != local_size())
      return status(status_code::extent_mismatch, "the host buffer holds " + std::to_string(count) +
                                                      " elements; this rank's segment holds " +
                                                      std::to_string(local_size()));
    if (count != 0 && buffer == nullptr) return status(status_code::null_pointer, "the host buffer is nullptr");
    return {};
  }
  T* owned(void* data) const noexcept { return data != nullptr ? static_cast<T*>(data) + ghosts_.prev : nullptr; }
  const T* owned(const void* data) const noexcept {
    return data != nullptr ? static_cast<const T*>(data) + ghosts_.prev : nullptr;
  }
  /// The global index of the first ghost before the block (the block's own when it has none).
  index_t ghosted_offset() const noexcept {
    return static_cast<index_t>(global_offset()) - static_cast<index_t>(local_size() == 0 ? 0 : ghosts_.prev);
  }
  static block_partition<> empty_partition() noexcept { return block_partition<>::create(0, 1).value(); }

  context ctx_;
  block_partition<> partition_;
  index_range range_;
  int device_ = no_device;
  detail::segment_allocation storage_;
  // The one-rank radix sort's second block, kept for the next sort of this layout (algorithms/sort.hpp);
  // freed with the vector or when its layout changes.
  detail::segment_allocation sort_spare_;
  // Opened by the first global_view() (also of a const vector: the window is a cache of access paths).
  mutable std::shared_ptr<detail::window> window_;
  mutable status window_error_;
  dtl::halo ghosts_;
  detail::halo_plan_ptr plan_;            // null without a halo
  detail::layout_generation generation_;  // its views check it (null for a moved-from vector)
  sync_state sync_;
};

}  // namespace dtl

// SPDX-License-Identifier: MIT
#pragma once
// dtl::grid_tensor<T, N, Placement>: an N-dimensional array split over a process grid in any of its
// dimensions (a grid_decomposition), each rank's block stored with its ghost layers around it, and an
// N-d halo exchange planned once. Beyond upstream DTL, whose distributed_tensor splits the first
// dimension only and has no halo (distributed_tensor.hpp keeps upstream's behaviour).
//
//   dtl::process_grid<3> grid(ctx.size(), {}, {true, true, true});           // fitted to the ranks, periodic
//   dtl::grid_tensor<float, 3, dtl::device_only> u({grid, {512, 512, 512}, {1, 1, 1}}, ctx);
//   u.halo().exchange();                                  // the ghosts from the neighbours (one kernel on
//                                                         // the device; MPI between ranks)
//   dtl::stencil_transform(u, next, [] DTL_HOST_DEVICE (dtl::stencil_accessor<const float, 3> s) {
//     return s(0, 0, 0) + 0.1f * (s(-1, 0, 0) + s(1, 0, 0) + ... - 6 * s(0, 0, 0)); });
//   auto v = u.local_view();          // host placements: v(i, j, k) over the owned block (strided)
//
// Layout: rank r's allocation is row-major over decomposition().padded_extents(r): the owned block starts
// at (w0, ..., wN-1), the halo widths, so a stencil reads p(dz, dy, dx) without branches. local_view() and
// device_view() see the owned block (strides of the allocation); local_view_with_ghosts() and
// device_view_with_ghosts() the whole allocation. Ghosts start as T{}; those past a closed (non-periodic)
// edge are never written by an exchange: a Dirichlet boundary lives there.
//
// Construction is collective: invalid_argument on every rank when the process grid's rank count is not
// the context's or the ranks pass different decompositions (the decomposition itself refuses a halo wider
// than a block it is read from, and counts that overflow), and the vector's errors (memory, device). The
// constructor throws dtl::status_error; create() returns the status. Movable, not copyable. T trivially
// copyable. On device_only placements the exchange's packing runs on the device; unified and managed
// placements exchange on the host (after the device's work on the block).

#include <dtl/containers/communication/collective_types.hpp>
#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/detail/agreement.hpp>
#include <dtl/containers/detail/grid_halo_exchange.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/containers/grid_decomposition.hpp>
#include <dtl/containers/nd_extent.hpp>
#include <dtl/containers/stencil_accessor.hpp>
#include <dtl/containers/tensor_view.hpp>
#include <dtl/core/placement.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/status_error.hpp>
#include <dtl/core/try.hpp>
#include <dtl/core/types.hpp>

#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace dtl {

/// The halo of a grid_tensor (t.halo()): a handle, valid while the tensor lives and is not moved from.
class grid_tensor_halo {
 public:
  /// Fills every ghost region from the neighbour that owns it and returns when they are written (on the
  /// device: left running on the device's lane, where the calls after it are ordered behind it).
  [[nodiscard]] result<void> exchange() const {
    DTL_TRY(begin());
    return end();
  }
  /// Starts an exchange: the ghosts are written until exchange_end(), the owned elements only read.
  /// invalid_state when one is in flight.
  [[nodiscard]] result<void> exchange_begin() const { return begin(); }
  [[nodiscard]] result<void> exchange_end() const { return end(); }
  [[nodiscard]] bool in_flight() const noexcept { return plan_ != nullptr && detail::grid_halo_in_flight(*plan_); }
#if DTL_CONTAINERS_HAS_HIP
  /// The exchange ordered on `stream` (of the tensor's device): a rank that is its own only neighbour
  /// enqueues its one kernel there and returns at once; with other ranks the host waits for `stream`,
  /// exchanges, and `stream` then waits on the device for the exchange. Host placements exchange at once.
  [[nodiscard]] hip::future<void> exchange(hip::stream_ref stream) const {
    if (status s = settle_(); !s.ok()) return hip::make_failed_future<void>(std::move(s));
    return detail::grid_halo_exchange_on_stream(*plan_, base_, stream);
  }
#endif
  /// The reverse exchange: every ghost region travels to the rank that owns its elements, which combines
  /// it into them, element = op(element, ghost); the ghosts keep their values. Blocking. On device memory
  /// the block travels to the host and back (a rare call, not the fast path).
  [[nodiscard]] result<void> reduce(reduce_op op = reduce_op::sum) const {
    if (type_ == nullptr)
      return status(status_code::not_supported, "halo reduce: the element type has no MPI datatype");
    DTL_TRY(settle_());
    return detail::grid_halo_reduce(*plan_, base_, *type_, op);
  }

 private:
  template <class, size_type, PlacementPolicy>
  friend class grid_tensor;
  using settle_fn = status (*)(const void* tensor);
  grid_tensor_halo(detail::grid_halo_plan* plan, void* base, const detail::datatype* type, settle_fn settle,
                   const void* tensor) noexcept
      : plan_(plan), base_(base), type_(type), settle_fn_(settle), tensor_(tensor) {}

  status settle_() const {
    if (plan_ == nullptr) return status(status_code::invalid_state, "halo: the tensor was moved from");
    return settle_fn_ != nullptr ? settle_fn_(tensor_) : status{};
  }
  status begin() const {
    DTL_TRY(settle_());
    return detail::grid_halo_exchange_begin(*plan_, base_);
  }
  status end() const {
    if (plan_ == nullptr) return status(status_code::invalid_state, "halo: the tensor was moved from");
    return detail::grid_halo_exchange_end(*plan_);
  }

  detail::grid_halo_plan* plan_;
  void* base_;
  const detail::datatype* type_;
  settle_fn settle_fn_;  // host-side exchanges of unified memory first wait for the device's work
  const void* tensor_;
};

template <class T, size_type N, PlacementPolicy P = host_only>
class grid_tensor {
  static_assert(N >= 1, "a grid_tensor has at least one dimension");
  static_assert(N <= detail::grid_halo_max_dims, "a grid_tensor has at most 8 dimensions");
  static_assert(std::is_trivially_copyable_v<T>, "a grid_tensor holds trivially copyable elements");

 public:
  using value_type = T;
  using placement_policy = P;
  using size_type = dtl::size_type;
  using index_type = nd_index<N>;
  using extents_type = nd_extent<N>;
  using decomposition_type = grid_decomposition<N>;
  using view_type = tensor_view<T, N>;
  using const_view_type = tensor_view<const T, N>;
  using storage_type = distributed_vector<T, P>;

  /// Value-initialised elements (ghosts too) over the ranks of `ctx`. Collective; throws
  /// dtl::status_error (see create()).
  grid_tensor(const grid_decomposition<N>& dec, const context& ctx) : grid_tensor(value_or_throw(create(dec, ctx))) {}

  /// The constructor without exceptions (errors: see the top of this file).
  [[nodiscard]] static result<grid_tensor> create(const grid_decomposition<N>& dec, const context& ctx) {
    DTL_TRY(ctx.check());
    std::vector<size_type> sizes;
    const bool fits = dec.grid().size() == ctx.size();
    for (int r = 0; r < ctx.size(); ++r) sizes.push_back(fits ? dec.padded_size(r) : 0);
    // A grid of another rank count: the plan below refuses it on every rank, after the vector (empty here).
    DTL_ASSIGN_OR_RETURN(storage_type storage, storage_type::create_with_sizes(sizes, ctx));
    const bool device_side = P::device_accessible && !P::host_accessible;
    DTL_ASSIGN_OR_RETURN(
        detail::grid_halo_plan_ptr plan,
        detail::make_grid_halo_plan(ctx, dec, sizeof(T), device_side ? storage.device_id() : no_device));
    return grid_tensor(std::move(storage), dec, std::move(plan));
  }

  grid_tensor(grid_tensor&&) noexcept = default;
  grid_tensor& operator=(grid_tensor&&) noexcept = default;
  grid_tensor(const grid_tensor&) = delete;
  grid_tensor& operator=(const grid_tensor&) = delete;
  ~grid_tensor() {
    plan_.reset();  // an exchange in flight finishes while the block is alive
  }

  // --- shape ---
  [[nodiscard]] static constexpr size_type rank() noexcept { return N; }
  [[nodiscard]] const extents_type& extents() const noexcept { return dec_.global_extents(); }
  [[nodiscard]] size_type extent(size_type d) const noexcept { return dec_.global_extents()[d]; }
  [[nodiscard]] size_type size() const noexcept { return extents_size(extents()); }
  [[nodiscard]] size_type global_size() const noexcept { return size(); }
  /// This rank's owned block: its extents, element count and first global index.
  [[nodiscard]] extents_type local_extents() const noexcept { return dec_.owned(my_rank()).extents; }
  [[nodiscard]] size_type local_size() const noexcept { return extents_size(local_extents()); }
  [[nodiscard]] index_type global_offset() const noexcept {
    const auto offset = dec_.owned(my_rank()).offset;
    index_type g{};
    for (size_type d = 0; d < N; ++d) g[d] = static_cast<index_t>(offset[d]);
    return g;
  }
  /// The owned block in global coordinates.
  [[nodiscard]] nd_box<N> owned_box() const noexcept { return dec_.owned(my_rank()); }
  /// The allocation: the owned block and `halo_width()` ghost layers on every side.
  [[nodiscard]] extents_type padded_extents() const noexcept { return dec_.padded_extents(my_rank()); }
  [[nodiscard]] size_type local_size_with_ghosts() const noexcept { return storage_.local_size(); }
  [[nodiscard]] const extents_type& halo_width() const noexcept { return dec_.halo_width(); }
  [[nodiscard]] const grid_decomposition<N>& decomposition() const noexcept { return dec_; }
  [[nodiscard]] const process_grid<N>& grid() const noexcept { return dec_.grid(); }

  // --- this rank's elements ---
  /// The owned block (host placements): v(i, j, ...) for i in [0, local_extents()[0]), ...; strided.
  [[nodiscard]] view_type local_view() noexcept requires(P::host_accessible) { return owned_view(); }
  [[nodiscard]] const_view_type local_view() const noexcept requires(P::host_accessible) { return owned_view(); }
  /// The same for kernels (device placements).
  [[nodiscard]] view_type device_view() noexcept requires(P::device_accessible) { return owned_view(); }
  [[nodiscard]] const_view_type device_view() const noexcept requires(P::device_accessible) { return owned_view(); }
  /// The whole allocation, ghosts included: the owned element (i, j, ...) is at (i + w0, j + w1, ...).
  [[nodiscard]] view_type local_view_with_ghosts() noexcept requires(P::host_accessible) { return padded_view(); }
  [[nodiscard]] const_view_type local_view_with_ghosts() const noexcept requires(P::host_accessible) {
    return padded_view();
  }
  [[nodiscard]] view_type device_view_with_ghosts() noexcept requires(P::device_accessible) { return padded_view(); }
  [[nodiscard]] const_view_type device_view_with_ghosts() const noexcept requires(P::device_accessible) {
    return padded_view();
  }
  /// The owned element at global index g (host placements; g within owned_box(), or within the halo
  /// width of it for a ghost).
  template <std::integral... I>
  [[nodiscard]] T& global(I... g) noexcept requires(P::host_accessible && sizeof...(I) == N) {
    const index_t at[] = {static_cast<index_t>(g)...};
    const auto offset = dec_.owned(my_rank()).offset;
    const auto strides = row_major_strides(padded_extents());
    std::ptrdiff_t p = 0;
    for (size_type d = 0; d < N; ++d)
      p += (static_cast<std::ptrdiff_t>(at[d]) - static_cast<std::ptrdiff_t>(offset[d]) +
            static_cast<std::ptrdiff_t>(dec_.halo_width()[d])) *
           static_cast<std::ptrdiff_t>(strides[d]);
    return storage_.local_data()[p];
  }
  /// The owned element (0, ..., 0) (a device pointer on device placements), and the allocation's first.
  [[nodiscard]] T* local_data() noexcept { return storage_.local_data() + first_owned(); }
  [[nodiscard]] const T* local_data() const noexcept { return storage_.local_data() + first_owned(); }
  [[nodiscard]] T* data_with_ghosts() noexcept { return storage_.local_data(); }
  [[nodiscard]] const T* data_with_ghosts() const noexcept { return storage_.local_data(); }

  /// The owned elements, row-major (a copy, on the host).
  [[nodiscard]] result<std::vector<T>> copy_to_host() const {
    DTL_ASSIGN_OR_RETURN(std::vector<T> padded, storage_.copy_to_host());
    std::vector<T> out(local_size());
    copy_owned(padded.data(), out.data(), true);
    return out;
  }
  /// Writes the owned elements from `count` = local_size() of them, row-major.
  [[nodiscard]] result<void> copy_from_host(const T* src, size_type count) {
    if (count != local_size())
      return status(status_code::extent_mismatch, "grid_tensor::copy_from_host: " + std::to_string(count) +
                                                      " elements for an owned block of " +
                                                      std::to_string(local_size()));
    DTL_ASSIGN_OR_RETURN(std::vector<T> padded, storage_.copy_to_host());
    copy_owned(padded.data(), const_cast<T*>(src), false);
    return storage_.copy_from_host(padded.data(), padded.size());
  }
  /// Every element on `root`, row-major over extents() (empty elsewhere). Collective.
  [[nodiscard]] result<std::vector<T>> gather(int root = 0) const {
    const context& ctx = storage_.get_context();
    result<std::vector<T>> mine = copy_to_host();
    std::vector<size_type> sizes;
    for (int r = 0; r < ctx.size(); ++r) sizes.push_back(extents_size(dec_.owned(r).extents));
    // Every rank takes part even after a local failure: the blocks' vector makes the ranks agree.
    DTL_ASSIGN_OR_RETURN(auto blocks, distributed_vector<T, host_only>::create_with_sizes(
                                          mine ? sizes : std::vector<size_type>(sizes.size(), 0), ctx));
    if (mine && !mine->empty()) std::memcpy(blocks.local_data(), mine->data(), mine->size() * sizeof(T));
    DTL_ASSIGN_OR_RETURN(std::vector<T> all, blocks.gather(root));
    if (!mine) return std::move(mine).error();
    if (ctx.rank() != root) return std::vector<T>{};
    std::vector<T> out(size());
    const auto strides = row_major_strides(extents());
    std::size_t from = 0;
    for (int r = 0; r < ctx.size(); ++r) {
      const nd_box<N> box = dec_.owned(r);
      detail::for_each_row(box.extents, [&](const nd_extent<N>& at, std::size_t run) {
        std::size_t to = 0;
        for (size_type d = 0; d < N; ++d) to += (box.offset[d] + at[d]) * strides[d];
        std::memcpy(out.data() + to, all.data() + from, run * sizeof(T));
        from += run;
      });
    }
    return out;
  }
  /// Waits for the device work left running on this rank's block.
  [[nodiscard]] result<void> synchronize() const { return storage_.synchronize(); }

  // --- the halo ---
  [[nodiscard]] grid_tensor_halo halo() noexcept {
    const detail::datatype* type = nullptr;
    if constexpr (detail::has_datatype_v<T>) type = &element_type_;
    grid_tensor_halo::settle_fn settle = nullptr;
    if constexpr (P::host_accessible && P::device_accessible)
      settle = [](const void* t) -> status {
        return static_cast<const grid_tensor*>(t)->storage_.synchronize().error();
      };
    return {plan_.get(), storage_.local_data(), type, settle, this};
  }

  // --- the distribution ---
  [[nodiscard]] rank_t my_rank() const noexcept { return storage_.rank(); }
  [[nodiscard]] rank_t num_ranks() const noexcept { return storage_.num_ranks(); }
  [[nodiscard]] const context& get_context() const noexcept { return storage_.get_context(); }
  [[nodiscard]] int device_id() const noexcept { return storage_.device_id(); }
  [[nodiscard]] static constexpr bool is_host_accessible() noexcept { return P::host_accessible; }
  [[nodiscard]] static constexpr bool is_device_accessible() noexcept { return P::device_accessible; }
  /// The allocations as a vector (rank r's block: its padded allocation): what the algorithms' checks
  /// compare (two tensors of one decomposition have one layout).
  [[nodiscard]] const storage_type& storage() const noexcept { return storage_; }

 private:
  grid_tensor(storage_type storage, const grid_decomposition<N>& dec, detail::grid_halo_plan_ptr plan) noexcept
      : storage_(std::move(storage)), dec_(dec), plan_(std::move(plan)) {
    if constexpr (detail::has_datatype_v<T>) element_type_ = detail::datatype_of<T>();
  }

  [[nodiscard]] size_type first_owned() const noexcept {
    const auto strides = row_major_strides(padded_extents());
    size_type at = 0;
    for (size_type d = 0; d < N; ++d) at += dec_.halo_width()[d] * strides[d];
    return local_size() == 0 ? 0 : at;
  }
  [[nodiscard]] view_type owned_view() const noexcept {
    return {const_cast<T*>(storage_.local_data()) + first_owned(), local_extents(),
            row_major_strides(padded_extents())};
  }
  [[nodiscard]] view_type padded_view() const noexcept {
    return {const_cast<T*>(storage_.local_data()), padded_extents()};
  }
  /// Between the owned block of a padded allocation and `compact` (row-major): out of it, or into it.
  void copy_owned(T* padded, T* compact, bool out_of_padded) const {
    if (local_size() == 0) return;
    const auto strides = row_major_strides(padded_extents());
    const auto& w = dec_.halo_width();
    detail::for_each_row(local_extents(), [&](const nd_extent<N>& at, std::size_t run) {
      std::size_t p = 0;
      for (size_type d = 0; d < N; ++d) p += (w[d] + at[d]) * strides[d];
      if (out_of_padded)
        std::memcpy(compact, padded + p, run * sizeof(T));
      else
        std::memcpy(padded + p, compact, run * sizeof(T));
      compact += run;
    });
  }

  storage_type storage_;
  grid_decomposition<N> dec_;
  detail::grid_halo_plan_ptr plan_;
  detail::datatype element_type_{};
};

namespace detail {
template <class A>
inline constexpr bool is_grid_tensor_v = false;
template <class T, size_type N, PlacementPolicy P>
inline constexpr bool is_grid_tensor_v<grid_tensor<T, N, P>> = true;
}  // namespace detail

}  // namespace dtl

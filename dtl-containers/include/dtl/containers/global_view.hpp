// SPDX-License-Identifier: MIT
#pragma once
// global_view<T>: every element of a distributed_vector by its global index, from any rank.
//
//   auto g = vec.global_view();          // collective the first time (it opens an MPI window)
//   dtl::result<float> x = g[i].get();   // from whichever rank owns element i
//   DTL_TRY(g[j].put(2.0f));
//
// SLOW by design: each get() or put() of a remote element is a one-sided access (MPI: lock, get or put,
// unlock, about a network round trip; HIP IPC: a copy the host waits for). Use it for the odd element,
// never in a loop over many: algorithms, local_view() / device_view(), gather() and copy_to_host() move
// data in bulk. Local elements are read and written directly (device memory through a copy). Remote
// device memory: a rank on this node through HIP IPC (a copy on this rank's stream, the owner takes no
// part; its GPU is this rank's or a peer), a rank on another node through MPI when MPI is GPU-aware;
// otherwise get()/put() return not_supported (the message says why), and local access still works.
// A view belongs to its vector's layout: after a resize() or redistribute(), or once the vector is gone
// (destroyed or assigned over), every get() and put() returns invalid_state, on every rank.

#include <dtl/containers/block_partition.hpp>
#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/detail/window.hpp>
#include <dtl/containers/detail/layout_generation.hpp>
#include <dtl/containers/detail/segment_ops.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/traits.hpp>
#include <dtl/core/try.hpp>

#include <cstddef>
#include <cstring>
#include <memory>

namespace dtl {

template <class T>
class global_view;

template <class T>
class remote_ref {
 public:
  /// The element's value, fetched from its owner.
  [[nodiscard]] result<T> get() const {
    T value{};
    if (status s = view_->access(index_, &value, false); !s.ok()) return s;
    return value;
  }
  /// Stores `value` at the element's owner.
  [[nodiscard]] result<void> put(const T& value) const {
    T copy = value;
    return view_->access(index_, &copy, true);
  }
  [[nodiscard]] std::size_t index() const noexcept { return index_; }
  /// The rank that owns the element.
  [[nodiscard]] result<int> owner() const { return view_->partition_.owner(index_); }

 private:
  friend class global_view<T>;
  remote_ref(const global_view<T>* view, std::size_t index) noexcept : view_(view), index_(index) {}
  const global_view<T>* view_;
  std::size_t index_;
};

template <class T>
class global_view {
 public:
  /// `window` may be null: then `why_no_window` says why remote elements cannot be reached. `made_in`:
  /// the vector's layout generation, which every access checks.
  global_view(block_partition partition, int rank, T* local, bool local_on_host, std::shared_ptr<detail::window> window,
              status why_no_window, detail::generation_stamp made_in) noexcept
      : partition_(partition),
        rank_(rank),
        local_(local),
        local_on_host_(local_on_host),
        window_(std::move(window)),
        why_no_window_(std::move(why_no_window)),
        made_in_(std::move(made_in)) {}

  [[nodiscard]] remote_ref<T> operator[](std::size_t global_index) const noexcept {
    return remote_ref<T>(this, global_index);
  }
  [[nodiscard]] std::size_t size() const noexcept { return partition_.global_size(); }

 private:
  friend class remote_ref<T>;

  status access(std::size_t i, T* value, bool write) const {
    if (rank_ < 0) return why_no_window_;  // an empty vector (moved from): no context to reach
    // The block (and the window) of an older layout may be freed: refused before reaching either.
    if (status stale = made_in_.check("this global_view"); !stale.ok()) return stale;
    DTL_ASSIGN_OR_RETURN(const int owner, partition_.owner(i));
    DTL_ASSIGN_OR_RETURN(const index_range range, partition_.local_range(owner));
    const std::size_t offset = (i - range.begin) * sizeof(T);
    if (owner == rank_) {
      T* element = local_ + (i - range.begin);
      if (local_on_host_) {
        if (write)
          std::memcpy(element, value, sizeof(T));
        else
          std::memcpy(value, element, sizeof(T));
        return {};
      }
      return write ? detail::copy_segment(element, value, sizeof(T), transfer_kind::host_to_device)
                   : detail::copy_segment(value, element, sizeof(T), transfer_kind::device_to_host);
    }
    if (!window_) return why_no_window_;
    return write ? window_->put(owner, offset, value, sizeof(T)) : window_->get(owner, offset, value, sizeof(T));
  }

  block_partition partition_;
  int rank_;
  T* local_;
  bool local_on_host_;
  std::shared_ptr<detail::window> window_;
  status why_no_window_;
  detail::generation_stamp made_in_;
};

template <class T>
struct is_global_view<global_view<T>> : std::true_type {};
template <class T>
struct is_remote_ref<remote_ref<T>> : std::true_type {};

}  // namespace dtl

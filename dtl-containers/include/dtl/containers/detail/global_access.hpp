// SPDX-License-Identifier: MIT
#pragma once
// The element access behind a global_view and its remote_refs: one element by its global index, read or
// written where it lives (this rank's block directly, another rank's through the vector's window). Typed
// only by the element's size, so that remote_ref.hpp and global_view.hpp share it.

#include <dtl/containers/block_partition.hpp>
#include <dtl/containers/communication/detail/window.hpp>
#include <dtl/containers/detail/layout_generation.hpp>
#include <dtl/containers/detail/segment_ops.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/try.hpp>

#include <cstddef>
#include <cstring>
#include <memory>
#include <utility>

namespace dtl::detail {

class global_access {
 public:
  /// `window` may be null: then `why_no_window` says why remote elements cannot be reached. `made_in`:
  /// the vector's layout generation, which every access checks. `rank` < 0: a vector without a context.
  global_access(block_partition<> partition, int rank, void* local, std::size_t element_size, bool local_on_host,
                std::shared_ptr<window> remote, status why_no_window, generation_stamp made_in) noexcept
      : partition_(partition),
        rank_(rank),
        local_(static_cast<std::byte*>(local)),
        element_size_(element_size),
        local_on_host_(local_on_host),
        window_(std::move(remote)),
        why_no_window_(std::move(why_no_window)),
        made_in_(std::move(made_in)) {}

  [[nodiscard]] const block_partition<>& partition() const noexcept { return partition_; }
  [[nodiscard]] int rank() const noexcept { return rank_; }
  /// Whether other ranks' elements can be reached (a window is open).
  [[nodiscard]] bool remote_available() const noexcept { return window_ != nullptr; }

  /// Copies element i into `value` (host memory) or, with `write`, `value` into element i.
  [[nodiscard]] status access(std::size_t i, void* value, bool write) const {
    if (rank_ < 0) return why_no_window_;  // an empty vector (moved from): no context to reach
    // The block (and the window) of an older layout may be freed: refused before reaching either.
    if (status stale = made_in_.check("this global_view"); !stale.ok()) return stale;
    DTL_ASSIGN_OR_RETURN(const int owner, partition_.owner(i));
    DTL_ASSIGN_OR_RETURN(const index_range range, partition_.local_range(owner));
    const std::size_t offset = (i - range.begin) * element_size_;
    if (owner == rank_) {
      std::byte* element = local_ + offset;
      if (local_on_host_) {
        if (write)
          std::memcpy(element, value, element_size_);
        else
          std::memcpy(value, element, element_size_);
        return {};
      }
      return write ? copy_segment(element, value, element_size_, transfer_kind::host_to_device)
                   : copy_segment(value, element, element_size_, transfer_kind::device_to_host);
    }
    if (!window_) return why_no_window_;
    return write ? window_->put(owner, offset, value, element_size_)
                 : window_->get(owner, offset, value, element_size_);
  }

 private:
  block_partition<> partition_;
  int rank_;
  std::byte* local_;
  std::size_t element_size_;
  bool local_on_host_;
  std::shared_ptr<window> window_;
  status why_no_window_;
  generation_stamp made_in_;
};

}  // namespace dtl::detail

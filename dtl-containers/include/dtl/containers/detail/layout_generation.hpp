// SPDX-License-Identifier: MIT
#pragma once
// The layout generation of a distributed_vector, shared with the views made from it (global_view,
// vector_halo). A change of layout (resize, redistribute) and the end of the vector's block (the vector
// destroyed or assigned over) start a new generation; a view made in an older one refuses every access
// with invalid_state instead of reaching freed memory. Each rank checks its own counter, without
// communicating: the ranks change the layout together, so they decide alike. Not for users.

#include <dtl/core/status.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

namespace dtl::detail {

/// What a view holds: the generation it was made in.
class generation_stamp {
 public:
  /// Of an empty vector (moved from): nothing to outlive.
  generation_stamp() noexcept = default;
  generation_stamp(std::shared_ptr<const std::atomic<std::uint64_t>> counter, std::uint64_t made_in) noexcept
      : counter_(std::move(counter)), made_in_(made_in) {}

  /// Whether the vector's block is still the one the view was made on.
  [[nodiscard]] bool current() const noexcept {
    return counter_ == nullptr || counter_->load(std::memory_order_acquire) == made_in_;
  }
  /// ok while current(); else invalid_state, naming `what` (the view).
  [[nodiscard]] status check(const char* what) const {
    if (current()) return {};
    return status(status_code::invalid_state,
                  std::string(what) +
                      " was made before a change of the vector's layout (resize, redistribute) or its end; make "
                      "a new one from the vector");
  }

 private:
  std::shared_ptr<const std::atomic<std::uint64_t>> counter_;
  std::uint64_t made_in_ = 0;
};

/// What the vector holds; it moves with the vector (so does the block). Destroying or assigning over
/// it ends its generation.
class layout_generation {
 public:
  /// Empty: a moved-from vector's.
  layout_generation() noexcept = default;
  [[nodiscard]] static layout_generation start() {
    layout_generation g;
    g.counter_ = std::make_shared<std::atomic<std::uint64_t>>(0);
    return g;
  }
  layout_generation(layout_generation&& other) noexcept : counter_(std::move(other.counter_)) {}
  layout_generation& operator=(layout_generation&& other) noexcept {
    if (this != &other) {
      next();
      counter_ = std::move(other.counter_);
    }
    return *this;
  }
  layout_generation(const layout_generation&) = delete;
  layout_generation& operator=(const layout_generation&) = delete;
  ~layout_generation() { next(); }

  /// Ends the current generation: the views made so far are refused from now on.
  void next() noexcept {
    if (counter_) counter_->fetch_add(1, std::memory_order_acq_rel);
  }
  [[nodiscard]] generation_stamp stamp() const noexcept {
    if (!counter_) return {};
    return generation_stamp(counter_, counter_->load(std::memory_order_acquire));
  }

 private:
  std::shared_ptr<std::atomic<std::uint64_t>> counter_;
};

}  // namespace dtl::detail

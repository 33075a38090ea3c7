// SPDX-License-Identifier: MIT
#pragma once
// Views of a distributed_vector's data:
//   local_view<T>      this rank's elements, for host code (local_view.hpp)
//   device_view<T>     this rank's elements for kernels and device lambdas (device_view.hpp)
//   segment<T>         one rank's block: rank, global offset, size, and (on the owner) its data
//   segmented_view<T>  every rank's block in rank order, for code that walks all blocks
// segment and segmented_view also carry upstream DTL's names (seg.size(), seg[i], seg.to_global(i),
// view.num_segments(), local_segment(), offset_for_rank(r), for_each_local(f), ...): see
// docs/upstream.md. (Upstream's segmented_view<Container> is templated on the container, ours on the
// element type; spell it `auto`.)

#include <dtl/containers/block_partition.hpp>
#include <dtl/containers/device_view.hpp>
#include <dtl/containers/host_device.hpp>
#include <dtl/containers/local_view.hpp>
#include <dtl/core/placement.hpp>
#include <dtl/core/traits.hpp>
#include <dtl/core/types.hpp>

#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>

namespace dtl {

/// A segment's element count, readable both ways: as a value (`seg.size`, DTL HIP's spelling) and as
/// a call (`seg.size()`, upstream DTL's). A data member and a member function cannot share a name.
struct segment_size {
  std::size_t value = 0;
  constexpr operator std::size_t() const noexcept { return value; }
  [[nodiscard]] constexpr std::size_t operator()() const noexcept { return value; }
};

template <class T>
struct segment {
  using value_type = std::remove_cv_t<T>;
  using element_type = T;

  int rank = 0;
  std::size_t global_offset = 0;
  segment_size size{};
  /// The block's elements on the rank that owns it (device memory for device placements); nullptr on
  /// every other rank, and for an empty block.
  T* data = nullptr;
  /// true for this rank's own block.
  bool local = false;

  [[nodiscard]] constexpr bool is_local() const noexcept { return local; }
  [[nodiscard]] constexpr bool is_remote() const noexcept { return !local; }
  [[nodiscard]] constexpr T* begin() const noexcept { return data; }
  [[nodiscard]] constexpr T* end() const noexcept { return data == nullptr ? nullptr : data + size.value; }
  [[nodiscard]] constexpr bool empty() const noexcept { return size.value == 0; }
  /// Element i of this rank's own block (unchecked; host-accessible placements, on the owner only).
  [[nodiscard]] constexpr T& operator[](std::size_t i) const noexcept { return data[i]; }
  /// The global index of the block's element i.
  [[nodiscard]] constexpr index_t to_global(std::size_t i) const noexcept {
    return static_cast<index_t>(global_offset + i);
  }
};

template <class T>
class segmented_view {
 public:
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = segment<T>;
    using difference_type = std::ptrdiff_t;
    using reference = segment<T>;
    using pointer = void;

    iterator() = default;
    iterator(const segmented_view* view, int rank) noexcept : view_(view), rank_(rank) {}
    reference operator*() const { return view_->at(rank_); }
    iterator& operator++() noexcept {
      ++rank_;
      return *this;
    }
    iterator operator++(int) noexcept {
      iterator old = *this;
      ++rank_;
      return old;
    }
    friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.rank_ == b.rank_; }

   private:
    const segmented_view* view_ = nullptr;
    int rank_ = 0;
  };

  using value_type = std::remove_cv_t<T>;
  using element_type = T;
  using segment_type = segment<T>;
  using const_iterator = iterator;
  using size_type = std::size_t;

  segmented_view(block_partition<> partition, int my_rank, T* my_data) noexcept
      : partition_(partition), rank_(my_rank), data_(my_data) {}

  /// The number of blocks (ranks); upstream's num_segments().
  [[nodiscard]] int size() const noexcept { return partition_.ranks(); }
  [[nodiscard]] iterator begin() const noexcept { return iterator(this, 0); }
  [[nodiscard]] iterator end() const noexcept { return iterator(this, partition_.ranks()); }
  [[nodiscard]] iterator cbegin() const noexcept { return begin(); }
  [[nodiscard]] iterator cend() const noexcept { return end(); }
  /// The block of `rank` (0 <= rank < size()).
  [[nodiscard]] segment<T> at(int rank) const {
    const index_range range = partition_.local_range(rank).value_or(index_range{});
    const bool mine = rank == rank_;
    return segment<T>{rank, range.begin, segment_size{range.size()}, mine && range.size() != 0 ? data_ : nullptr, mine};
  }
  /// This rank's block.
  [[nodiscard]] segment<T> local() const { return at(rank_); }

  // --- upstream DTL's names ---
  [[nodiscard]] rank_t num_segments() const noexcept { return size(); }
  [[nodiscard]] segment<T> local_segment() const { return local(); }
  [[nodiscard]] segment<T> segment_for_rank(rank_t rank) const { return at(rank); }
  /// The global index of rank's first element, for 0 <= rank <= num_segments() (num_segments() gives
  /// total_size(), so offset_for_rank(r + 1) - offset_for_rank(r) is r's block size).
  [[nodiscard]] index_t offset_for_rank(rank_t rank) const noexcept {
    if (rank >= partition_.ranks()) return static_cast<index_t>(partition_.global_size());
    return static_cast<index_t>(partition_.local_range(rank).value_or(index_range{}).begin);
  }
  /// Elements over every block.
  [[nodiscard]] size_type total_size() const noexcept { return partition_.global_size(); }
  /// Elements of this rank's block.
  [[nodiscard]] size_type local_size() const { return local().size; }
  /// f(element) for each element of this rank's block, on the calling thread: host-accessible
  /// placements only (the block of a device placement is device memory). No communication.
  template <class F>
  void for_each_local(F&& f) const {
    for (T& x : local()) f(x);
  }
  /// f(segment) for this rank's block: the one segment that is local (upstream's name and meaning).
  template <class F>
  void for_each_segment(F&& f) const {
    segment<T> mine = local();
    std::forward<F>(f)(mine);
  }

 private:
  block_partition<> partition_;
  int rank_;
  T* data_;
};

/// Upstream DTL's factory: container.segmented_view().
template <class Container>
[[nodiscard]] auto make_segmented_view(Container& container) {
  return container.segmented_view();
}

template <class T>
struct is_segmented_view<segmented_view<T>> : std::true_type {};

}  // namespace dtl

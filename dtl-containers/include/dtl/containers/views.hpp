#pragma once
// Views of a distributed_vector's data:
//   local_view<T>      this rank's elements, for host code (span-like, with iterators);
//                      only placements the host can touch have one
//   device_view<T>     this rank's elements for kernels and device lambdas: pointer, size, device id;
//                      trivially copyable, pass it by value
//   segment<T>         one rank's block: rank, global offset, size, and (on the owner) its data
//   segmented_view<T>  every rank's block in rank order, for code that walks all blocks

#include <dtl/containers/block_partition.hpp>
#include <dtl/containers/host_device.hpp>
#include <dtl/core/placement.hpp>

#include <cstddef>
#include <iterator>
#include <type_traits>

namespace dtl {

template <class T>
class local_view {
 public:
  using value_type = std::remove_cv_t<T>;
  using element_type = T;
  using size_type = std::size_t;
  using iterator = T*;
  using reference = T&;

  constexpr local_view() noexcept = default;
  constexpr local_view(T* data, size_type size) noexcept : data_(data), size_(size) {}

  [[nodiscard]] constexpr T* data() const noexcept { return data_; }
  [[nodiscard]] constexpr size_type size() const noexcept { return size_; }
  [[nodiscard]] constexpr bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] constexpr iterator begin() const noexcept { return data_; }
  [[nodiscard]] constexpr iterator end() const noexcept { return data_ + size_; }
  /// Unchecked, like std::span.
  [[nodiscard]] constexpr reference operator[](size_type i) const noexcept { return data_[i]; }

 private:
  T* data_ = nullptr;
  size_type size_ = 0;
};

template <class T>
struct device_view {
  using value_type = std::remove_cv_t<T>;
  using size_type = std::size_t;

  T* ptr = nullptr;
  size_type count = 0;
  int device_id = no_device;

  [[nodiscard]] DTL_HOST_DEVICE constexpr T* data() const noexcept { return ptr; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr size_type size() const noexcept { return count; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr bool empty() const noexcept { return count == 0; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr int device() const noexcept { return device_id; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr T* begin() const noexcept { return ptr; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr T* end() const noexcept { return ptr + count; }
  /// Unchecked; dereference in device code only (or on the host for managed memory).
  [[nodiscard]] DTL_HOST_DEVICE constexpr T& operator[](size_type i) const noexcept { return ptr[i]; }
};

template <class T>
struct segment {
  int rank = 0;
  std::size_t global_offset = 0;
  std::size_t size = 0;
  /// The block's elements on the rank that owns it (device memory for device placements); nullptr on
  /// every other rank, and for an empty block.
  T* data = nullptr;
  /// true for this rank's own block.
  bool local = false;

  [[nodiscard]] constexpr bool is_local() const noexcept { return local; }
  [[nodiscard]] constexpr T* begin() const noexcept { return data; }
  [[nodiscard]] constexpr T* end() const noexcept { return data == nullptr ? nullptr : data + size; }
  [[nodiscard]] constexpr bool empty() const noexcept { return size == 0; }
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

  segmented_view(block_partition partition, int my_rank, T* my_data) noexcept
      : partition_(partition), rank_(my_rank), data_(my_data) {}

  [[nodiscard]] int size() const noexcept { return partition_.ranks(); }
  [[nodiscard]] iterator begin() const noexcept { return iterator(this, 0); }
  [[nodiscard]] iterator end() const noexcept { return iterator(this, partition_.ranks()); }
  /// The block of `rank` (0 <= rank < size()).
  [[nodiscard]] segment<T> at(int rank) const {
    const index_range range = partition_.local_range(rank).value_or(index_range{});
    const bool mine = rank == rank_;
    return segment<T>{rank, range.begin, range.size(), mine && range.size() != 0 ? data_ : nullptr, mine};
  }
  /// This rank's block.
  [[nodiscard]] segment<T> local() const { return at(rank_); }

 private:
  block_partition partition_;
  int rank_;
  T* data_;
};

}  // namespace dtl

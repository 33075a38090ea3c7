// SPDX-License-Identifier: MIT
#pragma once
// distributed_span<T, Extent>: a non-owning view of distributed data (upstream DTL's, the distributed
// analogue of std::span): this rank's contiguous elements (a pointer and a count) plus where they sit in
// the global sequence (global size, this rank's global offset, rank, ranks).
//
//   dtl::distributed_vector<int> vec(1000, ctx);
//   dtl::distributed_span<int> s(vec);              // or dtl::make_distributed_span(vec)
//   s.size();  s.local_size();  s[0];               // global size; this rank's count; local element 0
//   auto head = s.first(16);                        // GLOBAL elements [0, 16): each rank its share of them
//   std::span<int> mine = s.local_first(16);        // this rank's first 16 elements
//
// first(), last() and subspan() are GLOBAL here, like std::span's on the whole sequence: every rank
// calls them with the same arguments and gets its own part of the global range (possibly empty). In
// upstream DTL they are local (this rank's elements, as a one-rank span), which silently means a
// different range on every rank; the local forms are local_first(), local_last() and local_subspan()
// (std::span of this rank's elements). Everything else keeps upstream's meaning: operator[], front(),
// back(), data(), begin()/end() and size_bytes() are this rank's elements; size() and empty() are
// global. Counts past the span are clamped (std::span leaves them undefined).
//
// Any placement: over a device vector, data() and the iterators are device pointers (the accessors are
// __host__ __device__, and the span is trivially copyable, so a kernel may take it by value). The span
// does not keep the container alive, and a redistribute()/resize() of it invalidates the span.

#include <dtl/containers/block_partition.hpp>
#include <dtl/containers/host_device.hpp>
#include <dtl/core/traits.hpp>
#include <dtl/core/types.hpp>

#include <concepts>
#include <cstddef>
#include <span>
#include <type_traits>

namespace dtl {

template <class T, size_type Extent = dynamic_extent>
class distributed_span {
 public:
  using element_type = T;
  using value_type = std::remove_cv_t<T>;
  using size_type = dtl::size_type;
  using difference_type = std::ptrdiff_t;
  using pointer = T*;
  using const_pointer = const T*;
  using reference = T&;
  using const_reference = const T&;
  using iterator = T*;
  using const_iterator = const T*;

  /// Upstream's tag; the global size is size() whatever Extent says.
  static constexpr size_type extent = Extent;

  constexpr distributed_span() noexcept = default;

  /// Over a distributed container (distributed_vector, distributed_array): its local block and layout.
  template <class Container>
  requires requires(Container& c) {
    { c.local_data() } -> std::convertible_to<pointer>;
    c.local_size();
    c.size();
    c.global_offset();
    c.rank();
    c.num_ranks();
  }
  explicit distributed_span(Container& container) noexcept
      : data_(container.local_data()),
        local_size_(static_cast<size_type>(container.local_size())),
        global_size_(static_cast<size_type>(container.size())),
        offset_(static_cast<size_type>(container.global_offset())),
        rank_(container.rank()),
        ranks_(container.num_ranks()) {}

  /// A span<const T> from a span<T>.
  template <class U, size_type E>
  requires(std::is_convertible_v<U (*)[], T (*)[]>) constexpr distributed_span(
      const distributed_span<U, E>& other) noexcept  // NOLINT: converting, as std::span's
      : data_(other.data()),
        local_size_(other.local_size()),
        global_size_(other.size()),
        offset_(other.global_offset()),
        rank_(other.rank()),
        ranks_(other.num_ranks()) {}

  /// One rank holding `local_size` of `global_size` elements, from global index 0 (upstream's form).
  constexpr distributed_span(pointer data, size_type local_size, size_type global_size) noexcept
      : data_(data), local_size_(local_size), global_size_(global_size) {}

  /// Rank `my_rank` of `num_ranks` in DTL's even block layout (the first global_size % num_ranks ranks
  /// hold one element more), which gives this rank's global offset. For any other layout pass the
  /// offset (the next form).
  constexpr distributed_span(pointer data, size_type local_size, size_type global_size, rank_t my_rank,
                             rank_t num_ranks) noexcept
      : distributed_span(data, local_size, global_size, my_rank, num_ranks,
                         even_block_offset(global_size, my_rank, num_ranks)) {}

  /// This rank's elements start at global index `global_offset`.
  DTL_HOST_DEVICE constexpr distributed_span(pointer data, size_type local_size, size_type global_size, rank_t my_rank,
                                             rank_t num_ranks, size_type global_offset) noexcept
      : data_(data),
        local_size_(local_size),
        global_size_(global_size),
        offset_(global_offset),
        rank_(my_rank),
        ranks_(num_ranks) {}

  // --- sizes ---
  /// Elements over every rank.
  [[nodiscard]] DTL_HOST_DEVICE constexpr size_type size() const noexcept { return global_size_; }
  /// This rank's elements.
  [[nodiscard]] DTL_HOST_DEVICE constexpr size_type local_size() const noexcept { return local_size_; }
  /// Bytes of this rank's elements (upstream's meaning).
  [[nodiscard]] DTL_HOST_DEVICE constexpr size_type size_bytes() const noexcept { return local_size_ * sizeof(T); }
  /// No element on any rank.
  [[nodiscard]] DTL_HOST_DEVICE constexpr bool empty() const noexcept { return global_size_ == 0; }
  /// The global index (within this span) of this rank's first element.
  [[nodiscard]] DTL_HOST_DEVICE constexpr size_type global_offset() const noexcept { return offset_; }

  // --- this rank's elements (unchecked, as std::span's) ---
  [[nodiscard]] DTL_HOST_DEVICE constexpr pointer data() const noexcept { return data_; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr reference operator[](size_type i) const noexcept { return data_[i]; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr reference front() const noexcept { return data_[0]; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr reference back() const noexcept { return data_[local_size_ - 1]; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr iterator begin() const noexcept { return data_; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr iterator end() const noexcept { return data_ + local_size_; }

  // --- global subranges: every rank calls them alike and gets its part ---
  /// Global elements [0, count).
  [[nodiscard]] DTL_HOST_DEVICE constexpr distributed_span<T> first(size_type count) const noexcept {
    return subspan(0, count);
  }
  /// Global elements [size() - count, size()).
  [[nodiscard]] DTL_HOST_DEVICE constexpr distributed_span<T> last(size_type count) const noexcept {
    const size_type n = count < global_size_ ? count : global_size_;
    return subspan(global_size_ - n, n);
  }
  /// Global elements [offset, offset + count), or to the end for dynamic_extent.
  [[nodiscard]] DTL_HOST_DEVICE constexpr distributed_span<T> subspan(size_type offset,
                                                                      size_type count = dynamic_extent) const noexcept {
    const size_type begin = offset < global_size_ ? offset : global_size_;
    const size_type n = count > global_size_ - begin ? global_size_ - begin : count;
    // This rank's part: its block [offset_, offset_ + local_size_) cut to [begin, begin + n).
    const size_type mine_begin = clamp(offset_, begin, begin + n);
    const size_type mine_end = clamp(offset_ + local_size_, begin, begin + n);
    const size_type skip = clamp(mine_begin, offset_, offset_ + local_size_) - offset_;
    return distributed_span<T>(data_ == nullptr ? data_ : data_ + skip, mine_end - mine_begin, n, rank_, ranks_,
                               mine_begin - begin);
  }

  // --- local subranges (upstream's first/last/subspan) ---
  /// This rank's first `count` elements.
  [[nodiscard]] constexpr std::span<T> local_first(size_type count) const noexcept { return local_subspan(0, count); }
  /// This rank's last `count` elements.
  [[nodiscard]] constexpr std::span<T> local_last(size_type count) const noexcept {
    const size_type n = count < local_size_ ? count : local_size_;
    return local_subspan(local_size_ - n, n);
  }
  /// This rank's elements [offset, offset + count), or to the end of its block for dynamic_extent.
  [[nodiscard]] constexpr std::span<T> local_subspan(size_type offset,
                                                     size_type count = dynamic_extent) const noexcept {
    const size_type begin = offset < local_size_ ? offset : local_size_;
    const size_type n = count > local_size_ - begin ? local_size_ - begin : count;
    return n == 0 ? std::span<T>() : std::span<T>(data_ + begin, n);
  }
  /// This rank's elements.
  [[nodiscard]] constexpr std::span<T> local() const noexcept { return local_subspan(0); }

  // --- the distribution ---
  [[nodiscard]] DTL_HOST_DEVICE constexpr rank_t rank() const noexcept { return rank_; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr rank_t num_ranks() const noexcept { return ranks_; }

 private:
  DTL_HOST_DEVICE static constexpr size_type clamp(size_type v, size_type lo, size_type hi) noexcept {
    return v < lo ? lo : (v > hi ? hi : v);
  }
  static constexpr size_type even_block_offset(size_type global, rank_t rank, rank_t ranks) noexcept {
    if (ranks <= 0 || rank <= 0) return 0;
    const auto r = static_cast<size_type>(rank < ranks ? rank : ranks);
    return even_block_begin(global, static_cast<size_type>(ranks), r);
  }

  pointer data_ = nullptr;
  size_type local_size_ = 0;
  size_type global_size_ = 0;
  size_type offset_ = 0;
  rank_t rank_ = 0;
  rank_t ranks_ = 1;
};

/// Upstream DTL's factories: a span over a container's data (const elements for a const container).
template <class Container>
[[nodiscard]] auto make_distributed_span(Container& container) {
  return distributed_span<typename Container::value_type>(container);
}
template <class Container>
[[nodiscard]] auto make_distributed_span(const Container& container) {
  return distributed_span<const typename Container::value_type>(container);
}

template <class T, size_type E>
struct is_distributed_span<distributed_span<T, E>> : std::true_type {};
template <class T, size_type E>
struct is_distributed_container<distributed_span<T, E>> : std::true_type {};

}  // namespace dtl

// SPDX-License-Identifier: MIT
#pragma once
// dtl::tensor_view<T, N>: one rank's block of a distributed_tensor, row-major (the last dimension
// varies fastest), with mdspan's member names: view(i, j, k), extents(), extent(d), stride(d), rank(),
// size(), data(), is_exhaustive(); and, as the vector's local_view, view[i] over the elements in linear
// (row-major) order, and begin()/end() where the view is exhaustive. A view may have strides of its own
// (layout_stride's): a grid_tensor's owned block, inside its allocation with ghosts; then it is not
// exhaustive, view[i] finds element i from its index, and begin()/end() are not for it. Non-owning and trivially
// copyable: pass it by value to a kernel. Every member but the constructor runs on the host and on the device
// (DTL_HOST_DEVICE); dereference it where the memory is (a device placement's on the device). Unchecked, as
// std::mdspan.

#include <dtl/containers/host_device.hpp>
#include <dtl/containers/nd_extent.hpp>
#include <dtl/core/types.hpp>

#include <concepts>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace dtl {

template <class T, size_type N>
class tensor_view {
  static_assert(N >= 1, "a tensor_view has at least one dimension");

 public:
  using value_type = std::remove_cv_t<T>;
  using element_type = T;
  using size_type = dtl::size_type;
  using extents_type = nd_extent<N>;
  using reference = T&;
  using pointer = T*;
  using iterator = T*;

  constexpr tensor_view() noexcept = default;
  /// `data`: extents[0] * ... * extents[N-1] elements in row-major order.
  constexpr tensor_view(T* data, const nd_extent<N>& extents) noexcept : data_(data) {
    size_type s = 1;
    for (size_type d = N; d-- > 0;) {
      extents_[d] = extents[d];
      strides_[d] = s;
      s *= extents[d];
    }
  }
  /// `data`: the element (0, ..., 0); element (i, j, ...) at data[i * strides[0] + j * strides[1] + ...].
  constexpr tensor_view(T* data, const nd_extent<N>& extents, const nd_extent<N>& strides) noexcept
      : tensor_view(data, extents) {
    for (size_type d = 0; d < N; ++d) {
      exhaustive_ = exhaustive_ && (strides_[d] == strides[d] || extents[d] <= 1);
      strides_[d] = strides[d];
    }
  }
  /// A view of const elements from one of mutable ones.
  template <class U>
  constexpr tensor_view(const tensor_view<U, N>& other) noexcept requires(std::is_same_v<const U, T>)
      : tensor_view(other.data(), other.extents(), other.strides()) {}

  [[nodiscard]] DTL_HOST_DEVICE static constexpr size_type rank() noexcept { return N; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr size_type extent(size_type d) const noexcept { return extents_[d]; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr nd_extent<N> extents() const noexcept {
    return extents_of(std::make_index_sequence<N>{});
  }
  /// Elements between neighbours along dimension d in memory (row-major: the product of the extents after d).
  [[nodiscard]] DTL_HOST_DEVICE constexpr size_type stride(size_type d) const noexcept { return strides_[d]; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr nd_extent<N> strides() const noexcept {
    return strides_of(std::make_index_sequence<N>{});
  }
  /// Whether the elements are the size() elements from data() on, in row-major order.
  [[nodiscard]] DTL_HOST_DEVICE constexpr bool is_exhaustive() const noexcept { return exhaustive_; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr size_type size() const noexcept {
    size_type count = 1;
    for (size_type d = 0; d < N; ++d) count *= extents_[d];
    return count;
  }
  [[nodiscard]] DTL_HOST_DEVICE constexpr bool empty() const noexcept { return size() == 0; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr T* data() const noexcept { return data_; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr iterator begin() const noexcept { return data_; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr iterator end() const noexcept { return data_ + size(); }

  /// The element at (i, j, ...): one index per dimension.
  template <std::integral... I>
  [[nodiscard]] DTL_HOST_DEVICE constexpr reference operator()(I... i) const noexcept requires(sizeof...(I) == N) {
    const size_type index[] = {static_cast<size_type>(i)...};
    size_type at = 0;
    for (size_type d = 0; d < N; ++d) at += index[d] * strides_[d];
    return data_[at];
  }
  /// The element at linear (row-major) position i.
  [[nodiscard]] DTL_HOST_DEVICE constexpr reference operator[](size_type i) const noexcept {
    if (exhaustive_) return data_[i];
    size_type at = 0;
    for (size_type d = N; d-- > 0;) {
      at += (i % extents_[d]) * strides_[d];
      i /= extents_[d];
    }
    return data_[at];
  }

 private:
  template <std::size_t... D>
  DTL_HOST_DEVICE constexpr nd_extent<N> extents_of(std::index_sequence<D...>) const noexcept {
    return {extents_[D]...};
  }

  template <std::size_t... D>
  DTL_HOST_DEVICE constexpr nd_extent<N> strides_of(std::index_sequence<D...>) const noexcept {
    return {strides_[D]...};
  }

  T* data_ = nullptr;
  size_type extents_[N] = {};
  size_type strides_[N] = {};
  bool exhaustive_ = true;
};

}  // namespace dtl

// SPDX-License-Identifier: MIT
#pragma once
// dtl::tensor_view<T, N>: one rank's block of a distributed_tensor, row-major (the last dimension
// varies fastest), with mdspan's member names: view(i, j, k), extents(), extent(d), stride(d), rank(),
// size(), data(); and, as the vector's local_view, view[i] and begin()/end() over the elements in
// linear order. Non-owning and trivially copyable: pass it by value to a kernel. Every member but the
// constructor runs on the host and on the device (DTL_HOST_DEVICE); dereference it where the memory is
// (a device placement's on the device). Unchecked, as std::mdspan.

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
    for (size_type d = 0; d < N; ++d) extents_[d] = extents[d];
  }
  /// A view of const elements from one of mutable ones.
  template <class U>
  constexpr tensor_view(const tensor_view<U, N>& other) noexcept requires(std::is_same_v<const U, T>)
      : tensor_view(other.data(), other.extents()) {}

  [[nodiscard]] DTL_HOST_DEVICE static constexpr size_type rank() noexcept { return N; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr size_type extent(size_type d) const noexcept { return extents_[d]; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr nd_extent<N> extents() const noexcept {
    return extents_of(std::make_index_sequence<N>{});
  }
  /// Elements between neighbours along dimension d: the product of the extents after d.
  [[nodiscard]] DTL_HOST_DEVICE constexpr size_type stride(size_type d) const noexcept {
    size_type s = 1;
    for (size_type k = d + 1; k < N; ++k) s *= extents_[k];
    return s;
  }
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
    size_type linear = 0;
    for (size_type d = 0; d < N; ++d) linear = linear * extents_[d] + index[d];
    return data_[linear];
  }
  /// The element at linear (row-major) position i.
  [[nodiscard]] DTL_HOST_DEVICE constexpr reference operator[](size_type i) const noexcept { return data_[i]; }

 private:
  template <std::size_t... D>
  DTL_HOST_DEVICE constexpr nd_extent<N> extents_of(std::index_sequence<D...>) const noexcept {
    return {extents_[D]...};
  }

  T* data_ = nullptr;
  size_type extents_[N] = {};
};

}  // namespace dtl

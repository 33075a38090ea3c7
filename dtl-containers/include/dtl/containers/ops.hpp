#pragma once
// Reduction operators with an identity, as upstream DTL names them. std::plus<> and std::multiplies<>
// work too. All are callable from host and device code.

#include <dtl/containers/host_device.hpp>

#include <limits>

namespace dtl {

template <class T = void>
struct reduce_min {
  [[nodiscard]] static constexpr T identity() noexcept {
    return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
  }
  DTL_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};

template <class T = void>
struct reduce_max {
  [[nodiscard]] static constexpr T identity() noexcept {
    return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
  }
  DTL_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};

template <>
struct reduce_min<void> {
  template <class T>
  DTL_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const {
    return b < a ? b : a;
  }
};

template <>
struct reduce_max<void> {
  template <class T>
  DTL_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const {
    return a < b ? b : a;
  }
};

}  // namespace dtl

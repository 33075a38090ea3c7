// SPDX-License-Identifier: MIT
#pragma once
// Reduction operators with upstream DTL's names, callable on the host and on the device: the
// communicator's reductions and the algorithms take them (<dtl/containers/algorithms/ops.hpp> is the
// algorithms' spelling of this header). They compile with g++, nvcc and hipcc. std::plus and
// std::multiplies work as operators of the device algorithms too (dtl-containers maps them to
// device-callable equivalents internally).

#include <dtl/containers/host_device.hpp>

#include <limits>
#include <type_traits>

namespace dtl {

/// The smaller of two values (the first one when they are equal, as std::min). reduce_min<> deduces T.
template <class T = void>
struct reduce_min {
  DTL_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const { return b < a ? b : a; }

  /// The value that changes no result: +infinity where T has one, else its largest value.
  static constexpr T identity() noexcept {
    if constexpr (std::numeric_limits<T>::has_infinity) {
      return std::numeric_limits<T>::infinity();
    } else {
      return std::numeric_limits<T>::max();
    }
  }
};

/// The larger of two values (the first one when they are equal, as std::max). reduce_max<> deduces T.
template <class T = void>
struct reduce_max {
  DTL_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const { return a < b ? b : a; }

  /// The value that changes no result: -infinity where T has one, else its lowest value.
  static constexpr T identity() noexcept {
    if constexpr (std::numeric_limits<T>::has_infinity) {
      return -std::numeric_limits<T>::infinity();
    } else {
      return std::numeric_limits<T>::lowest();
    }
  }
};

template <>
struct reduce_min<void> {
  using is_transparent = void;
  template <class T, class U>
  DTL_HOST_DEVICE constexpr std::common_type_t<T, U> operator()(const T& a, const U& b) const {
    return b < a ? b : a;
  }
};

template <>
struct reduce_max<void> {
  using is_transparent = void;
  template <class T, class U>
  DTL_HOST_DEVICE constexpr std::common_type_t<T, U> operator()(const T& a, const U& b) const {
    return a < b ? b : a;
  }
};

/// Upstream's names for the sum and the product: a + b and a * b, with identities 0 and 1; on the
/// paths where std::plus / std::multiplies are native (MPI, RCCL/NCCL), these are too.
template <class T = void>
struct reduce_sum {
  DTL_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const { return a + b; }
  static constexpr T identity() noexcept { return T{0}; }
};

template <class T = void>
struct reduce_product {
  DTL_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const { return a * b; }
  static constexpr T identity() noexcept { return T{1}; }
};

template <>
struct reduce_sum<void> {
  using is_transparent = void;
  template <class T, class U>
  DTL_HOST_DEVICE constexpr std::common_type_t<T, U> operator()(const T& a, const U& b) const {
    return a + b;
  }
};

template <>
struct reduce_product<void> {
  using is_transparent = void;
  template <class T, class U>
  DTL_HOST_DEVICE constexpr std::common_type_t<T, U> operator()(const T& a, const U& b) const {
    return a * b;
  }
};

/// The logical and bitwise reductions (integers): land and lor give 1 or 0 (as MPI_LAND / MPI_LOR), band,
/// bor and bxor combine bits. Each has its identity; reduce_land<> and the others deduce T.
template <class T = void>
struct reduce_land {
  DTL_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const { return static_cast<T>(a && b); }
  static constexpr T identity() noexcept { return T{1}; }
};
template <class T = void>
struct reduce_lor {
  DTL_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const { return static_cast<T>(a || b); }
  static constexpr T identity() noexcept { return T{0}; }
};
template <class T = void>
struct reduce_band {
  DTL_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const { return static_cast<T>(a & b); }
  static constexpr T identity() noexcept { return static_cast<T>(~T{0}); }
};
template <class T = void>
struct reduce_bor {
  DTL_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const { return static_cast<T>(a | b); }
  static constexpr T identity() noexcept { return T{0}; }
};
template <class T = void>
struct reduce_bxor {
  DTL_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const { return static_cast<T>(a ^ b); }
  static constexpr T identity() noexcept { return T{0}; }
};

template <>
struct reduce_land<void> {
  using is_transparent = void;
  template <class T, class U>
  DTL_HOST_DEVICE constexpr bool operator()(const T& a, const U& b) const {
    return a && b;
  }
};
template <>
struct reduce_lor<void> {
  using is_transparent = void;
  template <class T, class U>
  DTL_HOST_DEVICE constexpr bool operator()(const T& a, const U& b) const {
    return a || b;
  }
};
template <>
struct reduce_band<void> {
  using is_transparent = void;
  template <class T, class U>
  DTL_HOST_DEVICE constexpr std::common_type_t<T, U> operator()(const T& a, const U& b) const {
    return a & b;
  }
};
template <>
struct reduce_bor<void> {
  using is_transparent = void;
  template <class T, class U>
  DTL_HOST_DEVICE constexpr std::common_type_t<T, U> operator()(const T& a, const U& b) const {
    return a | b;
  }
};
template <>
struct reduce_bxor<void> {
  using is_transparent = void;
  template <class T, class U>
  DTL_HOST_DEVICE constexpr std::common_type_t<T, U> operator()(const T& a, const U& b) const {
    return a ^ b;
  }
};

}  // namespace dtl

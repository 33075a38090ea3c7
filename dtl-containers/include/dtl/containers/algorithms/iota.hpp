// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's iota names beside our dtl::iota (modify.hpp): distributed_iota, iota_step, local_iota.
//
//   dtl::distributed_iota(vec, 10);          // vec[i] = 10 + i, i the global index (dtl::iota itself)
//   dtl::iota_step(vec, 0.0, 0.5);           // vec[i] = 0.0 + i * 0.5
//   std::size_t n = dtl::local_iota(vec, 0); // this rank's block: 0, 1, 2, ... (no global offset)
//
// None communicates: each rank knows its global offset. distributed_iota runs where dtl::iota runs (host
// and device placements); iota_step on host placements (a device placement gives not_supported). Both
// return result<void>; local_iota returns how many elements it wrote.

#include <dtl/containers/algorithms/detail/algorithm_fn.hpp>
#include <dtl/containers/algorithms/detail/host_only.hpp>
#include <dtl/containers/algorithms/modify.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/core/types.hpp>

#include <cstddef>

namespace dtl {

namespace detail {

/// vec[i] = start + i * step, i the global index.
struct iota_step_impl {
  static constexpr const char* name = "iota_step";
  template <class Pol, class T, class P, class S, class D>
  static result<void> host(const Pol&, distributed_vector<T, P>& vec, const S& start, const D& step) {
    T* data = vec.local_data();
    const T first = static_cast<T>(start), by = static_cast<T>(step);
    const std::size_t offset = vec.global_offset();
    return host_loop<Pol>(vec.local_size(), [=](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) data[i] = static_cast<T>(first + static_cast<T>(offset + i) * by);
    });
  }
  template <class Pol, class T, class P, class S, class D>
  static auto device(const Pol&, distributed_vector<T, P>&, const S&, const D&) {
    return host_only_outcome<Pol, void>(name);
  }
};

}  // namespace detail

inline constexpr detail::status_algorithm<detail::iota_impl> distributed_iota{};
inline constexpr detail::status_algorithm<detail::iota_step_impl> iota_step{};

/// This rank's block set to start, start + 1, ... (its global offset not added): how many elements.
template <ExecutionPolicy Pol, class T, class P, class S>
requires(P::host_accessible) size_type local_iota(Pol&&, distributed_vector<T, P>& vec, const S& start) {
  T* data = vec.local_data();
  T value = static_cast<T>(start);
  for (std::size_t i = 0; i < vec.local_size(); ++i, ++value) data[i] = value;
  return vec.local_size();
}
template <class T, class P, class S>
requires(P::host_accessible) size_type local_iota(distributed_vector<T, P>& vec, const S& start) {
  return local_iota(seq{}, vec, start);
}

}  // namespace dtl

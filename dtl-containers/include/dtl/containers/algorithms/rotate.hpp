// SPDX-License-Identifier: MIT
#pragma once
// Rotation over every rank, and upstream DTL's local rotations and shifts of one rank's block.
//
//   dtl::rotate(vec, 2);                      // [1 2 3 4 5] -> [3 4 5 1 2] across the ranks (left by 2)
//   dtl::rotate(dtl::seq{}, vec, -1, comm);   // right by 1; upstream's communicator (or the context) last
//   dtl::local_rotate(vec, 2);                // this rank's block alone (no communication)
//   auto kept = dtl::local_shift_left(vec, 2, 0);   // block shifted left by 2, the tail filled with 0
//
// rotate is collective: the element at global index i moves to (i - n) mod size(), positions taken modulo
// the size (negative: to the right); the layout is kept. Each element travels once, with its position
// (one alltoall of counts and one alltoallv). Every rank must pass the same n (else invalid_argument on
// every rank); it returns result<void>, the same on every rank. Host placements; a device placement gives
// not_supported. local_rotate returns result<void>; local_shift_left/right return how many of the
// block's elements stayed (size - n, 0 when n >= size).

#include <dtl/containers/algorithms/detail/algorithm_fn.hpp>
#include <dtl/containers/algorithms/detail/global_moves.hpp>
#include <dtl/containers/algorithms/detail/group_forms.hpp>
#include <dtl/containers/algorithms/detail/host_only.hpp>
#include <dtl/containers/communication/detail/agreement.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/core/types.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace dtl {

namespace detail {

/// n modulo size, as a left rotation in [0, size).
inline std::size_t left_rotation(long long n, std::size_t size) {
  if (size == 0) return 0;
  const long long m = static_cast<long long>(size);
  return static_cast<std::size_t>(((n % m) + m) % m);
}

struct rotate_impl {
  static constexpr const char* name = "rotate";
  static constexpr bool communicates = true;
  template <class Pol, class T, class P>
  static result<void> host(const Pol&, distributed_vector<T, P>& vec, long long n_positions) {
    const context& ctx = vec.get_context();
    // The ranks must agree on n before any of them may skip the exchange (n a multiple of the size).
    if (ctx.size() > 1)
      DTL_TRY(agree(ctx, {}, call_signature{name, {static_cast<std::int64_t>(n_positions)}, {"positions"}}));
    const std::size_t size = vec.global_size();
    const std::size_t k = left_rotation(n_positions, size);
    if (k == 0) return {};
    const std::size_t offset = vec.global_offset();
    return move_to_positions(
        ctx, vec.partition(), vec.local_data(), vec.local_size(),
        [=](std::size_t i) { return (offset + i + size - k) % size; }, name);
  }
  template <class Pol, class T, class P>
  static auto device(const Pol&, distributed_vector<T, P>&, long long) {
    return host_only_outcome<Pol, void>(name);
  }
};

}  // namespace detail

inline constexpr detail::with_group_forms<detail::status_algorithm<detail::rotate_impl>, detail::rotate_impl> rotate{};

/// This rank's block rotated left by n_positions (modulo its size; negative: right). No communication.
template <ExecutionPolicy Pol, class T, class P>
requires(P::host_accessible) result<void> local_rotate(Pol&&, distributed_vector<T, P>& vec, long long n_positions) {
  T* data = vec.local_data();
  const std::size_t n = vec.local_size();
  std::rotate(data, data + detail::left_rotation(n_positions, n), data + n);
  return {};
}
template <class T, class P>
requires(P::host_accessible) result<void> local_rotate(distributed_vector<T, P>& vec, long long n_positions) {
  return local_rotate(seq{}, vec, n_positions);
}

/// This rank's block shifted left by n, the last n filled with fill_value: how many elements stayed.
template <ExecutionPolicy Pol, class T, class P, class V>
requires(P::host_accessible) size_type
    local_shift_left(Pol&&, distributed_vector<T, P>& vec, size_type n, const V& fill_value) {
  T* data = vec.local_data();
  const std::size_t size = vec.local_size();
  const std::size_t kept = n < size ? size - n : 0;
  std::copy(data + (size - kept), data + size, data);
  std::fill(data + kept, data + size, static_cast<T>(fill_value));
  return kept;
}
template <class T, class P, class V>
requires(P::host_accessible) size_type
    local_shift_left(distributed_vector<T, P>& vec, size_type n, const V& fill_value) {
  return local_shift_left(seq{}, vec, n, fill_value);
}

/// This rank's block shifted right by n, the first n filled with fill_value: how many elements stayed.
template <ExecutionPolicy Pol, class T, class P, class V>
requires(P::host_accessible) size_type
    local_shift_right(Pol&&, distributed_vector<T, P>& vec, size_type n, const V& fill_value) {
  T* data = vec.local_data();
  const std::size_t size = vec.local_size();
  const std::size_t kept = n < size ? size - n : 0;
  std::copy_backward(data, data + kept, data + size);
  std::fill(data, data + (size - kept), static_cast<T>(fill_value));
  return kept;
}
template <class T, class P, class V>
requires(P::host_accessible) size_type
    local_shift_right(distributed_vector<T, P>& vec, size_type n, const V& fill_value) {
  return local_shift_right(seq{}, vec, n, fill_value);
}

}  // namespace dtl

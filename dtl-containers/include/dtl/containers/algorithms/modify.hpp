#pragma once
// Algorithms that write elements: fill, iota, for_each, for_each_indexed, transform, copy.
//
//   dtl::fill(vec, 1.0f);                                              // dtl::seq{} by default
//   dtl::iota(dtl::par{}, idx, 0);                                    // idx[i] = i (global index)
//   dtl::transform(x, y, [] __device__ (float v) { return 2 * v; });   // y[i] = 2 x[i] on the GPU
//   auto done = dtl::for_each(dtl::async{}, vec, op);                 // a dtl::hip::future<void>
//
// Each returns result<void> (a future<void> under dtl::async). Vectors in one call must share their
// context and size (else invalid_argument / extent_mismatch); a context whose environment ended gives
// invalid_state. None of them communicates: each rank works on its own block.
// Device placements run on the GPU; user functions are device functions (see docs/containers.md),
// and except for fill and copy the calling file is compiled by the kernel compiler (dtl-hip-kc).

#include <dtl/containers/detail/algorithm_support.hpp>
#include <dtl/containers/detail/device_algorithms.hpp>
#include <dtl/containers/detail/dispatch.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/containers/execution.hpp>

#include <cstddef>
#include <utility>

namespace dtl {

namespace detail {

/// Runs a host loop body(begin, end) over the local block under `Policy`.
template <class Policy, class Body>
auto host_loop(std::size_t n, Body body) {
  if constexpr (is_parallel_v<Policy>)
    parallel_for(n, body);
  else
    body(std::size_t{0}, n);
  return host_outcome<Policy, void>(result<void>());
}

}  // namespace detail

// --- fill ---
template <ExecutionPolicy Policy, class T, class P, class V>
auto fill(Policy&& policy, distributed_vector<T, P>& vec, const V& value) {
  using Pol = std::remove_cvref_t<Policy>;
  if (status s = vec.get_context().check(); !s.ok()) return detail::failed_outcome<Pol, void>(std::move(s));
  const T v = static_cast<T>(value);
  if constexpr (P::device_accessible) {
    return detail::device_algo::fill(policy, vec.get_context(), vec.device_id(), vec.local_data(), vec.local_size(), v);
  } else {
    T* data = vec.local_data();
    return detail::host_loop<Pol>(vec.local_size(), [data, v](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) data[i] = v;
    });
  }
}
template <class T, class P, class V>
result<void> fill(distributed_vector<T, P>& vec, const V& value) {
  return fill(seq{}, vec, value);
}

// --- iota: vec[i] = first + i, i the global index ---
template <ExecutionPolicy Policy, class T, class P, class V>
auto iota(Policy&& policy, distributed_vector<T, P>& vec, const V& first) {
  using Pol = std::remove_cvref_t<Policy>;
  if (status s = vec.get_context().check(); !s.ok()) return detail::failed_outcome<Pol, void>(std::move(s));
  const T start = static_cast<T>(static_cast<T>(first) + static_cast<T>(vec.global_offset()));
  if constexpr (P::device_accessible) {
    return detail::device_algo::iota(policy, vec.get_context(), vec.device_id(), vec.local_data(), vec.local_size(),
                                     start);
  } else {
    T* data = vec.local_data();
    return detail::host_loop<Pol>(vec.local_size(), [data, start](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) data[i] = static_cast<T>(start + static_cast<T>(i));
    });
  }
}
template <class T, class P, class V>
result<void> iota(distributed_vector<T, P>& vec, const V& first) {
  return iota(seq{}, vec, first);
}

// --- for_each: f(element&) ---
template <ExecutionPolicy Policy, class T, class P, class F>
auto for_each(Policy&& policy, distributed_vector<T, P>& vec, F f) {
  using Pol = std::remove_cvref_t<Policy>;
  if (status s = vec.get_context().check(); !s.ok()) return detail::failed_outcome<Pol, void>(std::move(s));
  if constexpr (P::device_accessible) {
    return detail::device_algo::for_each(policy, vec.get_context(), vec.device_id(), vec.local_data(),
                                         vec.local_size(), f);
  } else {
    T* data = vec.local_data();
    return detail::host_loop<Pol>(vec.local_size(), [data, &f](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) f(data[i]);
    });
  }
}
template <class T, class P, class F>
result<void> for_each(distributed_vector<T, P>& vec, F f) {
  return for_each(seq{}, vec, std::move(f));
}

// --- for_each_indexed: f(global_index, element&) ---
template <ExecutionPolicy Policy, class T, class P, class F>
auto for_each_indexed(Policy&& policy, distributed_vector<T, P>& vec, F f) {
  using Pol = std::remove_cvref_t<Policy>;
  if (status s = vec.get_context().check(); !s.ok()) return detail::failed_outcome<Pol, void>(std::move(s));
  const std::size_t offset = vec.global_offset();
  if constexpr (P::device_accessible) {
    return detail::device_algo::for_each_indexed(policy, vec.get_context(), vec.device_id(), vec.local_data(),
                                                 vec.local_size(), offset, f);
  } else {
    T* data = vec.local_data();
    return detail::host_loop<Pol>(vec.local_size(), [data, offset, &f](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) f(offset + i, data[i]);
    });
  }
}
template <class T, class P, class F>
result<void> for_each_indexed(distributed_vector<T, P>& vec, F f) {
  return for_each_indexed(seq{}, vec, std::move(f));
}

// --- transform: out[i] = op(in[i]) ---
template <ExecutionPolicy Policy, class T, class P, class U, class Q, class F>
auto transform(Policy&& policy, const distributed_vector<T, P>& in, distributed_vector<U, Q>& out, F op) {
  using Pol = std::remove_cvref_t<Policy>;
  static_assert(P::device_accessible == Q::device_accessible,
                "transform: both vectors must be on the device, or both on the host");
  if (status s = detail::check_same_layout(in, out, "transform"); !s.ok()) return detail::failed_outcome<Pol, void>(s);
  if (status s = in.get_context().check(); !s.ok()) return detail::failed_outcome<Pol, void>(std::move(s));
  if constexpr (P::device_accessible) {
    return detail::device_algo::transform(policy, in.get_context(), out.device_id(), in.local_data(), out.local_data(),
                                          in.local_size(), op);
  } else {
    const T* src = in.local_data();
    U* dst = out.local_data();
    return detail::host_loop<Pol>(in.local_size(), [src, dst, &op](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) dst[i] = static_cast<U>(op(src[i]));
    });
  }
}
template <class T, class P, class U, class Q, class F>
result<void> transform(const distributed_vector<T, P>& in, distributed_vector<U, Q>& out, F op) {
  return transform(seq{}, in, out, std::move(op));
}

// --- transform (binary): out[i] = op(a[i], b[i]) ---
template <ExecutionPolicy Policy, class A, class PA, class B, class PB, class U, class Q, class F>
auto transform(Policy&& policy, const distributed_vector<A, PA>& a, const distributed_vector<B, PB>& b,
               distributed_vector<U, Q>& out, F op) {
  using Pol = std::remove_cvref_t<Policy>;
  static_assert(PA::device_accessible == Q::device_accessible && PB::device_accessible == Q::device_accessible,
                "transform: all vectors must be on the device, or all on the host");
  if (status s = detail::check_same_layout(a, out, "transform"); !s.ok()) return detail::failed_outcome<Pol, void>(s);
  if (status s = detail::check_same_layout(b, out, "transform"); !s.ok()) return detail::failed_outcome<Pol, void>(s);
  if (status s = a.get_context().check(); !s.ok()) return detail::failed_outcome<Pol, void>(std::move(s));
  if constexpr (Q::device_accessible) {
    return detail::device_algo::transform2(policy, a.get_context(), out.device_id(), a.local_data(), b.local_data(),
                                           out.local_data(), a.local_size(), op);
  } else {
    const A* x = a.local_data();
    const B* y = b.local_data();
    U* dst = out.local_data();
    return detail::host_loop<Pol>(a.local_size(), [x, y, dst, &op](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i) dst[i] = static_cast<U>(op(x[i], y[i]));
    });
  }
}
template <class A, class PA, class B, class PB, class U, class Q, class F>
result<void> transform(const distributed_vector<A, PA>& a, const distributed_vector<B, PB>& b,
                       distributed_vector<U, Q>& out, F op) {
  return transform(seq{}, a, b, out, std::move(op));
}

// --- copy: out[i] = in[i] (between any placements of the same element type) ---
template <ExecutionPolicy Policy, class T, class P, class Q>
auto copy(Policy&& policy, const distributed_vector<T, P>& in, distributed_vector<T, Q>& out) {
  using Pol = std::remove_cvref_t<Policy>;
  if (status s = detail::check_same_layout(in, out, "copy"); !s.ok()) return detail::failed_outcome<Pol, void>(s);
  if (status s = in.get_context().check(); !s.ok()) return detail::failed_outcome<Pol, void>(std::move(s));
  if constexpr (P::device_accessible || Q::device_accessible) {
    constexpr transfer_kind kind = !P::device_accessible ? transfer_kind::host_to_device
                                   : !Q::device_accessible ? transfer_kind::device_to_host
                                                           : transfer_kind::device_to_device;
    return detail::device_algo::copy(policy, in.get_context(), Q::device_accessible ? out.device_id() : in.device_id(),
                                     in.local_data(), out.local_data(), in.local_size(), kind);
  } else {
    const T* src = in.local_data();
    T* dst = out.local_data();
    return detail::host_loop<Pol>(in.local_size(), [src, dst](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) dst[i] = src[i];
    });
  }
}
template <class T, class P, class Q>
result<void> copy(const distributed_vector<T, P>& in, distributed_vector<T, Q>& out) {
  return copy(seq{}, in, out);
}

}  // namespace dtl

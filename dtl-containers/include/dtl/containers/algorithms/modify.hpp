// SPDX-License-Identifier: MIT
#pragma once
// Algorithms that write elements: fill, iota, for_each, for_each_indexed, transform, copy; upstream DTL's
// local_fill, local_transform and local_copy of one rank's block are at the end of this file.
//
//   dtl::fill(vec, 1.0f);                                              // dtl::seq{} by default
//   dtl::iota(dtl::par{}, idx, 0);                                    // idx[i] = i (global index)
//   dtl::transform(x, y, [] __device__ (float v) { return 2 * v; });   // y[i] = 2 x[i] on the GPU
//   auto done = dtl::for_each(dtl::async{}, vec, op);                 // a dtl::hip::future<void>
//
// Each returns result<void> (a future<void> under dtl::async), copy a result<copy_result> (the elements
// this rank copied, as upstream's). Vectors in one call must share their
// context and size (else invalid_argument / extent_mismatch; copy, as upstream's, gives invalid_argument
// for any size or partition mismatch); a context whose environment ended gives invalid_state. None of them
// communicates: each rank works on its own block. Device placements run on the GPU; user functions are device functions
// (see docs/containers.md), and except for fill and copy the calling file is compiled by the kernel compiler
// (dtl-hip-kc). Each algorithm is an object made by algorithm_fn from its host and device bodies
// (detail/algorithm_fn.hpp).

#include <dtl/containers/algorithms/detail/algorithm_fn.hpp>
#include <dtl/containers/algorithms/detail/grid_forms.hpp>
#include <dtl/containers/algorithms/detail/support.hpp>
#include <dtl/containers/algorithms/device/modify.hpp>
#include <dtl/containers/distributed_vector.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <algorithm>

namespace dtl {

/// What dtl::copy gives (upstream DTL's copy_result): the elements this rank copied.
struct copy_result {
  size_type count = 0;
  bool success = true;
};

namespace detail {

struct fill_impl {
  static constexpr const char* name = "fill";
  template <class Pol, class T, class P, class V>
  static result<void> host(const Pol&, distributed_vector<T, P>& vec, const V& value) {
    T* data = vec.local_data();
    const T v = static_cast<T>(value);
    return host_loop<Pol>(vec.local_size(), [data, v](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) data[i] = v;
    });
  }
  template <class Pol, class T, class P, class V>
  static auto device(const Pol& policy, distributed_vector<T, P>& vec, const V& value) {
    return device::fill(policy, vec.get_context(), vec.device_id(), vec.local_data(), vec.local_size(),
                        static_cast<T>(value));
  }
};

/// vec[i] = first + i, i the global index.
struct iota_impl {
  static constexpr const char* name = "iota";
  template <class T, class P, class V>
  static T start_of(const distributed_vector<T, P>& vec, const V& first) {
    return static_cast<T>(static_cast<T>(first) + static_cast<T>(vec.global_offset()));
  }
  template <class Pol, class T, class P, class V>
  static result<void> host(const Pol&, distributed_vector<T, P>& vec, const V& first) {
    T* data = vec.local_data();
    const T start = start_of(vec, first);
    return host_loop<Pol>(vec.local_size(), [data, start](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) data[i] = static_cast<T>(start + static_cast<T>(i));
    });
  }
  template <class Pol, class T, class P, class V>
  static auto device(const Pol& policy, distributed_vector<T, P>& vec, const V& first) {
    return device::iota(policy, vec.get_context(), vec.device_id(), vec.local_data(), vec.local_size(),
                        start_of(vec, first));
  }
};

/// f(element&) for every element.
struct for_each_impl {
  static constexpr const char* name = "for_each";
  template <class Pol, class T, class P, class F>
  static result<void> host(const Pol&, distributed_vector<T, P>& vec, F f) {
    T* data = vec.local_data();
    return host_loop<Pol>(vec.local_size(), [data, &f](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) f(data[i]);
    });
  }
  template <class Pol, class T, class P, class F>
  static auto device(const Pol& policy, distributed_vector<T, P>& vec, F f) {
    return device::for_each(policy, vec.get_context(), vec.device_id(), vec.local_data(), vec.local_size(), f);
  }
};

/// f(global_index, element&) for every element.
struct for_each_indexed_impl {
  static constexpr const char* name = "for_each_indexed";
  template <class Pol, class T, class P, class F>
  static result<void> host(const Pol&, distributed_vector<T, P>& vec, F f) {
    T* data = vec.local_data();
    const std::size_t offset = vec.global_offset();
    return host_loop<Pol>(vec.local_size(), [data, offset, &f](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) f(offset + i, data[i]);
    });
  }
  template <class Pol, class T, class P, class F>
  static auto device(const Pol& policy, distributed_vector<T, P>& vec, F f) {
    return device::for_each_indexed(policy, vec.get_context(), vec.device_id(), vec.local_data(), vec.local_size(),
                                    vec.global_offset(), f);
  }
};

/// out[i] = op(in[i]), or out[i] = op(a[i], b[i]).
struct transform_impl {
  static constexpr const char* name = "transform";
  template <class Pol, class T, class P, class U, class Q, class F>
  static result<void> host(const Pol&, const distributed_vector<T, P>& in, distributed_vector<U, Q>& out, F op) {
    const T* src = in.local_data();
    U* dst = out.local_data();
    return host_loop<Pol>(in.local_size(), [src, dst, &op](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) dst[i] = static_cast<U>(op(src[i]));
    });
  }
  template <class Pol, class A, class PA, class B, class PB, class U, class Q, class F>
  static result<void> host(const Pol&, const distributed_vector<A, PA>& a, const distributed_vector<B, PB>& b,
                           distributed_vector<U, Q>& out, F op) {
    const A* x = a.local_data();
    const B* y = b.local_data();
    U* dst = out.local_data();
    return host_loop<Pol>(a.local_size(), [x, y, dst, &op](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i) dst[i] = static_cast<U>(op(x[i], y[i]));
    });
  }
  template <class Pol, class T, class P, class U, class Q, class F>
  static auto device(const Pol& policy, const distributed_vector<T, P>& in, distributed_vector<U, Q>& out, F op) {
    return device::transform(policy, in.get_context(), out.device_id(), in.local_data(), out.local_data(),
                             in.local_size(), op);
  }
  template <class Pol, class A, class PA, class B, class PB, class U, class Q, class F>
  static auto device(const Pol& policy, const distributed_vector<A, PA>& a, const distributed_vector<B, PB>& b,
                     distributed_vector<U, Q>& out, F op) {
    return device::transform2(policy, a.get_context(), out.device_id(), a.local_data(), b.local_data(),
                              out.local_data(), a.local_size(), op);
  }
};

/// out[i] = in[i], between any placements of the same element type. Its outcome is a copy_result.
struct copy_impl {
  static constexpr const char* name = "copy";
  static constexpr bool mixed_placements = true;
  /// Upstream's copy gives invalid_argument for vectors of different contexts, sizes or partitions, naming
  /// "incompatible partitions"; the shared check's text says which (after our "copy: ").
  static status layout_mismatch(const status& s) {
    std::string_view why = s.message();
    if (why.starts_with("copy: ")) why.remove_prefix(6);
    return status(status_code::invalid_argument, "copy: source and destination have incompatible partitions (" +
                                                     std::string(why) +
                                                     "); redistribute moves elements between partitions");
  }
  template <class Pol, class T, class P, class Q>
  static result<copy_result> host(const Pol&, const distributed_vector<T, P>& in, distributed_vector<T, Q>& out) {
    const T* src = in.local_data();
    T* dst = out.local_data();
    return outcome_with_value(host_loop<Pol>(in.local_size(),
                                             [src, dst](std::size_t b, std::size_t e) {
                                               for (std::size_t i = b; i < e; ++i) dst[i] = src[i];
                                             }),
                              copy_result{in.local_size(), true});
  }
  template <class Pol, class T, class P, class Q>
  static auto device(const Pol& policy, const distributed_vector<T, P>& in, distributed_vector<T, Q>& out) {
    constexpr transfer_kind kind = transfer_between_v<P, Q>;
    return outcome_with_value(
        device::copy(policy, in.get_context(), Q::device_accessible ? out.device_id() : in.device_id(), in.local_data(),
                     out.local_data(), in.local_size(), kind,
                     P::device_accessible && Q::device_accessible && in.device_id() == out.device_id()),
        copy_result{in.local_size(), true});
  }
};

}  // namespace detail

inline constexpr detail::with_grid_forms<detail::status_algorithm<detail::fill_impl>, detail::grid_fill_impl,
                                         detail::algorithm_form::status>
    fill{};
inline constexpr detail::status_algorithm<detail::iota_impl> iota{};
inline constexpr detail::with_grid_forms<detail::status_algorithm<detail::for_each_impl>, detail::grid_for_each_impl,
                                         detail::algorithm_form::status>
    for_each{};
inline constexpr detail::status_algorithm<detail::for_each_indexed_impl> for_each_indexed{};
inline constexpr detail::with_grid_forms<detail::status_algorithm<detail::transform_impl>, detail::grid_transform_impl,
                                         detail::algorithm_form::status>
    transform{};
inline constexpr detail::with_grid_forms<detail::status_algorithm<detail::copy_impl>, detail::grid_copy_impl,
                                         detail::algorithm_form::status>
    copy{};

// Upstream DTL's writes of this rank's block alone (no communication; host placements): local_fill gives
// the elements written, local_transform transforms the block in place and gives its end, local_copy copies
// the elements both blocks hold and gives how many.
template <class T, class P, class V>
requires(P::host_accessible) size_type local_fill(distributed_vector<T, P>& vec, const V& value) {
  std::fill(vec.local_data(), vec.local_data() + vec.local_size(), static_cast<T>(value));
  return vec.local_size();
}
template <ExecutionPolicy Pol, class T, class P, class V>
requires(P::host_accessible) size_type local_fill(Pol&&, distributed_vector<T, P>& vec, const V& value) {
  return local_fill(vec, value);
}
template <class T, class P, class Op>
requires(P::host_accessible) T* local_transform(distributed_vector<T, P>& vec, Op op) {
  return std::transform(vec.local_data(), vec.local_data() + vec.local_size(), vec.local_data(), op);
}
template <ExecutionPolicy Pol, class T, class P, class Op>
requires(P::host_accessible) T* local_transform(Pol&&, distributed_vector<T, P>& vec, Op op) {
  return local_transform(vec, op);
}
template <class T, class P, class U, class Q>
requires(P::host_accessible&& Q::host_accessible) size_type
    local_copy(const distributed_vector<T, P>& in, distributed_vector<U, Q>& out) {
  const size_type n = std::min(in.local_size(), out.local_size());
  std::copy_n(in.local_data(), n, out.local_data());
  return n;
}

}  // namespace dtl

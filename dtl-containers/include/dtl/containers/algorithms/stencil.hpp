// SPDX-License-Identifier: MIT
#pragma once
// dtl::stencil_transform(in, out, op): out[i] = op(p) for every owned i, where p points at in[i] and
// may read p[-in.halo().prev()] ... p[in.halo().next()] (with a granularity g, p[-g] is the element a
// row above). It does not exchange: call in.halo().exchange() (or the split form) first, so that you
// decide what overlaps with the exchange.
//
//   u.halo().exchange();
//   dtl::stencil_transform(u, next, [] (const float* p) { return (p[-1] + p[0] + p[1]) / 3; });
//   // a device placement takes a device function, in a file the kernel compiler builds:
//   dtl::stencil_transform(grid, out, [w] __host__ __device__ (const float* p) { return p[-w] + p[w]; });
//   // only the owned elements [b, e) (the interior while the halo is in flight, say):
//   dtl::stencil_transform(grid, out, op, dtl::index_range{b, e});
//
// in and out must share their context, size and partition (out may have no halo) and be two vectors;
// every policy (dtl::seq, par, async, on_stream). Errors: invalid_argument (in and out are one vector),
// out_of_range (a range past the owned block), and the shared checks of algorithm_fn.hpp. On the device
// it is one kernel over the range. try_stencil_transform is its name without exceptions in the policy-
// free spelling too: both return result<void> (a future under async) and never throw.

#include <dtl/containers/algorithms/detail/algorithm_fn.hpp>
#include <dtl/containers/algorithms/detail/support.hpp>
#include <dtl/containers/algorithms/modify.hpp>
#include <dtl/containers/block_partition.hpp>
#include <dtl/containers/algorithms/device/stencil.hpp>
#include <dtl/containers/distributed_vector.hpp>

#include <cstddef>
#include <string>

namespace dtl {

namespace detail {

/// out[i] = op(&in[i]) for the owned i in `range` (every owned i without one).
struct stencil_transform_impl {
  static constexpr const char* name = "stencil_transform";

  template <class T, class P, class U, class Q, class F>
  static status check(const distributed_vector<T, P>& in, const distributed_vector<U, Q>& out, const F&) {
    if (static_cast<const void*>(&in) == static_cast<const void*>(&out))
      return status(status_code::invalid_argument,
                    "stencil_transform: in and out are one vector (an element would read neighbours already written)");
    return {};
  }
  template <class T, class P, class U, class Q, class F>
  static status check(const distributed_vector<T, P>& in, const distributed_vector<U, Q>& out, const F& op,
                      const index_range& range) {
    if (status s = check(in, out, op); !s.ok()) return s;
    if (range.begin > range.end || range.end > in.local_size())
      return status(status_code::out_of_range, "stencil_transform: the range [" + std::to_string(range.begin) + ", " +
                                                   std::to_string(range.end) + ") is not within this rank's " +
                                                   std::to_string(in.local_size()) + " owned elements");
    return {};
  }

  template <class Pol, class T, class P, class U, class Q, class F>
  static result<void> host(const Pol& policy, const distributed_vector<T, P>& in, distributed_vector<U, Q>& out, F op) {
    return host(policy, in, out, op, index_range{0, in.local_size()});
  }
  template <class Pol, class T, class P, class U, class Q, class F>
  static result<void> host(const Pol&, const distributed_vector<T, P>& in, distributed_vector<U, Q>& out, F op,
                           const index_range& range) {
    if (range.size() == 0) return {};
    const T* src = in.local_data() + range.begin;
    U* dst = out.local_data() + range.begin;
    return host_loop<Pol>(range.size(), [src, dst, &op](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) dst[i] = static_cast<U>(op(src + i));
    });
  }

  template <class Pol, class T, class P, class U, class Q, class F>
  static auto device(const Pol& policy, const distributed_vector<T, P>& in, distributed_vector<U, Q>& out, F op) {
    return device(policy, in, out, op, index_range{0, in.local_size()});
  }
  template <class Pol, class T, class P, class U, class Q, class F>
  static auto device(const Pol& policy, const distributed_vector<T, P>& in, distributed_vector<U, Q>& out, F op,
                     const index_range& range) {
    const T* src = range.size() != 0 ? in.local_data() + range.begin : nullptr;
    U* dst = range.size() != 0 ? out.local_data() + range.begin : nullptr;
    return device::stencil(policy, in.get_context(), out.device_id(), src, dst, range.size(), op);
  }
};

}  // namespace detail

inline constexpr detail::status_algorithm<detail::stencil_transform_impl> stencil_transform{};
/// The same algorithm under the name of the library's non-throwing twins (stencil_transform never throws).
inline constexpr detail::status_algorithm<detail::stencil_transform_impl> try_stencil_transform{};

}  // namespace dtl

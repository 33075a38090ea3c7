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
// every policy (dtl::seq, par, async, on_stream).
//
// On two grid_tensors (grid_tensor.hpp) op takes a dtl::stencil_accessor<const T, N>, s(0, 0, 0) the element
// and s(-1, 0, 0) ... its neighbours within in's halo width (unchecked, as the vector's p[-w]):
//   dtl::stencil_transform(u, next, [] DTL_HOST_DEVICE (dtl::stencil_accessor<const float, 2> s) {
//     return 0.25f * (s(-1, 0) + s(1, 0) + s(0, -1) + s(0, 1)); });
//   dtl::stencil_transform(u, next, op, dtl::nd_box<2>{{1, 1}, {n0 - 2, n1 - 2}});   // a box of the owned block
// They must share their context, global extents and process grid (out's halo may differ): invalid_argument
// otherwise (every rank decides alike: decompositions are agreed at construction); out_of_range for a box
// past the owned block. On the device one kernel over the box. Errors: invalid_argument (in and out are one vector),
// out_of_range (a range past the owned block), and the shared checks of algorithm_fn.hpp. On the device
// it is one kernel over the range. try_stencil_transform is its name without exceptions in the policy-
// free spelling too: both return result<void> (a future under async) and never throw.

#include <dtl/containers/algorithms/detail/algorithm_fn.hpp>
#include <dtl/containers/algorithms/detail/support.hpp>
#include <dtl/containers/algorithms/modify.hpp>
#include <dtl/containers/block_partition.hpp>
#include <dtl/containers/algorithms/device/stencil.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/containers/detail/nd_stencil.hpp>
#include <dtl/containers/grid_tensor.hpp>

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

template <class T, size_type N, class P, class U, class Q>
status check_grid_stencil(const grid_tensor<T, N, P>& in, const grid_tensor<U, N, Q>& out, const nd_box<N>& box) {
  if (status s = check_grid_layouts("stencil_transform", in, out); !s.ok()) return s;
  if (static_cast<const void*>(&in) == static_cast<const void*>(&out))
    return status(status_code::invalid_argument,
                  "stencil_transform: in and out are one tensor (an element would read neighbours already written)");
  const nd_extent<N> owned = in.local_extents();
  for (size_type d = 0; d < N; ++d)
    if (box.offset[d] > owned[d] || box.extents[d] > owned[d] - box.offset[d])  // no sum: it could wrap
      return status(status_code::out_of_range,
                    "stencil_transform: the box reaches past this rank's owned block in "
                    "dimension " +
                        std::to_string(d) + " (" + std::to_string(box.offset[d]) + " + " +
                        std::to_string(box.extents[d]) + " > " + std::to_string(owned[d]) + ")");
  return {};
}

/// stencil_transform on grid_tensors, over `box` of the owned block.
template <class Pol, class T, size_type N, class P, class U, class Q, class F>
auto grid_stencil_transform(const Pol& policy, const grid_tensor<T, N, P>& in, grid_tensor<U, N, Q>& out, F op,
                            const nd_box<N>& box) {
  static_assert(P::device_accessible == Q::device_accessible,
                "stencil_transform: the tensors must both be on the device, or both on the host");
  const nd_extent<N> in_strides = row_major_strides(in.padded_extents());
  const nd_extent<N> out_strides = row_major_strides(out.padded_extents());
  auto first = [&box](const nd_extent<N>& strides) {
    std::size_t at = 0;
    for (size_type d = 0; d < N; ++d) at += box.offset[d] * strides[d];
    return at;
  };
  auto work = [&]() {
    const T* src = box.size() == 0 ? nullptr : in.local_data() + first(in_strides);
    U* dst = box.size() == 0 ? nullptr : out.local_data() + first(out_strides);
    if constexpr (P::device_accessible) {
      return settled_for_host<Pol>(device::grid_stencil(policy, in.get_context(), out.device_id(), src, in_strides, dst,
                                                        out_strides, box.extents, op),
                                   in.storage(), out.storage());
    } else {
      if (box.size() != 0) nd_stencil_host(src, in_strides, dst, out_strides, box.extents, op);
      return to_outcome<Pol>(result<void>());
    }
  };
  using Outcome = decltype(work());
  if (status s = check_grid_stencil(in, out, box); !s.ok()) return failed_as<Outcome>(std::move(s));
  return work();
}

/// stencil_transform's object: the vector forms (algorithm_fn), and the grid_tensor forms.
struct stencil_transform_fn {
  template <class... A>
  auto operator()(A&&... args) const {
    if constexpr (any_grid_tensor_v<A...>)
      return grid_call(std::forward<A>(args)...);
    else
      return status_algorithm<stencil_transform_impl>{}(std::forward<A>(args)...);
  }

 private:
  // (in, out, op), (in, out, op, box), each with a policy first or not.
  template <class In, class Out, class F>
  requires(!ExecutionPolicy<std::remove_cvref_t<In>>) auto grid_call(In&& in, Out&& out, F op) const {
    return grid_call(seq{}, in, out, op);
  }
  template <class In, class Out, class F, size_type N>
  requires(!ExecutionPolicy<std::remove_cvref_t<In>>) auto grid_call(In&& in, Out&& out, F op,
                                                                     const nd_box<N>& box) const {
    return grid_call(seq{}, in, out, op, box);
  }
  template <ExecutionPolicy Pol, class T, size_type N, class P, class U, class Q, class F>
  auto grid_call(const Pol& policy, const grid_tensor<T, N, P>& in, grid_tensor<U, N, Q>& out, F op) const {
    return grid_stencil_transform(policy, in, out, op, nd_box<N>{{}, in.local_extents()});
  }
  template <ExecutionPolicy Pol, class T, size_type N, class P, class U, class Q, class F>
  auto grid_call(const Pol& policy, const grid_tensor<T, N, P>& in, grid_tensor<U, N, Q>& out, F op,
                 const nd_box<N>& box) const {
    return grid_stencil_transform(policy, in, out, op, box);
  }
};

}  // namespace detail

inline constexpr detail::stencil_transform_fn stencil_transform{};
/// The same algorithm under the name of the library's non-throwing twins (stencil_transform never throws).
inline constexpr detail::stencil_transform_fn try_stencil_transform{};

}  // namespace dtl

// SPDX-License-Identifier: MIT
#pragma once
// The element-wise algorithms on grid_tensors (grid_tensor.hpp): fill, for_each, transform, copy, reduce,
// transform_reduce, dot. Not for users: the public objects take a grid_tensor where they take a vector
// (with_grid_forms, below).
//
// One adaptor serves them all: owned_elements, a tensor's owned block in row-major order, element i
// wherever the ghosts put it in the allocation. The bodies are algorithm_fn's (algorithm_fn.hpp), so every
// policy and form (the status, value and try_ twins, async's future) works as for a vector; the tensors of
// one call must share their context, global extents and process grid (invalid_argument otherwise: every
// rank decides alike, the decompositions were agreed at construction). On the device each is one kernel
// over the block (the reductions the vector's: one fold, then the ranks combine as reduce's do).

#include <dtl/containers/algorithms/detail/algorithm_fn.hpp>
#include <dtl/containers/algorithms/detail/host_reduce.hpp>
#include <dtl/containers/algorithms/detail/host_visible.hpp>
#include <dtl/containers/algorithms/detail/support.hpp>
#include <dtl/containers/algorithms/device/grid.hpp>
#include <dtl/containers/grid_tensor.hpp>
#include <dtl/containers/host_device.hpp>

#include <cstddef>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>

namespace dtl::detail {

template <class T, size_type N, PlacementPolicy P>
inline constexpr bool is_device_vector_v<grid_tensor<T, N, P>> = P::device_accessible;
template <class T, size_type N, PlacementPolicy P>
inline constexpr bool is_host_reachable_vector_v<grid_tensor<T, N, P>> = P::host_accessible;

template <class... A>
inline constexpr bool any_grid_tensor_v = (is_grid_tensor_v<std::remove_cvref_t<A>> || ...);

/// The owned elements of `t`, in row-major order (const elements for a const tensor).
template <class G>
auto owned_of(G& t) noexcept {
  using T = std::remove_pointer_t<decltype(t.local_data())>;
  constexpr std::size_t N = std::remove_cvref_t<G>::rank();
  owned_elements<T, N> o;
  o.set(t.local_data(), t.local_extents().data(), row_major_strides(t.padded_extents()).data());
  return o;
}

/// The check of a call on several tensors: one context, one global shape, one process grid.
template <class G, class... Rest>
status check_grid_layouts(const char* name, const G& first, const Rest&... rest) {
  if (status s = first.get_context().check(); !s.ok()) return s;
  status out;
  auto compare = [&](const auto& other) {
    if (!out.ok()) return;
    if (!first.get_context().same_as(other.get_context()))
      out = status(status_code::invalid_argument, std::string(name) + ": the tensors belong to different contexts");
    else if (first.extents() != other.extents() || first.grid() != other.grid())
      out = status(status_code::invalid_argument,
                   std::string(name) + ": the tensors have different global extents or process grids");
  };
  (compare(rest), ...);
  return out;
}

template <class G>
using grid_value_t = typename std::remove_cvref_t<G>::value_type;

struct grid_fill_impl {
  static constexpr const char* name = "fill";
  template <class G, class V>
  static status check(const G& t, const V&) {
    return t.get_context().check();
  }
  template <class Pol, class G, class V>
  static result<void> host(const Pol&, G& t, const V& value) {
    const auto o = owned_of(t);
    const auto v = static_cast<grid_value_t<G>>(value);
    return host_loop<Pol>(o.count, [o, v](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) o[i] = v;
    });
  }
  template <class Pol, class G, class V>
  static auto device(const Pol& policy, G& t, const V& value) {
    return device::grid_fill(policy, t.get_context(), t.device_id(), owned_of(t), static_cast<grid_value_t<G>>(value));
  }
};

struct grid_for_each_impl {
  static constexpr const char* name = "for_each";
  template <class G, class F>
  static status check(const G& t, const F&) {
    return t.get_context().check();
  }
  template <class Pol, class G, class F>
  static result<void> host(const Pol&, G& t, F f) {
    const auto o = owned_of(t);
    return host_loop<Pol>(o.count, [o, &f](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) f(o[i]);
    });
  }
  template <class Pol, class G, class F>
  static auto device(const Pol& policy, G& t, F f) {
    return device::grid_for_each(policy, t.get_context(), t.device_id(), owned_of(t), f);
  }
};

/// out = f(in) element by element, or out = f(a, b); and copy (f the identity).
struct grid_transform_impl {
  static constexpr const char* name = "transform";
  template <class A, class Out, class F>
  static status check(const A& in, const Out& out, const F&) {
    return check_grid_layouts(name, in, out);
  }
  template <class A, class B, class Out, class F>
  static status check(const A& a, const B& b, const Out& out, const F&) {
    return check_grid_layouts(name, a, b, out);
  }
  template <class Pol, class A, class Out, class F>
  static result<void> host(const Pol&, const A& in, Out& out, F f) {
    const auto x = owned_of(in);
    const auto y = owned_of(out);
    using U = grid_value_t<Out>;
    return host_loop<Pol>(x.count, [x, y, &f](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) y[i] = static_cast<U>(f(x[i]));
    });
  }
  template <class Pol, class A, class B, class Out, class F>
  static result<void> host(const Pol&, const A& a, const B& b, Out& out, F f) {
    const auto x = owned_of(a);
    const auto y = owned_of(b);
    const auto z = owned_of(out);
    using U = grid_value_t<Out>;
    return host_loop<Pol>(x.count, [x, y, z, &f](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i) z[i] = static_cast<U>(f(x[i], y[i]));
    });
  }
  template <class Pol, class A, class Out, class F>
  static auto device(const Pol& policy, const A& in, Out& out, F f) {
    return device::grid_transform(policy, in.get_context(), out.device_id(), owned_of(in), owned_of(out), f);
  }
  template <class Pol, class A, class B, class Out, class F>
  static auto device(const Pol& policy, const A& a, const B& b, Out& out, F f) {
    return device::grid_transform2(policy, a.get_context(), out.device_id(), owned_of(a), owned_of(b), owned_of(out),
                                   f);
  }
};

struct grid_copy_impl {
  static constexpr const char* name = "copy";
  template <class A, class Out>
  static status check(const A& in, const Out& out) {
    static_assert(std::is_same_v<grid_value_t<A>, grid_value_t<Out>>, "copy: the tensors' element types differ");
    return check_grid_layouts(name, in, out);
  }
  template <class Pol, class A, class Out>
  static result<void> host(const Pol& p, const A& in, Out& out) {
    return grid_transform_impl::host(p, in, out, std::identity{});
  }
  template <class Pol, class A, class Out>
  static auto device(const Pol& policy, const A& in, Out& out) {
    return device::grid_transform(policy, in.get_context(), out.device_id(), owned_of(in), owned_of(out),
                                  device::identity_op{});
  }
};

/// init op f(x) over the owned elements of every rank (reduce: f the identity), or init op f(a[i], b[i])
/// (dot, transform_reduce of two).
struct grid_transform_reduce_impl : global_value {
  static constexpr const char* name = "transform_reduce";
  static constexpr bool communicates = true;
  template <class G, class Init, class Op, class F>
  static status check(const G& t, const Init&, const Op&, const F&) {
    return t.get_context().check();
  }
  template <class A, class B, class Init, class Op, class F>
  static status check(const A& a, const B& b, const Init&, const Op&, const F&) {
    return check_grid_layouts(name, a, b);
  }
  template <class Pol, class G, class Init, class Op, class F>
  static result<reduce_result<Init>> host(const Pol&, const G& t, const Init& init, Op op, F f) {
    const auto o = owned_of(t);
    auto at = [o, &f](std::size_t i) { return maybe<Init>{static_cast<Init>(f(o[i])), 1}; };
    return fold_on_host<Pol>(t.get_context(), o.count, at, init, op);
  }
  template <class Pol, class A, class B, class Init, class Op, class F>
  static result<reduce_result<Init>> host(const Pol&, const A& a, const B& b, const Init& init, Op op, F f) {
    const auto x = owned_of(a);
    const auto y = owned_of(b);
    auto at = [x, y, &f](std::size_t i) { return maybe<Init>{static_cast<Init>(f(x[i], y[i])), 1}; };
    return fold_on_host<Pol>(a.get_context(), x.count, at, init, op);
  }
  template <class Pol, class G, class Init, class Op, class F>
  static auto device(const Pol& policy, const G& t, const Init& init, Op op, F f) {
    return device::grid_reduce(policy, t.get_context(), t.device_id(), owned_of(t), init, op, f);
  }
  template <class Pol, class A, class B, class Init, class Op, class F>
  static auto device(const Pol& policy, const A& a, const B& b, const Init& init, Op op, F f) {
    return device::grid_reduce_pairs(policy, a.get_context(), a.device_id(), owned_of(a), owned_of(b), init, op, f);
  }

  template <class Pol, class At, class Init, class Op>
  static result<reduce_result<Init>> fold_on_host(const context& ctx, std::size_t n, At& at, const Init& init, Op& op) {
    maybe_op<Init, Op&> fold_op{op};
    const auto fold = [&] { return host_fold_indexed<is_parallel_v<Pol>>(n, maybe<Init>{Init{}, 0}, fold_op, at); };
    return combine_host_partial(ctx, fold, init, op, reduce_scope::all, 0);
  }
};

/// reduce(t[, init[, op]]): init T{} and std::plus<> by default.
struct grid_reduce_impl : global_value {
  static constexpr const char* name = "reduce";
  static constexpr bool communicates = true;
  template <class G, class... A>
  static status check(const G& t, const A&...) {
    return t.get_context().check();
  }
  template <class Pol, class G, class Init = grid_value_t<G>, class Op = std::plus<>>
  static auto host(const Pol& p, const G& t, const Init& init = Init{}, Op op = {}) {
    return grid_transform_reduce_impl::host(p, t, static_cast<grid_value_t<G>>(init), op, std::identity{});
  }
  template <class Pol, class G, class Init = grid_value_t<G>, class Op = std::plus<>>
  static auto device(const Pol& p, const G& t, const Init& init = Init{}, Op op = {}) {
    return grid_transform_reduce_impl::device(p, t, static_cast<grid_value_t<G>>(init), op, identity_transform{});
  }
};

/// dot(a, b): the sum of a[i] * b[i] in a's element type.
struct grid_dot_impl : global_value {
  static constexpr const char* name = "dot";
  static constexpr bool communicates = true;
  template <class A, class B>
  static status check(const A& a, const B& b) {
    return check_grid_layouts(name, a, b);
  }
  template <class Pol, class A, class B>
  static auto host(const Pol& p, const A& a, const B& b) {
    return grid_transform_reduce_impl::host(p, a, b, grid_value_t<A>{}, std::plus<>{}, std::multiplies<>{});
  }
  template <class Pol, class A, class B>
  static auto device(const Pol& p, const A& a, const B& b) {
    return grid_transform_reduce_impl::device(p, a, b, grid_value_t<A>{}, std::plus<>{}, std::multiplies<>{});
  }
};

/// An algorithm object that takes grid_tensors too: a call with a grid_tensor among its arguments runs
/// algorithm_fn<GridImpl, Form>, any other the object it extends.
template <class Base, class GridImpl, algorithm_form Form>
struct with_grid_forms : Base {
  template <class... A>
  auto operator()(A&&... args) const {
    if constexpr (any_grid_tensor_v<A...>)
      return algorithm_fn<GridImpl, Form>{}(std::forward<A>(args)...);
    else
      return Base::operator()(std::forward<A>(args)...);
  }
};

}  // namespace dtl::detail

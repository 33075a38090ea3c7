// SPDX-License-Identifier: MIT
#pragma once
// What a container takes for its ranks: a dtl::context, or any context-like object, a type with rank()
// and size() (upstream DTL's containers take one; its tests build containers from a two-field struct).
//
//   struct rank_of { int r, n; int rank() const { return r; } int size() const { return n; } };
//   dtl::distributed_vector<int> vec(100, rank_of{2, 4});   // rank 2's block of 100 elements over 4 ranks
//
// Such a container has the layout and the local block that rank rank() of size() would have, with no
// communicator behind it: its local calls work (views, local_data(), element access, the algorithms that
// move nothing between ranks), and every call that would reach another rank returns
// status_code::not_supported, saying so (the throwing forms throw it). With size() == 1 it is an
// ordinary one-rank container. Containers built from objects that report the same rank and size share
// one context, so an algorithm may take several of them. An object that carries a dtl::context
// (upstream's communicator, or ctx.get<dtl::mpi_domain>()) gives that context instead. One that names a
// device as upstream's contexts do (has<dtl::hip_domain>() and get<dtl::hip_domain>().device_id(), on
// NVIDIA also spelled cuda_domain) gives a context on that device, for the device placements.
//
// dtl::Context is upstream's concept of a context (rank(), size(), is_root(), valid()); dtl::context
// models it.

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/export.hpp>
#include <dtl/core/device_id.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/types.hpp>

#include <concepts>
#include <type_traits>

namespace dtl {

/// Upstream DTL's concept of a context.
template <class T>
concept Context = requires(const T& ctx) {
  { ctx.rank() } -> std::same_as<rank_t>;
  { ctx.size() } -> std::same_as<rank_t>;
  { ctx.is_root() } -> std::same_as<bool>;
  { ctx.valid() } -> std::same_as<bool>;
};
static_assert(Context<context>);

/// What the containers' constructors take in place of a dtl::context: rank() and size() (upstream's
/// containers' requirement). A container is none (it has local_size(): its size() counts elements).
template <class C>
concept context_like = requires(const C& c) {
  { c.rank() } -> std::convertible_to<rank_t>;
  { c.size() } -> std::convertible_to<rank_t>;
}
&&!requires(const C& c) { c.local_size(); };

class hip_domain;  // <dtl/containers/communication/domains.hpp>

namespace detail {

/// A context of rank `rank` of `size` with no communicator (see above); for size 1, a one-rank context as
/// make_cpu_context()'s; on `device` where this process has it (else on none). The same (rank, size,
/// device) gives the same context while a copy of it lives, so that containers built from equal
/// context-like objects may be combined. invalid_argument for a size below 1 or a rank outside [0, size).
[[nodiscard]] DTL_CONTAINERS_API result<context> make_detached_context(int rank, int size, int device = no_device);

/// The device a context-like object names through upstream's domain interface, or no_device.
template <class C>
int device_named_by(const C& c) {
  if constexpr (requires {
                  { c.template has<hip_domain>() } -> std::convertible_to<bool>;
                  { c.template get<hip_domain>().device_id() } -> std::convertible_to<int>;
                }) {
    return c.template has<hip_domain>() ? static_cast<int>(c.template get<hip_domain>().device_id()) : no_device;
  } else {
    return no_device;
  }
}

/// The dtl::context a container keeps for `c`: the one it carries, or a detached one of its rank and size.
template <context_like C>
[[nodiscard]] result<context> context_from(const C& c) {
  if constexpr (std::same_as<C, context>) {
    return c;
  } else if constexpr (requires {
                         { c.dtl_context() } -> std::convertible_to<const context&>;
                       }) {
    return c.dtl_context();
  } else if constexpr (requires {
                         { c.communicator().dtl_context() } -> std::convertible_to<const context&>;
                       }) {
    return c.communicator().dtl_context();
  } else {
    return make_detached_context(static_cast<int>(c.rank()), static_cast<int>(c.size()), device_named_by(c));
  }
}

/// A context-like object that is not a dtl::context: what the containers' constructor templates take.
template <class C>
concept other_context_like = context_like<C> && !std::same_as<C, context>;

}  // namespace detail

}  // namespace dtl

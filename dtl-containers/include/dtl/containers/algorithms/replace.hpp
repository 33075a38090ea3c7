// SPDX-License-Identifier: MIT
#pragma once
// replace, replace_if, replace_copy, replace_copy_if over every rank, and upstream DTL's local_replace and
// local_replace_if of one rank's block.
//
//   auto r = dtl::replace(vec, 0, 42);                              // r->count: replaced on every rank
//   dtl::replace_if(dtl::par{}, vec, [](int x) { return x < 0; }, 0);
//   dtl::replace_copy(in, out, 0, 42);                              // out[i] = in[i] == 0 ? 42 : in[i]
//   std::size_t here = dtl::local_replace(vec, 0, 42);              // this rank's block alone
//
// Each element is replaced where it is; the collective part is the count, summed over the ranks, so
// that every rank returns the same result<replace_result>. in and out share context, size and partition
// (the shared checks of algorithm_fn.hpp). replace and replace_if also take upstream's communicator (or the
// context) last. Host placements; a device placement gives not_supported.

#include <dtl/containers/algorithms/detail/algorithm_fn.hpp>
#include <dtl/containers/algorithms/detail/group_forms.hpp>
#include <dtl/containers/algorithms/detail/host_only.hpp>
#include <dtl/containers/algorithms/reduce.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/core/types.hpp>

#include <cstddef>
#include <cstdint>

namespace dtl {

/// What replace did (upstream DTL's type): how many elements it replaced, over every rank.
struct replace_result {
  size_type count = 0;
};

namespace detail {

/// out[i] = matches(in[i]) ? new_value : in[i] over this rank's block, then the count over the ranks.
template <class T, class U, class Matches, class V>
result<replace_result> replace_block(const context& ctx, const char* name, const T* in, U* out, std::size_t n,
                                     Matches& matches, const V& new_value) {
  const U replacement = static_cast<U>(new_value);
  const std::uint64_t here = before_communicating(ctx, true, name, [&] {
    std::uint64_t count = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const bool hit = matches(in[i]);
      out[i] = hit ? replacement : static_cast<U>(in[i]);
      count += hit ? 1 : 0;
    }
    return count;
  });
  DTL_ASSIGN_OR_RETURN(const std::uint64_t all, ctx.allreduce_value(here, reduce_op::sum));
  return replace_result{static_cast<size_type>(all)};
}

template <class Self>
struct replace_device_bodies {
  template <class Pol, class... A>
  static auto device(const Pol&, A&&...) {
    return host_only_outcome<Pol, replace_result>(Self::name);
  }
};

struct replace_impl : replace_device_bodies<replace_impl> {
  static constexpr const char* name = "replace";
  static constexpr bool communicates = true;
  template <class Pol, class T, class P, class Old, class New>
  static result<replace_result> host(const Pol&, distributed_vector<T, P>& vec, const Old& old_value,
                                     const New& new_value) {
    equal_to_value<Old> matches{old_value};  // reduce.hpp's, as count uses it
    return replace_block(vec.get_context(), name, vec.local_data(), vec.local_data(), vec.local_size(), matches,
                         new_value);
  }
};

struct replace_if_impl : replace_device_bodies<replace_if_impl> {
  static constexpr const char* name = "replace_if";
  static constexpr bool communicates = true;
  template <class Pol, class T, class P, class Pred, class New>
  static result<replace_result> host(const Pol&, distributed_vector<T, P>& vec, Pred pred, const New& new_value) {
    return replace_block(vec.get_context(), name, vec.local_data(), vec.local_data(), vec.local_size(), pred,
                         new_value);
  }
};

struct replace_copy_impl : replace_device_bodies<replace_copy_impl> {
  static constexpr const char* name = "replace_copy";
  static constexpr bool communicates = true;
  template <class Pol, class T, class P, class U, class Q, class Old, class New>
  static result<replace_result> host(const Pol&, const distributed_vector<T, P>& in, distributed_vector<U, Q>& out,
                                     const Old& old_value, const New& new_value) {
    equal_to_value<Old> matches{old_value};  // reduce.hpp's, as count uses it
    return replace_block(in.get_context(), name, in.local_data(), out.local_data(), in.local_size(), matches,
                         new_value);
  }
};

struct replace_copy_if_impl : replace_device_bodies<replace_copy_if_impl> {
  static constexpr const char* name = "replace_copy_if";
  static constexpr bool communicates = true;
  template <class Pol, class T, class P, class U, class Q, class Pred, class New>
  static result<replace_result> host(const Pol&, const distributed_vector<T, P>& in, distributed_vector<U, Q>& out,
                                     Pred pred, const New& new_value) {
    return replace_block(in.get_context(), name, in.local_data(), out.local_data(), in.local_size(), pred, new_value);
  }
};

}  // namespace detail

inline constexpr detail::with_group_forms<detail::status_algorithm<detail::replace_impl>, detail::replace_impl>
    replace{};
inline constexpr detail::with_group_forms<detail::status_algorithm<detail::replace_if_impl>, detail::replace_if_impl>
    replace_if{};
inline constexpr detail::status_algorithm<detail::replace_copy_impl> replace_copy{};
inline constexpr detail::status_algorithm<detail::replace_copy_if_impl> replace_copy_if{};

/// Elements of this rank's block equal to old_value set to new_value: how many. No communication.
template <class T, class P, class Old, class New>
requires(P::host_accessible) size_type
    local_replace(distributed_vector<T, P>& vec, const Old& old_value, const New& new_value) {
  T* data = vec.local_data();
  size_type count = 0;
  for (std::size_t i = 0; i < vec.local_size(); ++i)
    if (data[i] == old_value) {
      data[i] = static_cast<T>(new_value);
      ++count;
    }
  return count;
}

/// Elements of this rank's block for which pred holds set to new_value: how many. No communication.
template <class T, class P, class Pred, class New>
requires(P::host_accessible) size_type
    local_replace_if(distributed_vector<T, P>& vec, Pred pred, const New& new_value) {
  T* data = vec.local_data();
  size_type count = 0;
  for (std::size_t i = 0; i < vec.local_size(); ++i)
    if (pred(data[i])) {
      data[i] = static_cast<T>(new_value);
      ++count;
    }
  return count;
}

}  // namespace dtl

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's communicator forms of an algorithm object: the same call with upstream's communicator
// (ctx.get<dtl::mpi_domain>().communicator()) or the context itself as the last argument. Not for users.
//
//   dtl::reduce(dtl::par{}, vec, 0, std::plus<>{}, comm);   // upstream's forms
//   dtl::reduce(dtl::par{}, vec, 0, comm);                  // std::plus<>
//
// Our algorithms already run over the vector's context, so the communicator adds nothing but a check:
// it must be the communicator of that context (or the context, or a copy of it). A communicator of
// another type (upstream's tests pass a stand-in that models dtl::Communicator) cannot be compared with
// the context, so it must at least have the context's rank and size. Otherwise, and
// wherever the algorithm fails, the call throws dtl::communication_error (upstream's communicator
// throws it), on every rank alike. These forms block: dtl::seq or dtl::par.

#include <dtl/containers/algorithms/detail/algorithm_fn.hpp>
#include <dtl/containers/algorithms/reduce_result.hpp>
#include <dtl/containers/communication/communicator_concepts.hpp>
#include <dtl/containers/communication/detail/agreement.hpp>
#include <dtl/containers/communication/upstream_communicator.hpp>
#include <dtl/core/status_error.hpp>

#include <concepts>
#include <string>
#include <type_traits>
#include <utility>

namespace dtl::detail {

/// What upstream passes for the ranks: its communicator (our mpi_comm_adapter, or any type that models
/// dtl::Communicator) or a context.
template <class G>
concept rank_group = std::same_as<std::remove_cvref_t<G>, context> || Communicator<std::remove_cvref_t<G>>;

template <class P>
concept blocking_policy = std::same_as<std::remove_cvref_t<P>, seq> || std::same_as<std::remove_cvref_t<P>, par>;

/// Whether `group` stands for the ranks of `ctx` (see the top of this header).
inline bool names_ranks_of(const context& group, const context& ctx) noexcept { return group.same_as(ctx); }
inline bool names_ranks_of(const mpi::mpi_comm_adapter& group, const context& ctx) noexcept {
  return group.dtl_context().same_as(ctx);
}
template <Communicator G>
bool names_ranks_of(const G& group, const context& ctx) noexcept {
  return group.rank() == ctx.rank() && group.size() == ctx.size();
}

/// Runs `work` (a call of our algorithm over `container`) once `group` is known to be the container's
/// context; every failure, that one included, as a communication_error on every rank.
/// ok when `group` stands for the ranks of `container`'s context; otherwise invalid_argument, which the
/// ranks whose communicator is right meet at the algorithm's first collective (so every rank has it).
template <class Container, class Group>
status check_group(const char* name, const Container& container, const Group& group) {
  const context& ctx = container.get_context();
  if (names_ranks_of(group, ctx)) return {};
  const status mismatch(status_code::invalid_argument, std::string(name) +
                                                           ": the communicator is not the one of the container's "
                                                           "context (ctx.get<dtl::mpi_domain>().communicator())");
  return agree_before(true, ctx, mismatch, name);
}

template <class Container, class Group, class Work>
auto run_on_group(const char* name, const Container& container, const Group& group, Work&& work) {
  if (status s = check_group(name, container, group); !s.ok()) throw communication_error(std::move(s));
  try {
    return std::forward<Work>(work)();
  } catch (const communication_error&) {
    throw;
  } catch (const status_error& e) {
    throw communication_error(e.error());
  }
}

/// The result in the type of upstream's init argument (upstream's forms return T for `T init`; ours
/// reduce in the element type).
template <class T, class R>
T in_init_type(const R& r) {
  return static_cast<T>(r);
}
template <class T, class U>
reduce_result<T> in_init_type(const reduce_result<U>& r) {
  return reduce_result<T>{static_cast<T>(r.local_value), static_cast<T>(r.global_value), r.has_global};
}

/// An algorithm object with upstream's communicator forms beside its own:
/// (policy, c, init, op, group), (policy, c, init, group), (c, init, op, group), (c, init, group).
template <class Algorithm, class Impl>
struct with_communicator_forms : Algorithm {
  using Algorithm::operator();

  template <blocking_policy P, class C, class T, class Op, rank_group G>
  requires(!rank_group<Op>) auto operator()(P&& policy, C&& c, T&& init, Op&& op, G&& group) const {
    return run_on_group(Impl::name, c, group,
                        [&] { return in_init_type<std::decay_t<T>>(Algorithm::operator()(policy, c, init, op)); });
  }
  template <blocking_policy P, class C, class T, rank_group G>
  auto operator()(P&& policy, C&& c, T&& init, G&& group) const {
    return run_on_group(Impl::name, c, group,
                        [&] { return in_init_type<std::decay_t<T>>(Algorithm::operator()(policy, c, init)); });
  }
  template <class C, class T, class Op, rank_group G>
  requires(!ExecutionPolicy<C> && !rank_group<Op>) auto operator()(C&& c, T&& init, Op&& op, G&& group) const {
    return (*this)(seq{}, c, std::forward<T>(init), std::forward<Op>(op), group);
  }
  template <class C, class T, rank_group G>
  requires(!ExecutionPolicy<C>) auto operator()(C&& c, T&& init, G&& group) const {
    return (*this)(seq{}, c, std::forward<T>(init), group);
  }
};

}  // namespace dtl::detail

// SPDX-License-Identifier: MIT
#pragma once
// accumulate: a left fold over every rank in global order, and upstream DTL's local_accumulate.
//
//   int sum = dtl::accumulate(vec, 0);                                   // std::plus<>
//   int f = dtl::accumulate(dtl::seq{}, vec, 0, [](int a, int b) { return a + b * b; });
//   int g = dtl::accumulate(dtl::seq{}, vec, 0, op, comm);               // upstream's communicator last
//   int here = dtl::local_accumulate(vec, 0);                            // this rank's block alone
//
// op((...op(op(init, x0), x1)...), x_last), as std::accumulate over the global sequence: op need not be
// associative (use dtl::reduce for a tree). Collective and ordered: rank 0 folds its block from init and
// hands the value on, each rank folds its block onto it and hands on, and the last rank's value goes to
// every rank (one allgather that starts it, size() - 1 messages, one broadcast). The value is the same
// on every rank; it throws dtl::status_error on failure (try_accumulate: result<T>; the communicator
// forms throw dtl::communication_error). T is trivially copyable. Host placements; a device placement
// gives not_supported.

#include <dtl/containers/algorithms/detail/algorithm_fn.hpp>
#include <dtl/containers/algorithms/detail/communicator_forms.hpp>
#include <dtl/containers/algorithms/detail/host_only.hpp>
#include <dtl/containers/communication/detail/context_services.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/core/status_boundary.hpp>

#include <cstddef>
#include <functional>
#include <numeric>
#include <type_traits>
#include <vector>

namespace dtl {

namespace detail {

/// The fold so far, as it travels from rank to rank: a failed one carries which rank failed.
template <class Acc>
struct fold_so_far {
  Acc value;
  int failed_rank;  // -1: none
};

struct accumulate_impl {
  static constexpr const char* name = "accumulate";
  static constexpr bool communicates = true;
  static constexpr int tag = 0x4ACC;
  template <class Pol, class T, class P, class Init, class Op = std::plus<>>
  static result<Init> host(const Pol&, const distributed_vector<T, P>& vec, const Init& init, Op op = {}) {
    static_assert(std::is_trivially_copyable_v<Init>, "accumulate: the value travels between ranks");
    const context& ctx = vec.get_context();
    const int rank = ctx.rank(), ranks = ctx.size();
    // The one collective that starts it, so that a rank that fails its checks reaches every rank here.
    const int here = rank;
    std::vector<int> all(static_cast<std::size_t>(ranks));
    DTL_TRY(allgather_host(ctx, &here, all.data(), sizeof(here)));
    fold_so_far<Init> acc{init, -1};
    if (rank > 0) DTL_TRY(ctx.recv(&acc, 1, rank - 1, tag));
    status thrown;
    if (acc.failed_rank < 0) {
      try {
        const T* data = vec.local_data();
        acc.value = std::accumulate(data, data + vec.local_size(), acc.value, op);
      } catch (...) {
        thrown = current_exception_status(name);
        acc.failed_rank = rank;
      }
    }
    if (rank + 1 < ranks) DTL_TRY(ctx.send(&acc, 1, rank + 1, tag));
    DTL_TRY(ctx.broadcast(&acc, 1, ranks - 1));
    if (!thrown.ok()) return thrown;
    if (acc.failed_rank >= 0)
      return status(status_code::collective_failure,
                    std::string(name) + ": the operator threw on rank " + std::to_string(acc.failed_rank));
    return acc.value;
  }
  template <class Pol, class T, class P, class Init, class Op = std::plus<>>
  static auto device(const Pol&, const distributed_vector<T, P>&, const Init&, Op = {}) {
    return host_only_outcome<Pol, Init>(name);
  }
};

}  // namespace detail

inline constexpr detail::with_communicator_forms<detail::value_algorithm<detail::accumulate_impl>,
                                                 detail::accumulate_impl>
    accumulate{};
inline constexpr detail::try_value_algorithm<detail::accumulate_impl> try_accumulate{};

/// std::accumulate over this rank's block. No communication.
template <class T, class P, class Init, class Op = std::plus<>>
requires(P::host_accessible) Init local_accumulate(const distributed_vector<T, P>& vec, Init init, Op op = {}) {
  const T* data = vec.local_data();
  return std::accumulate(data, data + vec.local_size(), init, op);
}

}  // namespace dtl

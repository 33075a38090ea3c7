// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's dtl::reduce over a communicator's buffers (its collective_ops.hpp), as overloads of
// our dtl::reduce object, whose name it shares. Not for users: <dtl/communication/collective_ops.hpp>.
//
//   dtl::reduce(comm, std::span<const int>(in), std::span<int>(out), std::plus<int>{}, root);
//   dtl::result<int> r = dtl::reduce(comm, value, dtl::reduce_max<int>{}, root);   // T{} off the root
//
// recv_data is written on the root only, and must hold send_data.size() there (the size rule of
// detail/free_functions.hpp). A failure throws dtl::communication_error on every rank.

#include <dtl/containers/communication/detail/free_functions.hpp>
#include <dtl/core/result.hpp>

#include <span>
#include <type_traits>
#include <utility>

namespace dtl::detail {

template <class T, class Op>
result<void> reduce_over_comm(mpi::mpi_comm_adapter& comm, std::span<const T> send_data, std::span<T> recv_data,
                              Op /*op*/, rank_t root = 0) {
  reduce_buffers<Op>("reduce", comm, send_data, recv_data, root);
  return {};
}
template <class T, class Op>
requires(!is_span_v<T>) result<T> reduce_over_comm(mpi::mpi_comm_adapter& comm, const T& value, Op op,
                                                   rank_t root = 0) {
  T out{};
  if (result<void> done = reduce_over_comm(comm, std::span<const T>(&value, 1), std::span<T>(&out, 1), op, root); !done)
    return std::move(done).error();
  return out;
}

/// An algorithm object that also takes upstream's communicator first, for the forms above. It is the
/// most specialised overload for a call whose first argument is that communicator.
template <class Algorithm>
struct with_message_forms : Algorithm {
  using Algorithm::operator();

  template <upstream_comm Comm, class... A>
  auto operator()(Comm& comm, A&&... args) const -> decltype(reduce_over_comm(comm, std::forward<A>(args)...)) {
    return reduce_over_comm(comm, std::forward<A>(args)...);
  }
};

}  // namespace dtl::detail

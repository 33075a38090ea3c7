// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's collective free functions over its communicator
// (ctx.get<dtl::mpi_domain>().communicator()), as thin layers over that communicator and its context:
//
//   dtl::broadcast(comm, std::span<int>(v), root);
//   dtl::allreduce(comm, std::span<const long>(in), std::span<long>(out), std::plus<long>{});
//   dtl::sum(comm, std::span<const int>(in), std::span<int>(out), root);
//
// Upstream's signatures and counts: spans count elements; scatter sends recv_data.size() to each
// rank, gather and allgather send send_data.size(), alltoall sends send_data.size() / comm.size() to
// each rank; the v-forms take counts and displacements in elements. A failure throws
// dtl::communication_error on every rank (the context's agreement step), as upstream's communicator
// throws. Unlike upstream, the spans are compared first (the size rule, detail/free_functions.hpp):
// a span shorter than the call needs, or an alltoall send span that does not split evenly among the
// ranks, throws invalid_argument naming both sizes, on every rank, before anything moves.
// The reductions take std::plus, std::multiplies, dtl::reduce_min and dtl::reduce_max and reduce as
// upstream does (int, long, double as themselves, other integers as long, the rest as double).
// dtl::reduce(comm, ...) and dtl::sum(comm, ...) are overloads of the algorithms' dtl::reduce and dtl::sum
// objects, whose names they share, so they live with those objects (containers/algorithms/detail/
// message_forms.hpp, containers/algorithms/sum_product.hpp); upstream's <dtl/communication/collective_ops.hpp>
// includes all three.
// scan and exscan take host buffers; exscan gives rank 0 op's identity (upstream: MPI_Exscan's,
// undefined). Absent (docs/upstream.md): the logical and bitwise reductions.

#include <dtl/containers/communication/detail/free_functions.hpp>
#include <dtl/containers/communication/upstream_communicator.hpp>
#include <dtl/core/result.hpp>

#include <functional>
#include <span>
#include <utility>
#include <vector>

namespace dtl {

template <detail::upstream_comm Comm>
result<void> barrier(Comm& comm) {
  comm.barrier();
  return {};
}

template <detail::upstream_comm Comm, typename T>
result<void> broadcast(Comm& comm, std::span<T> data, rank_t root = 0) {
  comm.broadcast(data.data(), data.size() * sizeof(T), root);
  return {};
}
template <detail::upstream_comm Comm, typename T>
requires(!detail::is_span_v<T>) result<void> broadcast(Comm& comm, T& value, rank_t root = 0) {
  comm.broadcast(&value, sizeof(T), root);
  return {};
}

template <detail::upstream_comm Comm, typename T>
result<void> scatter(Comm& comm, std::span<const T> send_data, std::span<T> recv_data, rank_t root = 0) {
  const auto ranks = static_cast<size_type>(comm.size());
  const status local = comm.rank() == root
                           ? detail::holds_blocks("scatter", "send_data", send_data.size(), ranks, recv_data.size())
                           : status{};
  detail::collect(local, [&] {
    return comm.dtl_context().scatter(detail::bytes_of(send_data), detail::bytes_of(recv_data),
                                      recv_data.size() * sizeof(T), root);
  });
  return {};
}
template <detail::upstream_comm Comm, typename T>
result<void> gather(Comm& comm, std::span<const T> send_data, std::span<T> recv_data, rank_t root = 0) {
  const auto ranks = static_cast<size_type>(comm.size());
  const status local = comm.rank() == root
                           ? detail::holds_blocks("gather", "recv_data", recv_data.size(), ranks, send_data.size())
                           : status{};
  detail::collect(local, [&] {
    return comm.dtl_context().gather(detail::bytes_of(send_data), detail::bytes_of(recv_data),
                                     send_data.size() * sizeof(T), root);
  });
  return {};
}
template <detail::upstream_comm Comm, typename T>
result<void> allgather(Comm& comm, std::span<const T> send_data, std::span<T> recv_data) {
  const auto ranks = static_cast<size_type>(comm.size());
  detail::collect(detail::holds_blocks("allgather", "recv_data", recv_data.size(), ranks, send_data.size()), [&] {
    return comm.dtl_context().allgather(detail::bytes_of(send_data), detail::bytes_of(recv_data),
                                        send_data.size() * sizeof(T));
  });
  return {};
}
/// Each rank gets send_data.size() / comm.size() elements; a size that does not split evenly is refused
/// (upstream drops the rest).
template <detail::upstream_comm Comm, typename T>
result<void> alltoall(Comm& comm, std::span<const T> send_data, std::span<T> recv_data) {
  const auto ranks = static_cast<size_type>(comm.size());
  const size_type chunk = ranks != 0 ? send_data.size() / ranks : 0;
  status local = detail::span_holds("alltoall", "recv_data", recv_data.size(), send_data.size(), "send_data's size");
  if (ranks != 0 && send_data.size() % ranks != 0)
    local = status(status_code::invalid_argument, "alltoall: send_data has " + std::to_string(send_data.size()) +
                                                      " elements, not a multiple of the " + std::to_string(ranks) +
                                                      " ranks (each rank gets an equal share)");
  detail::collect(local, [&] {
    return comm.dtl_context().alltoall(detail::bytes_of(send_data), detail::bytes_of(recv_data), chunk * sizeof(T));
  });
  return {};
}

// --- variable counts (elements), the context's own element forms. Ranks other than the root may pass
// empty counts. The data spans must reach the end of every block the counts and displacements name. ---
template <detail::upstream_comm Comm, typename T>
result<void> scatterv(Comm& comm, std::span<const T> send_data, std::span<const size_type> send_counts,
                      std::span<const size_type> displacements, std::span<T> recv_data, rank_t root = 0) {
  const status local = comm.rank() == root ? detail::holds_displaced("scatterv", "send_data", send_data.size(),
                                                                     send_counts, displacements)
                                           : status{};
  detail::collect(local, [&] {
    return comm.dtl_context().scatterv(send_data.data(), send_counts, displacements, recv_data.data(), recv_data.size(),
                                       root);
  });
  return {};
}
template <detail::upstream_comm Comm, typename T>
result<void> gatherv(Comm& comm, std::span<const T> send_data, std::span<T> recv_data,
                     std::span<const size_type> recv_counts, std::span<const size_type> displacements,
                     rank_t root = 0) {
  const status local = comm.rank() == root ? detail::holds_displaced("gatherv", "recv_data", recv_data.size(),
                                                                     recv_counts, displacements)
                                           : status{};
  detail::collect(local, [&] {
    return comm.dtl_context().gatherv(send_data.data(), send_data.size(), recv_data.data(), recv_counts, displacements,
                                      root);
  });
  return {};
}
template <detail::upstream_comm Comm, typename T>
result<void> allgatherv(Comm& comm, std::span<const T> send_data, std::span<T> recv_data,
                        std::span<const size_type> recv_counts, std::span<const size_type> displacements) {
  detail::collect(detail::holds_displaced("allgatherv", "recv_data", recv_data.size(), recv_counts, displacements),
                  [&] {
                    return comm.dtl_context().allgatherv(send_data.data(), send_data.size(), recv_data.data(),
                                                         recv_counts, displacements);
                  });
  return {};
}
template <detail::upstream_comm Comm, typename T>
result<void> alltoallv(Comm& comm, std::span<const T> send_data, std::span<const size_type> send_counts,
                       std::span<const size_type> send_displacements, std::span<T> recv_data,
                       std::span<const size_type> recv_counts, std::span<const size_type> recv_displacements) {
  status local = detail::holds_displaced("alltoallv", "send_data", send_data.size(), send_counts, send_displacements);
  if (local.ok())
    local = detail::holds_displaced("alltoallv", "recv_data", recv_data.size(), recv_counts, recv_displacements);
  detail::collect(local, [&] {
    return comm.dtl_context().alltoallv(send_data.data(), send_counts, send_displacements, recv_data.data(),
                                        recv_counts, recv_displacements);
  });
  return {};
}

// --- reductions (dtl::reduce(comm, ...), an overload of the reduce object: algorithms/detail/message_forms.hpp) ---
template <detail::upstream_comm Comm, typename T, typename Op>
result<void> allreduce(Comm& comm, std::span<const T> send_data, std::span<T> recv_data, Op /*op*/) {
  detail::reduce_buffers<Op>("allreduce", comm, send_data, recv_data, all_ranks);
  return {};
}
template <detail::upstream_comm Comm, typename T, typename Op>
requires(!detail::is_span_v<T>) result<T> allreduce(Comm& comm, const T& value, Op op) {
  T out{};
  if (result<void> done = allreduce(comm, std::span<const T>(&value, 1), std::span<T>(&out, 1), op); !done)
    return std::move(done).error();
  return out;
}
template <detail::upstream_comm Comm, typename T, typename Op>
result<void> allreduce_inplace(Comm& comm, std::span<T> data, Op op) {
  const std::vector<T> copy(data.begin(), data.end());
  return allreduce(comm, std::span<const T>(copy), data, op);
}

/// Prefix reductions over the ranks (host buffers). exscan gives rank 0 op's identity (0 for a sum).
template <detail::upstream_comm Comm, typename T, typename Op>
result<void> scan(Comm& comm, std::span<const T> send_data, std::span<T> recv_data, Op /*op*/) {
  detail::scan_buffers<Op>(comm, send_data, recv_data, false);
  return {};
}
template <detail::upstream_comm Comm, typename T, typename Op>
result<void> exscan(Comm& comm, std::span<const T> send_data, std::span<T> recv_data, Op /*op*/) {
  detail::scan_buffers<Op>(comm, send_data, recv_data, true);
  return {};
}

template <detail::upstream_comm Comm, typename T>
result<void> allsum(Comm& comm, std::span<const T> send_data, std::span<T> recv_data) {
  return allreduce(comm, send_data, recv_data, std::plus<T>{});
}
template <detail::upstream_comm Comm, typename T>
result<void> allmax(Comm& comm, std::span<const T> send_data, std::span<T> recv_data) {
  return allreduce(comm, send_data, recv_data, reduce_max<T>{});
}
template <detail::upstream_comm Comm, typename T>
result<void> allmin(Comm& comm, std::span<const T> send_data, std::span<T> recv_data) {
  return allreduce(comm, send_data, recv_data, reduce_min<T>{});
}

}  // namespace dtl

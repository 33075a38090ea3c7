// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's communicator concepts: what a type must offer to serve as a communicator (a mock one in
// a test, or dtl::mpi::mpi_comm_adapter, which satisfies them all but AsyncCommunicator). Each adds to
// the one before it:
//   Communicator            size_type, rank(), size(), send/recv, isend/irecv -> request_handle,
//                           wait(request_handle&), test(request_handle&) -> bool
//   CollectiveCommunicator  barrier, broadcast, scatter, gather, allgather, alltoall
//   ReducingCommunicator    reduce_sum, allreduce_sum
//   AsyncCommunicator       ibarrier, ibroadcast, iscatter, igather -> request_handle
// Counts are as the communicator defines them (bytes for mpi_comm_adapter, as upstream's).

#include <dtl/containers/communication/upstream_communicator.hpp>
#include <dtl/core/types.hpp>

#include <concepts>

namespace dtl {

template <class T>
concept Communicator = requires(T& comm, const T& ccomm, void* buf, const void* cbuf, size_type count, rank_t rank,
                                int tag, request_handle& req) {
  typename T::size_type;
  { ccomm.rank() } -> std::same_as<rank_t>;
  { ccomm.size() } -> std::same_as<rank_t>;
  { comm.send(cbuf, count, rank, tag) } -> std::same_as<void>;
  { comm.recv(buf, count, rank, tag) } -> std::same_as<void>;
  { comm.isend(cbuf, count, rank, tag) } -> std::same_as<request_handle>;
  { comm.irecv(buf, count, rank, tag) } -> std::same_as<request_handle>;
  { comm.wait(req) } -> std::same_as<void>;
  { comm.test(req) } -> std::same_as<bool>;
};

template <class T>
concept CollectiveCommunicator = Communicator<T> &&
    requires(T& comm, void* buf, const void* cbuf, size_type count, rank_t root) {
  { comm.barrier() } -> std::same_as<void>;
  { comm.broadcast(buf, count, root) } -> std::same_as<void>;
  { comm.scatter(cbuf, buf, count, root) } -> std::same_as<void>;
  { comm.gather(cbuf, buf, count, root) } -> std::same_as<void>;
  { comm.allgather(cbuf, buf, count) } -> std::same_as<void>;
  { comm.alltoall(cbuf, buf, count) } -> std::same_as<void>;
};

template <class T>
concept ReducingCommunicator = CollectiveCommunicator<T> &&
    requires(T& comm, const void* cbuf, void* buf, size_type count, rank_t root) {
  { comm.reduce_sum(cbuf, buf, count, root) } -> std::same_as<void>;
  { comm.allreduce_sum(cbuf, buf, count) } -> std::same_as<void>;
};

template <class T>
concept AsyncCommunicator = CollectiveCommunicator<T> &&
    requires(T& comm, void* buf, const void* cbuf, size_type count, rank_t root) {
  { comm.ibarrier() } -> std::same_as<request_handle>;
  { comm.ibroadcast(buf, count, root) } -> std::same_as<request_handle>;
  { comm.iscatter(cbuf, buf, count, root) } -> std::same_as<request_handle>;
  { comm.igather(cbuf, buf, count, root) } -> std::same_as<request_handle>;
};

/// Upstream's tags for the kind of a communicator's transport.
struct mpi_communicator_tag {};
struct shared_memory_communicator_tag {};
struct gpu_communicator_tag {};

}  // namespace dtl

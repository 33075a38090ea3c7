// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's point-to-point free functions over its communicator
// (ctx.get<dtl::mpi_domain>().communicator()), as thin layers over that communicator's members:
//
//   auto& comm = ctx.get<dtl::mpi_domain>().communicator();
//   dtl::send(comm, std::span<const int>(out), right, 7);
//   dtl::result<dtl::message_status> got = dtl::recv(comm, std::span<int>(in), left, 7);
//
// Upstream's signatures and behaviour: spans count elements (the communicator gets bytes), the calls
// return dtl::result, and a failure throws dtl::communication_error, as upstream's communicator does.
// Differences (docs/upstream.md): recv's defaults any_source and any_tag, and any wildcard passed to
// recv, irecv, sendrecv or sendrecv_replace, throw communication_error (not_supported) at once, since a
// context's receive names its source and tag (null_communicator, of one rank, takes them as rank 0 and
// tag 0, as upstream's). probe and iprobe are absent.

#include <dtl/containers/communication/detail/free_functions.hpp>
#include <dtl/containers/communication/message.hpp>
#include <dtl/containers/communication/upstream_communicator.hpp>
#include <dtl/core/result.hpp>

#include <span>

namespace dtl {

template <detail::upstream_comm Comm, typename T>
result<void> send(Comm& comm, std::span<const T> data, rank_t dest, int tag = 0) {
  comm.send(data.data(), data.size() * sizeof(T), dest, tag);
  return {};
}
/// One value. A span is sent with the form above (a std::span<T> of non-const T must be made const).
template <detail::upstream_comm Comm, typename T>
requires(!detail::is_span_v<T>) result<void> send(Comm& comm, const T& value, rank_t dest, int tag = 0) {
  comm.send(&value, sizeof(T), dest, tag);
  return {};
}
template <detail::upstream_comm Comm, typename T>
[[nodiscard]] request_handle isend(Comm& comm, std::span<const T> data, rank_t dest, int tag = 0) {
  return comm.isend(data.data(), data.size() * sizeof(T), dest, tag);
}
/// ssend and rsend are send (upstream_communicator.hpp says why; ssend is not synchronous here).
template <detail::upstream_comm Comm, typename T>
result<void> ssend(Comm& comm, std::span<const T> data, rank_t dest, int tag = 0) {
  comm.ssend(data.data(), data.size() * sizeof(T), dest, tag);
  return {};
}
template <detail::upstream_comm Comm, typename T>
result<void> rsend(Comm& comm, std::span<const T> data, rank_t dest, int tag = 0) {
  comm.rsend(data.data(), data.size() * sizeof(T), dest, tag);
  return {};
}

template <detail::upstream_comm Comm, typename T>
result<message_status> recv(Comm& comm, std::span<T> data, rank_t source = any_source, int tag = any_tag) {
  const detail::named_peer from = detail::name_peer<Comm>("recv", source, tag);
  comm.recv(data.data(), data.size() * sizeof(T), from.source, from.tag);
  return detail::received(from.source, from.tag, data.size());
}
template <detail::upstream_comm Comm, typename T>
requires(!detail::is_span_v<T>) result<message_status> recv(Comm& comm, T& value, rank_t source = any_source,
                                                            int tag = any_tag) {
  const detail::named_peer from = detail::name_peer<Comm>("recv", source, tag);
  comm.recv(&value, sizeof(T), from.source, from.tag);
  return detail::received(from.source, from.tag, 1);
}
template <detail::upstream_comm Comm, typename T>
[[nodiscard]] request_handle irecv(Comm& comm, std::span<T> data, rank_t source = any_source, int tag = any_tag) {
  const detail::named_peer from = detail::name_peer<Comm>("irecv", source, tag);
  return comm.irecv(data.data(), data.size() * sizeof(T), from.source, from.tag);
}

/// Blocks until `req` completes. The status is a default one, as upstream's (it does not know the message).
template <detail::upstream_comm Comm>
result<message_status> wait(Comm& comm, request_handle& req) {
  comm.wait(req);
  return message_status{};
}
template <detail::upstream_comm Comm>
[[nodiscard]] bool test(Comm& comm, request_handle& req) {
  return comm.test(req);
}
/// Waits for every valid request; completed (invalid) handles are skipped, as MPI_Waitall skips
/// MPI_REQUEST_NULL (so wait_all may follow wait_any).
template <detail::upstream_comm Comm>
result<void> wait_all(Comm& comm, std::span<request_handle> requests) {
  for (request_handle& req : requests)
    if (req.valid()) comm.wait(req);
  return {};
}
/// The index of a request that completed (released); invalid_argument for no requests, as upstream.
template <detail::upstream_comm Comm>
[[nodiscard]] result<size_type> wait_any(Comm& comm, std::span<request_handle> requests) {
  if (requests.empty()) return status(status_code::invalid_argument, "No requests to wait on");
  return comm.waitany(requests.data(), requests.size());
}

/// Sends send_data to dest and receives recv_data from source at the same time (no deadlock in a ring).
template <detail::upstream_comm Comm, typename T>
result<message_status> sendrecv(Comm& comm, std::span<const T> send_data, rank_t dest, int send_tag,
                                std::span<T> recv_data, rank_t source, int recv_tag) {
  const detail::named_peer from = detail::name_peer<Comm>("sendrecv", source, recv_tag);
  request_handle incoming = comm.irecv(recv_data.data(), recv_data.size() * sizeof(T), from.source, from.tag);
  request_handle outgoing = comm.isend(send_data.data(), send_data.size() * sizeof(T), dest, send_tag);
  comm.wait(outgoing);
  comm.wait(incoming);
  return detail::received(from.source, from.tag, recv_data.size());
}
template <detail::upstream_comm Comm, typename T>
result<message_status> sendrecv_replace(Comm& comm, std::span<T> data, rank_t dest, int send_tag, rank_t source,
                                        int recv_tag) {
  const detail::named_peer from = detail::name_peer<Comm>("sendrecv_replace", source, recv_tag);
  comm.sendrecv_replace(data.data(), data.size() * sizeof(T), dest, send_tag, from.source, from.tag);
  return detail::received(from.source, from.tag, data.size());
}

}  // namespace dtl

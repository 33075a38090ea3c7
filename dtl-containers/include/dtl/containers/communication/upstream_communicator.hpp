// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's communicator (its mpi_comm_adapter), as a thin layer over dtl::context:
//
//   auto& comm = ctx.get<dtl::mpi_domain>().communicator();
//   comm.send(&x, sizeof(x), right, 0);                  // counts in bytes, as upstream's
//   long total = comm.allreduce_sum_value<long>(local);  // value forms: one value per rank
//
// It keeps upstream's signatures and behaviour: calls return void (or the value) and throw
// dtl::communication_error where upstream throws; send/recv/isend/irecv, broadcast, gather, scatter,
// allgather, alltoall and sendrecv_replace count bytes; the reductions count elements of the type
// their name says (allreduce_sum: double, _int: int, _long: long); gatherv and the other v-forms take
// int counts and displacements in elements of elem_size bytes. Since it runs on dtl::context, every
// buffer may be host memory or, in HIP builds, device memory of the context's device (the pointer says
// which; RCCL/NCCL, GPU-aware MPI or staged copies, as the context chooses); only the logical
// reductions (allreduce_land / _lor) read their buffers on the host.
//
// A collective fails on every rank with the same status (the context's agreement step), so it throws
// on every rank. Point-to-point follows the context's rules (context.hpp): a blocking send completes
// once its receive is posted, and the receive's byte count must equal the send's.
//
// A request_handle is a plain value, as upstream's: wait(), test() returning true, or waitany() on it
// releases what it holds; one never completed is never released (as an MPI request never waited).

#include <backends/mpi/mpi_lifecycle.hpp>
#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/detail/implicit_world.hpp>
#include <dtl/containers/communication/detail/agreement.hpp>
#include <dtl/containers/communication/request.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/status.hpp>
#include <dtl/core/status_error.hpp>
#include <dtl/core/types.hpp>

#include <cstddef>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace dtl {

/// What upstream's communicator throws; a status_error, so it carries the context's status.
class communication_error : public status_error {
 public:
  explicit communication_error(status why) : status_error(std::move(why)) {}
  explicit communication_error(const std::string& message)
      : status_error(status{status_code::communication_error, message}) {}
};

/// A non-blocking transfer in flight (upstream's type-erased handle): valid() until it completes.
struct request_handle {
  void* handle = nullptr;  // a dtl::request made by isend / irecv
  [[nodiscard]] bool valid() const noexcept { return handle != nullptr; }
};

namespace mpi {

using dtl::communication_error;  // upstream throws dtl::mpi::communication_error

/// What makes native_comm convert to a type: specialised for MPI_Comm (with MPI_COMM_NULL as null()) by
/// <backends/mpi/mpi_communicator.hpp>, which has MPI's types; no other type converts.
template <class Comm>
struct native_comm_traits;

/// Upstream's mpi_communicator::native_handle(): the communicator of context::native_mpi_comm(), for the
/// program's own MPI calls. It converts to MPI_Comm where <backends/mpi/mpi_communicator.hpp> is included
/// (MPI_COMM_NULL for one process without MPI, or an empty communicator).
class native_comm {
 public:
  explicit native_comm(const void* comm) noexcept : comm_(comm) {}
  template <class Comm>
  requires requires { native_comm_traits<Comm>::null(); }
  operator Comm() const noexcept {  // NOLINT(google-explicit-constructor): upstream's handle is an MPI_Comm
    return comm_ != nullptr ? *static_cast<const Comm*>(comm_) : native_comm_traits<Comm>::null();
  }

 private:
  const void* comm_;
};

class mpi_comm_adapter {
 public:
  using size_type = dtl::size_type;

  /// A communicator over the ranks of `ctx` (a copy of it: they share one state).
  explicit mpi_comm_adapter(context ctx) noexcept : ctx_(std::move(ctx)) {}
  /// Upstream's world communicator (detail/implicit_world.hpp): every rank of the live dtl::environment,
  /// or of MPI that the program started (adopted while this adapter or a copy lives). Collective (it
  /// makes a context). Before MPI starts it is empty, as upstream's: rank() no_rank, size() 0, and every
  /// call throws communication_error (invalid_state).
  mpi_comm_adapter() : mpi_comm_adapter(take(detail::make_implicit_world_or_empty(is_initialized()))) {}

  [[nodiscard]] rank_t rank() const noexcept { return ctx_.rank(); }
  [[nodiscard]] rank_t size() const noexcept { return ctx_.size(); }
  [[nodiscard]] bool is_root() const noexcept { return rank() == 0; }
  /// The context underneath (DTL HIP's API: result-returning, typed counts, stream-ordered forms).
  [[nodiscard]] const context& dtl_context() const noexcept { return ctx_; }
  /// Upstream's adapter wraps a raw mpi_communicator; here the adapter is that communicator too
  /// (mpi::mpi_communicator names this class), so what underlies it is itself.
  [[nodiscard]] mpi_comm_adapter& underlying() noexcept { return *this; }
  [[nodiscard]] const mpi_comm_adapter& underlying() const noexcept { return *this; }
  /// The MPI communicator under these ranks for the program's own calls (context::native_mpi_comm()).
  [[nodiscard]] native_comm native_handle() const noexcept { return native_comm(ctx_.native_mpi_comm()); }

  // --- point-to-point (bytes) ---
  void send(const void* buf, size_type bytes, rank_t dest, int tag) {
    check(ctx_.send(as_bytes(buf), bytes, dest, tag));
  }
  void recv(void* buf, size_type bytes, rank_t source, int tag) { check(ctx_.recv(as_bytes(buf), bytes, source, tag)); }
  /// Upstream's send modes are send (or isend): a ready send is a send whose receive is posted, and a
  /// synchronous one moves the same message, but it may complete before its receiver takes it (our
  /// send completes as MPI_Send's does: the one-message protocol has no acknowledgment).
  void ssend(const void* buf, size_type bytes, rank_t dest, int tag) { send(buf, bytes, dest, tag); }
  void rsend(const void* buf, size_type bytes, rank_t dest, int tag) { send(buf, bytes, dest, tag); }

  [[nodiscard]] request_handle isend(const void* buf, size_type bytes, rank_t dest, int tag) {
    return hold(ctx_.isend(as_bytes(buf), bytes, dest, tag));
  }
  [[nodiscard]] request_handle irecv(void* buf, size_type bytes, rank_t source, int tag) {
    return hold(ctx_.irecv(as_bytes(buf), bytes, source, tag));
  }
  [[nodiscard]] request_handle issend(const void* buf, size_type bytes, rank_t dest, int tag) {
    return isend(buf, bytes, dest, tag);
  }
  [[nodiscard]] request_handle irsend(const void* buf, size_type bytes, rank_t dest, int tag) {
    return isend(buf, bytes, dest, tag);
  }

  /// Blocks until `req` completes; throws for an invalid (empty or completed) handle, as upstream.
  void wait(request_handle& req) {
    if (!req.valid()) throw communication_error(status{status_code::invalid_argument, "wait: invalid request handle"});
    check(release(req)->wait());
  }
  /// true once `req` has completed (then it is released); an invalid handle counts as complete.
  [[nodiscard]] bool test(request_handle& req) {
    if (!req.valid()) return true;
    result<bool> done = static_cast<request*>(req.handle)->test();
    if (!done) {
      release(req);
      throw communication_error(std::move(done).error());
    }
    if (!*done) return false;
    check(release(req)->wait());  // complete: collects the outcome at once
    return true;
  }
  /// Waits until one of the `count` requests completes and returns its index (that one is released).
  /// Throws when count is 0 or no handle is valid, as upstream.
  size_type waitany(request_handle* requests, size_type count) {
    if (count == 0) throw communication_error(status{status_code::invalid_argument, "waitany: no requests to wait on"});
    bool any = false;
    for (size_type i = 0; i < count; ++i) any = any || requests[i].valid();
    if (!any) throw communication_error(status{status_code::invalid_argument, "waitany: every request is invalid"});
    for (;;) {
      for (size_type i = 0; i < count; ++i)
        if (requests[i].valid() && test(requests[i])) return i;
      std::this_thread::yield();
    }
  }

  /// Sends `bytes` of buf to dest and replaces them with what source sends.
  void sendrecv_replace(void* buf, size_type bytes, rank_t dest, int sendtag, rank_t source, int recvtag) {
    std::vector<std::byte> out(static_cast<const std::byte*>(buf), static_cast<const std::byte*>(buf) + bytes);
    request_handle r = irecv(buf, bytes, source, recvtag);
    request_handle s = isend(out.data(), bytes, dest, sendtag);
    wait(s);
    wait(r);
  }

  // --- collectives (bytes per rank) ---
  void barrier() { check(ctx_.barrier()); }
  void broadcast(void* buf, size_type bytes, rank_t root) { check(ctx_.broadcast(as_bytes(buf), bytes, root)); }
  void scatter(const void* send, void* recv, size_type bytes, rank_t root) {
    check(ctx_.scatter(as_bytes(send), as_bytes(recv), bytes, root));
  }
  void gather(const void* send, void* recv, size_type bytes, rank_t root) {
    check(ctx_.gather(as_bytes(send), as_bytes(recv), bytes, root));
  }
  void allgather(const void* send, void* recv, size_type bytes) {
    check(ctx_.allgather(as_bytes(send), as_bytes(recv), bytes));
  }
  void alltoall(const void* send, void* recv, size_type bytes) {
    check(ctx_.alltoall(as_bytes(send), as_bytes(recv), bytes));
  }

  // --- variable-size collectives (int counts and displacements in elements of elem_size bytes) ---
  // Each count is checked before any arithmetic: a negative int is invalid_argument, bytes past size_t
  // out_of_range, on every rank (this rank's verdict goes into the collective's agreement step).
  void gatherv(const void* send, size_type send_count, void* recv, const int* recv_counts, const int* displs,
               size_type elem_size, rank_t root) {
    byte_counts b("gatherv", size(), elem_size);
    const std::size_t sent = b.bytes("send_count", send_count);
    const auto rc = b.per_rank("recv_counts", recv_counts), rd = b.per_rank("displs", displs);
    check(detail::with_local_failure(b.verdict,
                                     [&] { return ctx_.gatherv(as_bytes(send), sent, as_bytes(recv), rc, rd, root); }));
  }
  void scatterv(const void* send, const int* send_counts, const int* displs, void* recv, size_type recv_count,
                size_type elem_size, rank_t root) {
    byte_counts b("scatterv", size(), elem_size);
    const auto sc = b.per_rank("send_counts", send_counts), sd = b.per_rank("displs", displs);
    const std::size_t received = b.bytes("recv_count", recv_count);
    check(detail::with_local_failure(
        b.verdict, [&] { return ctx_.scatterv(as_bytes(send), sc, sd, as_bytes(recv), received, root); }));
  }
  void allgatherv(const void* send, size_type send_count, void* recv, const int* recv_counts, const int* displs,
                  size_type elem_size) {
    byte_counts b("allgatherv", size(), elem_size);
    const std::size_t sent = b.bytes("send_count", send_count);
    const auto rc = b.per_rank("recv_counts", recv_counts), rd = b.per_rank("displs", displs);
    check(detail::with_local_failure(b.verdict,
                                     [&] { return ctx_.allgatherv(as_bytes(send), sent, as_bytes(recv), rc, rd); }));
  }
  void alltoallv(const void* send, const int* send_counts, const int* send_displs, void* recv, const int* recv_counts,
                 const int* recv_displs, size_type elem_size) {
    byte_counts b("alltoallv", size(), elem_size);
    const auto sc = b.per_rank("send_counts", send_counts), sd = b.per_rank("send_displs", send_displs);
    const auto rc = b.per_rank("recv_counts", recv_counts), rd = b.per_rank("recv_displs", recv_displs);
    check(detail::with_local_failure(b.verdict,
                                     [&] { return ctx_.alltoallv(as_bytes(send), sc, sd, as_bytes(recv), rc, rd); }));
  }

  // --- reductions on buffers (count elements; no suffix: double) ---
  void reduce_sum(const void* send, void* recv, size_type count, rank_t root) {
    reduce_to<double>(send, recv, count, reduce_op::sum, root);
  }
  void reduce_sum_int(const void* send, void* recv, size_type count, rank_t root) {
    reduce_to<int>(send, recv, count, reduce_op::sum, root);
  }
  void allreduce_sum(const void* s, void* r, size_type n) { all<double>(s, r, n, reduce_op::sum); }
  void allreduce_sum_int(const void* s, void* r, size_type n) { all<int>(s, r, n, reduce_op::sum); }
  void allreduce_sum_long(const void* s, void* r, size_type n) { all<long>(s, r, n, reduce_op::sum); }
  void allreduce_min(const void* s, void* r, size_type n) { all<double>(s, r, n, reduce_op::min); }
  void allreduce_min_int(const void* s, void* r, size_type n) { all<int>(s, r, n, reduce_op::min); }
  void allreduce_min_long(const void* s, void* r, size_type n) { all<long>(s, r, n, reduce_op::min); }
  void allreduce_max(const void* s, void* r, size_type n) { all<double>(s, r, n, reduce_op::max); }
  void allreduce_max_int(const void* s, void* r, size_type n) { all<int>(s, r, n, reduce_op::max); }
  void allreduce_max_long(const void* s, void* r, size_type n) { all<long>(s, r, n, reduce_op::max); }
  void allreduce_prod(const void* s, void* r, size_type n) { all<double>(s, r, n, reduce_op::product); }
  void allreduce_prod_int(const void* s, void* r, size_type n) { all<int>(s, r, n, reduce_op::product); }
  void allreduce_prod_long(const void* s, void* r, size_type n) { all<long>(s, r, n, reduce_op::product); }
  /// Logical AND / OR of int flags (non-zero is true; the result is 1 or 0). Host buffers.
  void allreduce_land(const void* s, void* r, size_type n) { logical(s, r, n, reduce_op::min); }
  void allreduce_lor(const void* s, void* r, size_type n) { logical(s, r, n, reduce_op::max); }

  // --- value forms: upstream's promotions (float through double, other integers through long) ---
  template <class T>
  T allreduce_sum_value(T local) {
    return value_of<T>(local, reduce_op::sum);
  }
  template <class T>
  T allreduce_min_value(T local) {
    return value_of<T>(local, reduce_op::min);
  }
  template <class T>
  T allreduce_max_value(T local) {
    return value_of<T>(local, reduce_op::max);
  }
  template <class T>
  T allreduce_prod_value(T local) {
    return value_of<T>(local, reduce_op::product);
  }
  bool allreduce_land_value(bool local) { return take(ctx_.allreduce_value(local ? 1 : 0, reduce_op::min)) != 0; }
  bool allreduce_lor_value(bool local) { return take(ctx_.allreduce_value(local ? 1 : 0, reduce_op::max)) != 0; }
  /// The sum on `root`; T{} elsewhere.
  template <class T>
  T reduce_sum_to_root(T local, rank_t root) {
    using W = wire_t<T>;
    const W mine = static_cast<W>(local);
    W out{};
    check(ctx_.reduce(&mine, &out, 1, reduce_op::sum, root));
    return static_cast<T>(out);
  }

  // --- scans (count elements; no suffix: double). Rank 0's exscan result is 0. ---
  void scan_sum(const void* s, void* r, size_type n) { scan_of<double>(s, r, n, false); }
  void scan_sum_int(const void* s, void* r, size_type n) { scan_of<int>(s, r, n, false); }
  void scan_sum_long(const void* s, void* r, size_type n) { scan_of<long>(s, r, n, false); }
  void exscan_sum(const void* s, void* r, size_type n) { scan_of<double>(s, r, n, true); }
  void exscan_sum_int(const void* s, void* r, size_type n) { scan_of<int>(s, r, n, true); }
  void exscan_sum_long(const void* s, void* r, size_type n) { scan_of<long>(s, r, n, true); }
  template <class T>
  T scan_sum_value(T local) {
    return static_cast<T>(take(ctx_.scan_value(static_cast<wire_t<T>>(local), reduce_op::sum)));
  }
  /// Sum over ranks 0..rank()-1; rank 0 gets 0.
  template <class T>
  T exscan_sum_value(T local) {
    return static_cast<T>(take(ctx_.exscan_value(static_cast<wire_t<T>>(local), reduce_op::sum)));
  }

  /// A communicator over the ranks that pass the same color, ordered by key then rank (collective).
  [[nodiscard]] mpi_comm_adapter split(int color, int key = 0) {
    return mpi_comm_adapter(take(ctx_.split(color, key)));
  }

 private:
  // What upstream reduces a T as: int, long and double as themselves, float as double, other
  // integers as long, anything else as double.
  template <class T>
  using wire_t = std::conditional_t<std::is_same_v<T, int> || std::is_same_v<T, long> || std::is_same_v<T, double>, T,
                                    std::conditional_t<std::is_integral_v<T>, long, double>>;

  static void check(const result<void>& r) {
    if (!r) throw communication_error(r.error());
  }
  explicit mpi_comm_adapter(detail::implicit_world world) noexcept
      : owner_(std::move(world.environment)), ctx_(std::move(world.world)) {}
  template <class T>
  static T take(result<T> r) {
    if (!r) throw communication_error(std::move(r).error());
    return std::move(r).value();
  }
  static std::byte* as_bytes(void* p) noexcept { return static_cast<std::byte*>(p); }
  static const std::byte* as_bytes(const void* p) noexcept { return static_cast<const std::byte*>(p); }

  static request_handle hold(result<request> r) {
    auto owned = std::make_unique<request>(take(std::move(r)));
    return request_handle{owned.release()};
  }
  static std::unique_ptr<request> release(request_handle& req) noexcept {
    std::unique_ptr<request> owned(static_cast<request*>(req.handle));
    req.handle = nullptr;
    return owned;
  }

  /// A v-form's counts and displacements in bytes, checked before any arithmetic; the first failure is
  /// the call's verdict (the others then give zeros, which the verdict makes moot).
  struct byte_counts {
    byte_counts(const char* call, rank_t ranks, size_type elem) : call_(call), ranks_(ranks), elem_(elem) {}

    /// count elements in bytes: out_of_range past size_t.
    std::size_t bytes(const char* name, size_type count) {
      if (elem_ != 0 && count > std::numeric_limits<size_type>::max() / elem_) {
        fail(status_code::out_of_range, std::string(name) + " of " + std::to_string(count) + " elements of " +
                                            std::to_string(elem_) + " bytes passes the address space");
        return 0;
      }
      return count * elem_;
    }
    /// One entry per rank of `values` in bytes (none for a null pointer: a rank that passes none, where
    /// only the root's are read); a negative entry is invalid_argument.
    std::vector<std::size_t> per_rank(const char* name, const int* values) {
      std::vector<std::size_t> out;
      if (values == nullptr) return out;
      out.resize(static_cast<std::size_t>(ranks_));
      for (std::size_t r = 0; r < out.size(); ++r) {
        if (values[r] < 0) {
          fail(status_code::invalid_argument,
               std::string(name) + "[" + std::to_string(r) + "] is " + std::to_string(values[r]) + " (negative)");
          return {};
        }
        out[r] = bytes(name, static_cast<size_type>(values[r]));
      }
      return out;
    }

    status verdict;

   private:
    void fail(status_code code, const std::string& why) {
      if (verdict.ok()) verdict = status(code, std::string(call_) + ": " + why);
    }
    const char* call_;
    rank_t ranks_;
    size_type elem_;
  };

  template <class T>
  void all(const void* send, void* recv, size_type n, reduce_op op) {
    check(ctx_.allreduce(static_cast<const T*>(send), static_cast<T*>(recv), n, op));
  }
  template <class T>
  void reduce_to(const void* send, void* recv, size_type n, reduce_op op, rank_t root) {
    check(ctx_.reduce(static_cast<const T*>(send), static_cast<T*>(recv), n, op, root));
  }
  template <class T>
  void scan_of(const void* send, void* recv, size_type n, bool exclusive) {
    const T* s = static_cast<const T*>(send);
    T* r = static_cast<T*>(recv);
    check(exclusive ? ctx_.exscan(s, r, n, reduce_op::sum) : ctx_.scan(s, r, n, reduce_op::sum));
  }
  void logical(const void* send, void* recv, size_type n, reduce_op op) {
    std::vector<int> flags(n);
    for (size_type i = 0; i < n; ++i) flags[i] = static_cast<const int*>(send)[i] != 0 ? 1 : 0;
    check(ctx_.allreduce(flags.data(), static_cast<int*>(recv), n, op));
  }
  template <class T>
  T value_of(T local, reduce_op op) {
    return static_cast<T>(take(ctx_.allreduce_value(static_cast<wire_t<T>>(local), op)));
  }

  std::shared_ptr<dtl::environment> owner_;  // the environment adopting MPI for this adapter, if it made one
  context ctx_;
};

/// Upstream's raw MPI communicator (what mpi_comm_adapter::underlying() and mpi::mpi_window take): the
/// adapter itself, over a dtl::context (native_handle() is its MPI communicator). Upstream's constructor from
/// an MPI_Comm has no counterpart: a context comes from dtl::environment.
using mpi_communicator = mpi_comm_adapter;

/// The world's communicator (upstream's factory): as mpi_comm_adapter{}, collective, needs a live environment.
[[nodiscard]] inline mpi_comm_adapter world_adapter() { return mpi_comm_adapter{}; }

}  // namespace mpi

}  // namespace dtl

// SPDX-License-Identifier: MIT
#pragma once
// dtl::context: the ranks a distributed container spans, the GPU this rank uses, and the collectives
// between ranks. Copies are cheap and share one state; containers keep a copy.
//
//   dtl::environment env(argc, argv);
//   auto ctx = env.make_world_context();           // every rank of MPI_COMM_WORLD, one GPU per rank
//   double total = ctx.allreduce_value(local, dtl::reduce_op::sum).value();
//
// Collectives are collective: every rank of the context calls them, in the same order. They take host
// buffers, and in HIP builds device buffers too (the pointer says which). Host buffers go through MPI.
// Device buffers take the context's device_collective_path(): RCCL/NCCL when the build has it and every
// rank has a GPU of its own, else MPI on device pointers when MPI is GPU-aware, else MPI on pinned host
// copies. The overloads that take a stream are ordered on it and return a future.
//
// A context outlives nothing: once its environment has ended, every call returns invalid_state. An
// empty context (moved from, or one that split() gave a rank left out) has no ranks: rank() is -1,
// rank_count() 0, and every collective returns invalid_state.
//
// Every collective starts with an agreement step (one small allreduce): all ranks check their
// arguments, and every rank gets the same outcome, ok or the same status, naming the ranks that failed
// and why, or the arguments the ranks disagree on. A local failure is a status on every rank, not a
// rank that waits forever. A rank that never calls the collective still leaves the others waiting (see
// DTL_COLLECTIVE_TIMEOUT in docs/containers.md).
//
// Threads: a context serves one thread at a time. Two threads in collectives on one context at once
// is detected: the call fails, and the context stops communicating on every rank. Give each thread its
// own context (make_world_context() or split()); at MPI_THREAD_SERIALIZED and above, those may
// communicate at the same time (below it, only the main thread communicates).

#include <dtl/containers/communication/collective_types.hpp>
#include <dtl/containers/communication/request.hpp>
#include <dtl/containers/config.hpp>
#include <dtl/containers/export.hpp>
#include <dtl/core/result.hpp>

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <type_traits>

#if DTL_CONTAINERS_HAS_HIP
#include <dtl/hip/future.hpp>
#include <dtl/hip/stream_ref.hpp>
#endif

namespace dtl {

namespace detail {
struct context_state;
struct context_access;
struct upstream_domains_access;
}  // namespace detail

/// The split() color that leaves a rank out of every sub-context (MPI_UNDEFINED's role): that rank gets
/// an empty context.
inline constexpr int undefined_color = -1;

class DTL_CONTAINERS_API context {
 public:
  /// This process's rank in the context, and the number of ranks (size() is upstream DTL's name for
  /// rank_count(); distributed_vector::size() counts elements).
  [[nodiscard]] int rank() const noexcept;
  [[nodiscard]] int rank_count() const noexcept { return size(); }
  [[nodiscard]] int size() const noexcept;
  [[nodiscard]] bool is_root() const noexcept { return rank() == 0; }
  /// The GPU this rank uses (an id among this process's visible devices), or dtl::no_device.
  [[nodiscard]] int device() const noexcept;
  [[nodiscard]] bool has_device() const noexcept;

  /// ok while the context is usable; invalid_state once the environment that made it has ended.
  [[nodiscard]] status check() const;
  [[nodiscard]] bool valid() const noexcept { return check().ok(); }

  /// Waits until every rank has reached the barrier, each after the device work it left running
  /// (synchronize()), so that a window's remote access after it sees that work.
  [[nodiscard]] result<void> barrier() const;

  /// Waits for the device work that calls on this context left running (on each device's stream of the
  /// context) and returns its failure: the fence before your own kernel on another stream, or your own
  /// MPI call on a vector's local_data(). This rank only, not collective. synchronize_device() is
  /// upstream DTL's name; it throws dtl::status_error instead.
  [[nodiscard]] result<void> synchronize() const;
  void synchronize_device() const;

  /// Splits the ranks by `color` (MPI_Comm_split); ranks are ordered by `key`, then by their old rank.
  /// Collective. The sub-context keeps this context's device. A rank that passes dtl::undefined_color
  /// gets an empty context; other negative colors are invalid_argument (on every rank).
  [[nodiscard]] result<context> split(int color, int key) const;
  [[nodiscard]] result<context> split(int color) const { return split(color, rank()); }

  /// The ranks of this context on this rank's node (those that can share memory: MPI_Comm_split_type
  /// with MPI_COMM_TYPE_SHARED), ordered by their rank here, on this context's device. Made by the first
  /// call, which is collective; later calls (and copies of this context) return the same context without
  /// communicating. Upstream DTL calls such a communicator node_comm. Ranks, GPUs and nodes as a table:
  /// <dtl/topology/node.hpp>.
  [[nodiscard]] result<context> node_local() const;

  /// An MPI communicator over this context's ranks, in its rank order, for the program's own MPI calls
  /// (a pointer to an MPI_Comm: <backends/mpi/mpi_communicator.hpp>'s native_handle() gives the MPI_Comm).
  /// DTL sends nothing on it, so its messages never meet DTL's; each context has its own. nullptr for one
  /// process without MPI, and for an empty context. Valid while the context (or a copy) lives.
  [[nodiscard]] const void* native_mpi_comm() const noexcept;

  /// A context over the same ranks on `device` (dtl::no_device: none), with a communicator of its own.
  /// Collective (ranks may name different devices); a device this rank lacks is invalid_argument or
  /// backend_not_available, on every rank.
  [[nodiscard]] result<context> on_device(int device) const;
  /// Upstream DTL's spellings of on_device() (get<dtl::hip_domain>() then names the device), giving the
  /// context itself and throwing dtl::status_error where it fails. Collective here; upstream's is not.
  [[nodiscard]] context with_hip(int device = 0) const;
  [[nodiscard]] context with_cuda(int device = 0) const { return with_hip(device); }

  /// How device buffers move between ranks, and why that path was chosen.
  [[nodiscard]] collective_path device_collective_path() const noexcept;
  [[nodiscard]] const std::string& device_collective_reason() const noexcept;

  /// true when `other` is this context or a copy of it (containers in one algorithm must share one).
  [[nodiscard]] bool same_as(const context& other) const noexcept { return state_ == other.state_; }

  /// Upstream DTL's domain access (the domains: communication/domains.hpp, in <dtl/dtl.hpp>):
  /// ctx.get<dtl::mpi_domain>().communicator(), ctx.get<dtl::cpu_domain>(), has<D>(). Every context
  /// has each domain that this build defines; the first get() makes them, and copies made after it
  /// share them. Like every call on a context, one thread at a time.
  template <class D>
  [[nodiscard]] static constexpr bool has() noexcept {
    if constexpr (requires { D::in_every_context; }) {
      return D::in_every_context;
    } else {
      return false;
    }
  }
  /// Upstream's has<mpi_domain>(), has<hip_domain>(), has<cuda_domain>() by name (domains.hpp checks
  /// they agree): every context has the MPI domain; HIP builds add the HIP one, and on NVIDIA the CUDA one.
  [[nodiscard]] static constexpr bool has_mpi() noexcept { return true; }
  [[nodiscard]] static constexpr bool has_hip() noexcept { return build::has_hip; }
  [[nodiscard]] static constexpr bool has_cuda() noexcept { return build::has_cuda; }
  template <class D>
  requires(has<D>()) [[nodiscard]] D& get() { return D::of(*this); }
  template <class D>
  requires(has<D>()) [[nodiscard]] const D& get() const { return D::of(*this); }

  /// recv[i] = op over every rank's send[i], on every rank. send == recv is allowed (in place).
  template <class T>
  [[nodiscard]] result<void> allreduce(const T* send, T* recv, std::size_t count, reduce_op op) const {
    return allreduce_raw(send, recv, count, detail::datatype_of<T>(), op);
  }
  /// op over every rank's `value`, on every rank.
  template <class T>
  [[nodiscard]] result<T> allreduce_value(const T& value, reduce_op op) const {
    T out{};
    if (result<void> r = allreduce_raw(&value, &out, 1, detail::datatype_of<T>(), op); !r) return std::move(r).error();
    return out;
  }
  /// Like allreduce, with the result on `root` only (recv is ignored elsewhere and may be nullptr there).
  template <class T>
  [[nodiscard]] result<void> reduce(const T* send, T* recv, std::size_t count, reduce_op op, int root) const {
    return reduce_raw(send, recv, count, detail::datatype_of<T>(), op, root);
  }
  /// Copies `count` elements of `data` on `root` to `data` on every other rank.
  template <class T>
  [[nodiscard]] result<void> broadcast(T* data, std::size_t count, int root) const {
    static_assert(std::is_trivially_copyable_v<T>, "collectives move trivially copyable types");
    return broadcast_raw(data, count * sizeof(T), root);
  }
  /// recv (size() * count elements) gets every rank's `count` elements of send, in rank order.
  template <class T>
  [[nodiscard]] result<void> allgather(const T* send, T* recv, std::size_t count) const {
    static_assert(std::is_trivially_copyable_v<T>, "collectives move trivially copyable types");
    return allgather_raw(send, recv, count * sizeof(T));
  }

  /// recv (size() * count elements, on root) gets every rank's `count` elements of send, in rank order.
  template <class T>
  [[nodiscard]] result<void> gather(const T* send, T* recv, std::size_t count, int root) const {
    static_assert(std::is_trivially_copyable_v<T>, "collectives move trivially copyable types");
    return gather_raw(send, recv, count, sizeof(T), root);
  }
  /// Rank r's recv gets the count elements at send + r * count of root's send.
  template <class T>
  [[nodiscard]] result<void> scatter(const T* send, T* recv, std::size_t count, int root) const {
    static_assert(std::is_trivially_copyable_v<T>, "collectives move trivially copyable types");
    return scatter_raw(send, recv, count, sizeof(T), root);
  }
  /// Root's recv gets recv_counts[r] elements of rank r at recv + displs[r] (counts and displacements
  /// in elements, one per rank; only root's are read, every rank's `count` must be its entry).
  template <class T>
  [[nodiscard]] result<void> gatherv(const T* send, std::size_t count, T* recv,
                                     std::span<const std::size_t> recv_counts, std::span<const std::size_t> displs,
                                     int root) const {
    static_assert(std::is_trivially_copyable_v<T>, "collectives move trivially copyable types");
    return gatherv_raw(send, count, recv, recv_counts, displs, sizeof(T), root);
  }
  /// Rank r's recv (count elements) gets send_counts[r] elements at send + displs[r] of root's send.
  template <class T>
  [[nodiscard]] result<void> scatterv(const T* send, std::span<const std::size_t> send_counts,
                                      std::span<const std::size_t> displs, T* recv, std::size_t count, int root) const {
    static_assert(std::is_trivially_copyable_v<T>, "collectives move trivially copyable types");
    return scatterv_raw(send, send_counts, displs, recv, count, sizeof(T), root);
  }
  /// Every rank's recv gets recv_counts[r] elements of rank r at recv + displs[r].
  template <class T>
  [[nodiscard]] result<void> allgatherv(const T* send, std::size_t count, T* recv,
                                        std::span<const std::size_t> recv_counts,
                                        std::span<const std::size_t> displs) const {
    static_assert(std::is_trivially_copyable_v<T>, "collectives move trivially copyable types");
    return allgatherv_raw(send, count, recv, recv_counts, displs, sizeof(T));
  }
  /// recv[r * count_each ...] gets the count_each elements that rank r sent to this rank from its
  /// send[this_rank * count_each ...].
  template <class T>
  [[nodiscard]] result<void> alltoall(const T* send, T* recv, std::size_t count_each) const {
    static_assert(std::is_trivially_copyable_v<T>, "collectives move trivially copyable types");
    return alltoall_raw(send, recv, count_each, sizeof(T));
  }
  /// Rank r gets send_counts[r] elements from send + send_displs[r]; this rank puts what rank r sends it
  /// (recv_counts[r] elements, which must equal rank r's send_counts[this rank]) at recv + recv_displs[r].
  /// Counts and displacements in elements, size() of each; any size (past 2^31 bytes too). Receive blocks
  /// must not overlap, send and recv must be different buffers; a rank whose counts differ from its
  /// peers' fails the call on every rank (see docs/containers.md for what is checked).
  template <class T>
  [[nodiscard]] result<void> alltoallv(const T* send, std::span<const std::size_t> send_counts,
                                       std::span<const std::size_t> send_displs, T* recv,
                                       std::span<const std::size_t> recv_counts,
                                       std::span<const std::size_t> recv_displs) const {
    static_assert(std::is_trivially_copyable_v<T>, "collectives move trivially copyable types");
    return alltoallv_raw(send, send_counts, send_displs, recv, recv_counts, recv_displs, sizeof(T));
  }
  /// Inclusive prefix: recv[i] = op over ranks 0..rank() of send[i]. Host buffers (device buffers are
  /// invalid_argument).
  template <class T>
  [[nodiscard]] result<void> scan(const T* send, T* recv, std::size_t count, reduce_op op) const {
    return scan_raw(send, recv, count, detail::datatype_of<T>(), op, false);
  }
  /// Exclusive prefix: recv[i] = op over ranks 0..rank()-1 of send[i]; rank 0 gets op's identity.
  template <class T>
  [[nodiscard]] result<void> exscan(const T* send, T* recv, std::size_t count, reduce_op op) const {
    return scan_raw(send, recv, count, detail::datatype_of<T>(), op, true);
  }
  template <class T>
  [[nodiscard]] result<T> scan_value(const T& value, reduce_op op) const {
    T out{};
    if (result<void> r = scan(&value, &out, 1, op); !r) return std::move(r).error();
    return out;
  }
  /// op over the values of ranks 0..rank()-1; rank 0 gets op's identity (0, 1, the type's max or +inf for
  /// min, its lowest or -inf for max).
  template <class T>
  [[nodiscard]] result<T> exscan_value(const T& value, reduce_op op) const {
    T out{};
    if (result<void> r = exscan(&value, &out, 1, op); !r) return std::move(r).error();
    return out;
  }

  // --- point-to-point: the two ranks involved call, not the whole context ---
  //
  // A message is one MPI message on the wire: a small header (the sender's count, element size, buffer
  // kind, its own checks, the payload's path), followed in the same message by a host payload of up to
  // about 4 KiB; a larger payload, or a device buffer's, follows as a second message sent at once.
  // Nothing waits for the receiver: a send completes as MPI_Send's does (a small one at once, a large
  // one maybe only once its receiver takes it, one on RCCL/NCCL only then), so a program where two
  // ranks both send first with blocking calls may deadlock: use sendrecv, or requests. A blocking send
  // or receive with oneself is invalid_argument (it could never complete); sendrecv with oneself, and
  // isend/irecv, work. Messages match by (source, tag) in the order posted, as in MPI, on every path.
  //
  // Statuses: the sender returns its own checks only (a null buffer with a non-zero count, a device
  // buffer of another device, a failed staging copy); its failure travels in the header, and its
  // receiver returns the same status. Otherwise the receiver returns its own failure: a count or
  // element size that differs from the sender's, a null buffer, a device buffer of another device, a
  // failed copy. As with MPI, a failure found only on the receiving side is not reported to the sender.
  // Either way the receiver takes the whole message, so nothing is left to match a later receive. What
  // fails before any message is returned on the calling rank alone: an empty or ended context
  // (invalid_state), a peer outside the context (invalid_rank), a tag outside [0, max_tag()]
  // (invalid_argument).
  //
  // Device buffers (the pointer says which): the sender picks the path from its own side and names it
  // in the header; the receiver follows. RCCL/NCCL when the context's path is nccl, the sender's buffer
  // is device memory of the context's device, its call is blocking or stream-ordered, and the context's
  // RCCL/NCCL communicator exists (its first device collective makes it: two ranks cannot); a host
  // receive buffer then receives into device memory and copies. Else MPI on the device pointers when
  // MPI is GPU-aware (and the path is not mpi_staged); else MPI on pinned host copies. isend never takes
  // RCCL/NCCL, which pairs transfers in the order they are issued while requests complete in the order
  // the program tests them; an irecv takes a blocking sender's RCCL/NCCL payload when it is stepped. On
  // RCCL/NCCL, sendrecv issues both halves as one group once its receive's header has come: pair it
  // with sendrecv (or with requests), not with a blocking send and recv in turn (docs/containers.md).
  // Device and host buffers may pair (each side stages its own). Blocking calls on device buffers first
  // wait for all work on the device, like collectives.

  template <class T>
  [[nodiscard]] result<void> send(const T* buf, std::size_t count, int dest, int tag = 0) const {
    static_assert(std::is_trivially_copyable_v<T>, "messages carry trivially copyable types");
    return send_raw(buf, count, sizeof(T), dest, tag);
  }
  template <class T>
  [[nodiscard]] result<void> recv(T* buf, std::size_t count, int src, int tag = 0) const {
    static_assert(std::is_trivially_copyable_v<T>, "messages carry trivially copyable types");
    return recv_raw(buf, count, sizeof(T), src, tag);
  }
  /// A send to `dest` and a receive from `src` at once (they may be the same rank, or this one).
  template <class T>
  [[nodiscard]] result<void> sendrecv(const T* send, std::size_t send_count, int dest, T* recv, std::size_t recv_count,
                                      int src, int tag = 0) const {
    static_assert(std::is_trivially_copyable_v<T>, "messages carry trivially copyable types");
    return sendrecv_raw(send, send_count, dest, recv, recv_count, src, sizeof(T), tag);
  }
  template <class T>
  [[nodiscard]] result<request> isend(const T* buf, std::size_t count, int dest, int tag = 0) const {
    static_assert(std::is_trivially_copyable_v<T>, "messages carry trivially copyable types");
    return isend_raw(buf, count, sizeof(T), dest, tag);
  }
  template <class T>
  [[nodiscard]] result<request> irecv(T* buf, std::size_t count, int src, int tag = 0) const {
    static_assert(std::is_trivially_copyable_v<T>, "messages carry trivially copyable types");
    return irecv_raw(buf, count, sizeof(T), src, tag);
  }
  /// The largest tag point-to-point calls take (MPI_TAG_UB of this context's communicator); -1 for an
  /// empty context.
  [[nodiscard]] int max_tag() const noexcept;

#if DTL_CONTAINERS_HAS_HIP
  // Point-to-point and all-to-all ordered on `stream`: the data moves after the stream's earlier work and
  // before its later work. On RCCL/NCCL nothing waits for the stream (the headers travel on the host
  // first: a receive returns once its header has come); the MPI paths wait for the stream, move the
  // data, and return a completed future.
  template <class T>
  [[nodiscard]] hip::future<void> send(const T* buf, std::size_t count, int dest, int tag,
                                       hip::stream_ref stream) const {
    return send_on_stream(buf, count, sizeof(T), dest, tag, stream);
  }
  template <class T>
  [[nodiscard]] hip::future<void> recv(T* buf, std::size_t count, int src, int tag, hip::stream_ref stream) const {
    return recv_on_stream(buf, count, sizeof(T), src, tag, stream);
  }
  template <class T>
  [[nodiscard]] hip::future<void> sendrecv(const T* send, std::size_t send_count, int dest, T* recv,
                                           std::size_t recv_count, int src, int tag, hip::stream_ref stream) const {
    return sendrecv_on_stream(send, send_count, dest, recv, recv_count, src, sizeof(T), tag, stream);
  }
  template <class T>
  [[nodiscard]] hip::future<void> alltoall(const T* send, T* recv, std::size_t count_each,
                                           hip::stream_ref stream) const {
    return alltoall_on_stream(send, recv, count_each, sizeof(T), stream);
  }
  template <class T>
  [[nodiscard]] hip::future<void> alltoallv(const T* send, std::span<const std::size_t> send_counts,
                                            std::span<const std::size_t> send_displs, T* recv,
                                            std::span<const std::size_t> recv_counts,
                                            std::span<const std::size_t> recv_displs, hip::stream_ref stream) const {
    return alltoallv_on_stream(send, send_counts, send_displs, recv, recv_counts, recv_displs, sizeof(T), stream);
  }

  // The same collectives ordered on `stream` (a stream of this context's device): they start after the
  // work submitted to it so far, later work on it sees their result, and the future completes when the
  // result is in place. On the RCCL/NCCL path nothing blocks; the MPI paths wait for the stream, run
  // the MPI call, and return a completed future.
  template <class T>
  [[nodiscard]] hip::future<void> allreduce(const T* send, T* recv, std::size_t count, reduce_op op,
                                            hip::stream_ref stream) const {
    return allreduce_on_stream(send, recv, count, detail::datatype_of<T>(), op, stream);
  }
  template <class T>
  [[nodiscard]] hip::future<void> reduce(const T* send, T* recv, std::size_t count, reduce_op op, int root,
                                         hip::stream_ref stream) const {
    return reduce_on_stream(send, recv, count, detail::datatype_of<T>(), op, root, stream);
  }
  template <class T>
  [[nodiscard]] hip::future<void> broadcast(T* data, std::size_t count, int root, hip::stream_ref stream) const {
    static_assert(std::is_trivially_copyable_v<T>, "collectives move trivially copyable types");
    return broadcast_on_stream(data, count * sizeof(T), root, stream);
  }
  template <class T>
  [[nodiscard]] hip::future<void> allgather(const T* send, T* recv, std::size_t count, hip::stream_ref stream) const {
    static_assert(std::is_trivially_copyable_v<T>, "collectives move trivially copyable types");
    return allgather_on_stream(send, recv, count * sizeof(T), stream);
  }
#endif

 private:
  friend struct detail::context_access;
  friend struct detail::upstream_domains_access;
  explicit context(std::shared_ptr<detail::context_state> state) noexcept;

  [[nodiscard]] result<void> allreduce_raw(const void* send, void* recv, std::size_t count, detail::datatype type,
                                           reduce_op op) const;
  [[nodiscard]] result<void> reduce_raw(const void* send, void* recv, std::size_t count, detail::datatype type,
                                        reduce_op op, int root) const;
  [[nodiscard]] result<void> broadcast_raw(void* data, std::size_t bytes, int root) const;
  [[nodiscard]] result<void> allgather_raw(const void* send, void* recv, std::size_t bytes_each) const;
  // Counts and displacements in elements of `elem` bytes.
  [[nodiscard]] result<void> gather_raw(const void* send, void* recv, std::size_t count, std::size_t elem,
                                        int root) const;
  [[nodiscard]] result<void> scatter_raw(const void* send, void* recv, std::size_t count, std::size_t elem,
                                         int root) const;
  [[nodiscard]] result<void> gatherv_raw(const void* send, std::size_t count, void* recv,
                                         std::span<const std::size_t> recv_counts, std::span<const std::size_t> displs,
                                         std::size_t elem, int root) const;
  [[nodiscard]] result<void> scatterv_raw(const void* send, std::span<const std::size_t> send_counts,
                                          std::span<const std::size_t> displs, void* recv, std::size_t count,
                                          std::size_t elem, int root) const;
  [[nodiscard]] result<void> allgatherv_raw(const void* send, std::size_t count, void* recv,
                                            std::span<const std::size_t> recv_counts,
                                            std::span<const std::size_t> displs, std::size_t elem) const;
  [[nodiscard]] result<void> alltoall_raw(const void* send, void* recv, std::size_t count_each, std::size_t elem) const;
  [[nodiscard]] result<void> alltoallv_raw(const void* send, std::span<const std::size_t> send_counts,
                                           std::span<const std::size_t> send_displs, void* recv,
                                           std::span<const std::size_t> recv_counts,
                                           std::span<const std::size_t> recv_displs, std::size_t elem) const;
  [[nodiscard]] result<void> scan_raw(const void* send, void* recv, std::size_t count, detail::datatype type,
                                      reduce_op op, bool exclusive) const;
  [[nodiscard]] result<void> send_raw(const void* buf, std::size_t count, std::size_t elem, int dest, int tag) const;
  [[nodiscard]] result<void> recv_raw(void* buf, std::size_t count, std::size_t elem, int src, int tag) const;
  [[nodiscard]] result<void> sendrecv_raw(const void* send, std::size_t send_count, int dest, void* recv,
                                          std::size_t recv_count, int src, std::size_t elem, int tag) const;
  [[nodiscard]] result<request> isend_raw(const void* buf, std::size_t count, std::size_t elem, int dest,
                                          int tag) const;
  [[nodiscard]] result<request> irecv_raw(void* buf, std::size_t count, std::size_t elem, int src, int tag) const;
#if DTL_CONTAINERS_HAS_HIP
  [[nodiscard]] hip::future<void> send_on_stream(const void* buf, std::size_t count, std::size_t elem, int dest,
                                                 int tag, hip::stream_ref stream) const;
  [[nodiscard]] hip::future<void> recv_on_stream(void* buf, std::size_t count, std::size_t elem, int src, int tag,
                                                 hip::stream_ref stream) const;
  [[nodiscard]] hip::future<void> sendrecv_on_stream(const void* send, std::size_t send_count, int dest, void* recv,
                                                     std::size_t recv_count, int src, std::size_t elem, int tag,
                                                     hip::stream_ref stream) const;
  [[nodiscard]] hip::future<void> alltoall_on_stream(const void* send, void* recv, std::size_t count_each,
                                                     std::size_t elem, hip::stream_ref stream) const;
  [[nodiscard]] hip::future<void> alltoallv_on_stream(const void* send, std::span<const std::size_t> send_counts,
                                                      std::span<const std::size_t> send_displs, void* recv,
                                                      std::span<const std::size_t> recv_counts,
                                                      std::span<const std::size_t> recv_displs, std::size_t elem,
                                                      hip::stream_ref stream) const;
#endif
#if DTL_CONTAINERS_HAS_HIP
  [[nodiscard]] hip::future<void> allreduce_on_stream(const void* send, void* recv, std::size_t count,
                                                      detail::datatype type, reduce_op op,
                                                      hip::stream_ref stream) const;
  [[nodiscard]] hip::future<void> reduce_on_stream(const void* send, void* recv, std::size_t count,
                                                   detail::datatype type, reduce_op op, int root,
                                                   hip::stream_ref stream) const;
  [[nodiscard]] hip::future<void> broadcast_on_stream(void* data, std::size_t bytes, int root,
                                                      hip::stream_ref stream) const;
  [[nodiscard]] hip::future<void> allgather_on_stream(const void* send, void* recv, std::size_t bytes_each,
                                                      hip::stream_ref stream) const;
#endif

  std::shared_ptr<detail::context_state> state_;
  // The upstream domains get() made (communication/domains.hpp); shared by the copies made after.
  mutable std::shared_ptr<void> upstream_domains_;
};

/// A single-process context: rank 0 of 1, without a GPU (device placements name their device,
/// device_only<N>; device_only_runtime needs a context with a device). Needs no environment.
[[nodiscard]] DTL_CONTAINERS_API context make_cpu_context();

}  // namespace dtl

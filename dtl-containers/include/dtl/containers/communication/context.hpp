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
#include <dtl/containers/config.hpp>
#include <dtl/containers/export.hpp>
#include <dtl/core/result.hpp>

#include <cstddef>
#include <memory>
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

  /// Waits until every rank has reached the barrier.
  [[nodiscard]] result<void> barrier() const;

  /// Splits the ranks by `color` (MPI_Comm_split); ranks are ordered by `key`, then by their old rank.
  /// Collective. The sub-context keeps this context's device. A rank that passes dtl::undefined_color
  /// gets an empty context; other negative colors are invalid_argument (on every rank).
  [[nodiscard]] result<context> split(int color, int key) const;
  [[nodiscard]] result<context> split(int color) const { return split(color, rank()); }

  /// How device buffers move between ranks, and why that path was chosen.
  [[nodiscard]] collective_path device_collective_path() const noexcept;
  [[nodiscard]] const std::string& device_collective_reason() const noexcept;

  /// true when `other` is this context or a copy of it (containers in one algorithm must share one).
  [[nodiscard]] bool same_as(const context& other) const noexcept { return state_ == other.state_; }

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

#if DTL_CONTAINERS_HAS_HIP
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
  explicit context(std::shared_ptr<detail::context_state> state) noexcept;

  [[nodiscard]] result<void> allreduce_raw(const void* send, void* recv, std::size_t count, detail::datatype type,
                                           reduce_op op) const;
  [[nodiscard]] result<void> reduce_raw(const void* send, void* recv, std::size_t count, detail::datatype type,
                                        reduce_op op, int root) const;
  [[nodiscard]] result<void> broadcast_raw(void* data, std::size_t bytes, int root) const;
  [[nodiscard]] result<void> allgather_raw(const void* send, void* recv, std::size_t bytes_each) const;
#if DTL_CONTAINERS_HAS_HIP
  [[nodiscard]] hip::future<void> allreduce_on_stream(const void* send, void* recv, std::size_t count,
                                                      detail::datatype type, reduce_op op, hip::stream_ref stream) const;
  [[nodiscard]] hip::future<void> reduce_on_stream(const void* send, void* recv, std::size_t count,
                                                   detail::datatype type, reduce_op op, int root,
                                                   hip::stream_ref stream) const;
  [[nodiscard]] hip::future<void> broadcast_on_stream(void* data, std::size_t bytes, int root,
                                                      hip::stream_ref stream) const;
  [[nodiscard]] hip::future<void> allgather_on_stream(const void* send, void* recv, std::size_t bytes_each,
                                                      hip::stream_ref stream) const;
#endif

  std::shared_ptr<detail::context_state> state_;
};

/// A single-process context: rank 0 of 1, without a GPU (device placements name their device,
/// device_only<N>; device_only_runtime needs a context with a device). Needs no environment.
[[nodiscard]] DTL_CONTAINERS_API context make_cpu_context();

}  // namespace dtl

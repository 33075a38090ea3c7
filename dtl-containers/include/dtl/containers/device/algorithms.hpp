#pragma once
// The device side of the algorithms: one rank's block on its GPU, under each execution policy. Not for
// users. fill and copy need no kernel of the caller's (the library has them); the others instantiate
// kernels for the user's functions, so their file must be compiled by the kernel compiler (dtl-hip-kc).
// Elsewhere they are declared only to explain that at compile time.

#include <dtl/containers/config.hpp>
#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/detail/agreement.hpp>
#include <dtl/containers/communication/detail/context_services.hpp>
#include <dtl/containers/algorithms/detail/support.hpp>
#include <dtl/containers/algorithms/detail/outcome.hpp>
#include <dtl/core/memory_transfer.hpp>

#include <cstddef>
#include <cstring>
#include <memory>
#include <vector>

#if DTL_CONTAINERS_HAS_HIP
#include <dtl/containers/device/lane.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>
#endif

#if (defined(__HIPCC__) || defined(__CUDACC__)) && DTL_CONTAINERS_HAS_HIP
#define DTL_CONTAINERS_DEVICE_ALGORITHMS 1
#include <dtl/containers/device/primitives.hpp>
#else
#define DTL_CONTAINERS_DEVICE_ALGORITHMS 0
#endif

namespace dtl::detail::device_algo {

#if DTL_CONTAINERS_HAS_HIP
// --- any compiler ---

template <class Policy, class T>
auto fill(const Policy& policy, const context& ctx, int device, T* data, std::size_t n, const T& value) {
  return run_on_lane(policy, ctx, device, [&](hipStream_t s, device::device_scratch&) -> status {
    return fill_pattern(data, n, &value, sizeof(T), s);
  });
}

template <class Policy, class T>
auto copy(const Policy& policy, const context& ctx, int device, const T* in, T* out, std::size_t n, transfer_kind kind) {
  return run_on_lane(policy, ctx, device, [&](hipStream_t s, device::device_scratch&) -> status {
    if (n == 0) return {};
    return hip::hip_memory_transfer::copy_async(out, in, n * sizeof(T), kind, hip::stream_ref(s)).error();
  });
}
#endif

#if DTL_CONTAINERS_DEVICE_ALGORITHMS

template <class T, class F>
struct maybe_transform {
  F f;
  DTL_DEVICE_EXEC_CHECK_DISABLE
  template <class... X>
  __host__ __device__ maybe<T> operator()(const X&... x) const {
    return maybe<T>{static_cast<T>(f(x...)), 1};
  }
};

template <class T, class Op>
struct maybe_op {
  Op op;
  DTL_DEVICE_EXEC_CHECK_DISABLE
  __host__ __device__ maybe<T> operator()(const maybe<T>& a, const maybe<T>& b) const {
    if (a.present == 0) return b;
    if (b.present == 0) return a;
    return maybe<T>{static_cast<T>(op(a.value, b.value)), 1};
  }
};

template <class T, class Op>
maybe_op<T, device::device_callable_t<Op>> make_maybe_op(const Op& op) {
  return {device::to_device(op)};
}

template <class Policy, class T>
auto iota(const Policy& policy, const context& ctx, int device, T* data, std::size_t n, const T& first) {
  return run_on_lane(policy, ctx, device, [&](hipStream_t s, device::device_scratch&) {
    return device::iota(data, n, first, s);
  });
}

template <class Policy, class T, class F>
auto for_each(const Policy& policy, const context& ctx, int device, T* data, std::size_t n, F f) {
  return run_on_lane(policy, ctx, device, [&](hipStream_t s, device::device_scratch&) {
    return device::for_each(data, n, f, s);
  });
}

template <class Policy, class T, class F>
auto for_each_indexed(const Policy& policy, const context& ctx, int device, T* data, std::size_t n,
                      std::size_t first_index, F f) {
  return run_on_lane(policy, ctx, device, [&](hipStream_t s, device::device_scratch&) {
    return device::for_each_indexed(data, n, first_index, f, s);
  });
}

template <class Policy, class In, class Out, class F>
auto transform(const Policy& policy, const context& ctx, int device, const In* in, Out* out, std::size_t n, F f) {
  return run_on_lane(policy, ctx, device, [&](hipStream_t s, device::device_scratch&) {
    return device::transform(in, out, n, f, s);
  });
}

template <class Policy, class A, class B, class Out, class F>
auto transform2(const Policy& policy, const context& ctx, int device, const A* a, const B* b, Out* out, std::size_t n,
                F f) {
  return run_on_lane(policy, ctx, device, [&](hipStream_t s, device::device_scratch&) {
    return device::transform(a, b, out, n, f, s);
  });
}

/// Copies `count` Ts from device memory to host memory on `stream` and waits for it.
template <class T>
status read_back(T* host, const T* device_ptr, std::size_t count, hipStream_t stream) {
  DTL_HIP_TRY(hipMemcpyAsync(host, device_ptr, count * sizeof(T), hipMemcpyDeviceToHost, stream));
  DTL_HIP_TRY(hipStreamSynchronize(stream));
  return {};
}

/// init op every present partial, folded on the device (the operator may be device-only).
template <class T, class Op>
result<T> fold_on_device(const std::vector<maybe<T>>& partials, const T& init, const Op& op,
                         device::device_scratch& scratch, hipStream_t stream) {
  std::vector<maybe<T>> items;
  items.reserve(partials.size() + 1);
  items.push_back(maybe<T>{init, 1});
  items.insert(items.end(), partials.begin(), partials.end());
  DTL_ASSIGN_OR_RETURN(void* slot, scratch.result_slot(sizeof(maybe<T>) * (items.size() + 1)));
  auto* d_out = static_cast<maybe<T>*>(slot);
  maybe<T>* d_items = d_out + 1;
  DTL_HIP_TRY(hipMemcpyAsync(d_items, items.data(), items.size() * sizeof(maybe<T>), hipMemcpyHostToDevice, stream));
  DTL_TRY(device::reduce(d_items, items.size(), maybe<T>{T{}, 0}, make_maybe_op<T>(op), d_out, scratch, stream));
  maybe<T> out{};
  DTL_TRY(read_back(&out, d_out, 1, stream));
  return out.value;
}

/// What a reduction folds: one rank's block, each element x taken as f(x). (A source of two blocks,
/// taken as f(a[i], b[i]), is in device/indexed_algorithms.hpp.)
template <class In>
struct block_source {
  const In* data;
  std::size_t n;
  template <class T, class Op, class F>
  status fold(const T& init, Op op, F f, T* d_out, device::device_scratch& scratch, hipStream_t stream) const {
    if constexpr (std::is_same_v<F, identity_transform>)
      return device::reduce(data, n, init, op, d_out, scratch, stream);
    else
      return device::transform_reduce(data, n, init, op, f, d_out, scratch, stream);
  }
};

/// The reduction of a source (source.fold), combined over the ranks as `scope` says.
template <class Policy, class Source, class T, class Op, class F>
auto reduce_source(const Policy& policy, const context& ctx, int device, const Source& source, const T& init, Op op,
                   F f, reduce_scope scope, int root) {
  using Pol = std::remove_cvref_t<Policy>;
  using R = reduce_result<T>;
  // A rank whose local part fails still takes part in the agreement before the ranks combine, so that the
  // others return its failure instead of waiting for it: the combining collective's own agreement step
  // carries it (one agreement per call); `agreed` is for a failure before anything was enqueued.
  auto agreed = [&](const status& local) {
    return agree_before(scope != reduce_scope::local, ctx, local, "reduce (the ranks' partial results)");
  };
  auto session = enter_lane(policy, ctx, device);
  if (!session) return failed_outcome<Pol, R>(agreed(session.error()));
  const std::shared_ptr<device_lane> lane = session->lane;
  const hipStream_t stream = session->stream;
  device::device_scratch& scratch = *session->scratch;
  const bool has_global = scope == reduce_scope::all || (scope == reduce_scope::root && ctx.rank() == root);
  const bool single_rank = ctx.size() == 1;

  if constexpr (is_native_reduction_v<Op, T>) {
    // The partials meet in a native collective on the stream (RCCL/NCCL, or MPI), without the host.
    constexpr auto native = *native_reduction_of<Op, T>();
    auto enqueue = [&]() -> result<void*> {
      T* d_local = nullptr;
      const status folded = [&]() -> status {
        DTL_ASSIGN_OR_RETURN(void* slot, scratch.result_slot(2 * sizeof(T)));
        d_local = static_cast<T*>(slot);
        return source.fold(native.identity, op, f, d_local, scratch, stream);
      }();
      if (single_rank || scope == reduce_scope::local) {
        // Nothing to combine (one rank: the local value is the global one, finish reads it twice).
        DTL_TRY(folded);
      } else {
        auto done = scope == reduce_scope::all
                        ? allreduce_on_stream(ctx, d_local, d_local + 1, 1, datatype_of<T>(), native.op,
                                              hip::stream_ref(stream), folded)
                        : reduce_on_stream(ctx, d_local, d_local + 1, 1, datatype_of<T>(), native.op, root,
                                           hip::stream_ref(stream), folded);
        if (!done.query().is_pending()) DTL_TRY(done.get());  // the agreed failure, or one the MPI path found
      }
      DTL_ASSIGN_OR_RETURN(void* pinned, lane->take_slot());
      if (const hipError_t e = hipMemcpyAsync(pinned, d_local, (single_rank ? 1 : 2) * sizeof(T), hipMemcpyDeviceToHost, stream);
          e != hipSuccess) {
        lane->give_back(pinned);
        return hip::to_status(e, "hipMemcpyAsync of a reduction's result");
      }
      return pinned;
    };
    auto pinned = enqueue();
    if (!pinned) return failed_outcome<Pol, R>(std::move(pinned).error());
    // Reads the result once the stream has reached it, and always returns the pinned slot.
    auto finish = [lane, slot = *pinned, init, op, has_global, single_rank](result<void> done) -> result<R> {
      T values[2];
      std::memcpy(values, slot, sizeof values);
      if (single_rank) values[1] = values[0];
      lane->give_back(slot);
      if (!done) return std::move(done).error();
      return R{op(init, values[0]), has_global ? op(init, values[1]) : T{}, has_global};
    };
    session->lock.unlock();  // the stream orders the rest; finish() only reads the pinned slot
    return outcome_on_stream<Pol>(stream, device, std::move(finish));
  } else {
    // Any other operator: fold the block into a maybe<T> (no identity needed), then combine the ranks'
    // partials in rank order, on the device. Blocking under every policy (it goes through the host).
    auto compute = [&]() -> result<R> {
      maybe<T> mine{};
      T local_value{};
      const status folded = [&]() -> status {
        DTL_ASSIGN_OR_RETURN(void* slot, scratch.result_slot(sizeof(maybe<T>)));
        auto* d_mine = static_cast<maybe<T>*>(slot);
        DTL_TRY(source.fold(maybe<T>{T{}, 0}, make_maybe_op<T>(op),
                            maybe_transform<T, device::device_callable_t<F>>{device::to_device(f)}, d_mine, scratch,
                            stream));
        DTL_TRY(read_back(&mine, d_mine, 1, stream));
        DTL_ASSIGN_OR_RETURN(local_value, fold_on_device(std::vector<maybe<T>>{mine}, init, op, scratch, stream));
        return {};
      }();
      if (scope == reduce_scope::local) {
        DTL_TRY(folded);
        return R{local_value, local_value, false};
      }
      std::vector<maybe<T>> all(static_cast<std::size_t>(ctx.size()));
      DTL_TRY(allgather_host(ctx, &mine, all.data(), sizeof(mine), folded));
      if (!has_global) return R{local_value, T{}, false};
      DTL_ASSIGN_OR_RETURN(const T global, fold_on_device(all, init, op, scratch, stream));
      return R{local_value, global, true};
    };
    return to_outcome<Pol, R>(compute());
  }
}

/// The reduction of one rank's block (transformed by f), combined over the ranks as `scope` says.
template <class Policy, class In, class T, class Op, class F>
auto reduce(const Policy& policy, const context& ctx, int device, const In* data, std::size_t n, const T& init, Op op,
            F f, reduce_scope scope, int root) {
  return reduce_source(policy, ctx, device, block_source<In>{data, n}, init, op, f, scope, root);
}

/// Inclusive or exclusive scan of one rank's block, offset by the blocks of the ranks before it.
template <bool Inclusive, class Policy, class T, class Op>
auto scan(const Policy& policy, const context& ctx, int device, const T* in, T* out, std::size_t n, const T& init,
          Op op) {
  using Pol = std::remove_cvref_t<Policy>;
  // As in reduce: a rank whose local part fails takes part in the agreement before the ranks combine (the
  // allgather's own; `agreed` is for a failure before anything was enqueued).
  auto agreed = [&](const status& local) {
    return agree_before(true, ctx, local, "scan (the ranks' block totals)");
  };
  auto session = enter_lane(policy, ctx, device);
  if (!session) return failed_outcome<Pol, void>(agreed(session.error()));
  const hipStream_t stream = session->stream;
  device::device_scratch& scratch = *session->scratch;

  auto compute = [&]() -> result<void> {
    // This block's total: the last element of the inclusive scan, or a reduction before the exclusive one.
    maybe<T> total{T{}, 0};
    const status totalled = [&]() -> status {
      if (n != 0) {
        if constexpr (Inclusive) {
          DTL_TRY(device::inclusive_scan(in, out, n, op, scratch, stream));
          DTL_TRY(read_back(&total.value, out + (n - 1), 1, stream));
        } else {
          DTL_ASSIGN_OR_RETURN(void* slot, scratch.result_slot(sizeof(maybe<T>)));
          auto* d_total = static_cast<maybe<T>*>(slot);
          DTL_TRY(device::transform_reduce(in, n, maybe<T>{T{}, 0}, make_maybe_op<T>(op),
                                           maybe_transform<T, identity_transform>{}, d_total, scratch, stream));
          DTL_TRY(read_back(&total, d_total, 1, stream));
        }
        total.present = 1;
      }
      return {};
    }();
    std::vector<maybe<T>> all(static_cast<std::size_t>(ctx.size()));
    DTL_TRY(allgather_host(ctx, &total, all.data(), sizeof(total), totalled));
    all.resize(static_cast<std::size_t>(ctx.rank()));  // the blocks before this one
    DTL_ASSIGN_OR_RETURN(const T prefix, fold_on_device(all, init, op, scratch, stream));
    if (n == 0) return {};
    if constexpr (Inclusive) {
      DTL_TRY(device::apply_prefix(out, n, prefix, op, stream));
    } else {
      DTL_TRY(device::exclusive_scan(in, out, n, prefix, op, scratch, stream));
    }
    DTL_HIP_TRY(hipStreamSynchronize(stream));
    return {};
  };
  return to_outcome<Pol, void>(compute());
}

#else  // no kernel compiler: say so where it matters, at compile time

template <class...>
inline constexpr bool needs_kernel_compiler_v = false;
#define DTL_CONTAINERS_NEEDS_KERNEL_COMPILER(name)                                                                \
  template <class... Args>                                                                                        \
  auto name(Args&&...) {                                                                                          \
    static_assert(needs_kernel_compiler_v<Args...>,                                                               \
                  "dtl::" #name " on a device placement launches kernels for your function: compile this file "  \
                  "with the kernel compiler (hipcc or nvcc, through dtl-hip-kc; see docs/containers.md)");       \
    return result<void>();                                                                                        \
  }
DTL_CONTAINERS_NEEDS_KERNEL_COMPILER(iota)
DTL_CONTAINERS_NEEDS_KERNEL_COMPILER(for_each)
DTL_CONTAINERS_NEEDS_KERNEL_COMPILER(for_each_indexed)
DTL_CONTAINERS_NEEDS_KERNEL_COMPILER(transform)
DTL_CONTAINERS_NEEDS_KERNEL_COMPILER(transform2)
DTL_CONTAINERS_NEEDS_KERNEL_COMPILER(reduce)
#undef DTL_CONTAINERS_NEEDS_KERNEL_COMPILER
template <bool Inclusive, class... Args>
auto scan(Args&&...) {
  static_assert(needs_kernel_compiler_v<Args...>,
                "dtl::inclusive_scan / exclusive_scan on a device placement launches kernels: compile this file "
                "with the kernel compiler (hipcc or nvcc, through dtl-hip-kc; see docs/containers.md)");
  return result<void>();
}
#if !DTL_CONTAINERS_HAS_HIP
template <class... Args>
auto fill(Args&&...) {
  static_assert(needs_kernel_compiler_v<Args...>, "device placements need DTL built with HIP");
  return result<void>();
}
template <class... Args>
auto copy(Args&&...) {
  static_assert(needs_kernel_compiler_v<Args...>, "device placements need DTL built with HIP");
  return result<void>();
}
#endif

#endif

}  // namespace dtl::detail::device_algo

// SPDX-License-Identifier: MIT
#pragma once
// The device bodies of the reductions (algorithms/reduce.hpp): reduce and transform_reduce of one
// vector, and of two (transform_reduce of two, inner_product, dot). Not for users. Kernel compiler only
// (algorithms/device/support.hpp); elsewhere they are declared only to explain that at compile time.

#include <dtl/containers/algorithms/device/support.hpp>

#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

namespace dtl::detail::device {

#if DTL_CONTAINERS_DEVICE_ALGORITHMS

/// What a reduction folds: one rank's block, each element x taken as f(x). (A source of two blocks,
/// taken as f(a[i], b[i]), is pair_source, below.)
template <class In>
struct block_source {
  const In* data;
  std::size_t n;
  template <class T, class Op, class F>
  status fold(const T& init, Op op, F f, T* d_out, gpu::device_scratch& scratch, hipStream_t stream) const {
    if constexpr (std::is_same_v<F, identity_transform>)
      return gpu::reduce(data, n, init, op, d_out, scratch, stream);
    else
      return gpu::transform_reduce(data, n, init, op, f, d_out, scratch, stream);
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
  gpu::device_scratch& scratch = *session->scratch;
  const bool has_global = scope == reduce_scope::all || (scope == reduce_scope::root && ctx.rank() == root);
  const bool single_rank = ctx.size() == 1;

  // Where the ranks need not meet on the device (one rank, a local fold, or MPI, where the host waits
  // anyway because MPI reads host memory), the fold writes its value straight into a pinned slot: one
  // kernel, no copy. Between ranks over MPI that value then crosses in the host collective's agreement
  // step, one MPI call, as a hand-written HIP + MPI code does. Over RCCL/NCCL the partials meet on the
  // stream, in device memory.
  const bool on_host_side =
      single_rank || scope == reduce_scope::local || ctx.device_collective_path() != collective_path::nccl;
  if constexpr (is_native_reduction_v<Op, T>) {
    constexpr auto native = *native_reduction_of<Op, T>();
    if (on_host_side) {
      void* slot = nullptr;
      const status folded = [&]() -> status {
        DTL_ASSIGN_OR_RETURN(slot, lane->take_slot());
        DTL_ASSIGN_OR_RETURN(void* d_slot, lane->device_address(slot));
        return source.fold(native.identity, op, f, static_cast<T*>(d_slot), scratch, stream);
      }();
      auto finish = [lane, slot, init, op, has_global, identity = native.identity](result<void> done) -> result<R> {
        T local = identity;
        if (slot != nullptr) {
          std::memcpy(&local, slot, sizeof local);
          lane->give_back(slot);
        }
        if (!done) return std::move(done).error();
        return R{op(init, local), has_global ? op(init, local) : T{}, has_global};
      };
      if (single_rank || scope == reduce_scope::local) {
        if (!folded.ok()) {
          if (slot != nullptr) lane->give_back(slot);
          return failed_outcome<Pol, R>(folded);
        }
        session->lock.unlock();  // the stream orders the rest; finish() only reads the pinned slot
        return outcome_on_stream<Pol>(*lane, stream, std::move(finish));
      }
      auto compute = [&]() -> result<R> {
        status local = folded;
        if (local.ok())
          if (result<void> w = wait_for_stream(*lane, stream); !w) local = std::move(w).error();
        session->lock.unlock();  // the lane is free while the ranks combine
        T values[2] = {native.identity, native.identity};
        if (local.ok()) std::memcpy(&values[0], slot, sizeof(T));
        if (slot != nullptr) lane->give_back(slot);
        DTL_TRY(reduce_host(ctx, &values[0], &values[1], 1, datatype_of<T>(), native.op,
                            scope == reduce_scope::all ? -1 : root, local));
        return R{op(init, values[0]), has_global ? op(init, values[1]) : T{}, has_global};
      };
      return to_outcome<Pol, R>(compute());
    }
    // The partials meet in a native collective on the stream (RCCL/NCCL), without the host.
    auto enqueue = [&]() -> result<void*> {
      T* d_local = nullptr;
      const status folded = [&]() -> status {
        DTL_ASSIGN_OR_RETURN(void* slot, scratch.result_slot(2 * sizeof(T)));
        d_local = static_cast<T*>(slot);
        return source.fold(native.identity, op, f, d_local, scratch, stream);
      }();
      auto done = scope == reduce_scope::all ? allreduce_on_stream(ctx, d_local, d_local + 1, 1, datatype_of<T>(),
                                                                   native.op, hip::stream_ref(stream), folded)
                                             : reduce_on_stream(ctx, d_local, d_local + 1, 1, datatype_of<T>(),
                                                                native.op, root, hip::stream_ref(stream), folded);
      if (!done.query().is_pending()) DTL_TRY(done.get_result());  // the agreed failure, or one the MPI path found
      DTL_ASSIGN_OR_RETURN(void* pinned, lane->take_slot());
      if (const hipError_t e = hipMemcpyAsync(pinned, d_local, 2 * sizeof(T), hipMemcpyDeviceToHost, stream);
          e != hipSuccess) {
        lane->give_back(pinned);
        return hip::to_status(e, "hipMemcpyAsync of a reduction's result");
      }
      return pinned;
    };
    auto pinned = enqueue();
    if (!pinned) return failed_outcome<Pol, R>(std::move(pinned).error());
    // Reads the result once the stream has reached it, and always returns the pinned slot.
    auto finish = [lane, slot = *pinned, init, op, has_global](result<void> done) -> result<R> {
      T values[2];
      std::memcpy(values, slot, sizeof values);
      lane->give_back(slot);
      if (!done) return std::move(done).error();
      return R{op(init, values[0]), has_global ? op(init, values[1]) : T{}, has_global};
    };
    session->lock.unlock();  // the stream orders the rest; finish() only reads the pinned slot
    return outcome_on_stream<Pol>(*lane, stream, std::move(finish));
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
                            maybe_transform<T, gpu::device_callable_t<F>>{gpu::to_device(f)}, d_mine, scratch, stream));
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

/// f(a[i], b[i]) in R.
template <class R, class A, class B, class F>
struct pair_at {
  const A* a;
  const B* b;
  F f;
  DTL_DEVICE_EXEC_CHECK_DISABLE
  __host__ __device__ R operator()(std::size_t i) const { return static_cast<R>(f(a[i], b[i])); }
};

/// Two blocks of one length, the pair i taken as f(a[i], b[i]): a source for reduce_source.
template <class A, class B>
struct pair_source {
  const A* a;
  const B* b;
  std::size_t n;
  template <class T, class Op, class F>
  status fold(const T& init, Op op, F f, T* d_out, gpu::device_scratch& scratch, hipStream_t stream) const {
    if (n != 0 && (a == nullptr || b == nullptr))
      return status(status_code::null_pointer, "device reduction of two vectors: null pointer for a non-empty block");
    using at = pair_at<T, A, B, gpu::device_callable_t<F>>;
    return gpu::transform_reduce_indexed(n, init, op, at{a, b, gpu::to_device(f)}, d_out, scratch, stream);
  }
};

/// init op f(a[i], b[i]) over every rank's pairs, on every rank (reduce's paths: a native operator
/// combines on the stream, any other one through an allgather).
template <class Policy, class A, class B, class T, class Op, class F>
auto reduce_pairs(const Policy& policy, const context& ctx, int device, const A* a, const B* b, std::size_t n,
                  const T& init, Op op, F f) {
  return reduce_source(policy, ctx, device, pair_source<A, B>{a, b, n}, init, op, f, reduce_scope::all, 0);
}

#else  // no kernel compiler: say so where it matters, at compile time

template <class... Args>
auto reduce(Args&&...) {
  static_assert(needs_kernel_compiler_v<Args...>,
                "dtl::reduce on a device placement launches kernels for your function: compile this file "
                "with the kernel compiler (hipcc or nvcc, through dtl-hip-kc; see docs/containers.md)");
  return result<void>();
}
template <class... Args>
auto reduce_pairs(Args&&...) {
  static_assert(needs_kernel_compiler_v<Args...>,
                "dtl::transform_reduce / inner_product / dot of device vectors launch kernels for your functions: "
                "compile this file with the kernel compiler (hipcc or nvcc, through dtl-hip-kc; see "
                "docs/containers.md)");
  return result<void>();
}
#endif

}  // namespace dtl::detail::device

#pragma once
// The device side of the algorithms that fold over indices (algorithms/detail/indexed_fold.hpp): the
// reduction of two vectors (transform_reduce of two, inner_product, dot) and the searches (find, all_of,
// min_element, ...). Not for users. Each is one pass over the block (CUB / rocPRIM over a counting
// iterator: device::transform_reduce_indexed), then the ranks combine. Kernel compiler only, as
// device/algorithms.hpp says; elsewhere they are declared only to explain that at compile time.

#include <dtl/containers/algorithms/detail/indexed_fold.hpp>
#include <dtl/containers/device/algorithms.hpp>

#include <cstddef>
#include <vector>

namespace dtl::detail::device_algo {

#if DTL_CONTAINERS_DEVICE_ALGORITHMS

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
  status fold(const T& init, Op op, F f, T* d_out, device::device_scratch& scratch, hipStream_t stream) const {
    if (n != 0 && (a == nullptr || b == nullptr))
      return status(status_code::null_pointer, "device reduction of two vectors: null pointer for a non-empty block");
    using at = pair_at<T, A, B, device::device_callable_t<F>>;
    return device::transform_reduce_indexed(n, init, op, at{a, b, device::to_device(f)}, d_out, scratch, stream);
  }
};

/// init op f(a[i], b[i]) over every rank's pairs, on every rank (reduce's paths: a native operator
/// combines on the stream, any other one through an allgather).
template <class Policy, class A, class B, class T, class Op, class F>
auto reduce_pairs(const Policy& policy, const context& ctx, int device, const A* a, const B* b, std::size_t n,
                  const T& init, Op op, F f) {
  return reduce_source(policy, ctx, device, pair_source<A, B>{a, b, n}, init, op, f, reduce_scope::all, 0);
}

/// The fold with op of at(i) over this rank's n indices, then over the ranks (candidates of every rank,
/// gathered, folded on the device: op may call device-only functions). Blocking under every policy.
template <class Policy, class C, class Op, class At>
result<C> locate(const Policy& policy, const context& ctx, int device, std::size_t n, const C& none, Op op, At at,
                 const char* what) {
  auto agreed = [&](const status& local) { return agree_before(true, ctx, local, what); };
  auto session = enter_lane(policy, ctx, device);
  if (!session) return agreed(session.error());
  const hipStream_t stream = session->stream;
  device::device_scratch& scratch = *session->scratch;
  C mine = none;
  DTL_TRY(agreed([&]() -> status {
    DTL_ASSIGN_OR_RETURN(void* slot, scratch.result_slot(sizeof(C)));
    C* d_mine = static_cast<C*>(slot);
    DTL_TRY(device::transform_reduce_indexed(n, none, op, at, d_mine, scratch, stream));
    return read_back(&mine, d_mine, 1, stream);
  }()));
  if (ctx.size() == 1) return mine;
  std::vector<C> all(static_cast<std::size_t>(ctx.size()));
  DTL_TRY(allgather_host(ctx, &mine, all.data(), sizeof(C)));
  DTL_ASSIGN_OR_RETURN(void* slot, scratch.result_slot(sizeof(C) * (all.size() + 1)));
  C* d_out = static_cast<C*>(slot);
  C* d_all = d_out + 1;
  DTL_HIP_TRY(hipMemcpyAsync(d_all, all.data(), all.size() * sizeof(C), hipMemcpyHostToDevice, stream));
  DTL_TRY(device::reduce(d_all, all.size(), none, op, d_out, scratch, stream));
  C out = none;
  DTL_TRY(read_back(&out, d_out, 1, stream));
  return out;
}

#else  // no kernel compiler: say so where it matters, at compile time

template <class... Args>
auto reduce_pairs(Args&&...) {
  static_assert(needs_kernel_compiler_v<Args...>,
                "dtl::transform_reduce / inner_product / dot of device vectors launch kernels for your functions: "
                "compile this file with the kernel compiler (hipcc or nvcc, through dtl-hip-kc; see "
                "docs/containers.md)");
  return result<void>();
}
template <class Policy, class C, class... Rest>
result<C> locate(const Policy&, const context&, int, std::size_t, const C&, Rest&&...) {
  static_assert(needs_kernel_compiler_v<Policy, C, Rest...>,
                "dtl::find / all_of / min_element and their kin on device vectors launch kernels: compile this "
                "file with the kernel compiler (hipcc or nvcc, through dtl-hip-kc; see docs/containers.md)");
  return result<C>(status(status_code::invalid_state, "no kernel compiler"));
}

#endif

}  // namespace dtl::detail::device_algo

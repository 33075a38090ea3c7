// SPDX-License-Identifier: MIT
#pragma once
// The device primitives under dtl-containers' algorithms: raw device pointers, one stream.
// CUB (NVIDIA) or rocPRIM (AMD) where they have the primitive (transform, reduce, transform_reduce,
// scans), grid-stride kernels for the rest (fill, iota, for_each, for_each_indexed, apply_prefix) and for
// a small transform.
//
// Rules shared by every function here:
// - The work is enqueued on `stream` and not waited for. The caller has made the stream's device
//   current; it stays current (nothing here changes the device).
// - Failures come back as a dtl::status: HIP errors through dtl::hip::to_status, a launch's error read
//   right after the launch, a null pointer with n > 0 as null_pointer. n == 0 launches nothing and
//   succeeds (reduce and transform_reduce still write `init` to the result, the fold of no elements).
// - Pointers are device memory of the current device (or memory it can access). Where the input and
//   the output may be the same (transform, the scans), they are either the same or do not overlap.
// - Operators: __device__ or __host__ __device__ lambdas (nvcc needs --extended-lambda, which dtl-hip-kc
//   passes), function objects with a const __host__ __device__ (or __device__) call operator,
//   dtl::reduce_min / reduce_max (<dtl/containers/algorithms/ops.hpp>), std::plus and std::multiplies. Operators
//   of reductions and scans must be associative; they are applied in no particular order.
// - The functions that take a device_scratch take their temporary storage from it: it must belong to
//   the current device and to `stream`. Its growth may wait for the stream (scratch.hpp).
//
// A translation unit that includes this header is compiled by the kernel compiler (dtl-hip-kc).

#include <dtl/containers/gpu/element_fold.hpp>
#include <dtl/containers/gpu/kernels.hpp>
#include <dtl/containers/gpu/ops.hpp>
#include <dtl/containers/gpu/platform.hpp>
#include <dtl/containers/gpu/scratch.hpp>
#include <dtl/containers/gpu/single_pass_reduce.hpp>
#include <dtl/core/placement.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/try.hpp>
#include <dtl/hip/error.hpp>

#include <cstddef>
#include <string>
#include <type_traits>

namespace dtl::detail::gpu {

namespace primitives_detail {

[[nodiscard]] inline status null_pointer(const char* what) {
  return status(status_code::null_pointer, std::string(what) + ": null pointer for a non-empty range");
}

/// The scratch must serve the current device and this stream.
[[nodiscard]] inline status check_scratch(const device_scratch& scratch, hipStream_t stream, const char* what) {
  int device = no_device;
  DTL_HIP_TRY(hipGetDevice(&device));
  if (scratch.device() != device || scratch.stream() != stream) {
    return status(status_code::invalid_argument, std::string(what) + ": a device_scratch of device " +
                                                     std::to_string(scratch.device()) +
                                                     (scratch.stream() == stream ? "" : " and another stream") +
                                                     " used on device " + std::to_string(device));
  }
  return {};
}

/// Runs a CUB/rocPRIM call that takes temporary storage: asks it how much it needs (temp == nullptr),
/// takes that from the scratch, and runs it.
template <class Call>
[[nodiscard]] status with_temporary_storage(const char* what, device_scratch& scratch, hipStream_t stream,
                                            Call&& call) {
  DTL_TRY(check_scratch(scratch, stream, what));
  std::size_t bytes = 0;
  if (const hipError_t e = call(nullptr, bytes); e != hipSuccess) {
    return hip::to_status(e, std::string(what) + " (asking for its temporary storage size)");
  }
  DTL_ASSIGN_OR_RETURN(void* temp, scratch.reserve(bytes));
  if (const hipError_t e = call(temp, bytes); e != hipSuccess) return hip::to_status(e, what);
  return {};
}

/// in[i], and f(in[i]), as index operators of a single-pass reduction.
template <class T, class In>
struct element_at {
  const In* in;
  __host__ __device__ T operator()(std::size_t i) const { return static_cast<T>(in[i]); }
};
template <class T, class In, class F>
struct transformed_at {
  const In* in;
  F f;
  DTL_DEVICE_EXEC_CHECK_DISABLE
  __host__ __device__ T operator()(std::size_t i) const { return f(in[i]); }
};

/// Where the vendor's reduce is faster than one kernel of ours: composite values (an extreme with its
/// index) over many elements, where its vector loads beat our scalar ones (measured: 0.93 of CUB at 1 GiB).
/// The searches over numbers read 16 bytes a load themselves (fold_elements).
inline constexpr std::size_t vendor_reduce_from = std::size_t{1} << 22;

/// The reductions below: one kernel where the value allows it (single_pass_reduce.hpp), else the vendor's.
/// `vendor` is a generic lambda, so that for numbers, which always take our kernel, the vendor's reduce is
/// never instantiated (its kernels would only cost compile time).
template <class T, class ReduceOp, class IndexOp, class Vendor>
[[nodiscard]] status reduce_with(std::size_t n, const T& init, ReduceOp reduce_op, IndexOp index_op, T* d_result,
                                 device_scratch& scratch, hipStream_t stream, const char* what, Vendor&& vendor) {
  auto ours = [&]() -> status {
    DTL_TRY(check_scratch(scratch, stream, what));
    return single_pass_reduce(n, init, reduce_op, index_op, d_result, scratch, stream, what);
  };
  if constexpr (std::is_arithmetic_v<T>) {
    return ours();
  } else {
    if constexpr (single_pass_reducible_v<T>) {
      if (n < vendor_reduce_from) return ours();
    }
    return with_temporary_storage(what, scratch, stream, vendor);
  }
}

}  // namespace primitives_detail

/// data[i] = value for i in [0, n). 16-byte stores for types of 4 or 8 bytes.
template <class T>
[[nodiscard]] status fill(T* data, std::size_t n, const T& value, hipStream_t stream) {
  if (n == 0) return {};
  if (data == nullptr) return primitives_detail::null_pointer("device fill");
  fill_generator<T> gen{value, {}};
  if constexpr (vectorisable_v<T>) {
    T copies[16 / sizeof(T)];
    for (T& c : copies) c = value;
    gen.pattern = gpu::pack16<T>(copies);
  }
  return gpu::launch_generate(data, n, gen, stream, "device fill kernel launch");
}

/// data[i] = first + T(i) for i in [0, n).
template <class T>
[[nodiscard]] status iota(T* data, std::size_t n, const T& first, hipStream_t stream) {
  if (n == 0) return {};
  if (data == nullptr) return primitives_detail::null_pointer("device iota");
  return gpu::launch_generate(data, n, iota_generator<T>{first}, stream, "device iota kernel launch");
}

/// f(data[i]) for i in [0, n); f takes T&.
template <class T, class F>
[[nodiscard]] status for_each(T* data, std::size_t n, F f, hipStream_t stream) {
  if (n == 0) return {};
  if (data == nullptr) return primitives_detail::null_pointer("device for_each");
  return gpu::launch_each(n, for_each_body<T, F>{data, f}, stream, "device for_each kernel launch");
}

/// f(first_index + i, data[i]) for i in [0, n): the index is global when first_index is the offset of
/// this block of elements.
template <class T, class F>
[[nodiscard]] status for_each_indexed(T* data, std::size_t n, std::size_t first_index, F f, hipStream_t stream) {
  if (n == 0) return {};
  if (data == nullptr) return primitives_detail::null_pointer("device for_each_indexed");
  return gpu::launch_each(n, for_each_indexed_body<T, F>{data, first_index, f}, stream,
                          "device for_each_indexed kernel launch");
}

/// Up to this many elements a transform runs the grid-stride kernel (kernels.hpp), past it the library's.
/// A transform this small is bound by its launch, and CUB's DeviceTransform spends more host time per
/// call choosing its algorithm than that launch costs: on the H100, dtl::transform of 2^16 doubles took
/// 0.35-0.55 us more than dtl::for_each (this kernel) in the same run. Large ones keep the library's
/// bandwidth.
inline constexpr std::size_t small_transform_elements = std::size_t{1} << 17;

/// out[i] = f(in[i]) for i in [0, n). in == out is allowed.
template <class In, class Out, class F>
[[nodiscard]] status transform(const In* in, Out* out, std::size_t n, F f, hipStream_t stream) {
  if (n == 0) return {};
  if (in == nullptr || out == nullptr) return primitives_detail::null_pointer("device transform");
  if (n <= small_transform_elements) {
    using Body = transform_body<In, Out, decltype(gpu::returns<Out>(f))>;
    return gpu::launch_each(n, Body{in, out, gpu::returns<Out>(f)}, stream, "device transform kernel launch");
  }
  return hip::to_status(backend::transform(in, out, n, gpu::returns<Out>(f), stream), "device transform");
}

/// out[i] = f(a[i], b[i]) for i in [0, n). out may be a or b.
template <class A, class B, class Out, class F>
[[nodiscard]] status transform(const A* a, const B* b, Out* out, std::size_t n, F f, hipStream_t stream) {
  if (n == 0) return {};
  if (a == nullptr || b == nullptr || out == nullptr) return primitives_detail::null_pointer("device transform");
  if (n <= small_transform_elements) {
    using Body = transform2_body<A, B, Out, decltype(gpu::returns<Out>(f))>;
    return gpu::launch_each(n, Body{a, b, out, gpu::returns<Out>(f)}, stream,
                            "device transform (binary) kernel launch");
  }
  return hip::to_status(backend::transform(a, b, out, n, gpu::returns<Out>(f), stream), "device transform (binary)");
}

/// *d_result (device memory) = op-fold of init and in[0..n). With n == 0: init.
template <class T, class Op>
[[nodiscard]] status reduce(const T* in, std::size_t n, const T& init, Op op, T* d_result, device_scratch& scratch,
                            hipStream_t stream) {
  if (d_result == nullptr) return primitives_detail::null_pointer("device reduce (result)");
  if (n == 0) return gpu::fill(d_result, 1, init, stream);
  if (in == nullptr) return primitives_detail::null_pointer("device reduce");
  const auto reduce_op = gpu::returns<T>(op);
  return primitives_detail::reduce_with(n, init, reduce_op, primitives_detail::element_at<T, T>{in}, d_result, scratch,
                                        stream, "device reduce", [&](auto temp, std::size_t& bytes) {
                                          return backend::reduce(static_cast<void*>(temp), bytes, in, n, init,
                                                                 reduce_op, d_result, stream);
                                        });
}

/// *d_result (device memory) = reduce_op-fold of init and transform_op(in[i]) for i in [0, n), in T.
/// With n == 0: init.
template <class In, class T, class ReduceOp, class TransformOp>
[[nodiscard]] status transform_reduce(const In* in, std::size_t n, const T& init, ReduceOp reduce_op,
                                      TransformOp transform_op, T* d_result, device_scratch& scratch,
                                      hipStream_t stream) {
  if (d_result == nullptr) return primitives_detail::null_pointer("device transform_reduce (result)");
  if (n == 0) return gpu::fill(d_result, 1, init, stream);
  if (in == nullptr) return primitives_detail::null_pointer("device transform_reduce");
  const auto reduce_fn = gpu::returns<T>(reduce_op);
  const auto transform_fn = gpu::returns<T>(transform_op);
  return primitives_detail::reduce_with(
      n, init, reduce_fn, primitives_detail::transformed_at<T, In, decltype(transform_fn)>{in, transform_fn}, d_result,
      scratch, stream, "device transform_reduce", [&](auto temp, std::size_t& bytes) {
        return backend::transform_reduce(static_cast<void*>(temp), bytes, in, n, init, reduce_fn, transform_fn,
                                         d_result, stream);
      });
}

/// out[i] = in[0] op in[1] op ... op in[i]. in == out is allowed.
template <class T, class Op>
[[nodiscard]] status inclusive_scan(const T* in, T* out, std::size_t n, Op op, device_scratch& scratch,
                                    hipStream_t stream) {
  if (n == 0) return {};
  if (in == nullptr || out == nullptr) return primitives_detail::null_pointer("device inclusive_scan");
  const auto scan_op = gpu::returns<T>(op);
  return primitives_detail::with_temporary_storage(
      "device inclusive_scan", scratch, stream, [&](void* temp, std::size_t& bytes) {
        return backend::inclusive_scan(temp, bytes, in, out, n, scan_op, stream);
      });
}

/// out[0] = init, out[i] = init op in[0] op ... op in[i - 1]. in == out is allowed.
template <class T, class Op>
[[nodiscard]] status exclusive_scan(const T* in, T* out, std::size_t n, const T& init, Op op, device_scratch& scratch,
                                    hipStream_t stream) {
  if (n == 0) return {};
  if (in == nullptr || out == nullptr) return primitives_detail::null_pointer("device exclusive_scan");
  const auto scan_op = gpu::returns<T>(op);
  if (in != out || n <= backend::exclusive_scan_in_place_limit) {
    return primitives_detail::with_temporary_storage(
        "device exclusive_scan", scratch, stream, [&](void* temp, std::size_t& bytes) {
          return backend::exclusive_scan(temp, bytes, in, out, n, init, scan_op, stream);
        });
  }
  // The library cannot scan this many elements in place (backend_*.hpp): scan from a copy of
  // the input, kept at the front of the temporary storage.
  constexpr std::size_t align = 256;
  const std::size_t copy_bytes = (n * sizeof(T) + align - 1) / align * align;
  return primitives_detail::with_temporary_storage(
      "device exclusive_scan (in place, from a copy)", scratch, stream, [&](void* temp, std::size_t& bytes) {
        if (temp == nullptr) {
          const hipError_t e = backend::exclusive_scan(nullptr, bytes, in, out, n, init, scan_op, stream);
          bytes += copy_bytes;
          return e;
        }
        T* copy = static_cast<T*>(temp);
        std::size_t scan_bytes = bytes - copy_bytes;
        if (const hipError_t e = hipMemcpyAsync(copy, in, n * sizeof(T), hipMemcpyDeviceToDevice, stream);
            e != hipSuccess) {
          return e;
        }
        return backend::exclusive_scan(static_cast<unsigned char*>(temp) + copy_bytes, scan_bytes, copy, out, n, init,
                                       scan_op, stream);
      });
}

/// data[i] = op(prefix, data[i]) for i in [0, n): adds the carry of the blocks before this one to a
/// block's scan.
template <class T, class Op>
[[nodiscard]] status apply_prefix(T* data, std::size_t n, const T& prefix, Op op, hipStream_t stream) {
  if (n == 0) return {};
  if (data == nullptr) return primitives_detail::null_pointer("device apply_prefix");
  using device_op = device_callable_t<Op>;
  return gpu::launch_each(n, apply_prefix_body<T, device_op>{data, prefix, gpu::to_device(op)}, stream,
                          "device apply_prefix kernel launch");
}

/// *d_result (device memory) = reduce_op-fold of init and index_op(i) for i in [0, n), in T: one pass
/// over what index_op reads (two vectors for a dot product, an element and its index for find and
/// min_element). index_op takes a std::size_t. With n == 0: init.
template <class T, class ReduceOp, class IndexOp>
[[nodiscard]] status transform_reduce_indexed(std::size_t n, const T& init, ReduceOp reduce_op, IndexOp index_op,
                                              T* d_result, device_scratch& scratch, hipStream_t stream) {
  if (d_result == nullptr) return primitives_detail::null_pointer("device transform_reduce_indexed (result)");
  if (n == 0) return gpu::fill(d_result, 1, init, stream);
  const auto reduce_fn = gpu::returns<T>(reduce_op);
  const auto index_fn = gpu::returns<T>(index_op);
  return primitives_detail::reduce_with(n, init, reduce_fn, index_fn, d_result, scratch, stream,
                                        "device transform_reduce_indexed", [&](auto temp, std::size_t& bytes) {
                                          return backend::transform_reduce_indexed(static_cast<void*>(temp), bytes, n,
                                                                                   init, reduce_fn, index_fn, d_result,
                                                                                   stream);
                                        });
}

/// *d_result (device memory) = the fold with reduce_op of none and of.of(in[i], i) for i in [0, n), in
/// C, reading the numbers 16 bytes at a time (element_fold.hpp: reduce_op associative and commutative,
/// none its identity). With n == 0: none.
template <class T, class C, class ReduceOp, class Of>
[[nodiscard]] status fold_elements(const T* in, std::size_t n, const C& none, ReduceOp reduce_op, const Of& of,
                                   C* d_result, device_scratch& scratch, hipStream_t stream) {
  if (d_result == nullptr) return primitives_detail::null_pointer("device fold_elements (result)");
  if (n == 0) return gpu::fill(d_result, 1, none, stream);
  if (in == nullptr) return primitives_detail::null_pointer("device fold_elements");
  DTL_TRY(primitives_detail::check_scratch(scratch, stream, "device fold_elements"));
  return element_fold(in, n, none, gpu::returns<C>(reduce_op), of, d_result, scratch, stream,
                      "device fold_elements kernel launch");
}

// --- sorting (the distributed sort, algorithms/sort.hpp) ---

namespace primitives_detail {

inline constexpr std::size_t sort_align = 256;
[[nodiscard]] inline std::size_t aligned(std::size_t bytes) noexcept {
  return (bytes + sort_align - 1) / sort_align * sort_align;
}

/// Runs a sort that needs `buffer_bytes` of alternate buffers besides its temporary storage: asks it for
/// its temporary storage, takes both from the scratch in one reservation (so that repeated sorts of
/// one size allocate nothing), and runs call(buffers, temp, temp_bytes).
template <class Call>
[[nodiscard]] status with_buffers_and_storage(const char* what, device_scratch& scratch, hipStream_t stream,
                                              std::size_t buffer_bytes, Call&& call) {
  DTL_TRY(check_scratch(scratch, stream, what));
  std::size_t bytes = 0;
  if (const hipError_t e = call(nullptr, nullptr, bytes); e != hipSuccess) {
    return hip::to_status(e, std::string(what) + " (asking for its temporary storage size)");
  }
  DTL_ASSIGN_OR_RETURN(void* base, scratch.reserve(buffer_bytes + bytes));
  auto* buffers = static_cast<unsigned char*>(base);
  if (const hipError_t e = call(buffers, buffers + buffer_bytes, bytes); e != hipSuccess)
    return hip::to_status(e, what);
  return {};
}

}  // namespace primitives_detail

/// Sorts keys[0, n) in place by radix (ascending, or descending), with values[0, n) moved alongside
/// when values is not null. Stable. Takes n keys (and values) of alternate buffers plus the library's
/// temporary storage from the scratch.
template <class K, class V = unsigned char>
[[nodiscard]] status radix_sort(K* keys, V* values, std::size_t n, bool descending, device_scratch& scratch,
                                hipStream_t stream) {
  if (n <= 1) return {};
  if (keys == nullptr) return primitives_detail::null_pointer("device radix sort");
  const std::size_t key_bytes = primitives_detail::aligned(n * sizeof(K));
  const std::size_t value_bytes = values != nullptr ? primitives_detail::aligned(n * sizeof(V)) : 0;
  bool in_alternate = false;
  DTL_TRY(primitives_detail::with_buffers_and_storage(
      "device radix sort", scratch, stream, key_bytes + value_bytes,
      [&](unsigned char* buffers, void* temp, std::size_t& bytes) {
        K* alt_keys = reinterpret_cast<K*>(buffers);
        if (values == nullptr)
          return backend::radix_sort_keys(temp, bytes, keys, alt_keys, n, descending, in_alternate, stream);
        V* alt_values = buffers != nullptr ? reinterpret_cast<V*>(buffers + key_bytes) : nullptr;
        return backend::radix_sort_pairs(temp, bytes, keys, alt_keys, values, alt_values, n, descending, in_alternate,
                                         stream);
      }));
  if (!in_alternate) return {};
  // An odd number of passes left the result in the alternate buffers (the scratch's front).
  DTL_ASSIGN_OR_RETURN(void* base, scratch.reserve(0));
  auto* buffers = static_cast<unsigned char*>(base);
  DTL_HIP_TRY(hipMemcpyAsync(keys, buffers, n * sizeof(K), hipMemcpyDeviceToDevice, stream));
  if (values != nullptr)
    DTL_HIP_TRY(hipMemcpyAsync(values, buffers + key_bytes, n * sizeof(V), hipMemcpyDeviceToDevice, stream));
  return {};
}

/// Sorts keys[0, n) by radix (ascending, or descending), stably, with `alternate` (n keys of device
/// memory, not overlapping keys) as the other buffer and only the library's temporary storage from the
/// scratch. Nothing is copied back: `in_alternate` says where the sorted keys are (an odd number of
/// passes leaves them in `alternate`), so that the caller can adopt that buffer.
template <class K>
[[nodiscard]] status radix_sort_keys_between(K* keys, K* alternate, std::size_t n, bool descending, bool& in_alternate,
                                             device_scratch& scratch, hipStream_t stream) {
  in_alternate = false;
  if (n <= 1) return {};
  if (keys == nullptr || alternate == nullptr) return primitives_detail::null_pointer("device radix sort");
  return primitives_detail::with_temporary_storage(
      "device radix sort", scratch, stream, [&](void* temp, std::size_t& bytes) {
        return backend::radix_sort_keys(temp, bytes, keys, alternate, n, descending, in_alternate, stream);
      });
}

/// Sorts keys[0, n) in place by comp (a strict weak order, device-callable), stably, with values[0, n)
/// moved alongside when values is not null: a merge sort into alternate buffers from the scratch, then
/// copied back.
template <class K, class Comp, class V = unsigned char>
[[nodiscard]] status merge_sort(K* keys, V* values, std::size_t n, Comp comp, device_scratch& scratch,
                                hipStream_t stream) {
  if (n <= 1) return {};
  if (keys == nullptr) return primitives_detail::null_pointer("device merge sort");
  const auto less = gpu::returns<bool>(comp);
  const std::size_t key_bytes = primitives_detail::aligned(n * sizeof(K));
  const std::size_t value_bytes = values != nullptr ? primitives_detail::aligned(n * sizeof(V)) : 0;
  DTL_TRY(primitives_detail::with_buffers_and_storage(
      "device merge sort", scratch, stream, key_bytes + value_bytes,
      [&](unsigned char* buffers, void* temp, std::size_t& bytes) {
        K* out_keys = reinterpret_cast<K*>(buffers);
        if (values == nullptr) return backend::merge_sort_keys(temp, bytes, keys, out_keys, n, less, stream);
        V* out_values = buffers != nullptr ? reinterpret_cast<V*>(buffers + key_bytes) : nullptr;
        return backend::merge_sort_pairs(temp, bytes, keys, out_keys, values, out_values, n, less, stream);
      }));
  DTL_ASSIGN_OR_RETURN(void* base, scratch.reserve(0));
  auto* buffers = static_cast<unsigned char*>(base);
  DTL_HIP_TRY(hipMemcpyAsync(keys, buffers, n * sizeof(K), hipMemcpyDeviceToDevice, stream));
  if (values != nullptr)
    DTL_HIP_TRY(hipMemcpyAsync(values, buffers + key_bytes, n * sizeof(V), hipMemcpyDeviceToDevice, stream));
  return {};
}

}  // namespace dtl::detail::gpu

// SPDX-License-Identifier: MIT
#pragma once
// The hand-written kernels of the device primitives (fill, iota, for_each, apply_prefix: what CUB and
// rocPRIM leave to the user; a small transform) and their launch configuration. Grid-stride loops with std::size_t
// indices, so that any n works; a grid of as many blocks as the device holds at once.

#include <dtl/containers/gpu/platform.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/try.hpp>
#include <dtl/hip/error.hpp>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace dtl::detail::gpu {

/// Threads per block: a multiple of every wavefront size (32 on NVIDIA and AMD RDNA, 64 on AMD CDNA).
inline constexpr unsigned block_size = 256;

/// How many blocks of block_size the current device runs at once (multiprocessors x resident
/// blocks per multiprocessor). Read from the device once, then cached per device.
[[nodiscard]] inline result<unsigned> resident_blocks() {
  constexpr int cached_devices = 64;                                 // beyond that, read every time
  static std::array<std::atomic<unsigned>, cached_devices> cache{};  // 0: not read yet
  int device = 0;
  DTL_HIP_TRY(hipGetDevice(&device));
  const bool cacheable = device >= 0 && device < cached_devices;
  if (cacheable) {
    if (const unsigned known = cache[device].load(std::memory_order_relaxed); known != 0) return known;
  }
  int multiprocessors = 0;
  int threads = 0;
  DTL_HIP_TRY(hipDeviceGetAttribute(&multiprocessors, hipDeviceAttributeMultiprocessorCount, device));
  DTL_HIP_TRY(hipDeviceGetAttribute(&threads, hipDeviceAttributeMaxThreadsPerMultiProcessor, device));
  const unsigned per_multiprocessor = threads >= static_cast<int>(block_size) ? threads / block_size : 1;
  const unsigned blocks = static_cast<unsigned>(multiprocessors > 0 ? multiprocessors : 1) * per_multiprocessor;
  if (cacheable) cache[device].store(blocks, std::memory_order_relaxed);
  return blocks;
}

/// Blocks for `work` items of one thread each: no more than needed, no more than resident, at least 1.
[[nodiscard]] inline unsigned grid_for(std::size_t work, unsigned resident) noexcept {
  const std::size_t wanted = (work + block_size - 1) / block_size;
  if (wanted == 0) return 1;
  return wanted < resident ? static_cast<unsigned>(wanted) : resident;
}

/// The launch's own error, read (and cleared) right after it.
[[nodiscard]] inline status launch_status(const char* what) {
  const hipError_t e = hipGetLastError();
  if (e != hipSuccess) return hip::to_status(e, what);
  return {};
}

/// body(i) for every i in [0, n).
template <class Body>
__global__ void __launch_bounds__(block_size) each_index_kernel(std::size_t n, Body body) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    body(i);
  }
}

template <class Body>
[[nodiscard]] status launch_each(std::size_t n, const Body& body, hipStream_t stream, const char* what) {
  DTL_ASSIGN_OR_RETURN(const unsigned resident, resident_blocks());
  gpu::each_index_kernel<Body><<<grid_for(n, resident), block_size, 0, stream>>>(n, body);
  return launch_status(what);
}

// Generators: the value of element i (element), and for 4- and 8-byte types the 16 bytes holding
// elements i, i + 1, ... (vector), for the vectorised stores below.

/// 16 bytes holding the elements v[0], v[1], ... (4 or 2 of them).
template <class T>
__host__ __device__ uint4 pack16(const T (&v)[16 / sizeof(T)]) {
  std::uint32_t w[4];
  memcpy(w, v, sizeof(w));
  return make_uint4(w[0], w[1], w[2], w[3]);
}

template <class T>
struct fill_generator {
  T value;
  uint4 pattern;  // 16 bytes of copies of value (unused unless T is 4 or 8 bytes)
  __device__ T element(std::size_t) const { return value; }
  __device__ uint4 vector(std::size_t) const { return pattern; }
};

template <class T>
struct iota_generator {
  T first;
  __device__ T element(std::size_t i) const { return first + static_cast<T>(i); }
  __device__ uint4 vector(std::size_t i) const {
    T v[16 / sizeof(T)];
    for (std::size_t k = 0; k < 16 / sizeof(T); ++k) v[k] = element(i + k);
    return gpu::pack16<T>(v);
  }
};

/// data[i] = gen.element(i) for every i in [0, n), with 16-byte stores: a scalar head up to the
/// first 16-byte boundary (`head` elements), `vectors` 16-byte stores, a scalar tail.
template <class T, class Gen>
__global__ void __launch_bounds__(block_size)
    store_vectorised_kernel(T* data, std::size_t n, std::size_t head, std::size_t vectors, Gen gen) {
  constexpr std::size_t per_vector = 16 / sizeof(T);
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  uint4* body = reinterpret_cast<uint4*>(data + head);
  for (std::size_t v = thread; v < vectors; v += stride) body[v] = gen.vector(head + v * per_vector);
  const std::size_t tail = head + vectors * per_vector;  // fewer than per_vector elements follow
  if (thread < head) data[thread] = gen.element(thread);
  if (thread < n - tail) data[tail + thread] = gen.element(tail + thread);
}

/// data[i] = gen.element(i), one element per iteration (any T, any alignment).
template <class T, class Gen>
struct generate_body {
  T* data;
  Gen gen;
  __device__ void operator()(std::size_t i) const { data[i] = gen.element(i); }
};

/// 16-byte stores suit trivially copyable types of 4 or 8 bytes.
template <class T>
inline constexpr bool vectorisable_v = (sizeof(T) == 4 || sizeof(T) == 8) && std::is_trivially_copyable_v<T>;

/// data[i] = gen.element(i) for i in [0, n); vectorised where T and the alignment of data allow.
template <class T, class Gen>
[[nodiscard]] status launch_generate(T* data, std::size_t n, const Gen& gen, hipStream_t stream, const char* what) {
  const auto address = reinterpret_cast<std::uintptr_t>(data);
  if constexpr (vectorisable_v<T>) {
    if (address % sizeof(T) == 0) {
      constexpr std::size_t per_vector = 16 / sizeof(T);
      const std::size_t to_boundary = (16 - address % 16) % 16 / sizeof(T);
      const std::size_t head = to_boundary < n ? to_boundary : n;
      const std::size_t vectors = (n - head) / per_vector;
      DTL_ASSIGN_OR_RETURN(const unsigned resident, resident_blocks());
      const unsigned grid = grid_for(vectors, resident);
      gpu::store_vectorised_kernel<T, Gen><<<grid, block_size, 0, stream>>>(data, n, head, vectors, gen);
      return launch_status(what);
    }
  }
  return gpu::launch_each(n, generate_body<T, Gen>{data, gen}, stream, what);
}

template <class T, class F>
struct for_each_body {
  T* data;
  F f;
  __device__ void operator()(std::size_t i) const { f(data[i]); }
};

template <class T, class F>
struct for_each_indexed_body {
  T* data;
  std::size_t first_index;
  F f;
  __device__ void operator()(std::size_t i) const { f(first_index + i, data[i]); }
};

template <class In, class Out, class F>
struct transform_body {
  const In* in;
  Out* out;
  F f;
  __device__ void operator()(std::size_t i) const { out[i] = f(in[i]); }
};

template <class A, class B, class Out, class F>
struct transform2_body {
  const A* a;
  const B* b;
  Out* out;
  F f;
  __device__ void operator()(std::size_t i) const { out[i] = f(a[i], b[i]); }
};

template <class T, class Op>
struct apply_prefix_body {
  T* data;
  T prefix;
  Op op;
  __device__ void operator()(std::size_t i) const { data[i] = op(prefix, data[i]); }
};

}  // namespace dtl::detail::gpu

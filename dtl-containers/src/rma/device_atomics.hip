// SPDX-License-Identifier: MIT
// memory_window's atomics on device memory (device_atomics.hpp): one compare-and-swap loop per element
// on the aligned 4- or 8-byte word that holds it.
#include "rma/device_atomics.hpp"

#include <dtl/containers/gpu/kernels.hpp>
#include <dtl/hip/error.hpp>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace dtl::detail::device_atomics {

namespace {

template <class T>
__device__ T combine(T t, T o, rma_reduce_op op) {
  switch (op) {
    case rma_reduce_op::sum: return static_cast<T>(t + o);
    case rma_reduce_op::prod: return static_cast<T>(t * o);
    case rma_reduce_op::min: return o < t ? o : t;
    case rma_reduce_op::max: return t < o ? o : t;
    case rma_reduce_op::replace: return o;
    case rma_reduce_op::no_op: return t;
    default: break;
  }
  if constexpr (std::is_integral_v<T>) {
    if (op == rma_reduce_op::band) return static_cast<T>(t & o);
    if (op == rma_reduce_op::bor) return static_cast<T>(t | o);
    if (op == rma_reduce_op::bxor) return static_cast<T>(t ^ o);
  }
  return t;  // a bitwise op on floating point: refused before the transport (epoch_window.cpp)
}

/// *at = next(*at), atomically; the element that was there. T of 1, 2 or 4 bytes works on the aligned
/// 32-bit word around it, T of 8 bytes on its own word.
template <class T, class Next>
__device__ T atomic_update(T* at, Next next) {
  if constexpr (sizeof(T) == 8) {
    auto* word = reinterpret_cast<unsigned long long*>(at);
    unsigned long long seen = *word, assumed = 0;
    do {
      assumed = seen;
      T value;
      memcpy(&value, &assumed, sizeof value);
      const T updated = next(value);
      unsigned long long bits = 0;
      memcpy(&bits, &updated, sizeof bits);
      seen = atomicCAS_system(word, assumed, bits);
    } while (seen != assumed);
    T old;
    memcpy(&old, &seen, sizeof old);
    return old;
  } else {
    const auto address = reinterpret_cast<std::uintptr_t>(at);
    auto* word = reinterpret_cast<unsigned int*>(address & ~std::uintptr_t{3});
    const unsigned shift = static_cast<unsigned>(address & 3) * 8;
    constexpr unsigned mask = sizeof(T) == 4 ? 0xffffffffu : ((1u << (8 * sizeof(T))) - 1u);
    unsigned seen = *word, assumed = 0;
    do {
      assumed = seen;
      const unsigned field = (assumed >> shift) & mask;
      T value;
      memcpy(&value, &field, sizeof value);
      const T updated = next(value);
      unsigned bits = 0;
      memcpy(&bits, &updated, sizeof updated);
      seen = atomicCAS_system(word, assumed, (assumed & ~(mask << shift)) | ((bits & mask) << shift));
    } while (seen != assumed);
    const unsigned field = (seen >> shift) & mask;
    T old;
    memcpy(&old, &field, sizeof old);
    return old;
  }
}

template <class T>
struct accumulate_body {
  T* target;
  const T* origin;
  T* fetched;
  rma_reduce_op op;
  __device__ void operator()(std::size_t i) const {
    const T o = origin[i];
    const rma_reduce_op how = op;
    const T old = atomic_update(target + i, [o, how](T t) { return combine(t, o, how); });
    if (fetched != nullptr) fetched[i] = old;
  }
};

template <class T>
struct compare_and_swap_body {
  T* target;
  const T* origin;
  const T* compare;
  T* fetched;
  __device__ void operator()(std::size_t) const {
    const T o = *origin, c = *compare;
    *fetched = atomic_update(target, [o, c](T t) { return t == c ? o : t; });  // T: an unsigned integer
  }
};

template <class T>
status accumulate_as(void* target, const void* origin, void* fetched, std::size_t count, rma_reduce_op op,
                     hipStream_t stream) {
  return gpu::launch_each(
      count, accumulate_body<T>{static_cast<T*>(target), static_cast<const T*>(origin), static_cast<T*>(fetched), op},
      stream, "memory_window accumulate kernel launch");
}

template <class T>
status compare_and_swap_as(void* target, const void* origin, const void* compare, void* fetched, hipStream_t stream) {
  return gpu::launch_each(1,
                          compare_and_swap_body<T>{static_cast<T*>(target), static_cast<const T*>(origin),
                                                   static_cast<const T*>(compare), static_cast<T*>(fetched)},
                          stream, "memory_window compare_and_swap kernel launch");
}

}  // namespace

status accumulate(void* target, const void* origin, void* fetched, std::size_t count, rma_datatype type,
                  rma_reduce_op op, hipStream_t stream) {
  if (count == 0) return {};
  switch (type) {
    case rma_datatype::i8: return accumulate_as<std::int8_t>(target, origin, fetched, count, op, stream);
    case rma_datatype::u8: return accumulate_as<std::uint8_t>(target, origin, fetched, count, op, stream);
    case rma_datatype::i16: return accumulate_as<std::int16_t>(target, origin, fetched, count, op, stream);
    case rma_datatype::u16: return accumulate_as<std::uint16_t>(target, origin, fetched, count, op, stream);
    case rma_datatype::i32: return accumulate_as<std::int32_t>(target, origin, fetched, count, op, stream);
    case rma_datatype::u32: return accumulate_as<std::uint32_t>(target, origin, fetched, count, op, stream);
    case rma_datatype::f32: return accumulate_as<float>(target, origin, fetched, count, op, stream);
    case rma_datatype::i64: return accumulate_as<std::int64_t>(target, origin, fetched, count, op, stream);
    case rma_datatype::u64: return accumulate_as<std::uint64_t>(target, origin, fetched, count, op, stream);
    case rma_datatype::f64: return accumulate_as<double>(target, origin, fetched, count, op, stream);
  }
  return status(status_code::invalid_argument, "an unknown element type");
}

status compare_and_swap(void* target, const void* origin, const void* compare, void* fetched, rma_datatype type,
                        hipStream_t stream) {
  switch (datatype_size(type)) {
    case 1: return compare_and_swap_as<std::uint8_t>(target, origin, compare, fetched, stream);
    case 2: return compare_and_swap_as<std::uint16_t>(target, origin, compare, fetched, stream);
    case 4: return compare_and_swap_as<std::uint32_t>(target, origin, compare, fetched, stream);
    case 8: return compare_and_swap_as<std::uint64_t>(target, origin, compare, fetched, stream);
    default: break;
  }
  return status(status_code::invalid_argument, "compare_and_swap takes elements of 1, 2, 4 or 8 bytes");
}

}  // namespace dtl::detail::device_atomics

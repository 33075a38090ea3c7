// SPDX-License-Identifier: MIT
// Pattern fills of device memory, compiled into the library so that code built by a plain C++ compiler
// can fill device placements (constructors with a value, dtl::fill). Element sizes of 1, 2, 4, 8 and 16
// bytes use the vectorised device fill; other sizes up to 256 bytes a byte-wise kernel.
#include <dtl/containers/communication/detail/lane.hpp>
#include <dtl/containers/gpu/primitives.hpp>

#include <cstdint>
#include <cstring>
#include <string>

namespace dtl::detail {

namespace {

struct alignas(16) sixteen_bytes {
  std::uint64_t low;
  std::uint64_t high;
};

constexpr std::size_t max_pattern = fill_pattern_max_bytes;
struct pattern_bytes {
  unsigned char bytes[max_pattern];
};

__global__ void fill_bytes(unsigned char* dst, std::size_t count, pattern_bytes pattern, std::size_t size) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count * size; i += stride)
    dst[i] = pattern.bytes[i % size];
}

template <class T>
status fill_as(void* dst, std::size_t count, const void* pattern, hipStream_t stream) {
  T value;
  std::memcpy(&value, pattern, sizeof(T));
  return gpu::fill(static_cast<T*>(dst), count, value, stream);
}

}  // namespace

status fill_pattern(void* dst, std::size_t count, const void* pattern, std::size_t size, hipStream_t stream) {
  if (count == 0) return {};
  if (dst == nullptr || pattern == nullptr) return status(status_code::null_pointer, "fill_pattern: null pointer");
  switch (size) {
    case 1: return fill_as<std::uint8_t>(dst, count, pattern, stream);
    case 2: return fill_as<std::uint16_t>(dst, count, pattern, stream);
    case 4: return fill_as<std::uint32_t>(dst, count, pattern, stream);
    case 8: return fill_as<std::uint64_t>(dst, count, pattern, stream);
    case 16: return fill_as<sixteen_bytes>(dst, count, pattern, stream);
    default: break;
  }
  if (size == 0 || size > max_pattern)
    return status(status_code::not_supported,
                  "fill_pattern: elements of " + std::to_string(size) + " bytes (device fills take 1 to 256 bytes)");
  pattern_bytes p{};
  std::memcpy(p.bytes, pattern, size);
  const std::size_t total = count * size;
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((total + 255) / 256, 65535));
  hipLaunchKernelGGL(fill_bytes, dim3(blocks), dim3(256), 0, stream, static_cast<unsigned char*>(dst), count, p, size);
  return hip::to_status(hipGetLastError(), "fill_bytes kernel launch");
}

}  // namespace dtl::detail

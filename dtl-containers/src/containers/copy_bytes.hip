// SPDX-License-Identifier: MIT
// Small copies within one device's memory as a kernel, compiled into the library so that code built by a
// plain C++ compiler takes them too (dtl::copy). A small copy is bound by its host time, and
// hipMemcpyAsync costs more of it than a kernel launch; large copies keep hipMemcpyAsync.
#include <dtl/containers/communication/detail/lane.hpp>
#include <dtl/containers/gpu/kernels.hpp>

#include <cstdint>

namespace dtl::detail {

namespace {

template <class Word>
struct copy_words {
  const Word* src;
  Word* dst;
  __device__ void operator()(std::size_t i) const { dst[i] = src[i]; }
};

template <class Word>
status copy_as(void* dst, const void* src, std::size_t bytes, hipStream_t stream) {
  return gpu::launch_each(bytes / sizeof(Word),
                          copy_words<Word>{static_cast<const Word*>(src), static_cast<Word*>(dst)}, stream,
                          "device copy kernel launch");
}

}  // namespace

status copy_device_bytes(void* dst, const void* src, std::size_t bytes, hipStream_t stream) {
  if (bytes == 0) return {};
  if (dst == nullptr || src == nullptr) return status(status_code::null_pointer, "copy_device_bytes: null pointer");
  // The widest word that divides both addresses and the length.
  const std::uintptr_t all = reinterpret_cast<std::uintptr_t>(dst) | reinterpret_cast<std::uintptr_t>(src) | bytes;
  if (all % 16 == 0) return copy_as<uint4>(dst, src, bytes, stream);
  if (all % 8 == 0) return copy_as<std::uint64_t>(dst, src, bytes, stream);
  if (all % 4 == 0) return copy_as<std::uint32_t>(dst, src, bytes, stream);
  return copy_as<unsigned char>(dst, src, bytes, stream);
}

}  // namespace dtl::detail

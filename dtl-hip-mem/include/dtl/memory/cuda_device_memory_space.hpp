// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for its device memory spaces bound to one CUDA device. On HIP's NVIDIA
// platform (the only one where <dtl/cuda/device_guard.hpp> may be included) they are our
// dtl::hip::hip_memory_space under upstream's names and signatures: allocate() returns nullptr where
// ours returns a status.
//
// Our spaces know the pointers they handed out and free only those, so every upstream space of one
// device shares one hip_memory_space: what one copy (or another instance on the same device, which
// compares equal) allocates, any other may free, as upstream allows.

#include <dtl/core/memory_space.hpp>
#include <dtl/core/types.hpp>
#include <dtl/cuda/device_guard.hpp>
#include <dtl/hip/device.hpp>
#include <dtl/hip/hip_memory_space.hpp>
#include <dtl/hip/pointer.hpp>

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>

namespace dtl::cuda {

namespace detail {

/// The process's one hip_memory_space of `device`; nullptr for an id that names no device.
[[nodiscard]] inline hip::hip_memory_space* shared_device_space(int device) noexcept {
  if (device < 0 || device >= hip::device_count()) return nullptr;
  static std::mutex mutex;
  static std::map<int, std::unique_ptr<hip::hip_memory_space>> spaces;  // kept until exit: frees may come late
  const std::scoped_lock lock(mutex);
  try {
    std::unique_ptr<hip::hip_memory_space>& space = spaces[device];
    if (!space) space = std::make_unique<hip::hip_memory_space>(device);
    return space.get();
  } catch (...) {  // out of host memory: upstream's allocate answers nullptr
    return nullptr;
  }
}

[[nodiscard]] inline void* allocate_on(int device, size_type bytes) noexcept {
  hip::hip_memory_space* space = shared_device_space(device);
  if (space == nullptr) return nullptr;
  result<void*> p = space->allocate(bytes);
  return p ? *p : nullptr;
}

inline void deallocate_on(int device, void* ptr, size_type bytes) noexcept {
  if (ptr == nullptr) return;
  if (hip::hip_memory_space* space = shared_device_space(device)) space->deallocate(ptr, bytes);
}

[[nodiscard]] inline memory_space_properties properties_of(int device) noexcept {
  memory_space_properties p;
  p.host_accessible = false;
  p.device_accessible = true;
  p.pageable = false;
  p.alignment = hip::hip_memory_space::max_alignment;
  p.device_id = device;
  return p;
}

}  // namespace detail

/// Device memory on device DeviceId, whichever device is current (upstream's compile-time form).
template <int DeviceId>
class cuda_device_memory_space_for {
 public:
  using pointer = void*;
  using size_type = dtl::size_type;
  static constexpr int device_id = DeviceId;
  static constexpr bool host_accessible = false;
  static constexpr bool device_accessible = true;

  /// `size` bytes on DeviceId, or nullptr (no such device, out of memory, 0 bytes).
  [[nodiscard]] static void* allocate(size_type size) noexcept { return detail::allocate_on(DeviceId, size); }
  /// As allocate(size): device allocations are already 256-byte aligned.
  [[nodiscard]] static void* allocate(size_type size, size_type /*alignment*/) noexcept { return allocate(size); }
  static void deallocate(void* ptr, size_type size) noexcept { detail::deallocate_on(DeviceId, ptr, size); }

  [[nodiscard]] static memory_space_properties properties() noexcept { return detail::properties_of(DeviceId); }
  [[nodiscard]] static constexpr const char* name() noexcept { return "cuda_device"; }
  [[nodiscard]] static constexpr int get_device_id() noexcept { return DeviceId; }

  /// Free and total bytes of DeviceId; false when they cannot be read.
  [[nodiscard]] static bool memory_info(size_type& free_bytes, size_type& total_bytes) noexcept {
    const result<hip::memory_info> info = hip::get_memory_info(DeviceId);
    if (!info) return false;
    free_bytes = info->free;
    total_bytes = info->total;
    return true;
  }
};

/// Device memory on a device chosen at run time (upstream's runtime form). Equal when on one device.
class cuda_device_memory_space_runtime {
 public:
  using pointer = void*;
  using size_type = dtl::size_type;
  static constexpr bool host_accessible = false;
  static constexpr bool device_accessible = true;

  cuda_device_memory_space_runtime() noexcept = default;
  explicit cuda_device_memory_space_runtime(int device_id) noexcept : device_id_(device_id) {}

  [[nodiscard]] void* allocate(size_type size) const noexcept { return detail::allocate_on(device_id_, size); }
  [[nodiscard]] void* allocate(size_type size, size_type /*alignment*/) const noexcept { return allocate(size); }
  void deallocate(void* ptr, size_type size) const noexcept { detail::deallocate_on(device_id_, ptr, size); }

  [[nodiscard]] memory_space_properties properties() const noexcept { return detail::properties_of(device_id_); }
  [[nodiscard]] static constexpr const char* name() noexcept { return "cuda_device_runtime"; }
  [[nodiscard]] int get_device_id() const noexcept { return device_id_; }

  [[nodiscard]] bool operator==(const cuda_device_memory_space_runtime&) const noexcept = default;

 private:
  int device_id_ = 0;
};

/// The device `ptr` was allocated on, or invalid_device_id (host memory, or the runtime cannot say).
[[nodiscard]] inline int get_pointer_device(const void* ptr) noexcept {
  const result<hip::pointer_attributes> a = hip::query_pointer(ptr);
  return a ? a->device : invalid_device_id;
}

/// true when `ptr` is device memory (not managed, pinned or host memory).
[[nodiscard]] inline bool is_device_pointer(const void* ptr) noexcept {
  const result<hip::pointer_attributes> a = hip::query_pointer(ptr);
  return a && a->kind == hip::memory_kind::device;
}

}  // namespace dtl::cuda

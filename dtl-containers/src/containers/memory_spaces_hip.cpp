// SPDX-License-Identifier: MIT
// The process-wide memory spaces of device placements (placement_traits.hpp), one per space type and
// device (HIP builds).
#include <dtl/containers/placement_traits.hpp>
#include <dtl/core/try.hpp>
#include <dtl/hip/device.hpp>

#include <map>
#include <memory>
#include <mutex>

namespace dtl::detail {

namespace {

template <class Space>
result<std::shared_ptr<Space>> shared_space(int device) {
  static std::mutex mutex;
  static std::map<int, std::shared_ptr<Space>> spaces;
  DTL_TRY(hip::check_device(device));
  std::lock_guard lock(mutex);
  auto& space = spaces[device];
  if (!space) space = std::make_shared<Space>(device);
  return space;
}

}  // namespace

}  // namespace dtl::detail

namespace dtl {

result<std::shared_ptr<hip::hip_memory_space>> shared_device_memory_space(int device) {
  return detail::shared_space<hip::hip_memory_space>(device);
}
result<std::shared_ptr<hip::hip_managed_memory_space>> shared_managed_memory_space(int device) {
  return detail::shared_space<hip::hip_managed_memory_space>(device);
}
result<std::shared_ptr<hip::hip_device_preferred_memory_space>> shared_device_preferred_memory_space(int device) {
  return detail::shared_space<hip::hip_device_preferred_memory_space>(device);
}

}  // namespace dtl

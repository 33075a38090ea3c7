#include "platform.hpp"

#include <string>

namespace dtl::hip::platform {

#if defined(__HIP_PLATFORM_AMD__)

const char* name() noexcept { return "amd"; }

std::string arch_name(const hipDeviceProp_t& prop) { return prop.gcnArchName; }

#elif defined(__HIP_PLATFORM_NVIDIA__)

const char* name() noexcept { return "nvidia"; }

std::string arch_name(const hipDeviceProp_t& prop) {
  return "sm_" + std::to_string(prop.major) + std::to_string(prop.minor);
}

#endif

}  // namespace dtl::hip::platform

// SPDX-License-Identifier: MIT
// Linked into dtl-info in HIP builds: asks the HIP runtime (through dtl-hip-mem where it can) about the
// runtime, every device and peer access, and measures copies with --bandwidth.
#include "info.hpp"

#include <dtl/core/try.hpp>
#include <dtl/hip/device.hpp>
#include <dtl/hip/error.hpp>
#include <dtl/hip/hip_memory_space.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>
#include <dtl/hip/hip_pinned_memory_space.hpp>
#include <dtl/hip/runtime.hpp>

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string_view>
#include <utility>

namespace dtl_info {

namespace {

bool is_amd() { return std::string_view(dtl::hip::platform_name()) == "amd"; }

/// What to check when the runtime finds no device (`error`: what hipGetDeviceCount returned).
std::vector<std::string> no_device_hints(hipError_t error) {
  std::vector<std::string> hints;
  for (const char* var :
       {"HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL"}) {
    if (const char* value = std::getenv(var))
      hints.push_back(fmt::format("{}={} is set: it limits the devices this process sees", var, value));
  }
  std::error_code ec;
  if (is_amd()) {
    if (!std::filesystem::exists("/dev/kfd", ec))
      hints.push_back(
          "/dev/kfd does not exist: the amdgpu kernel driver is not loaded, or this container was "
          "started without the GPU (docker: --device=/dev/kfd --device=/dev/dri)");
    else if (::access("/dev/kfd", R_OK | W_OK) != 0)
      hints.push_back(
          "/dev/kfd is not readable and writable by this user: add the user to the 'render' and "
          "'video' groups");
    hints.push_back("rocminfo lists the GPUs the ROCm runtime sees; AMD_LOG_LEVEL=4 makes HIP explain itself");
  } else {
    if (error == hipErrorInsufficientDriver)
      hints.push_back("the NVIDIA driver is missing, or older than the CUDA runtime dtl was built with");
    if (!std::filesystem::exists("/dev/nvidiactl", ec))
      hints.push_back(
          "/dev/nvidiactl does not exist: no NVIDIA driver is loaded, or this container was "
          "started without the GPU (docker: --gpus all)");
    hints.push_back("nvidia-smi lists the GPUs and the driver version");
  }
  return hints;
}

/// A buffer from a dtl memory space, given back when it goes out of scope.
template <class Space>
struct give_back {
  Space* space;
  std::size_t bytes;
  void operator()(void* p) const noexcept { space->deallocate(p, bytes); }
};
template <class Space>
using buffer = std::unique_ptr<void, give_back<Space>>;

template <class Space>
dtl::result<buffer<Space>> allocate(Space& space, std::size_t bytes) {
  DTL_ASSIGN_OR_RETURN(void* p, space.allocate(bytes));
  return buffer<Space>(p, give_back<Space>{&space, bytes});
}

/// The best of `repeats` synchronous copies (after one warm-up copy).
bandwidth time_copy(void* dst, const void* src, std::size_t bytes, dtl::transfer_kind kind, int repeats) {
  bandwidth b;
  double best = 0.0;
  for (int i = 0; i <= repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    if (dtl::result<void> r = dtl::hip::hip_memory_transfer::copy(dst, src, bytes, kind); !r.has_value()) {
      b.error = std::move(r).error();
      return b;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (i > 0 && (best == 0.0 || seconds < best)) best = seconds;
  }
  b.gbps = best > 0.0 ? static_cast<double>(bytes) / best / 1e9 : 0.0;
  return b;
}

/// Host-to-device and device-to-host from pinned memory, and a copy within the device.
dtl::result<device_bandwidth> measure(const device_info& device) {
  constexpr std::size_t mib = std::size_t{1} << 20;
  device_bandwidth m;
  m.repeats = 5;
  m.bytes = std::max(mib, std::min(256 * mib, device.free_memory / 4 / mib * mib));  // two device buffers
  dtl::hip::hip_memory_space device_memory(device.id);
  dtl::hip::hip_pinned_memory_space pinned_memory(device.id);
  DTL_ASSIGN_OR_RETURN(auto host, allocate(pinned_memory, m.bytes));
  DTL_ASSIGN_OR_RETURN(auto a, allocate(device_memory, m.bytes));
  DTL_ASSIGN_OR_RETURN(auto b, allocate(device_memory, m.bytes));
  using dtl::transfer_kind;
  m.host_to_device = time_copy(a.get(), host.get(), m.bytes, transfer_kind::host_to_device, m.repeats);
  m.device_to_host = time_copy(host.get(), a.get(), m.bytes, transfer_kind::device_to_host, m.repeats);
  m.device_to_device = time_copy(b.get(), a.get(), m.bytes, transfer_kind::device_to_device, m.repeats);
  return m;
}

device_info describe(int id) {
  device_info d;
  d.id = id;
  dtl::result<dtl::hip::device_properties> p = dtl::hip::get_device_properties(id);
  if (!p.has_value()) {
    d.error = std::move(p).error();
    return d;
  }
  d.name = p->name;
  d.arch = p->arch;
  d.wavefront_size = p->warp_size;
  d.multiprocessors = p->multiprocessors;
  d.total_memory = p->total_memory;
  d.free_memory = p->free_memory;
  d.managed_memory = p->managed_memory;
  d.concurrent_managed_access = p->concurrent_managed_access;
  d.pageable_memory_access = p->pageable_memory_access;
  return d;
}

}  // namespace

report probe(bool bandwidth) {
  report r;
  runtime_info runtime;
  runtime.name = is_amd() ? "HIP (ROCm)" : "HIP on CUDA";
  runtime.runtime_version = dtl::hip::runtime_version().value_or(0);
  if (hipDriverGetVersion(&runtime.driver_version) != hipSuccess) {
    runtime.driver_version = 0;
    static_cast<void>(hipGetLastError());  // leave no error pending
  }
  r.runtime = runtime;

  int count = 0;
  if (const hipError_t e = hipGetDeviceCount(&count); e != hipSuccess || count <= 0) {
    if (e != hipSuccess) {
      const dtl::status s = dtl::hip::to_status(e, "hipGetDeviceCount");
      r.no_device_reason = fmt::format("hipGetDeviceCount failed: {} ({})", s.native_name(), s.native_code());
      // HIP 5.2 on AMD gives the name again as the description.
      if (const dtl::native_error* native = s.native(); native != nullptr && native->description != native->name)
        r.no_device_reason += ": " + native->description;
    } else {
      r.no_device_reason = "the HIP runtime reports 0 devices";
    }
    r.no_device_hints = no_device_hints(e);
    return r;
  }

  for (int i = 0; i < count; ++i) r.devices.push_back(describe(i));
  r.peer.assign(static_cast<std::size_t>(count), std::vector<bool>(static_cast<std::size_t>(count), false));
  for (int i = 0; i < count; ++i) {
    for (int j = 0; j < count; ++j) {
      int can = 0;
      if (i != j && hipDeviceCanAccessPeer(&can, i, j) != hipSuccess) {
        can = 0;
        static_cast<void>(hipGetLastError());
      }
      r.peer[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = can != 0;
    }
  }
  if (bandwidth) {
    for (device_info& d : r.devices) {
      if (!d.error.ok()) continue;
      dtl::result<device_bandwidth> m = measure(d);
      if (m.has_value()) {
        d.copies = std::move(*m);
      } else {
        device_bandwidth failed;
        failed.host_to_device.error = failed.device_to_host.error = failed.device_to_device.error = m.error();
        d.copies = failed;
      }
    }
  }
  return r;
}

}  // namespace dtl_info

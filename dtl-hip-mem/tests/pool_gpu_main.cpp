// Entry point of the pool's gpu tests. Meson runs them once per backing, naming it in DTL_HIP_POOL_BACKING
// (so the tests build their pools with pool_backing::automatic, and the environment path is tested too).
// Exits 77 (Meson's SKIP) without a device, or when the device cannot give that backing.
#define DOCTEST_CONFIG_IMPLEMENT
#include "doctest.hpp"

#include <dtl/hip/device.hpp>
#include <dtl/hip/hip_pool_memory_space.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  if (dtl::hip::device_count() == 0) {
    std::printf("no HIP device: skipping the gpu suite\n");
    return 77;
  }
  {
    const dtl::hip::hip_pool_memory_space probe;
    if (probe.availability() == dtl::status_code::not_supported) {
      std::printf("skipping: %s\n", probe.availability().to_string().c_str());
      return 77;
    }
    if (!probe.availability().ok()) {
      std::printf("the pool cannot allocate: %s\n", probe.availability().to_string().c_str());
      return 1;
    }
    std::printf("pool backing under test: %.*s\n", static_cast<int>(dtl::hip::pool_backing_name(probe.backing()).size()),
                dtl::hip::pool_backing_name(probe.backing()).data());
  }
  doctest::Context context(argc, argv);
  return context.run();
}

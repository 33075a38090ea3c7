// Entry point of the gpu test binaries: exit 77 (Meson's SKIP) when no HIP device is present.
#define DOCTEST_CONFIG_IMPLEMENT
#include "doctest.hpp"

#include <dtl/hip/device.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  if (dtl::hip::device_count() == 0) {
    std::printf("no HIP device: skipping the gpu suite\n");
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}

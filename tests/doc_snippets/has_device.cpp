// SPDX-License-Identifier: MIT
// Exits 0 when this machine has a HIP device and 77 (Meson's SKIP) otherwise: run_program.py asks it
// before running a documentation program that needs a GPU.
#include <dtl/hip/device.hpp>

#include <cstdio>

int main() {
  if (dtl::hip::device_count() > 0) return 0;
  std::printf("no HIP device: the program needs one\n");
  return 77;
}

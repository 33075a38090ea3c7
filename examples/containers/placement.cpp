// SPDX-License-Identifier: MIT
// The guide's "Placement Policies with HIP" lines, as a program. A plain C++ file: constructing device
// vectors needs no kernel compiler. Exits 77 without a GPU.
#include <dtl/dtl.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  if (dtl::hip::device_count() == 0) {
    std::printf("no HIP device: nothing to place\n");
    return 77;
  }
  dtl::environment env(argc, argv);
  auto ctx = env.make_world_context();

  // HIP device allocation
  dtl::distributed_vector<float, dtl::device_only<0>> vec(1000, ctx);

  // HIP unified memory
  dtl::distributed_vector<float, dtl::unified_memory> vec_unified(1000, ctx);

  std::printf("rank %d of %d: device_only<0> holds %zu of %zu floats on device %d; unified_memory %zu on device %d\n",
              ctx.rank(), ctx.size(), vec.local_size(), vec.global_size(), vec.device_id(), vec_unified.local_size(),
              vec_unified.device_id());
  return 0;
}

// SPDX-License-Identifier: MIT
// Whether the MPI library claims to take device pointers of this build's GPU platform
// (<dtl/memory/pointer_utils.hpp>: upstream's is_gpu_aware_mpi).
#include "transport/mpi_runtime.hpp"

#include <dtl/memory/pointer_utils.hpp>
#if DTL_CONTAINERS_HAS_HIP
#include <dtl/hip/runtime.hpp>
#endif

namespace dtl::detail {

bool mpi_claims_gpu_awareness() noexcept {
#if DTL_CONTAINERS_HAS_HIP
  static const bool claimed = [] {
    const mpi_runtime::gpu_awareness aware = mpi_runtime::query_gpu_awareness();
    return hip::on_nvidia ? aware.cuda : aware.rocm;
  }();
  return claimed;
#else
  return false;
#endif
}

}  // namespace dtl::detail

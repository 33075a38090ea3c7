// SPDX-License-Identifier: MIT
#include <dtl/core/status_code.hpp>

namespace dtl {

std::string_view status_code_name(status_code code) noexcept {
  switch (code) {
    // One case per name, listed as the enum groups them.
    // clang-format off
#define DTL_NAME_(c) \
  case status_code::c: return #c;
    DTL_NAME_(ok) DTL_NAME_(not_found) DTL_NAME_(end_iterator)
    DTL_NAME_(communication_error) DTL_NAME_(send_failed) DTL_NAME_(recv_failed)
    DTL_NAME_(broadcast_failed) DTL_NAME_(reduce_failed) DTL_NAME_(barrier_failed) DTL_NAME_(timeout)
    DTL_NAME_(canceled) DTL_NAME_(connection_lost) DTL_NAME_(rank_failure) DTL_NAME_(collective_failure)
    DTL_NAME_(collective_participation_error)
    DTL_NAME_(memory_error) DTL_NAME_(allocation_failed) DTL_NAME_(out_of_memory)
    DTL_NAME_(invalid_pointer) DTL_NAME_(memory_transfer_failed) DTL_NAME_(device_memory_error)
    DTL_NAME_(serialization_error) DTL_NAME_(serialize_failed) DTL_NAME_(deserialize_failed)
    DTL_NAME_(buffer_too_small) DTL_NAME_(invalid_format)
    DTL_NAME_(bounds_error) DTL_NAME_(out_of_bounds) DTL_NAME_(invalid_index) DTL_NAME_(invalid_rank)
    DTL_NAME_(dimension_mismatch) DTL_NAME_(extent_mismatch) DTL_NAME_(key_not_found)
    DTL_NAME_(out_of_range) DTL_NAME_(invalid_argument) DTL_NAME_(null_pointer) DTL_NAME_(not_supported)
    DTL_NAME_(backend_error) DTL_NAME_(backend_not_available) DTL_NAME_(backend_init_failed)
    DTL_NAME_(backend_invalid) DTL_NAME_(cuda_error) DTL_NAME_(hip_error) DTL_NAME_(mpi_error)
    DTL_NAME_(nccl_error) DTL_NAME_(shmem_error)
    DTL_NAME_(algorithm_error) DTL_NAME_(precondition_failed) DTL_NAME_(postcondition_failed)
    DTL_NAME_(convergence_failed)
    DTL_NAME_(consistency_error) DTL_NAME_(consistency_violation) DTL_NAME_(structural_invalidation)
    DTL_NAME_(internal_error) DTL_NAME_(not_implemented) DTL_NAME_(invalid_state) DTL_NAME_(unknown_error)
#undef DTL_NAME_
    // clang-format on
  }
  return "unknown_status_code";
}

std::string_view status_category(status_code code) noexcept {
  const int value = to_int(code);
  if (value < 0) return "internal";
  if (code == status_code::invalid_state) return "usage";  // the caller's misuse: see the header
  switch (value / 100) {
    case 0: return "success";  // ok and the sentinels (not_found, end_iterator), as upstream files them
    case 1: return "communication";
    case 2: return "memory";
    case 3: return "serialization";
    case 4: return "bounds";
    case 5: return "backend";
    case 6: return "algorithm";
    case 7: return "consistency";
    default: return "internal";
  }
}

}  // namespace dtl

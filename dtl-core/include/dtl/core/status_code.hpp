// SPDX-License-Identifier: MIT
#pragma once
// DTL's status codes. The numbering is DTL's: the hundreds digit is the category.

#include <string_view>

namespace dtl {

enum class status_code : int {
  ok = 0,

  // 1-99 sentinels: expected outcomes that are not errors, yet not ok either
  not_found = 1,
  end_iterator = 2,

  // 1xx communication
  communication_error = 100,
  send_failed = 101,
  recv_failed = 102,
  broadcast_failed = 103,
  reduce_failed = 104,
  barrier_failed = 105,
  timeout = 106,
  canceled = 107,
  connection_lost = 108,
  rank_failure = 109,
  collective_failure = 110,
  collective_participation_error = 111,

  // 2xx memory
  memory_error = 200,
  allocation_failed = 201,
  out_of_memory = 202,
  invalid_pointer = 203,
  memory_transfer_failed = 204,
  device_memory_error = 205,

  // 3xx serialization
  serialization_error = 300,
  serialize_failed = 301,
  deserialize_failed = 302,
  buffer_too_small = 303,
  invalid_format = 304,

  // 4xx bounds and arguments
  bounds_error = 400,
  out_of_bounds = 401,
  invalid_index = 402,
  invalid_rank = 403,
  dimension_mismatch = 404,
  extent_mismatch = 405,
  key_not_found = 406,
  out_of_range = 407,
  invalid_argument = 410,
  null_pointer = 411,
  not_supported = 420,

  // 5xx backend
  backend_error = 500,
  backend_not_available = 501,
  backend_init_failed = 502,
  backend_invalid = 503,
  cuda_error = 510,
  hip_error = 520,
  mpi_error = 530,
  nccl_error = 540,
  shmem_error = 550,

  // 6xx algorithm
  algorithm_error = 600,
  operation_failed = 600,  // upstream's other name for algorithm_error (the name functions give that one)
  precondition_failed = 601,
  postcondition_failed = 602,
  convergence_failed = 603,

  // 7xx consistency
  consistency_error = 700,
  consistency_violation = 701,
  structural_invalidation = 702,

  // 9xx internal
  internal_error = 900,
  not_implemented = 901,
  invalid_state = 902,
  unknown_error = 999,
};

[[nodiscard]] constexpr int to_int(status_code code) noexcept { return static_cast<int>(code); }

/// The code's name, e.g. "hip_error"; "unknown_status_code" for a value outside the enum. constexpr, as
/// upstream's.
[[nodiscard]] constexpr std::string_view status_code_name(status_code code) noexcept {
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

/// The code's category: "success" for 0-99 (ok, and the sentinels not_found and end_iterator, which are
/// not ok: is_error() holds for them; upstream's category), then by
/// the hundreds digit "communication", "memory", "serialization", "bounds", "backend", "algorithm",
/// "consistency"; "internal" for 9xx and for any value outside these ranges, except invalid_state (902):
/// "usage", because DTL gives it for a call its object's state does not allow (a second exchange_begin,
/// a moved-from object, an ended environment), the caller's misuse rather than DTL's fault. (Upstream
/// files it under "internal"; the code and its number are upstream's.)
[[nodiscard]] constexpr std::string_view status_category(status_code code) noexcept {
  const int value = to_int(code);
  if (value < 0) return "internal";
  if (code == status_code::invalid_state) return "usage";  // the caller's misuse: see above
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

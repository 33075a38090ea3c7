// SPDX-License-Identifier: MIT
// The argument rules of rma/access_rules.hpp.
#include "rma/access_rules.hpp"

#include <fmt/format.h>

namespace dtl::detail {

namespace {

bool bitwise(rma_reduce_op op) noexcept {
  return op == rma_reduce_op::band || op == rma_reduce_op::bor || op == rma_reduce_op::bxor;
}

}  // namespace

status check_combine(const void* origin, const void* result_buf, size_type size, rma_reduce_op op, rma_datatype type) {
  const char* what = result_buf == nullptr ? "accumulate" : "get_accumulate";
  if (origin == nullptr && size > 0 && op != rma_reduce_op::no_op)
    return status(status_code::invalid_argument, fmt::format("{}: the origin buffer is null", what));
  const std::size_t element = rma_datatype_size(type);
  if (size % element != 0)
    return status(status_code::invalid_argument,
                  fmt::format("{}: {} bytes is not a whole number of {}-byte elements", what, size, element));
  if (bitwise(op) && (type == rma_datatype::f32 || type == rma_datatype::f64))
    return status(status_code::invalid_argument, fmt::format("{}: a bitwise operation on floating point", what));
  return {};
}

status check_fetch(const void* result_buf, size_type size) {
  if (result_buf == nullptr && size > 0)
    return status(status_code::invalid_argument, "fetch_and_op: the result buffer is null");
  return {};
}

result<rma_datatype> swap_element(const void* origin, const void* compare, const void* result_buf, size_type size) {
  if (origin == nullptr || compare == nullptr || result_buf == nullptr)
    return status(status_code::invalid_argument, "compare_and_swap: a buffer is null");
  switch (size) {
    case 1: return rma_datatype::u8;
    case 2: return rma_datatype::u16;
    case 4: return rma_datatype::u32;
    case 8: return rma_datatype::u64;
    default: break;
  }
  return status(status_code::invalid_argument,
                fmt::format("compare_and_swap: {} bytes; one element of 1, 2, 4 or 8 bytes swaps", size));
}

}  // namespace dtl::detail

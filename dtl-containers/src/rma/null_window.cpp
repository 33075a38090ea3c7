// SPDX-License-Identifier: MIT
// dtl::null_window_impl (memory_window.hpp): upstream's window of one process, over this process's own
// memory transport (transport/self_rma.cpp); the checks of each access are upstream's, here, and the
// argument rules every window shares (rma/access_rules.hpp).
#include "rma/access_rules.hpp"
#include "transport/rma_window.hpp"

#include <dtl/communication/memory_window.hpp>
#include <dtl/core/try.hpp>

#include <fmt/format.h>

#include <new>

namespace dtl {

null_window_impl::null_window_impl(void* base, size_type size, bool owns_memory)
    : base_(base), size_(base != nullptr ? size : 0), owns_memory_(owns_memory && base != nullptr) {
  // The transport only copies and combines (it owns nothing here); it cannot fail for a given base.
  if (base_ != nullptr) memory_ = std::move(detail::make_self_rma_window(base_, size_)).value();
}

null_window_impl::~null_window_impl() {
  memory_.reset();
  if (owns_memory_) ::operator delete(base_);
}

status null_window_impl::check(const char* what, bool buffer_given, rank_t target, size_type offset,
                               size_type bytes) const {
  if (!valid()) return status(status_code::invalid_state, "null_window_impl: the window has no memory (a null base)");
  if (!buffer_given) return status(status_code::invalid_argument, fmt::format("{}: the origin buffer is null", what));
  if (target != 0)
    return status(status_code::invalid_rank,
                  fmt::format("null_window_impl: rank {}; a window of one process has rank 0 only", target));
  if (offset > size_ || bytes > size_ - offset)
    return status(status_code::out_of_range,
                  fmt::format("null_window_impl: bytes [{}, {}) are outside the window's {} bytes", offset,
                              offset + bytes, size_));
  return {};
}

result<void> null_window_impl::put(const void* origin, size_type size, rank_t target, size_type target_offset) {
  DTL_TRY(check("put", origin != nullptr, target, target_offset, size));
  DTL_TRY(memory_->put(origin, size, 0, target_offset));
  return {};
}

result<void> null_window_impl::get(void* origin, size_type size, rank_t target, size_type target_offset) {
  DTL_TRY(check("get", origin != nullptr, target, target_offset, size));
  DTL_TRY(memory_->get(origin, size, 0, target_offset));
  return {};
}

result<void> null_window_impl::fetch_and_op(const void* origin, void* result_buf, size_type size, rank_t target,
                                            size_type target_offset, rma_reduce_op op) {
  DTL_TRY(detail::check_fetch(result_buf, size));
  return typed_accumulate(origin, result_buf, size, target, target_offset, op, rma_datatype::u8);
}

result<void> null_window_impl::typed_accumulate(const void* origin, void* result_buf, size_type size, rank_t target,
                                                size_type target_offset, rma_reduce_op op, rma_datatype type) {
  DTL_TRY(detail::check_combine(origin, result_buf, size, op, type));
  DTL_TRY(check("accumulate", true, target, target_offset, size));
  if (size == 0) return {};
  DTL_TRY(memory_->accumulate(origin, result_buf, size / rma_datatype_size(type), type, 0, target_offset, op));
  return {};
}

result<void> null_window_impl::compare_and_swap(const void* origin, const void* compare, void* result_buf,
                                                size_type size, rank_t target, size_type target_offset) {
  DTL_ASSIGN_OR_RETURN(const rma_datatype type, detail::swap_element(origin, compare, result_buf, size));
  DTL_TRY(check("compare_and_swap", true, target, target_offset, size));
  DTL_TRY(memory_->compare_and_swap(origin, compare, result_buf, type, 0, target_offset));
  return {};
}

}  // namespace dtl

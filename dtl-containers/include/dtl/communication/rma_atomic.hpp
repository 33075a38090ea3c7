// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's atomic one-sided updates on a dtl::memory_window, target first. Each element is
// combined atomically with respect to the other accumulates on it, as its type (rma_datatype_of<T>:
// integers and floating point by their type, anything else as unsigned bytes). Like put and get, they run
// inside an epoch and complete at its end; the fetched values (result) are ready then too.

#include <dtl/backend/concepts/rma_communicator.hpp>
#include <dtl/communication/memory_window.hpp>
#include <dtl/core/result.hpp>

#include <span>

namespace dtl::rma {

/// t = t op value, for each element.
template <class T>
[[nodiscard]] result<void> accumulate(rank_t target, size_type target_offset, std::span<const T> data, rma_reduce_op op,
                                      memory_window& window) {
  return window.accumulate(data.data(), data.size_bytes(), target, target_offset, op, rma_datatype_of<T>());
}
template <class T>
[[nodiscard]] result<void> accumulate(rank_t target, size_type target_offset, const T& value, rma_reduce_op op,
                                      memory_window& window) {
  return window.accumulate(&value, sizeof(T), target, target_offset, op, rma_datatype_of<T>());
}

/// result_value = t; t = t op origin_value.
template <class T>
[[nodiscard]] result<void> fetch_and_op(rank_t target, size_type target_offset, const T& origin_value, T& result_value,
                                        rma_reduce_op op, memory_window& window) {
  return window.get_accumulate(&origin_value, &result_value, sizeof(T), target, target_offset, op,
                               rma_datatype_of<T>());
}

/// result_value = t; t = swap_value if t == compare_value (bitwise). T of 1, 2, 4 or 8 bytes.
template <class T>
[[nodiscard]] result<void> compare_and_swap(rank_t target, size_type target_offset, const T& compare_value,
                                            const T& swap_value, T& result_value, memory_window& window) {
  return window.compare_and_swap(&swap_value, &compare_value, &result_value, sizeof(T), target, target_offset);
}

/// fetch_and_op over a span: result_buf gets the elements that were there (extent_mismatch when the
/// spans' sizes differ).
template <class T>
[[nodiscard]] result<void> get_accumulate(rank_t target, size_type target_offset, std::span<const T> origin,
                                          std::span<T> result_buf, rma_reduce_op op, memory_window& window) {
  if (origin.size() != result_buf.size())
    return status(status_code::extent_mismatch, "get_accumulate: the origin and result spans differ in size");
  return window.get_accumulate(origin.data(), result_buf.data(), origin.size_bytes(), target, target_offset, op,
                               rma_datatype_of<T>());
}
template <class T>
[[nodiscard]] result<void> get_accumulate(rank_t target, size_type target_offset, const T& origin_value,
                                          T& result_value, rma_reduce_op op, memory_window& window) {
  return fetch_and_op(target, target_offset, origin_value, result_value, op, window);
}

template <class T>
[[nodiscard]] result<void> accumulate_sum(rank_t target, size_type target_offset, std::span<const T> data,
                                          memory_window& window) {
  return accumulate(target, target_offset, data, rma_reduce_op::sum, window);
}
template <class T>
[[nodiscard]] result<void> accumulate_max(rank_t target, size_type target_offset, std::span<const T> data,
                                          memory_window& window) {
  return accumulate(target, target_offset, data, rma_reduce_op::max, window);
}
template <class T>
[[nodiscard]] result<void> accumulate_min(rank_t target, size_type target_offset, std::span<const T> data,
                                          memory_window& window) {
  return accumulate(target, target_offset, data, rma_reduce_op::min, window);
}
template <class T>
[[nodiscard]] result<void> fetch_and_add(rank_t target, size_type target_offset, const T& addend, T& result_value,
                                         memory_window& window) {
  return fetch_and_op(target, target_offset, addend, result_value, rma_reduce_op::sum, window);
}

}  // namespace dtl::rma

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's one-sided put and get on a dtl::memory_window, target first:
//   dtl::rma::put(target, byte_offset, value_or_span_or_pointer[, bytes], window)
//   dtl::rma::get(target, byte_offset, value_or_span_or_pointer[, bytes], window)
// They run inside an epoch of the window (memory_window.hpp) and complete at its end: the closing fence,
// unlock, or a flush. The _async forms complete at the origin when they return in a passive-target
// epoch (a local flush); in a fence epoch at the closing fence, as the others. Their request_handle is
// empty (nothing left to wait for).

#include <dtl/backend/concepts/rma_communicator.hpp>
#include <dtl/communication/memory_window.hpp>
#include <dtl/containers/communication/upstream_communicator.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/try.hpp>

#include <span>

namespace dtl::rma {

[[nodiscard]] inline result<void> put(rank_t target, size_type target_offset, const void* data, size_type size,
                                      memory_window& window) {
  return window.put(data, size, target, target_offset);
}
template <class T>
[[nodiscard]] result<void> put(rank_t target, size_type target_offset, std::span<const T> data, memory_window& window) {
  return window.put(data.data(), data.size_bytes(), target, target_offset);
}
template <class T>
[[nodiscard]] result<void> put(rank_t target, size_type target_offset, const T& value, memory_window& window) {
  return window.put(&value, sizeof(T), target, target_offset);
}

[[nodiscard]] inline result<void> get(rank_t target, size_type target_offset, void* buffer, size_type size,
                                      memory_window& window) {
  return window.get(buffer, size, target, target_offset);
}
template <class T>
[[nodiscard]] result<void> get(rank_t target, size_type target_offset, std::span<T> buffer, memory_window& window) {
  return window.get(buffer.data(), buffer.size_bytes(), target, target_offset);
}
template <class T>
[[nodiscard]] result<void> get(rank_t target, size_type target_offset, T& value, memory_window& window) {
  return window.get(&value, sizeof(T), target, target_offset);
}

namespace async_detail {
template <class Begin>
result<request_handle> begin_async(memory_window& window, Begin begin) {
  memory_window_impl* impl = window.get_impl();
  if (impl == nullptr) return status(status_code::invalid_state, "the memory_window is empty");
  memory_window_impl::rma_request_handle request;
  DTL_TRY(begin(*impl, request));
  DTL_TRY(impl->wait_async(request));
  return request_handle{};
}
}  // namespace async_detail

[[nodiscard]] inline result<request_handle> put_async(rank_t target, size_type target_offset, const void* data,
                                                      size_type size, memory_window& window) {
  return async_detail::begin_async(window, [&](memory_window_impl& w, memory_window_impl::rma_request_handle& r) {
    return w.async_put(data, size, target, target_offset, r);
  });
}
template <class T>
[[nodiscard]] result<request_handle> put_async(rank_t target, size_type target_offset, std::span<const T> data,
                                               memory_window& window) {
  return put_async(target, target_offset, data.data(), data.size_bytes(), window);
}
[[nodiscard]] inline result<request_handle> get_async(rank_t target, size_type target_offset, void* buffer,
                                                      size_type size, memory_window& window) {
  return async_detail::begin_async(window, [&](memory_window_impl& w, memory_window_impl::rma_request_handle& r) {
    return w.async_get(buffer, size, target, target_offset, r);
  });
}
template <class T>
[[nodiscard]] result<request_handle> get_async(rank_t target, size_type target_offset, std::span<T> buffer,
                                               memory_window& window) {
  return get_async(target, target_offset, buffer.data(), buffer.size_bytes(), window);
}

[[nodiscard]] inline result<void> flush(rank_t target, memory_window& window) { return window.flush(target); }
[[nodiscard]] inline result<void> flush_all(memory_window& window) { return window.flush_all(); }
[[nodiscard]] inline result<void> flush_local(rank_t target, memory_window& window) {
  return window.flush_local(target);
}
[[nodiscard]] inline result<void> flush_local_all(memory_window& window) { return window.flush_local_all(); }

}  // namespace dtl::rma

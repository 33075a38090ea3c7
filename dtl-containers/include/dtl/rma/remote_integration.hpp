// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's reference to one element in a rank's region of a dtl::memory_window:
//   auto r = rma::make_rma_ref_indexed<int>(owner, index, window, my_rank);
//   result<int> v = r.get();   (void)r.put(7);   // put only when T is not const
// get() and put() are complete when they return (async_rma.hpp's rules: in this rank's epoch on the
// owner, or under their own lock of it outside any epoch). Like upstream's remote_ref, it converts to
// nothing implicitly: every remote access is spelled out. is_local() compares the owner with the rank
// given at construction (0 by default).

#include <dtl/communication/memory_window.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/try.hpp>
#include <dtl/rma/async_rma.hpp>

#include <memory>
#include <span>
#include <type_traits>
#include <utility>

namespace dtl::rma {

template <class T>
class rma_remote_ref {
 public:
  using value_type = std::remove_const_t<T>;
  using element_type = T;

  rma_remote_ref() = default;
  rma_remote_ref(rank_t owner, size_type offset, memory_window& window, rank_t local_rank = 0)
      : owner_(owner), offset_(offset), window_(&window), local_rank_(local_rank) {}

  operator T&() = delete;
  operator const T&() const = delete;
  operator T*() = delete;
  operator const T*() const = delete;
  operator bool() const = delete;
  T& operator*() = delete;
  const T& operator*() const = delete;
  T* operator->() = delete;
  const T* operator->() const = delete;

  [[nodiscard]] result<value_type> get() const {
    DTL_TRY(check());
    value_type value{};
    async_get<value_type> read(owner_, offset_, std::span<value_type>(&value, 1), *window_);
    DTL_TRY(read.get_result());
    return value;
  }
  result<void> put(const value_type& value) requires(!std::is_const_v<T>) {
    DTL_TRY(check());
    async_put<value_type> write(owner_, offset_, std::span<const value_type>(&value, 1), *window_);
    return write.get_result();
  }

  /// The read begun, and the buffer it fills (which must outlive it).
  [[nodiscard]] std::pair<std::unique_ptr<value_type>, async_get<value_type>> async_get_op() const {
    auto buffer = std::make_unique<value_type>();
    async_get<value_type> read(owner_, offset_, std::span<value_type>(buffer.get(), 1), *window_);
    return {std::move(buffer), std::move(read)};
  }
  [[nodiscard]] async_put<value_type> async_put_op(std::span<const value_type> value) const
      requires(!std::is_const_v<T>) {
    return async_put<value_type>(owner_, offset_, value, *window_);
  }

  [[nodiscard]] rank_t owner_rank() const noexcept { return owner_; }
  [[nodiscard]] size_type offset() const noexcept { return offset_; }
  [[nodiscard]] bool valid() const noexcept { return window_ != nullptr && window_->valid(); }
  [[nodiscard]] bool is_local() const noexcept { return owner_ == local_rank_; }
  [[nodiscard]] bool is_remote() const noexcept { return !is_local(); }
  [[nodiscard]] memory_window* window() const noexcept { return window_; }

 private:
  [[nodiscard]] status check() const {
    if (!valid()) return status(status_code::invalid_state, "rma_remote_ref: no valid memory_window");
    return {};
  }
  rank_t owner_ = 0;
  size_type offset_ = 0;
  memory_window* window_ = nullptr;
  rank_t local_rank_ = 0;
};

template <class T>
[[nodiscard]] rma_remote_ref<T> make_rma_ref(rank_t owner, size_type offset, memory_window& window,
                                             rank_t local_rank = 0) {
  return rma_remote_ref<T>(owner, offset, window, local_rank);
}
/// The ref to element `index` of T in owner's region.
template <class T>
[[nodiscard]] rma_remote_ref<T> make_rma_ref_indexed(rank_t owner, size_type index, memory_window& window,
                                                     rank_t local_rank = 0) {
  return rma_remote_ref<T>(owner, index * sizeof(T), window, local_rank);
}

template <class T>
struct is_rma_remote_ref : std::false_type {};
template <class T>
struct is_rma_remote_ref<rma_remote_ref<T>> : std::true_type {};
template <class T>
inline constexpr bool is_rma_remote_ref_v = is_rma_remote_ref<T>::value;

}  // namespace dtl::rma

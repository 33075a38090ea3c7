// SPDX-License-Identifier: MIT
#pragma once
// Moving and setting a rank's segment, wherever it lives. Not for users: distributed_vector calls these.

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/export.hpp>
#include <dtl/core/memory_transfer.hpp>
#include <dtl/core/result.hpp>

#include <cstddef>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

namespace dtl::detail {

/// Sets `count` elements of `pattern_bytes` bytes at dst to `pattern`. `device` is the device dst lives
/// on, or no_device for host memory. Device memory is set by a kernel on the context's stream for that
/// device, without staging through the host; the call returns when the memory is set.
[[nodiscard]] DTL_CONTAINERS_API status fill_segment(const context& ctx, int device, void* dst, std::size_t count,
                                                     const void* pattern, std::size_t pattern_bytes);

/// Waits for the device work that algorithms on `ctx` left running on `device` (nothing for
/// dtl::no_device) and returns its failure. What reads, writes or frees a device segment on the host's
/// side of time (copy_to_host, global_view, destruction, ...) calls it first.
[[nodiscard]] DTL_CONTAINERS_API status settle_device_work(const context& ctx, int device);

/// Copies bytes between host and device memory (dtl::hip::hip_memory_transfer::copy; memcpy for
/// host_to_host) after the device's earlier work (the streams calls left it on); returns when they have
/// arrived.
[[nodiscard]] DTL_CONTAINERS_API status copy_segment(void* dst, const void* src, std::size_t bytes, transfer_kind kind);

/// f() -> status, with a failed host allocation (std::bad_alloc, std::length_error) as out_of_memory:
/// no exception leaves a function that returns a status, and a collective can agree on the failure.
template <class F>
[[nodiscard]] status catch_allocation_failure(const char* what, F&& f) noexcept {
  try {
    return std::forward<F>(f)();
  } catch (const std::bad_alloc&) {
    return status(status_code::out_of_memory, std::string(what) + ": this rank could not allocate the host memory");
  } catch (const std::length_error&) {
    return status(status_code::out_of_memory, std::string(what) + ": the host buffer would be too large");
  }
}

/// The block of a vector, for the algorithms that swap it for another of the same layout (the one-rank
/// radix sort adopts its alternate buffer: algorithms/device/sort.hpp). A vector declares it a friend.
struct storage_access;

/// Owns a rank's segment, whatever memory space it came from (the space stays alive with it).
class segment_allocation {
 public:
  segment_allocation() noexcept = default;
  template <class Space>
  segment_allocation(std::shared_ptr<Space> space, void* data, std::size_t bytes) noexcept
      : space_(std::move(space)),
        data_(data),
        bytes_(bytes),
        free_([](void* s, void* p, std::size_t n) noexcept { static_cast<Space*>(s)->deallocate(p, n); }),
        allocate_([](void* s, std::size_t n, std::size_t alignment) {
          return static_cast<Space*>(s)->allocate(n, alignment);
        }) {}
  segment_allocation(segment_allocation&& other) noexcept
      : space_(std::move(other.space_)),
        data_(std::exchange(other.data_, nullptr)),
        bytes_(std::exchange(other.bytes_, 0)),
        free_(other.free_),
        allocate_(other.allocate_) {}
  segment_allocation& operator=(segment_allocation&& other) noexcept {
    if (this != &other) {
      reset();
      space_ = std::move(other.space_);
      data_ = std::exchange(other.data_, nullptr);
      bytes_ = std::exchange(other.bytes_, 0);
      free_ = other.free_;
      allocate_ = other.allocate_;
    }
    return *this;
  }
  segment_allocation(const segment_allocation&) = delete;
  segment_allocation& operator=(const segment_allocation&) = delete;
  ~segment_allocation() { reset(); }

  [[nodiscard]] void* data() const noexcept { return data_; }
  [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }
  /// Whether both came from one memory space instance (a block of one may stand in for the other's).
  [[nodiscard]] bool same_space(const segment_allocation& other) const noexcept {
    return space_ != nullptr && space_ == other.space_;
  }

  /// A new segment of `bytes` from the same memory space (one without memory for 0 bytes), for a
  /// vector that changes its layout; invalid_state when this one has no space (default-constructed).
  [[nodiscard]] result<segment_allocation> allocate_like(std::size_t bytes, std::size_t alignment) const {
    if (allocate_ == nullptr)
      return status(status_code::invalid_state, "this segment has no memory space to allocate from");
    segment_allocation made;
    made.space_ = space_;
    made.free_ = free_;
    made.allocate_ = allocate_;
    if (bytes == 0) return made;
    result<void*> data = allocate_(space_.get(), bytes, alignment);
    if (!data) return std::move(data).error();
    made.data_ = *data;
    made.bytes_ = bytes;
    return made;
  }

 private:
  void reset() noexcept {
    if (data_ != nullptr) free_(space_.get(), data_, bytes_);
    data_ = nullptr;
    bytes_ = 0;
  }
  std::shared_ptr<void> space_;
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
  void (*free_)(void*, void*, std::size_t) noexcept = nullptr;
  result<void*> (*allocate_)(void*, std::size_t, std::size_t) = nullptr;
};

}  // namespace dtl::detail

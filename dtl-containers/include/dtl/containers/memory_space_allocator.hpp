// SPDX-License-Identifier: MIT
#pragma once
// memory_space_allocator<T, Space>: a standard allocator (std::allocator_traits, std::vector<T, A>) whose
// memory comes from a DTL memory space instance, and select_allocator_t<T, Placement>: the allocator of a
// placement's memory, with the containers' allocator_type and get_allocator() (upstream DTL's names, at its
// paths dtl/memory/allocator.hpp and dtl/memory/default_allocator.hpp):
//
//   placement                              select_allocator_t<T, P> is memory_space_allocator<T, ...>
//   host_only                              host_memory_space
//   device_only<N>, device_only_runtime    hip::hip_memory_space            (the device's memory)
//   unified_memory                         hip::hip_managed_memory_space
//   device_preferred_on<N>                 hip::hip_device_preferred_memory_space
//
// These are placement_traits<P>::space_type (placement_traits.hpp): without HIP only host_only has one,
// and naming another placement's allocator stops the compilation with placement_traits' message, as its
// containers do. A container's get_allocator() allocates from the process-wide space its placement uses
// on its device; allocator_for<T, P>(ctx) makes that allocator for a context. default_allocator<T> is
// host_only's, the one allocator that default-constructs (from the process-wide host space).
//
//   std::vector<double, dtl::default_allocator<double>> v(100);                       // dtl's host space
//   auto a = dtl::allocator_for<float, dtl::device_only_runtime>(ctx);                // result<>
//   float* p = a->allocate(1024);  /* a kernel fills p */  a->deallocate(p, 1024);    // device memory
//
// allocate(n) throws dtl::status_error with the space's status (out_of_memory, backend_not_available,
// ...); try_allocate(n) returns it. Both give nullptr for n == 0. Copies share the space: allocators
// compare equal when they share one space instance, so that what one allocates the other may free.

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/placement_traits.hpp>
#include <dtl/core/host_memory_space.hpp>
#include <dtl/core/memory_space.hpp>
#include <dtl/core/placement.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/status_error.hpp>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace dtl {

template <class T, MemorySpace Space = host_memory_space>
class memory_space_allocator {
 public:
  using value_type = T;
  using memory_space_type = Space;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  // The space goes with the elements: a container that takes another's elements takes its allocator.
  using propagate_on_container_copy_assignment = std::true_type;
  using propagate_on_container_move_assignment = std::true_type;
  using propagate_on_container_swap = std::true_type;
  using is_always_equal = std::false_type;

  /// The process-wide host space (host_memory_space only: a device space needs a device).
  memory_space_allocator() requires std::same_as<Space, host_memory_space> : space_(shared_host_memory_space()) {}
  /// Allocates from `space` (null: every allocation fails with invalid_state).
  explicit memory_space_allocator(std::shared_ptr<Space> space) noexcept : space_(std::move(space)) {}
  /// The same space for another element type.
  template <class U>
  memory_space_allocator(const memory_space_allocator<U, Space>& other) noexcept  // implicit: std::allocator_traits
      : space_(other.space()) {}

  /// Room for n elements (nullptr for 0). Throws dtl::status_error with the space's status.
  [[nodiscard]] T* allocate(size_type n) const { return value_or_throw(try_allocate(n)); }
  /// The same without exceptions: out_of_memory when n elements overflow the bytes, invalid_state without a
  /// space, else what the space says.
  [[nodiscard]] result<T*> try_allocate(size_type n) const {
    if (n == 0) return static_cast<T*>(nullptr);
    if (!space_)
      return status(status_code::invalid_state, "memory_space_allocator: no " + std::string(Space::name()) +
                                                    " memory space to allocate from (it was made from none)");
    if (n > max_size())
      return status(status_code::out_of_memory, "memory_space_allocator: " + std::to_string(n) + " elements of " +
                                                    std::to_string(sizeof(T)) + " bytes overflow");
    result<void*> made = space_->allocate(n * sizeof(T), alignment);
    if (!made) return std::move(made).error();
    return static_cast<T*>(*made);
  }
  /// Frees what allocate(n) gave (nullptr is ignored); n as allocated.
  void deallocate(T* p, size_type n) const noexcept {
    if (p != nullptr && space_) space_->deallocate(p, n * sizeof(T));
  }
  [[nodiscard]] static constexpr size_type max_size() noexcept {
    return std::numeric_limits<size_type>::max() / sizeof(T);
  }

  /// The space allocated from (null for one made from none).
  [[nodiscard]] const std::shared_ptr<Space>& space() const noexcept { return space_; }
  [[nodiscard]] static constexpr std::string_view space_name() noexcept { return Space::name(); }
  /// Where its memory is reached from, and its device (dtl::no_device for host memory).
  [[nodiscard]] memory_space_properties space_properties() const noexcept {
    if (space_) return space_->properties();
    memory_space_properties p;
    p.host_accessible = Space::host_accessible;
    p.device_accessible = Space::device_accessible;
    return p;
  }
  [[nodiscard]] static constexpr bool is_host_accessible() noexcept { return Space::host_accessible; }
  [[nodiscard]] static constexpr bool is_device_accessible() noexcept { return Space::device_accessible; }

  template <class U>
  [[nodiscard]] bool operator==(const memory_space_allocator<U, Space>& other) const noexcept {
    return space_ == other.space();
  }

 private:
  // The alignment of every allocation, as the containers' blocks have.
  static constexpr size_type alignment = std::max(alignof(T), alignof(std::max_align_t));

  std::shared_ptr<Space> space_;
};

/// The allocator of placement P's memory (the table at the top of this file).
template <class T, PlacementPolicy P>
struct select_allocator {
  using type = memory_space_allocator<T, typename placement_traits<P>::space_type>;
};
template <class T, PlacementPolicy P>
using select_allocator_t = typename select_allocator<T, P>::type;

/// host_only's allocator (the default placement's).
template <class T>
using default_allocator = select_allocator_t<T, host_only>;

/// The allocator of placement P's memory on `ctx`: the process-wide space that P's containers on `ctx`
/// allocate from (their get_allocator()). Fails as their construction does: backend_not_available for a
/// device placement without a GPU, invalid_argument for a device id past those this process sees.
template <class T, PlacementPolicy P>
[[nodiscard]] result<select_allocator_t<T, P>> allocator_for(const context& ctx) {
  auto space = shared_memory_space<P>(ctx);
  if (!space) return std::move(space).error();
  return select_allocator_t<T, P>(std::move(space).value());
}

namespace detail {
/// The allocator over the space that placement P uses on `device` (one without a space when there is
/// none: a moved-from container's). What the containers' get_allocator() return.
template <class T, PlacementPolicy P>
[[nodiscard]] select_allocator_t<T, P> placement_allocator(int device) {
  auto space = placement_traits<P>::space(device);
  return select_allocator_t<T, P>(space ? std::move(space).value() : nullptr);
}
}  // namespace detail

}  // namespace dtl

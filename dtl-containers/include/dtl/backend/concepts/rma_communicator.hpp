// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for one-sided communication's vocabulary: the lock modes, the reductions
// an accumulate applies, window_handle, and the concepts RmaCommunicator, PassiveTargetRmaCommunicator,
// AtomicRmaCommunicator and FullRmaCommunicator (what a communicator type offering windows provides).
// DTL HIP's windows are dtl::memory_window (<dtl/communication/memory_window.hpp>); rma_datatype, the
// element type an accumulate combines, is DTL HIP's own.

#include <dtl/backend/concepts/communicator.hpp>
#include <dtl/containers/communication/collective_types.hpp>
#include <dtl/core/types.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace dtl {

/// An opaque window of a communicator type (the concepts below).
struct window_handle {
  void* handle = nullptr;
  [[nodiscard]] constexpr bool valid() const noexcept { return handle != nullptr; }
  [[nodiscard]] constexpr bool operator==(const window_handle&) const noexcept = default;
};

/// A passive-target lock: shared admits other shared holders, exclusive none.
enum class rma_lock_mode { exclusive, shared };

/// What an accumulate does with the target's element t and the origin's element o: t = t op o; replace
/// stores o; no_op leaves t (a get_accumulate with no_op is an atomic read).
enum class rma_reduce_op { sum, prod, min, max, band, bor, bxor, replace, no_op };

/// The element type an accumulate combines: the collectives' element types (collective_types.hpp). The
/// byte-sized forms (memory_window's untyped calls) combine unsigned bytes; dtl::rma's typed calls pass the
/// type of their element (rma_datatype_of).
using rma_datatype = detail::datatype;

/// The size of one element of `type`, in bytes.
[[nodiscard]] inline std::size_t rma_datatype_size(rma_datatype type) noexcept { return detail::datatype_size(type); }

/// T's rma_datatype: integers and floating point by size and signedness; anything else combines as
/// unsigned bytes (as the untyped calls do).
template <class T>
[[nodiscard]] constexpr rma_datatype rma_datatype_of() noexcept {
  if constexpr (detail::has_datatype_v<T>) {
    return detail::datatype_of<std::remove_cv_t<T>>();
  } else {
    return rma_datatype::u8;
  }
}

template <class T>
concept RmaCommunicator = Communicator<T> && requires(T& comm, void* base, void* buf, const void* cbuf, size_type size,
                                                      size_type offset, rank_t target, window_handle& win) {
  { comm.create_window(base, size) } -> std::same_as<window_handle>;
  { comm.free_window(win) } -> std::same_as<void>;
  { comm.put(cbuf, size, target, offset, win) } -> std::same_as<void>;
  { comm.get(buf, size, target, offset, win) } -> std::same_as<void>;
  { comm.fence(win) } -> std::same_as<void>;
  { comm.flush(target, win) } -> std::same_as<void>;
  { comm.flush_all(win) } -> std::same_as<void>;
};

template <class T>
concept PassiveTargetRmaCommunicator = RmaCommunicator<T> &&
    requires(T& comm, rank_t target, window_handle& win, rma_lock_mode mode) {
  { comm.lock(target, mode, win) } -> std::same_as<void>;
  { comm.unlock(target, win) } -> std::same_as<void>;
  { comm.lock_all(win) } -> std::same_as<void>;
  { comm.unlock_all(win) } -> std::same_as<void>;
};

template <class T>
concept AtomicRmaCommunicator = RmaCommunicator<T> &&
    requires(T& comm, const void* origin, void* result, size_type size, rank_t target, size_type offset,
             window_handle& win, rma_reduce_op op) {
  { comm.accumulate(origin, size, target, offset, op, win) } -> std::same_as<void>;
  { comm.fetch_and_op(origin, result, size, target, offset, op, win) } -> std::same_as<void>;
  { comm.compare_and_swap(origin, origin, result, size, target, offset, win) } -> std::same_as<void>;
};

template <class T>
concept FullRmaCommunicator = PassiveTargetRmaCommunicator<T> && AtomicRmaCommunicator<T>;

template <class C>
inline constexpr bool supports_rma_v = RmaCommunicator<C>;
template <class C>
inline constexpr bool supports_passive_target_rma_v = PassiveTargetRmaCommunicator<C>;
template <class C>
inline constexpr bool supports_atomic_rma_v = AtomicRmaCommunicator<C>;
template <class C>
inline constexpr bool supports_full_rma_v = FullRmaCommunicator<C>;

struct rma_communicator_tag {};

}  // namespace dtl

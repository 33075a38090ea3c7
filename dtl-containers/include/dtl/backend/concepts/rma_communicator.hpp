// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for one-sided communication's vocabulary: the lock modes, the reductions
// an accumulate applies, window_handle, and the concepts RmaCommunicator, PassiveTargetRmaCommunicator,
// AtomicRmaCommunicator and FullRmaCommunicator (what a communicator type offering windows provides).
// DTL HIP's windows are dtl::memory_window (<dtl/communication/memory_window.hpp>); rma_datatype, the
// element type an accumulate combines, is DTL HIP's own.

#include <dtl/backend/concepts/communicator.hpp>
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

/// The element type an accumulate combines. The byte-sized forms (memory_window's untyped calls) combine
/// unsigned bytes; dtl::rma's typed calls pass the type of their element (rma_datatype_of).
enum class rma_datatype { u8, i8, u16, i16, u32, i32, u64, i64, f32, f64 };

/// The size of one element of `type`, in bytes.
[[nodiscard]] constexpr std::size_t rma_datatype_size(rma_datatype type) noexcept {
  switch (type) {
    case rma_datatype::u8:
    case rma_datatype::i8: return 1;
    case rma_datatype::u16:
    case rma_datatype::i16: return 2;
    case rma_datatype::u32:
    case rma_datatype::i32:
    case rma_datatype::f32: return 4;
    default: return 8;
  }
}

/// T's rma_datatype: integers and floating point by size and signedness; anything else combines as
/// unsigned bytes (as the untyped calls do).
template <class T>
[[nodiscard]] constexpr rma_datatype rma_datatype_of() noexcept {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, float> && sizeof(U) == 4) {
    return rma_datatype::f32;
  } else if constexpr (std::is_same_v<U, double> && sizeof(U) == 8) {
    return rma_datatype::f64;
  } else if constexpr (std::is_integral_v<U> && !std::is_same_v<U, bool> && sizeof(U) <= 8) {
    constexpr bool s = std::is_signed_v<U>;
    if constexpr (sizeof(U) == 1) return s ? rma_datatype::i8 : rma_datatype::u8;
    if constexpr (sizeof(U) == 2) return s ? rma_datatype::i16 : rma_datatype::u16;
    if constexpr (sizeof(U) == 4) return s ? rma_datatype::i32 : rma_datatype::u32;
    if constexpr (sizeof(U) == 8) return s ? rma_datatype::i64 : rma_datatype::u64;
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

// SPDX-License-Identifier: MIT
#pragma once
// What hip_executor::execute() does around the caller's work: device scoping and launch-error checks.
//
// The rule for HIP's per-thread "last error" (a kernel launch reports its errors only there):
// - Before the work runs, a pending error left by earlier, unrelated code is cleared so that it is
//   not blamed on this work. It is not lost: it goes to dtl::report_unhandled(). A sticky error (the
//   device context is dead, e.g. after a kernel fault) is returned instead and the work is not run.
// - Right after the work returns, the last error is read (and cleared): a failed launch, such as an
//   invalid configuration, comes back as this execute()'s status.
// - On AMD with HIP 5.x every runtime call overwrites the last error, so a failed launch followed by a
//   successful runtime call inside the same work is not seen; keep the launch last, or return its
//   hipError_t from the work.

#include <dtl/hip/export_exec.hpp>
#include <dtl/core/result.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>
#include <dtl/hip/future_state.hpp>
#include <dtl/hip/runtime.hpp>

#include <functional>
#include <type_traits>
#include <utility>

namespace dtl::hip {

class hip_stream;

namespace detail {

class DTL_HIP_EXEC_API launch_scope {
 public:
  /// Checks the stream, makes its device current, handles a stale last error (see above).
  [[nodiscard]] static result<launch_scope> enter(const hip_stream& stream);

  /// The outcome of the work: its own failure (`work` not ok) or else the launch error HIP recorded.
  [[nodiscard]] status finish(status work) noexcept;

  [[nodiscard]] int device() const noexcept { return guard_.device(); }

 private:
  explicit launch_scope(device_guard guard) noexcept : guard_(std::move(guard)) {}
  device_guard guard_;
};

template <class>
inline constexpr bool unsupported_work_result_v = false;

/// Runs work(stream); turns what it returns (void, hipError_t, status, result<T>) or throws into a status.
template <class F>
status invoke_work(F& work, hipStream_t stream) noexcept {
  try {
    using R = std::remove_cvref_t<std::invoke_result_t<F&, hipStream_t>>;
    if constexpr (std::is_void_v<R>) {
      std::invoke(work, stream);
      return {};
    } else if constexpr (std::is_same_v<R, hipError_t>) {
      return to_status(std::invoke(work, stream), "the work given to hip_executor");
    } else if constexpr (std::is_same_v<R, status>) {
      return std::invoke(work, stream);
    } else if constexpr (is_result_v<R>) {
      auto r = std::invoke(work, stream);
      if (!r.has_value()) return std::move(r).error();
      return {};
    } else {
      static_assert(unsupported_work_result_v<R>,
                    "hip_executor work must return void, hipError_t, dtl::status or dtl::result<T>");
      return {};
    }
  } catch (...) {
    return dtl::current_exception_status("the work given to hip_executor");
  }
}

}  // namespace detail

}  // namespace dtl::hip

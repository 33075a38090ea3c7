// SPDX-License-Identifier: MIT
#pragma once
// handle_state: whether an owner of a HIP handle (hip_stream, hip_event) holds one, or was moved from.
// Construction either succeeds or throws, so moved-from is the only unusable state. Moving one leaves
// the source moved-from, so an owner's move operations only have to move this member.

#include <dtl/hip/export_exec.hpp>
#include <dtl/core/status.hpp>

#include <utility>

namespace dtl::hip::detail {

/// Selects the constructor that makes an object in its moved-from state directly (for a placeholder
/// that must exist without a device, such as the executor a moved-from multi_stream_executor hands out).
struct moved_from_t {
  explicit moved_from_t() = default;
};

class DTL_HIP_EXEC_API handle_state {
 public:
  /// Moved from: owns nothing.
  handle_state() noexcept = default;
  [[nodiscard]] static handle_state make_valid() noexcept {
    handle_state s;
    s.valid_ = true;
    return s;
  }

  handle_state(handle_state&& other) noexcept : valid_(std::exchange(other.valid_, false)) {}
  handle_state& operator=(handle_state&& other) noexcept {
    if (this != &other) valid_ = std::exchange(other.valid_, false);
    return *this;
  }
  handle_state(const handle_state&) = delete;
  handle_state& operator=(const handle_state&) = delete;
  ~handle_state() = default;

  [[nodiscard]] bool valid() const noexcept { return valid_; }
  /// ok when valid, `when_moved_from` (an invalid_state) otherwise.
  [[nodiscard]] const status& error(const status& when_moved_from) const noexcept;

 private:
  bool valid_ = false;
};

}  // namespace dtl::hip::detail

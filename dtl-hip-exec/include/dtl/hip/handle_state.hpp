#pragma once
// handle_state: whether an owner of a HIP handle (hip_stream, hip_event) is usable, and if not, why:
// valid, failed (with the error that made it so), or moved from. Moving one leaves the source
// moved-from, so an owner's move operations only have to move this member.

#include <dtl/hip/export_exec.hpp>
#include <dtl/core/status.hpp>

#include <utility>

namespace dtl::hip::detail {

class DTL_HIP_EXEC_API handle_state {
 public:
  /// Moved from: owns nothing.
  handle_state() noexcept = default;
  [[nodiscard]] static handle_state make_valid() noexcept {
    handle_state s;
    s.kind_ = kind::valid;
    return s;
  }
  /// Failed with `failure` (not ok).
  explicit handle_state(status failure) noexcept : kind_(kind::failed), failure_(std::move(failure)) {}

  handle_state(handle_state&& other) noexcept;
  handle_state& operator=(handle_state&& other) noexcept;
  handle_state(const handle_state&) = delete;
  handle_state& operator=(const handle_state&) = delete;
  ~handle_state() = default;

  [[nodiscard]] bool valid() const noexcept { return kind_ == kind::valid; }
  /// ok when valid, the failure when failed, `when_moved_from` when moved from.
  [[nodiscard]] const status& error(const status& when_moved_from) const noexcept;

 private:
  enum class kind : unsigned char { valid, failed, moved_from };
  kind kind_ = kind::moved_from;
  status failure_;
};

}  // namespace dtl::hip::detail

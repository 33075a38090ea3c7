#include "invalid.hpp"

namespace dtl::hip::detail {

const status& ok_status_ref() noexcept {
  static const status ok{};
  return ok;
}

const status& moved_from_status(std::string_view type) noexcept {
  static const status stream(status_code::invalid_state, "this hip_stream was moved from");
  static const status event(status_code::invalid_state, "this hip_event was moved from");
  static const status other(status_code::invalid_state, "this object was moved from");
  if (type == "hip_stream") return stream;
  if (type == "hip_event") return event;
  return other;
}

}  // namespace dtl::hip::detail

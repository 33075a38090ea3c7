#include <dtl/hip/handle_state.hpp>

#include <utility>

namespace dtl::hip::detail {

handle_state::handle_state(handle_state&& other) noexcept
    : kind_(std::exchange(other.kind_, kind::moved_from)), failure_(std::move(other.failure_)) {}

handle_state& handle_state::operator=(handle_state&& other) noexcept {
  if (this != &other) {
    kind_ = std::exchange(other.kind_, kind::moved_from);
    failure_ = std::move(other.failure_);
  }
  return *this;
}

const status& handle_state::error(const status& when_moved_from) const noexcept {
  static const status ok{};
  switch (kind_) {
    case kind::valid:
      return ok;
    case kind::failed:
      return failure_;
    case kind::moved_from:
      break;
  }
  return when_moved_from;
}

}  // namespace dtl::hip::detail

// SPDX-License-Identifier: MIT
#include <dtl/hip/handle_state.hpp>

namespace dtl::hip::detail {

const status& handle_state::error(const status& when_moved_from) const noexcept {
  static const status ok{};
  return valid_ ? ok : when_moved_from;
}

}  // namespace dtl::hip::detail

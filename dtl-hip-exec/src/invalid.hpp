#pragma once
// Private: the statuses shared by the RAII types' invalid states.

#include <dtl/core/status.hpp>

#include <string_view>

namespace dtl::hip::detail {

/// A long-lived ok status, for accessors returning `const status&`.
[[nodiscard]] const status& ok_status_ref() noexcept;

/// invalid_state "this <type> was moved from"; `type` is "hip_stream" or "hip_event".
[[nodiscard]] const status& moved_from_status(std::string_view type) noexcept;

}  // namespace dtl::hip::detail

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's vocabulary of messages: message_status, send_mode and the wildcards any_source /
// any_tag. The wildcards exist so that upstream's programs compile; the free functions
// (point_to_point.hpp) refuse them with communication_error (not_supported), since a context's
// receive names its source and tag (a wildcard would have no message to match, and would hang).

#include <dtl/core/types.hpp>

#include <string_view>

namespace dtl {

/// What a receive (or a wait) reports: source, tag, and the count in elements.
struct message_status {
  rank_t source = no_rank;
  int tag = 0;
  size_type count = 0;
  bool cancelled = false;
  int error = 0;
};

inline constexpr int any_tag = -1;
inline constexpr rank_t any_source = -1;

/// MPI's send modes. Our blocking send is already synchronous, so every mode is that one.
enum class send_mode {
  standard,
  synchronous,
  ready,
  buffered,
};

[[nodiscard]] constexpr std::string_view to_string(send_mode mode) noexcept {
  switch (mode) {
    case send_mode::standard: return "standard";
    case send_mode::synchronous: return "synchronous";
    case send_mode::ready: return "ready";
    case send_mode::buffered: return "buffered";
  }
  return "unknown";
}

}  // namespace dtl

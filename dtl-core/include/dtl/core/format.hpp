// SPDX-License-Identifier: MIT
#pragma once
// {fmt} support: fmt::format("{}", code) and fmt::format("{}", status).
// Kept apart from status.hpp so that headers compiled by nvcc/hipcc need not include fmt.

#include <dtl/core/status.hpp>
#include <dtl/core/memory_transfer.hpp>

#include <fmt/format.h>

template <>
struct fmt::formatter<dtl::status_code> : fmt::formatter<fmt::string_view> {
  auto format(dtl::status_code code, format_context& ctx) const -> format_context::iterator {
    const std::string_view name = dtl::status_code_name(code);
    return fmt::formatter<fmt::string_view>::format(fmt::string_view(name.data(), name.size()), ctx);
  }
};

template <>
struct fmt::formatter<dtl::transfer_kind> : fmt::formatter<fmt::string_view> {
  auto format(dtl::transfer_kind kind, format_context& ctx) const -> format_context::iterator {
    const std::string_view name = dtl::transfer_kind_name(kind);
    return fmt::formatter<fmt::string_view>::format(fmt::string_view(name.data(), name.size()), ctx);
  }
};

template <>
struct fmt::formatter<dtl::status> : fmt::formatter<fmt::string_view> {
  auto format(const dtl::status& s, format_context& ctx) const -> format_context::iterator {
    const std::string text = s.to_string();
    return fmt::formatter<fmt::string_view>::format(fmt::string_view(text), ctx);
  }
};

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::error_code, its other name for dtl::status_code
// (<dtl/core/status_code.hpp>).

#include <dtl/core/status.hpp>

namespace dtl {
using error_code = status_code;
}  // namespace dtl

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for its debugging aids (debug levels and output, DTL_ASSERT and its kin,
// scoped_timer and DTL_TIMED_SCOPE). Ours is <dtl/core/debugging.hpp>.

#include <dtl/core/debugging.hpp>

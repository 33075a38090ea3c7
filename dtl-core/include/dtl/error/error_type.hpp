// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::error and make_error. Ours is <dtl/core/error.hpp>.

#include <dtl/core/error.hpp>

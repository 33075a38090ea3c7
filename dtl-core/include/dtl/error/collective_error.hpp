// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::collective_error. Ours is <dtl/core/collective_error.hpp>.

#include <dtl/core/collective_error.hpp>

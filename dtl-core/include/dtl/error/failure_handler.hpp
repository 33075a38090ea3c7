// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for the failure handlers (dtl::failure_handler_manager and its kin).
// Ours is <dtl/core/failure_handler.hpp>.

#include <dtl/core/failure_handler.hpp>

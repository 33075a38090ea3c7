// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for environment_options, its per-backend options and backend_ownership.
// Ours: <dtl/containers/communication/environment_options.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/communication/environment_options.hpp>
#include <dtl/core/config.hpp>  // upstream's header gives its DTL_ENABLE_* macros too

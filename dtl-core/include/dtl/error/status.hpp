// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::status, status_code, status_category, error_status.
// Ours is <dtl/core/status.hpp>, which also gives upstream's spellings (docs/upstream.md, "Forwarding headers").

#include <dtl/core/status.hpp>

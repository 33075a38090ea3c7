// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::result and dtl::status.
// Ours is <dtl/core/result.hpp>, which also gives upstream's spellings (docs/upstream.md, "Forwarding headers").

#include <dtl/core/result.hpp>

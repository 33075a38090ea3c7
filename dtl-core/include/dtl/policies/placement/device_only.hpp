// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::device_only<N>.
// Every placement is in <dtl/core/placement.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/core/placement.hpp>

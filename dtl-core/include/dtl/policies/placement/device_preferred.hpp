// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::device_preferred and dtl::device_preferred_on<N>.
// Every placement is in <dtl/core/placement.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/core/placement.hpp>

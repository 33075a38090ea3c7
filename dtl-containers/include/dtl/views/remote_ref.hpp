// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::remote_ref.
// Ours: <dtl/containers/remote_ref.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/remote_ref.hpp>

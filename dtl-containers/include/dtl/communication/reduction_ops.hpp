// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for its reduction operators; DTL HIP has reduce_min and reduce_max.
// Ours: <dtl/containers/communication/reduction_ops.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/communication/reduction_ops.hpp>

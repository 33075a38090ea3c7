// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for its point-to-point free functions (send, recv, isend, irecv,
// wait, sendrecv, ...).
// Ours: <dtl/containers/communication/point_to_point.hpp> (docs/upstream.md).

#include <dtl/containers/communication/point_to_point.hpp>

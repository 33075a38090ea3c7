// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for all of its communication free functions and types that DTL HIP has
// (docs/upstream.md).

#include <dtl/communication/collective_ops.hpp>
#include <dtl/communication/communicator_base.hpp>
#include <dtl/communication/point_to_point.hpp>
#include <dtl/communication/reduction_ops.hpp>

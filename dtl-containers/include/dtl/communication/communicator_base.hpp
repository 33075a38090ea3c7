// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for communicator_base and communicator_properties.
// Ours: <dtl/containers/communication/communicator_base.hpp> (docs/upstream.md).

#include <dtl/containers/communication/communicator_base.hpp>

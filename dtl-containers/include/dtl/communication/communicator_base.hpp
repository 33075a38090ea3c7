// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for communicator_base, communicator_properties and null_communicator.
// Ours: <dtl/containers/communication/communicator_base.hpp> and <.../null_communicator.hpp> (docs/upstream.md).

#include <dtl/containers/communication/communicator_base.hpp>
#include <dtl/containers/communication/null_communicator.hpp>

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for default_communicator and world_comm().
// Ours: <dtl/containers/communication/world_comm.hpp> (docs/upstream.md).

#include <dtl/containers/communication/world_comm.hpp>

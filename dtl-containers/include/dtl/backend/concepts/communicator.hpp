// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::request_handle and the concepts Communicator,
// CollectiveCommunicator, ReducingCommunicator and AsyncCommunicator.
// Ours: <dtl/containers/communication/communicator_concepts.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/communication/communicator_concepts.hpp>

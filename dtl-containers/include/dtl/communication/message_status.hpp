// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for message_status.
// Ours: <dtl/containers/communication/message.hpp> (docs/upstream.md).

#include <dtl/containers/communication/message.hpp>

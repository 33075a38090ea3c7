// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for send_mode.
// Ours: <dtl/containers/communication/message.hpp> (docs/upstream.md).

#include <dtl/containers/communication/message.hpp>

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for its domains' out-of-line members. Ours are defined where they are
// declared, in <dtl/containers/communication/domains.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/core/domain.hpp>

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::distributed_iota, iota_step and local_iota (dtl::iota is in modify.hpp).
// Ours: <dtl/containers/algorithms/iota.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/iota.hpp>
#include <dtl/containers/algorithms/async_reorder.hpp>  // the async_* forms

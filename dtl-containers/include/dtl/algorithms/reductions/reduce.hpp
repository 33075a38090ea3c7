// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::reduce, distributed_reduce, local_reduce.
// Ours: <dtl/containers/algorithms/reduce.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/reduce.hpp>

// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::block_partition<Dim>.
// Ours: <dtl/containers/block_partition.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/block_partition.hpp>

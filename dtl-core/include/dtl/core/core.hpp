// SPDX-License-Identifier: MIT
#pragma once
// Everything in dtl-core except the {fmt} formatters (dtl/core/format.hpp) and macros (dtl/core/try.hpp).

#include <dtl/core/allocation_stats.hpp>
#include <dtl/core/device_id.hpp>
#include <dtl/core/event.hpp>
#include <dtl/core/executor.hpp>
#include <dtl/core/host_memory_space.hpp>
#include <dtl/core/host_memory_transfer.hpp>
#include <dtl/core/memory_space.hpp>
#include <dtl/core/memory_transfer.hpp>
#include <dtl/core/placement.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/status.hpp>
#include <dtl/core/status_boundary.hpp>
#include <dtl/core/status_code.hpp>
#include <dtl/core/status_error.hpp>
#include <dtl/core/types.hpp>

// SPDX-License-Identifier: MIT
#pragma once
// Everything in dtl-hip-mem's memory layer: pointer queries, the memory spaces and the stream-ordered
// pool, managed-memory helpers and transfers.

#include <dtl/hip/basic_memory_space.hpp>
#include <dtl/hip/device.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/hip_device_preferred_memory_space.hpp>
#include <dtl/hip/hip_managed_memory_space.hpp>
#include <dtl/hip/hip_memory_space.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>
#include <dtl/hip/hip_pinned_memory_space.hpp>
#include <dtl/hip/hip_pool_memory_space.hpp>
#include <dtl/hip/managed_memory.hpp>
#include <dtl/hip/pointer.hpp>
#include <dtl/hip/stream_ref.hpp>

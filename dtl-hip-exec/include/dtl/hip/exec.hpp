// SPDX-License-Identifier: MIT
#pragma once
// Everything in dtl-hip-exec: streams, events, the event pool, executors, futures, the progress engine.

#include <dtl/hip/async_copy.hpp>
#include <dtl/hip/event_pool.hpp>
#include <dtl/hip/future.hpp>
#include <dtl/hip/hip_event.hpp>
#include <dtl/hip/hip_executor.hpp>
#include <dtl/hip/hip_stream.hpp>
#include <dtl/hip/multi_stream_executor.hpp>
#include <dtl/hip/event_poller.hpp>

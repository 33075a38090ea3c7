#pragma once
// The HIP guide's include path for events: dtl::hip::hip_event, event_flags (and the event pool).

#include <dtl/hip/event_pool.hpp>
#include <dtl/hip/hip_event.hpp>

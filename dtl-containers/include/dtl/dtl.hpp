#pragma once
// DTL: everything this build enabled. dtl-core always; the HIP layers (memory spaces, transfers, streams,
// events, executors, futures) when DTL was built with HIP; containers, contexts and algorithms.

#include <dtl/containers/config.hpp>
#include <dtl/containers/containers.hpp>
#include <dtl/core/core.hpp>

#if DTL_CONTAINERS_HAS_HIP
#include <dtl/hip/exec.hpp>
#include <dtl/hip/memory.hpp>
#endif

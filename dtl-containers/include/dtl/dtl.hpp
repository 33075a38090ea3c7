// SPDX-License-Identifier: MIT
#pragma once
// DTL: everything this build enabled. dtl-core always; the HIP layers (memory spaces, transfers, streams,
// events, executors, futures) when DTL was built with HIP; containers, contexts and algorithms.
// Upstream DTL's umbrella has the same name: its build macros (<dtl/core/config.hpp>), version and
// vocabulary types come with it too (docs/upstream.md).

#include <dtl/containers/config.hpp>
#include <dtl/containers/containers.hpp>
#include <dtl/core/config.hpp>
#include <dtl/core/core.hpp>
#include <dtl/core/types.hpp>
#include <dtl/core/version.hpp>

#if DTL_CONTAINERS_HAS_HIP
#include <dtl/hip/exec.hpp>
#include <dtl/hip/memory.hpp>
#endif

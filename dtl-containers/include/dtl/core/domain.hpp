// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for the domains (mpi_domain, cpu_domain, and hip_domain / cuda_domain in
// HIP builds). Ours: <dtl/containers/communication/domains.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/communication/domains.hpp>
#include <dtl/core/config.hpp>  // upstream's header gives its DTL_ENABLE_* macros too

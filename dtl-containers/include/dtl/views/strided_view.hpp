// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's path for strided_view: DTL HIP's is <dtl/containers/strided_view.hpp>.
#include <dtl/containers/strided_view.hpp>

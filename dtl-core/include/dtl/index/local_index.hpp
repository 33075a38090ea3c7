// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::local_index: with global_index in <dtl/index/global_index.hpp>.

#include <dtl/index/global_index.hpp>

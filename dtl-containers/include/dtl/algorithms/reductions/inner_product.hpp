// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::inner_product, dot.
// Ours: <dtl/containers/algorithms/inner_product.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/inner_product.hpp>

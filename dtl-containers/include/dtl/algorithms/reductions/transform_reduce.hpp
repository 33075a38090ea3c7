// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::transform_reduce (and, as upstream's, inner_product, sum_of_squares
// and sum_of_abs).
// Ours: <dtl/containers/algorithms/reduce.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/inner_product.hpp>
#include <dtl/containers/algorithms/reduce.hpp>
#include <dtl/containers/algorithms/sum_product.hpp>

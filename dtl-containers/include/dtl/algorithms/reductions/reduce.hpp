// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for dtl::reduce, distributed_reduce, local_reduce, sum,
// product, and the value forms of min_element and max_element (a minmax_result, equal to its value).
// Ours: <dtl/containers/algorithms/reduce.hpp>, sum_product.hpp and minmax.hpp (docs/upstream.md,
// "Forwarding headers").

#include <dtl/containers/algorithms/minmax.hpp>
#include <dtl/containers/algorithms/reduce.hpp>
#include <dtl/containers/algorithms/sum_product.hpp>

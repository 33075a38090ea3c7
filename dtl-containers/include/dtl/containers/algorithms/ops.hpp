// SPDX-License-Identifier: MIT
#pragma once
// The reduction operators the algorithms take (reduce_sum, reduce_product, reduce_min, reduce_max): the
// communication part's, which reduces with them too.

#include <dtl/containers/communication/reduction_ops.hpp>

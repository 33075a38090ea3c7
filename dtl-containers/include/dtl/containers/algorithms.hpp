// SPDX-License-Identifier: MIT
#pragma once
// Every algorithm: fill, iota, for_each, for_each_indexed, transform, copy (algorithms/modify.hpp);
// reduce, distributed_reduce, reduce_to_root, local_reduce, transform_reduce, count_if, count
// (algorithms/reduce.hpp); inclusive_scan, exclusive_scan (algorithms/scan.hpp); stencil_transform
// (algorithms/stencil.hpp); find, find_if, find_if_not, all_of, any_of, none_of (algorithms/search.hpp);
// min_element, max_element, minmax_element (algorithms/minmax.hpp); inner_product, dot
// (algorithms/inner_product.hpp); sort, stable_sort, sort_by_key, distributed_sort, is_sorted
// (algorithms/sort.hpp); upstream's async_reduce, async_transform_reduce, async_for_each, async_transform,
// returning a dtl::distributed_future (algorithms/async.hpp).

#include <dtl/containers/algorithms/modify.hpp>
#include <dtl/containers/algorithms/reduce.hpp>
#include <dtl/containers/algorithms/scan.hpp>
#include <dtl/containers/algorithms/stencil.hpp>
#include <dtl/containers/algorithms/search.hpp>
#include <dtl/containers/algorithms/minmax.hpp>
#include <dtl/containers/algorithms/inner_product.hpp>
#include <dtl/containers/algorithms/sort.hpp>
#include <dtl/containers/algorithms/async.hpp>
#include <dtl/containers/algorithms/execution.hpp>
#include <dtl/containers/algorithms/ops.hpp>

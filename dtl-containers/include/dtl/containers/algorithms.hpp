// SPDX-License-Identifier: MIT
#pragma once
// Every algorithm: fill, iota, for_each, for_each_indexed, transform, copy (algorithms/modify.hpp);
// reduce, distributed_reduce, reduce_to_root, local_reduce, transform_reduce, count_if, count
// (algorithms/reduce.hpp); sum, product (algorithms/sum_product.hpp); inclusive_scan, exclusive_scan
// (algorithms/scan.hpp); stencil_transform (algorithms/stencil.hpp); find, find_if, find_if_not, all_of, any_of,
// none_of (algorithms/search.hpp); min_element, max_element, minmax_element (algorithms/minmax.hpp); inner_product, dot
// (algorithms/inner_product.hpp); sort, stable_sort, sort_by_key, distributed_sort, is_sorted
// (algorithms/sort.hpp); rotate (algorithms/rotate.hpp); unique, unique_copy, count_duplicates,
// has_duplicates (algorithms/unique.hpp); nth_element, median (algorithms/nth_element.hpp); partial_sort,
// partial_sort_copy, top_k, bottom_k (algorithms/partial_sort.hpp); partition_elements, partition, is_partitioned,
// partition_count (algorithms/partition.hpp); replace, replace_if, replace_copy, replace_copy_if
// (algorithms/replace.hpp); adjacent_difference (algorithms/adjacent_difference.hpp); accumulate
// (algorithms/accumulate.hpp); distributed_iota, iota_step (algorithms/iota.hpp); and upstream's local_* forms of one
// rank's block beside them; upstream's async_reduce, async_transform_reduce, async_for_each, async_transform, returning
// a dtl::distributed_future (algorithms/async.hpp), and the async_* forms of the algorithms above
// (algorithms/async_reorder.hpp); upstream's namespaces dtl::algorithms::local, collective and distributed
// (algorithms/domain_namespaces.hpp).

#include <dtl/containers/algorithms/modify.hpp>
#include <dtl/containers/algorithms/reduce.hpp>
#include <dtl/containers/algorithms/sum_product.hpp>
#include <dtl/containers/algorithms/scan.hpp>
#include <dtl/containers/algorithms/stencil.hpp>
#include <dtl/containers/algorithms/search.hpp>
#include <dtl/containers/algorithms/minmax.hpp>
#include <dtl/containers/algorithms/inner_product.hpp>
#include <dtl/containers/algorithms/sort.hpp>
#include <dtl/containers/algorithms/rotate.hpp>
#include <dtl/containers/algorithms/unique.hpp>
#include <dtl/containers/algorithms/nth_element.hpp>
#include <dtl/containers/algorithms/partial_sort.hpp>
#include <dtl/containers/algorithms/partition.hpp>
#include <dtl/containers/algorithms/replace.hpp>
#include <dtl/containers/algorithms/adjacent_difference.hpp>
#include <dtl/containers/algorithms/accumulate.hpp>
#include <dtl/containers/algorithms/iota.hpp>
#include <dtl/containers/algorithms/async.hpp>
#include <dtl/containers/algorithms/async_reorder.hpp>
#include <dtl/containers/algorithms/concepts.hpp>
#include <dtl/containers/algorithms/domain_namespaces.hpp>
#include <dtl/containers/algorithms/execution.hpp>
#include <dtl/containers/algorithms/ops.hpp>

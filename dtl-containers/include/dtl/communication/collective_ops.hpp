// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for its collective free functions (barrier, broadcast, gather,
// scatter, allreduce, reduce, ...).
// Ours: <dtl/containers/communication/collective_ops.hpp>, and dtl::reduce(comm, ...) from the reduce
// object's header, since the communication headers include no algorithm (docs/upstream.md).

#include <dtl/containers/algorithms/reduce.hpp>
#include <dtl/containers/algorithms/sum_product.hpp>
#include <dtl/containers/communication/collective_ops.hpp>

#pragma once
// Everything in dtl-containers: environment, context, distributed_vector with its views, algorithms.

#include <dtl/containers/algorithms.hpp>
#include <dtl/containers/block_partition.hpp>
#include <dtl/containers/config.hpp>
#include <dtl/containers/context.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/containers/environment.hpp>
#include <dtl/containers/global_view.hpp>
#include <dtl/containers/placement_traits.hpp>
#include <dtl/containers/views.hpp>

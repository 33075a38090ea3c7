#pragma once
// Upstream DTL's path for segmented_view: DTL HIP's is <dtl/containers/views.hpp> (segment,
// segmented_view, make_segmented_view).
#include <dtl/containers/views.hpp>

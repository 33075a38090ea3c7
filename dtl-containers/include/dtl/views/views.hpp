// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's umbrella of views, for the views DTL HIP has (docs/upstream.md, "Forwarding headers").

#include <dtl/views/chunk_by_view.hpp>
#include <dtl/views/chunk_view.hpp>
#include <dtl/views/composed_view.hpp>
#include <dtl/views/device_view.hpp>
#include <dtl/views/global_view.hpp>
#include <dtl/views/local_view.hpp>
#include <dtl/views/remote_ref.hpp>
#include <dtl/views/segmented_view.hpp>
#include <dtl/views/strided_view.hpp>
#include <dtl/views/subview.hpp>
#include <dtl/views/tile_view.hpp>
#include <dtl/views/window_view.hpp>

#include <dtl/containers/view_traits.hpp>

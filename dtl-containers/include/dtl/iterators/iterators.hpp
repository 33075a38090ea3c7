// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's umbrella of iterators (docs/upstream.md, "Forwarding headers").

#include <dtl/iterators/device_iterator.hpp>
#include <dtl/iterators/global_iterator.hpp>
#include <dtl/iterators/local_iterator.hpp>

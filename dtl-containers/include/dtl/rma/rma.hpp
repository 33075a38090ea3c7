// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's one-sided communication, all of it: windows, put/get, atomics, scoped epochs, accesses
// driven by the progress engine, references to one remote element.

#include <dtl/backend/concepts/rma_communicator.hpp>
#include <dtl/communication/memory_window.hpp>
#include <dtl/communication/rma_atomic.hpp>
#include <dtl/communication/rma_operations.hpp>
#include <dtl/rma/async_rma.hpp>
#include <dtl/rma/async_rma_request.hpp>
#include <dtl/rma/remote_integration.hpp>
#include <dtl/rma/window_guard.hpp>

namespace dtl::rma {
using dtl::memory_window;
}  // namespace dtl::rma

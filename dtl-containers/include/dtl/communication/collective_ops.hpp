#pragma once
// Upstream DTL's include path for its collective free functions (barrier, broadcast, gather,
// scatter, allreduce, reduce, ...).
// Ours: <dtl/containers/communication/collective_ops.hpp> (docs/upstream.md).

#include <dtl/containers/communication/collective_ops.hpp>

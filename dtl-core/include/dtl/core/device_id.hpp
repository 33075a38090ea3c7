// SPDX-License-Identifier: MIT
#pragma once
// Device ids with a special meaning. Real devices are numbered from 0; these are negative so that
// they can never name one.

namespace dtl {

/// No device: host-only data, or an object (a moved-from stream, say) that belongs to no device.
inline constexpr int no_device = -1;
/// Device id of unified (managed) data, which any device may touch.
inline constexpr int any_device = -2;
/// Device id of placements whose device is chosen at run time (the context's device).
inline constexpr int runtime_device = -3;

}  // namespace dtl

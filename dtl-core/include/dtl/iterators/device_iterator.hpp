// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's device_iterator<T>: device elements are contiguous, so the iterator over them is a
// pointer (what device_view's begin() gives); dereference it in device code only (or on the host for
// managed memory).

namespace dtl {

template <class T>
using device_iterator = T*;

}  // namespace dtl

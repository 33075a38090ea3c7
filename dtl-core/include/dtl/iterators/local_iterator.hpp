// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's local_iterator<Container>: a container's local elements are contiguous, so the
// iterator over them is a pointer (what local_view's begin() gives).

#include <type_traits>

namespace dtl {

template <class Container>
using local_iterator = std::conditional_t<std::is_const_v<Container>, const typename Container::value_type*,
                                          typename Container::value_type*>;
template <class Container>
using const_local_iterator = const typename Container::value_type*;

}  // namespace dtl

// SPDX-License-Identifier: MIT
#pragma once
// Which element types device memory can hold (upstream DTL's names). Device memory is allocated and
// copied as bytes: no constructor, destructor or copy constructor ever runs on it, so an element type
// must be trivial (trivially copyable and trivially default constructible).
//   DeviceStorable<T>, is_device_storable_v<T>
//   requires_device_storable_v<P>           placement P's memory is reachable from a device
//   ValidElementForPlacement<T, P>          T may be stored under placement P

#include <dtl/core/placement.hpp>

#include <type_traits>

namespace dtl {

template <class T>
concept DeviceStorable = std::is_trivially_copyable_v<T> && std::is_trivially_default_constructible_v<T>;

template <class T>
struct is_device_storable : std::bool_constant<DeviceStorable<T>> {};
template <class T>
inline constexpr bool is_device_storable_v = is_device_storable<T>::value;

template <PlacementPolicy P>
inline constexpr bool requires_device_storable_v = P::device_accessible;

template <class T, class P>
concept ValidElementForPlacement = PlacementPolicy<P> &&(!requires_device_storable_v<P> || DeviceStorable<T>);

}  // namespace dtl

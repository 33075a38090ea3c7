// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's loudness tags: empty types a call can take (or a program can check) to say out loud what
// the call does beyond a plain STL one, and traits that read them. A combined tag derives from each of its
// parts; collective implies communicating.
//
//   static_assert(dtl::is_communicating_v<dtl::collective_failable_t>);
//   static_assert(dtl::operation_loudness<dtl::remote_op_t>() == dtl::loudness_level::l1_syntactically_loud);

#include <cstdint>
#include <type_traits>

namespace dtl {

// One tag per property, each with its instance.
struct collective_t {  // every rank of the context takes part
  explicit constexpr collective_t() = default;
};
struct communicating_t {  // it may talk to other ranks
  explicit constexpr communicating_t() = default;
};
struct failable_t {  // it may fail, and says so in its result
  explicit constexpr failable_t() = default;
};
struct blocking_op_t {  // it waits
  explicit constexpr blocking_op_t() = default;
};
struct allocating_t {  // it allocates
  explicit constexpr allocating_t() = default;
};
struct remote_op_t {  // it reaches another rank's elements
  explicit constexpr remote_op_t() = default;
};
struct invalidating_t {  // it invalidates views, iterators or pointers
  explicit constexpr invalidating_t() = default;
};
struct collective_blocking_t : collective_t, blocking_op_t {
  explicit constexpr collective_blocking_t() = default;
};
struct collective_failable_t : collective_t, failable_t {
  explicit constexpr collective_failable_t() = default;
};
struct communicating_failable_t : communicating_t, failable_t {
  explicit constexpr communicating_failable_t() = default;
};

inline constexpr collective_t collective{};
inline constexpr communicating_t communicating{};
inline constexpr failable_t failable{};
inline constexpr blocking_op_t blocking_op{};
inline constexpr allocating_t allocating{};
inline constexpr remote_op_t remote_op{};
inline constexpr invalidating_t invalidating{};
inline constexpr collective_blocking_t collective_blocking{};
inline constexpr collective_failable_t collective_failable{};
inline constexpr communicating_failable_t communicating_failable{};

// Whether a tag type carries a property.
template <class T>
struct is_collective : std::is_base_of<collective_t, T> {};
template <class T>
struct is_communicating : std::bool_constant<std::is_base_of_v<communicating_t, T> || is_collective<T>::value> {};
template <class T>
struct is_failable : std::is_base_of<failable_t, T> {};
template <class T>
struct is_blocking : std::is_base_of<blocking_op_t, T> {};
template <class T>
struct is_allocating : std::is_base_of<allocating_t, T> {};
template <class T>
struct is_remote : std::is_base_of<remote_op_t, T> {};
template <class T>
struct is_invalidating : std::is_base_of<invalidating_t, T> {};
template <class T>
inline constexpr bool is_collective_v = is_collective<T>::value;
template <class T>
inline constexpr bool is_communicating_v = is_communicating<T>::value;
template <class T>
inline constexpr bool is_failable_v = is_failable<T>::value;
template <class T>
inline constexpr bool is_blocking_v = is_blocking<T>::value;
template <class T>
inline constexpr bool is_allocating_v = is_allocating<T>::value;
template <class T>
inline constexpr bool is_remote_v = is_remote<T>::value;
template <class T>
inline constexpr bool is_invalidating_v = is_invalidating<T>::value;

/// How visibly a call departs from a plain STL one: l0 behaves as the STL (local views), l1 is loud in
/// its syntax (remote_ref: no implicit conversion), l2 is told apart by its types, l3 only by its
/// documentation.
enum class loudness_level : std::uint8_t {
  l0_stl_compatible = 0,
  l1_syntactically_loud = 1,
  l2_statically_detectable = 2,
  l3_documented = 3
};

/// The level a tag implies: remote access is loud in its syntax; other communication, collective or not,
/// is told apart by its types; the rest is STL-like.
template <class Tag>
constexpr loudness_level operation_loudness() {
  if constexpr (is_remote_v<Tag> && !is_collective_v<Tag>) return loudness_level::l1_syntactically_loud;
  if constexpr (is_communicating_v<Tag>) return loudness_level::l2_statically_detectable;
  return loudness_level::l0_stl_compatible;
}

/// Compile-time checks that a call's tag says what the call does.
template <class Tag>
constexpr void assert_stl_compatible() {
  static_assert(operation_loudness<Tag>() == loudness_level::l0_stl_compatible,
                "this operation is not STL-like: call it with a tag that says what it does");
}
template <class Tag>
constexpr void assert_collective_acknowledged() {
  static_assert(is_collective_v<Tag>, "a collective operation takes dtl::collective (collective_t)");
}
template <class Tag>
constexpr void assert_communication_acknowledged() {
  static_assert(is_communicating_v<Tag>,
                "this operation may communicate: it takes dtl::communicating or dtl::collective");
}

}  // namespace dtl

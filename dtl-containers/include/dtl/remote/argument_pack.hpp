// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's argument packs: a call's arguments as bytes, one after the other (<dtl/serialization/
// serializer.hpp>'s encoding), and back as a tuple.

#include <dtl/core/result.hpp>
#include <dtl/core/types.hpp>
#include <dtl/serialization/serializer.hpp>

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace dtl::remote {

template <typename... Args>
struct all_serializable : std::bool_constant<(Serializable<std::decay_t<Args>> && ...)> {};
template <typename... Args>
inline constexpr bool all_serializable_v = all_serializable<Args...>::value;
template <typename... Args>
concept SerializableArgs = all_serializable_v<Args...>;

template <typename... Args>
requires SerializableArgs<Args...>
class argument_pack {
 public:
  using tuple_type = std::tuple<std::decay_t<Args>...>;
  static constexpr size_type arity = sizeof...(Args);

  static size_type serialized_size(const std::decay_t<Args>&... args) {
    return (size_type{0} + ... + dtl::serialized_size(args));
  }
  static size_type serialized_size(const tuple_type& args) {
    return std::apply([](const auto&... a) { return serialized_size(a...); }, args);
  }

  /// Writes the arguments at buffer (serialized_size(args...) bytes there); returns the bytes written.
  static size_type serialize(const std::decay_t<Args>&... args, std::byte* buffer) {
    size_type used = 0;
    ((used += dtl::serialize(args, buffer + used)), ...);
    return used;
  }
  static size_type serialize(const tuple_type& args, std::byte* buffer) {
    return std::apply([buffer](const auto&... a) { return serialize(a..., buffer); }, args);
  }

  static std::vector<std::byte> serialize_to_vector(const std::decay_t<Args>&... args) {
    std::vector<std::byte> bytes(serialized_size(args...));
    serialize(args..., bytes.data());
    return bytes;
  }
  static std::vector<std::byte> serialize_to_vector(const tuple_type& args) {
    return std::apply([](const auto&... a) { return serialize_to_vector(a...); }, args);
  }

  /// The arguments in the size bytes at buffer; deserialize_failed when the bytes are short or damaged,
  /// and when bytes are left over (another action's arguments).
  static result<tuple_type> try_deserialize(const std::byte* buffer, size_type size) {
    tuple_type out{};
    size_type used = 0;
    const bool fits = std::apply(
        [&](auto&... field) {
          return ([&](auto& f) {
            using F = std::remove_reference_t<decltype(f)>;
            const size_type step = serializer<F>::read(buffer == nullptr ? nullptr : buffer + used, size - used, f);
            if (step == serializer_failed) return false;
            used += step;
            return true;
          }(field) &&
                  ...);
        },
        out);
    if (!fits || used != size)
      return error_status(status_code::deserialize_failed, no_rank,
                          "argument_pack: the bytes do not hold the arguments");
    return out;
  }

  /// Upstream's unchecked form: the arguments, or value-initialised ones when the bytes do not hold them.
  static tuple_type deserialize(const std::byte* buffer, size_type size) {
    auto r = try_deserialize(buffer, size);
    return r.has_value() ? std::move(r.value()) : tuple_type{};
  }
};

namespace detail {
template <typename Tuple>
struct pack_of;
template <typename... Ts>
struct pack_of<std::tuple<Ts...>> {
  using type = argument_pack<Ts...>;
};
}  // namespace detail

/// The argument pack of a tuple type (an action's request_type).
template <typename Tuple>
using argument_pack_for = typename detail::pack_of<Tuple>::type;

}  // namespace dtl::remote

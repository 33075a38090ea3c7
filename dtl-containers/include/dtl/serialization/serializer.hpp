// SPDX-License-Identifier: MIT
#pragma once
// Byte serialization of values for messages (upstream DTL's <dtl/serialization/serializer.hpp> names):
// trivially copyable types as their bytes; std::string and std::vector of serializable elements as an
// 8-byte count then the elements; std::pair member by member. Reads are checked against the bytes given.

#include <dtl/core/result.hpp>
#include <dtl/core/status.hpp>
#include <dtl/core/types.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dtl {

/// serializer<T>: size(v) bytes, write(v, out) -> bytes written, read(in, available, v) -> bytes read or
/// serializer_failed when the bytes do not hold a T.
template <typename T, typename Enable = void>
struct serializer;

inline constexpr size_type serializer_failed = static_cast<size_type>(-1);

template <typename T>
concept Serializable = requires(const T& v, T& out, std::byte* p, const std::byte* q, size_type n) {
  { serializer<T>::size(v) } -> std::same_as<size_type>;
  { serializer<T>::write(v, p) } -> std::same_as<size_type>;
  { serializer<T>::read(q, n, out) } -> std::same_as<size_type>;
};

template <typename T>
struct serializer<T, std::enable_if_t<std::is_trivially_copyable_v<T> && !std::is_pointer_v<T>>> {
  static constexpr size_type size(const T&) noexcept { return sizeof(T); }
  static size_type write(const T& v, std::byte* out) noexcept {
    std::memcpy(out, &v, sizeof(T));
    return sizeof(T);
  }
  static size_type read(const std::byte* in, size_type available, T& v) noexcept {
    if (available < sizeof(T) || in == nullptr) return serializer_failed;
    std::memcpy(&v, in, sizeof(T));
    return sizeof(T);
  }
};

namespace detail {
// The count before a string's or vector's elements.
inline size_type write_count(size_type n, std::byte* out) noexcept { return serializer<std::uint64_t>::write(n, out); }
inline size_type read_count(const std::byte* in, size_type available, size_type& n) noexcept {
  std::uint64_t count = 0;
  const size_type used = serializer<std::uint64_t>::read(in, available, count);
  n = static_cast<size_type>(count);
  return used;
}
}  // namespace detail

template <>
struct serializer<std::string> {
  static size_type size(const std::string& s) noexcept { return sizeof(std::uint64_t) + s.size(); }
  static size_type write(const std::string& s, std::byte* out) noexcept {
    const size_type head = detail::write_count(s.size(), out);
    if (!s.empty()) std::memcpy(out + head, s.data(), s.size());
    return head + s.size();
  }
  static size_type read(const std::byte* in, size_type available, std::string& s) {
    size_type n = 0;
    const size_type head = detail::read_count(in, available, n);
    if (head == serializer_failed || n > available - head) return serializer_failed;
    s.assign(reinterpret_cast<const char*>(in + head), n);
    return head + n;
  }
};

template <typename E>
requires(!std::is_same_v<E, bool> && Serializable<E> &&
         std::default_initializable<E>) struct serializer<std::vector<E>> {
  static size_type size(const std::vector<E>& v) {
    size_type total = sizeof(std::uint64_t);
    for (const E& e : v) total += serializer<E>::size(e);
    return total;
  }
  static size_type write(const std::vector<E>& v, std::byte* out) {
    size_type used = detail::write_count(v.size(), out);
    for (const E& e : v) used += serializer<E>::write(e, out + used);
    return used;
  }
  static size_type read(const std::byte* in, size_type available, std::vector<E>& v) {
    size_type n = 0;
    size_type used = detail::read_count(in, available, n);
    if (used == serializer_failed) return serializer_failed;
    v.clear();
    for (size_type i = 0; i < n; ++i) {  // never reserve n: a damaged count must not allocate
      E e{};
      const size_type step = serializer<E>::read(in + used, available - used, e);
      if (step == serializer_failed) return serializer_failed;
      used += step;
      v.push_back(std::move(e));
    }
    return used;
  }
};

template <typename A, typename B>
requires(!std::is_trivially_copyable_v<std::pair<A, B>> && Serializable<A> &&
         Serializable<B>) struct serializer<std::pair<A, B>> {
  static size_type size(const std::pair<A, B>& p) {
    return serializer<A>::size(p.first) + serializer<B>::size(p.second);
  }
  static size_type write(const std::pair<A, B>& p, std::byte* out) {
    const size_type first = serializer<A>::write(p.first, out);
    return first + serializer<B>::write(p.second, out + first);
  }
  static size_type read(const std::byte* in, size_type available, std::pair<A, B>& p) {
    const size_type first = serializer<A>::read(in, available, p.first);
    if (first == serializer_failed) return serializer_failed;
    const size_type second = serializer<B>::read(in + first, available - first, p.second);
    return second == serializer_failed ? serializer_failed : first + second;
  }
};

/// Bytes that serialize(v, ...) writes.
template <Serializable T>
[[nodiscard]] size_type serialized_size(const T& v) {
  return serializer<T>::size(v);
}

/// Writes v at out (serialized_size(v) bytes there); returns the bytes written.
template <Serializable T>
size_type serialize(const T& v, std::byte* out) {
  return serializer<T>::write(v, out);
}

/// Reads a T from the size bytes at in; deserialize_failed when they do not hold one.
template <Serializable T>
requires std::default_initializable<T>
[[nodiscard]] result<T> try_deserialize(const std::byte* in, size_type size) {
  T v{};
  if (serializer<T>::read(in, size, v) == serializer_failed)
    return error_status(status_code::deserialize_failed, no_rank, "serializer: the bytes do not hold the value");
  return v;
}

/// Upstream's unchecked form: the value, or T{} when the bytes do not hold one (try_deserialize says why).
template <Serializable T>
requires std::default_initializable<T>
[[nodiscard]] T deserialize(const std::byte* in, size_type size) {
  auto r = try_deserialize<T>(in, size);
  return r.has_value() ? std::move(r.value()) : T{};
}

}  // namespace dtl

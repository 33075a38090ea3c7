// SPDX-License-Identifier: MIT
// A one-sided window over this process alone: its accesses are copies, its synchronisation is nothing
// to wait for.
#include "transport/rma_window.hpp"

#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>

namespace dtl::detail {

namespace {

template <class T>
T combine(T t, T o, rma_reduce_op op) noexcept {
  switch (op) {
    case rma_reduce_op::sum: return static_cast<T>(t + o);
    case rma_reduce_op::prod: return static_cast<T>(t * o);
    case rma_reduce_op::min: return o < t ? o : t;
    case rma_reduce_op::max: return o > t ? o : t;
    case rma_reduce_op::replace: return o;
    case rma_reduce_op::no_op: return t;
    default: break;
  }
  if constexpr (std::is_integral_v<T>) {
    if (op == rma_reduce_op::band) return static_cast<T>(t & o);
    if (op == rma_reduce_op::bor) return static_cast<T>(t | o);
    return static_cast<T>(t ^ o);
  } else {
    return t;  // bitwise operations on floating point are refused before they get here
  }
}

// Elements are copied in and out (memcpy): a window's offset need not be aligned for T.
template <class T>
void combine_all(std::byte* target, const std::byte* origin, std::byte* result, std::size_t count, rma_reduce_op op) {
  for (std::size_t i = 0; i < count; ++i) {
    T t, o{};
    std::memcpy(&t, target + i * sizeof(T), sizeof(T));
    if (op != rma_reduce_op::no_op) std::memcpy(&o, origin + i * sizeof(T), sizeof(T));
    if (result != nullptr) std::memcpy(result + i * sizeof(T), &t, sizeof(T));
    t = combine(t, o, op);
    std::memcpy(target + i * sizeof(T), &t, sizeof(T));
  }
}

class self_rma_window final : public rma_window {
 public:
  self_rma_window(std::byte* base, std::size_t bytes, bool owned) noexcept
      : base_(base), owned_(owned), extents_{bytes} {}
  ~self_rma_window() override {
    if (owned_) ::operator delete(base_);
  }
  void* base() const noexcept override { return base_; }
  const std::vector<std::uint64_t>& extents() const noexcept override { return extents_; }
  int rank() const noexcept override { return 0; }
  void* native() noexcept override { return nullptr; }
  bool completes_on_return() const noexcept override { return true; }

  result<bool> all_ready(bool ready) override { return ready; }
  status fence(int) override { return {}; }
  status lock(int, rma_lock_mode) override { return {}; }
  status unlock(int) override { return {}; }
  status lock_all() override { return {}; }
  status unlock_all() override { return {}; }
  status flush(int, bool) override { return {}; }

  status put(const void* origin, std::size_t bytes, int, std::size_t offset) override {
    if (bytes != 0) std::memmove(base_ + offset, origin, bytes);
    return {};
  }
  status get(void* origin, std::size_t bytes, int, std::size_t offset) override {
    if (bytes != 0) std::memmove(origin, base_ + offset, bytes);
    return {};
  }
  status accumulate(const void* origin, void* result, std::size_t count, rma_datatype type, int, std::size_t offset,
                    rma_reduce_op op) override {
    std::byte* t = base_ + offset;
    const auto* o = static_cast<const std::byte*>(origin);
    auto* r = static_cast<std::byte*>(result);
    switch (type) {
      case rma_datatype::u8: combine_all<std::uint8_t>(t, o, r, count, op); break;
      case rma_datatype::i8: combine_all<std::int8_t>(t, o, r, count, op); break;
      case rma_datatype::u16: combine_all<std::uint16_t>(t, o, r, count, op); break;
      case rma_datatype::i16: combine_all<std::int16_t>(t, o, r, count, op); break;
      case rma_datatype::u32: combine_all<std::uint32_t>(t, o, r, count, op); break;
      case rma_datatype::i32: combine_all<std::int32_t>(t, o, r, count, op); break;
      case rma_datatype::u64: combine_all<std::uint64_t>(t, o, r, count, op); break;
      case rma_datatype::i64: combine_all<std::int64_t>(t, o, r, count, op); break;
      case rma_datatype::f32: combine_all<float>(t, o, r, count, op); break;
      case rma_datatype::f64: combine_all<double>(t, o, r, count, op); break;
    }
    return {};
  }
  status compare_and_swap(const void* origin, const void* compare, void* result, rma_datatype type, int,
                          std::size_t offset) override {
    const std::size_t n = rma_datatype_size(type);
    std::byte* t = base_ + offset;
    std::byte old[8];
    std::memcpy(old, t, n);
    if (std::memcmp(old, compare, n) == 0) std::memcpy(t, origin, n);
    std::memcpy(result, old, n);
    return {};
  }

 private:
  std::byte* base_;
  bool owned_;
  std::vector<std::uint64_t> extents_;
};

}  // namespace

result<std::unique_ptr<rma_window>> make_self_rma_window(void* base, std::size_t bytes) {
  const bool allocate = base == nullptr && bytes != 0;
  if (allocate) {
    base = ::operator new(bytes, std::nothrow);
    if (base == nullptr) return status(status_code::allocation_failed, "the window's memory could not be allocated");
    std::memset(base, 0, bytes);
  }
  return std::unique_ptr<rma_window>(std::make_unique<self_rma_window>(static_cast<std::byte*>(base), bytes, allocate));
}

}  // namespace dtl::detail

// SPDX-License-Identifier: MIT
// The device primitives against a sequential host reference, on the GPU (plain hipMalloc memory).
// Data are small integers, so that every float and double result is exact whatever the order of
// the operations.
#include "doctest.hpp"

#include "device_primitives_kernels.hpp"

#include <dtl/hip/device.hpp>

#include <hip/hip_runtime_api.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace {

using namespace prim_test;

constexpr std::size_t sizes[] = {0, 1, 2, 3, 255, 256, 257, 1000003, std::size_t{1} << 20};

/// A stream of the current device and a scratch for it.
struct gpu_context {
  int device = dtl::hip::current_device().value();
  hipStream_t stream = make_stream();
  device_scratch scratch{device, stream};

  gpu_context() = default;
  gpu_context(const gpu_context&) = delete;
  gpu_context& operator=(const gpu_context&) = delete;
  ~gpu_context() {
    CHECK(scratch.release().ok());
    CHECK(hipStreamDestroy(stream) == hipSuccess);
  }
  void sync() const { REQUIRE(hipStreamSynchronize(stream) == hipSuccess); }

  static hipStream_t make_stream() {
    hipStream_t s = nullptr;
    REQUIRE(hipStreamCreateWithFlags(&s, hipStreamNonBlocking) == hipSuccess);
    return s;
  }
};

/// n elements of device memory (hipMalloc), copied on the context's stream.
template <class T>
class device_array {
 public:
  device_array(const gpu_context& ctx, std::size_t n) : ctx_(ctx), n_(n) {
    REQUIRE(hipMalloc(reinterpret_cast<void**>(&ptr_), (n > 0 ? n : 1) * sizeof(T)) == hipSuccess);
  }
  device_array(const gpu_context& ctx, const std::vector<T>& values) : device_array(ctx, values.size()) {
    upload(values);
  }
  device_array(const device_array&) = delete;
  device_array& operator=(const device_array&) = delete;
  ~device_array() { CHECK(hipFree(ptr_) == hipSuccess); }

  [[nodiscard]] T* get() const noexcept { return ptr_; }
  void upload(const std::vector<T>& values) {
    REQUIRE(values.size() == n_);
    if (n_ == 0) return;
    REQUIRE(hipMemcpyAsync(ptr_, values.data(), n_ * sizeof(T), hipMemcpyHostToDevice, ctx_.stream) == hipSuccess);
    ctx_.sync();
  }
  [[nodiscard]] std::vector<T> download() const {
    std::vector<T> values(n_);
    if (n_ == 0) return values;
    REQUIRE(hipMemcpyAsync(values.data(), ptr_, n_ * sizeof(T), hipMemcpyDeviceToHost, ctx_.stream) == hipSuccess);
    ctx_.sync();
    return values;
  }

 private:
  const gpu_context& ctx_;
  std::size_t n_;
  T* ptr_ = nullptr;
};

/// One value on the device, in the scratch's result slot.
template <class T>
T* result_slot(gpu_context& ctx) {
  return static_cast<T*>(ctx.scratch.result_slot(sizeof(T)).value());
}

template <class T>
T read(const gpu_context& ctx, const T* d_value) {
  T value{};
  REQUIRE(hipMemcpyAsync(&value, d_value, sizeof(T), hipMemcpyDeviceToHost, ctx.stream) == hipSuccess);
  ctx.sync();
  return value;
}

/// Small integers in [-1, 2] (or +-1 for products), spread without a short period.
template <class T>
T value_at(std::size_t i, op_kind kind = op_kind::std_plus) {
  const int small = static_cast<int>((i * 2654435761u) >> 13 & 3u) - 1;
  if constexpr (std::is_same_v<T, vec3>) {
    return vec3{static_cast<float>(small), static_cast<float>(small + 1), static_cast<float>(2 * small)};
  } else {
    if (kind == op_kind::std_multiplies) return (small & 1) != 0 ? T(-1) : T(1);
    return static_cast<T>(small);
  }
}

template <class T>
std::vector<T> values(std::size_t n, op_kind kind = op_kind::std_plus) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = value_at<T>(i, kind);
  return v;
}

/// An init value that shows in the result of each kind of operator.
template <class T>
T init_for(op_kind kind) {
  if constexpr (std::is_same_v<T, vec3>) {
    return vec3{5, 6, 7};
  } else {
    switch (kind) {
      case op_kind::std_multiplies: return T(-1);
      case op_kind::min:
      case op_kind::max:
      case op_kind::host_device_lambda: return T(1);
      default: return T(5);
    }
  }
}

template <class T>
T sentinel() {
  if constexpr (std::is_same_v<T, vec3>) {
    return vec3{-7, -7, -7};
  } else {
    return T(-7);
  }
}

/// Every element equal, else the number of mismatches and the first one.
template <class T>
void check_equal(const std::vector<T>& got, const std::vector<T>& want) {
  REQUIRE(got.size() == want.size());
  std::size_t mismatches = 0;
  std::size_t first = got.size();
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!(got[i] == want[i])) {
      if (mismatches++ == 0) first = i;
    }
  }
  INFO(mismatches << " mismatches of " << got.size() << ", the first at " << first);
  CHECK(mismatches == 0);
}

/// Runs write(ptr, n) on [offset, offset + n) of a buffer with room on both sides, and checks that
/// the range holds `want` and the rest is untouched.
template <class T, class Write>
void check_range_write(gpu_context& ctx, std::size_t offset, const std::vector<T>& want, Write write) {
  const std::size_t n = want.size();
  std::vector<T> expected(n + 8, sentinel<T>());
  device_array<T> buffer(ctx, expected);
  REQUIRE(write(buffer.get() + offset, n).ok());
  std::copy(want.begin(), want.end(), expected.begin() + static_cast<std::ptrdiff_t>(offset));
  check_equal(buffer.download(), expected);
}

template <class T>
std::vector<T> inclusive_reference(const std::vector<T>& in, op_kind kind) {
  std::vector<T> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = i == 0 ? in[0] : apply(kind, out[i - 1], in[i]);
  return out;
}

template <class T>
std::vector<T> exclusive_reference(const std::vector<T>& in, T init, op_kind kind) {
  std::vector<T> out(in.size());
  T carry = init;
  for (std::size_t i = 0; i < in.size(); ++i) {
    out[i] = carry;
    carry = apply(kind, carry, in[i]);
  }
  return out;
}

/// f(kind, n) for every operator kind T is instantiated with, and every size.
template <class T, class F>
void for_each_kind_and_size(F f) {
  for (const op_kind kind : all_op_kinds) {
    if (!supported<T>(kind)) continue;
    for (const std::size_t n : sizes) {
      CAPTURE(static_cast<int>(kind));
      CAPTURE(n);
      f(kind, n);
    }
  }
}

/// scan(in, out) out of place and then in place, each against `want`.
template <class T, class Scan>
void check_scan(gpu_context& ctx, const std::vector<T>& in, const std::vector<T>& want, Scan scan) {
  device_array<T> data(ctx, in);
  device_array<T> out(ctx, in.size());
  REQUIRE(scan(data.get(), out.get()).ok());
  check_equal(out.download(), want);
  check_equal(data.download(), in);  // the input is left alone
  REQUIRE(scan(data.get(), data.get()).ok());
  check_equal(data.download(), want);
}

}  // namespace

TEST_SUITE("gpu.primitives") {
  TEST_CASE_TEMPLATE("fill: every size, aligned and unaligned starts", T, float, double, int, vec3, std::uint8_t) {
    gpu_context ctx;
    const T value = value_at<T>(5);
    for (const std::size_t n : sizes) {
      for (const std::size_t offset : {0, 1, 2, 3}) {
        CAPTURE(n);
        CAPTURE(offset);
        check_range_write<T>(ctx, offset, std::vector<T>(n, value),
                             [&](T* data, std::size_t count) { return fill(data, count, value, ctx.stream); });
      }
    }
  }

  TEST_CASE_TEMPLATE("iota: every size, aligned and unaligned starts", T, float, double, int) {
    gpu_context ctx;
    const T first = T(-3);
    for (const std::size_t n : sizes) {
      for (const std::size_t offset : {0, 1, 3}) {
        CAPTURE(n);
        CAPTURE(offset);
        std::vector<T> want(n);
        for (std::size_t i = 0; i < n; ++i) want[i] = first + static_cast<T>(i);
        check_range_write<T>(ctx, offset, want,
                             [&](T* data, std::size_t count) { return iota(data, count, first, ctx.stream); });
      }
    }
  }

  TEST_CASE_TEMPLATE("for_each and for_each_indexed", T, float, double, int) {
    gpu_context ctx;
    for (const std::size_t n : sizes) {
      CAPTURE(n);
      const std::vector<T> in = values<T>(n);
      device_array<T> data(ctx, in);
      REQUIRE(for_each_affine(data.get(), n, ctx.stream).ok());
      std::vector<T> want(n);
      for (std::size_t i = 0; i < n; ++i) want[i] = T(2) * in[i] + T(1);
      check_equal(data.download(), want);

      const std::size_t first_index = 1000;
      REQUIRE(for_each_indexed_add(data.get(), n, first_index, ctx.stream).ok());
      for (std::size_t i = 0; i < n; ++i) want[i] += static_cast<T>(first_index + i);
      check_equal(data.download(), want);
    }
  }

  TEST_CASE_TEMPLATE("transform: unary and binary, out of place and in place", T, float, double, int) {
    gpu_context ctx;
    for (const std::size_t n : sizes) {
      CAPTURE(n);
      const std::vector<T> a = values<T>(n);
      std::vector<T> b(n);
      for (std::size_t i = 0; i < n; ++i) b[i] = value_at<T>(i + 77);
      device_array<T> da(ctx, a);
      device_array<T> db(ctx, b);
      device_array<T> out(ctx, n);

      std::vector<T> affine(n);
      for (std::size_t i = 0; i < n; ++i) affine[i] = T(2) * a[i] + T(1);
      REQUIRE(transform_affine(da.get(), out.get(), n, ctx.stream).ok());
      check_equal(out.download(), affine);
      check_equal(da.download(), a);  // the input is left alone

      std::vector<T> sum(n);
      for (std::size_t i = 0; i < n; ++i) sum[i] = a[i] + b[i];
      REQUIRE(transform_add(da.get(), db.get(), out.get(), n, ctx.stream).ok());
      check_equal(out.download(), sum);

      REQUIRE(transform_add(da.get(), db.get(), da.get(), n, ctx.stream).ok());  // out == a
      check_equal(da.download(), sum);
      REQUIRE(transform_affine(db.get(), db.get(), n, ctx.stream).ok());  // in == out
      for (std::size_t i = 0; i < n; ++i) b[i] = T(2) * b[i] + T(1);
      check_equal(db.download(), b);
    }
  }

  TEST_CASE("transform of a user-defined type") {
    gpu_context ctx;
    const std::size_t n = 1000003;
    const std::vector<vec3> a = values<vec3>(n);
    device_array<vec3> da(ctx, a);
    device_array<vec3> out(ctx, n);
    REQUIRE(transform_add(da.get(), da.get(), out.get(), n, ctx.stream).ok());
    std::vector<vec3> want(n);
    for (std::size_t i = 0; i < n; ++i) want[i] = a[i] + a[i];
    check_equal(out.download(), want);
  }

  TEST_CASE_TEMPLATE("reduce with every operator; n == 0 gives init", T, float, double, int, vec3) {
    gpu_context ctx;
    for_each_kind_and_size<T>([&](op_kind kind, std::size_t n) {
      const std::vector<T> in = values<T>(n, kind);
      const T init = init_for<T>(kind);
      T want = init;
      for (const T& x : in) want = apply(kind, want, x);
      device_array<T> data(ctx, in);
      T* d_result = result_slot<T>(ctx);
      REQUIRE(reduce(data.get(), n, init, kind, d_result, ctx.scratch, ctx.stream).ok());
      CHECK(read(ctx, d_result) == want);
    });
  }

  TEST_CASE_TEMPLATE("transform_reduce: a sum of squares", T, float, double, int) {
    gpu_context ctx;
    for (const std::size_t n : sizes) {
      CAPTURE(n);
      const std::vector<T> in = values<T>(n);
      T want = T(5);
      for (const T& x : in) want += x * x;
      device_array<T> data(ctx, in);
      T* d_result = result_slot<T>(ctx);
      REQUIRE(sum_of_squares(data.get(), n, T(5), d_result, ctx.scratch, ctx.stream).ok());
      CHECK(read(ctx, d_result) == want);
    }
  }

  TEST_CASE("transform_reduce into another type: counting bytes") {
    gpu_context ctx;
    for (const std::size_t n : sizes) {
      CAPTURE(n);
      std::vector<std::uint8_t> in(n);
      unsigned long long want = 0;
      for (std::size_t i = 0; i < n; ++i) {
        in[i] = static_cast<std::uint8_t>(value_at<int>(i) + 1);  // 0 to 3
        want += in[i] != 0 ? 1 : 0;
      }
      device_array<std::uint8_t> data(ctx, in);
      auto* d_result = result_slot<unsigned long long>(ctx);
      REQUIRE(count_nonzero(data.get(), n, d_result, ctx.scratch, ctx.stream).ok());
      CHECK(read(ctx, d_result) == want);
    }
  }

  TEST_CASE_TEMPLATE("inclusive_scan with every operator, out of place and in place", T, float, double, int, vec3) {
    gpu_context ctx;
    for_each_kind_and_size<T>([&](op_kind kind, std::size_t n) {
      const std::vector<T> in = values<T>(n, kind);
      check_scan(ctx, in, inclusive_reference(in, kind),
                 [&](const T* from, T* to) { return inclusive_scan(from, to, n, kind, ctx.scratch, ctx.stream); });
    });
  }

  TEST_CASE_TEMPLATE("exclusive_scan with a non-zero init, out of place and in place", T, float, double, int, vec3) {
    gpu_context ctx;
    for_each_kind_and_size<T>([&](op_kind kind, std::size_t n) {
      const std::vector<T> in = values<T>(n, kind);
      const T init = init_for<T>(kind);
      check_scan(ctx, in, exclusive_reference(in, init, kind), [&](const T* from, T* to) {
        return exclusive_scan(from, to, n, init, kind, ctx.scratch, ctx.stream);
      });
    });
  }

  TEST_CASE_TEMPLATE("apply_prefix with every operator", T, float, double, int, vec3) {
    gpu_context ctx;
    for_each_kind_and_size<T>([&](op_kind kind, std::size_t n) {
      const std::vector<T> in = values<T>(n, kind);
      const T prefix = init_for<T>(kind);
      std::vector<T> want(n);
      for (std::size_t i = 0; i < n; ++i) want[i] = apply(kind, prefix, in[i]);
      device_array<T> data(ctx, in);
      REQUIRE(apply_prefix(data.get(), n, prefix, kind, ctx.stream).ok());
      check_equal(data.download(), want);
    });
  }

  TEST_CASE("bad arguments give a status, and the current device stays") {
    gpu_context ctx;
    const int before = dtl::hip::current_device().value();
    CHECK(fill<float>(nullptr, 5, 1.0f, ctx.stream) == dtl::status_code::null_pointer);
    CHECK(fill<float>(nullptr, 0, 1.0f, ctx.stream).ok());  // n == 0: nothing to do
    device_array<float> data(ctx, values<float>(10));
    CHECK(reduce<float>(data.get(), 10, 0.0f, op_kind::std_plus, nullptr, ctx.scratch, ctx.stream) ==
          dtl::status_code::null_pointer);

    // A scratch belongs to one stream: using it on another is refused before anything runs.
    hipStream_t other = gpu_context::make_stream();
    const dtl::status wrong_stream =
        reduce<float>(data.get(), 10, 0.0f, op_kind::std_plus, result_slot<float>(ctx), ctx.scratch, other);
    CHECK(wrong_stream == dtl::status_code::invalid_argument);
    CHECK(hipStreamDestroy(other) == hipSuccess);
    CHECK(dtl::hip::current_device().value() == before);
  }
}

TEST_SUITE("gpu.primitives") {
  TEST_CASE("device_scratch grows geometrically, keeps its result slot apart, moves and frees") {
    gpu_context ctx;
    device_scratch scratch(ctx.device, ctx.stream);
    CHECK(scratch.capacity() == 0);
    void* first = scratch.reserve(1000).value();
    CHECK(first != nullptr);
    CHECK(scratch.capacity() >= 1000);
    CHECK(scratch.reserve(10).value() == first);  // already enough: the same buffer
    const std::size_t before = scratch.capacity();
    CHECK(scratch.reserve(before + 1).has_value());
    CHECK(scratch.capacity() >= 2 * before);
    void* slot = scratch.result_slot(8).value();
    CHECK(slot != nullptr);
    CHECK(slot != scratch.reserve(1).value());
    CHECK(scratch.result_slot_capacity() >= 8);

    device_scratch moved(std::move(scratch));
    CHECK(scratch.capacity() == 0);  // NOLINT(bugprone-use-after-move): moved-from holds nothing
    CHECK(moved.capacity() >= 2 * before);
    CHECK(moved.release().ok());
    CHECK(moved.capacity() == 0);
    CHECK(moved.result_slot_capacity() == 0);
    CHECK(moved.reserve(64).has_value());  // usable again after release()
  }
}

// Provokes a failed hipMalloc on purpose (compute-sanitizer reports it): suite gpu-fault in Meson.
TEST_SUITE("gpu.primitives_fault") {
  TEST_CASE("a reserve larger than the device is out_of_memory, and the scratch stays usable") {
    gpu_context ctx;
    const auto memory = dtl::hip::get_memory_info(ctx.device).value();
    CHECK(ctx.scratch.reserve(1000).has_value());
    const auto too_much = ctx.scratch.reserve(memory.total * 2);
    REQUIRE(too_much.has_error());
    CHECK(too_much.error() == dtl::status_code::out_of_memory);
    CHECK(ctx.scratch.reserve(1000).has_value());
    device_array<int> data(ctx, values<int>(1000));
    int* d_result = result_slot<int>(ctx);
    REQUIRE(reduce(data.get(), 1000, 0, op_kind::std_plus, d_result, ctx.scratch, ctx.stream).ok());
    int want = 0;
    for (const int x : values<int>(1000)) want += x;
    CHECK(read(ctx, d_result) == want);
  }
}

TEST_SUITE("gpu.primitives_large") {
  TEST_CASE("fill and reduce 2^28 floats (1 GiB)") {
    gpu_context ctx;
    const std::size_t n = std::size_t{1} << 28;
    device_array<float> data(ctx, n);
    REQUIRE(fill(data.get(), n, 1.0f, ctx.stream).ok());
    float* d_result = result_slot<float>(ctx);
    REQUIRE(reduce(data.get(), n, 0.0f, op_kind::std_plus, d_result, ctx.scratch, ctx.stream).ok());
    const double sum = read(ctx, d_result);
    CHECK(std::abs(sum - static_cast<double>(n)) <= static_cast<double>(n) * 1e-6);  // float rounding at most
    REQUIRE(reduce(data.get(), n, -5.0f, op_kind::max, d_result, ctx.scratch, ctx.stream).ok());
    CHECK(read(ctx, d_result) == 1.0f);
    REQUIRE(fill(data.get() + 12345, 1, 9.0f, ctx.stream).ok());
    REQUIRE(reduce(data.get(), n, -5.0f, op_kind::max, d_result, ctx.scratch, ctx.stream).ok());
    CHECK(read(ctx, d_result) == 9.0f);
  }

  TEST_CASE("more than 2^32 elements: fill and count 2^32 + 3 bytes") {
    // Beyond 32-bit indices in the kernels, and beyond CUB's 32-bit offsets.
    gpu_context ctx;
    const std::size_t n = (std::size_t{1} << 32) + 3;
    device_array<std::uint8_t> data(ctx, n + 1);
    std::uint8_t* begin = data.get() + 1;  // an unaligned start
    REQUIRE(fill(begin, n, std::uint8_t{1}, ctx.stream).ok());
    REQUIRE(fill(begin + (std::size_t{1} << 31) - 50, 100, std::uint8_t{0}, ctx.stream).ok());  // across 2^31
    REQUIRE(fill(begin + (std::size_t{1} << 32) - 1, 2, std::uint8_t{0}, ctx.stream).ok());     // across 2^32
    auto* d_result = result_slot<unsigned long long>(ctx);
    REQUIRE(count_nonzero(begin, n, d_result, ctx.scratch, ctx.stream).ok());
    CHECK(read(ctx, d_result) == n - 102);
  }
}

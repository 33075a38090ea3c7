// SPDX-License-Identifier: MIT
// Device queries, device_guard and HIP error mapping. Suites device and error run everywhere; no_device
// and gpu.device_ids run where the machine has (no) devices, as their Meson tests state.
#include "doctest.hpp"

#include <dtl/hip/device.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>
#include <dtl/hip/stream_ref.hpp>

#include <optional>
#include <string>
#include <string_view>

TEST_SUITE("device") {
  TEST_CASE("device_count never fails and never goes negative") {
    CHECK(dtl::hip::device_count() >= 0);
    CHECK(std::string(dtl::hip::platform_name()).size() > 0);
  }

  TEST_CASE("a negative device id is invalid_argument on every machine") {
    CHECK(dtl::hip::check_device(-1) == dtl::status_code::invalid_argument);
    CHECK(dtl::hip::check_device(-7) == dtl::status_code::invalid_argument);
    CHECK(dtl::hip::resolve_device(-1).error() == dtl::status_code::invalid_argument);
    CHECK(dtl::hip::get_device_properties(-1).error() == dtl::status_code::invalid_argument);
    CHECK(dtl::hip::get_static_device_properties(-1).error() == dtl::status_code::invalid_argument);
    CHECK(dtl::hip::can_access_peer(-1, 0).error() == dtl::status_code::invalid_argument);
    CHECK(dtl::hip::get_memory_info(-2).error() == dtl::status_code::invalid_argument);
    CHECK(dtl::hip::device_guard::enter(-3).error() == dtl::status_code::invalid_argument);
  }

  TEST_CASE("upstream's device_guard(d) switches nothing where enter(d) fails") {
    const int before = dtl::hip::current_device_id();
    {
      dtl::hip::device_guard guard(-3);
      CHECK_FALSE(guard.switched());
      CHECK(guard.target_device() == -3);
      CHECK(dtl::hip::current_device_id() == before);
    }
    CHECK(dtl::hip::current_device_id() == before);
    CHECK(dtl::hip::device_guard::available() == (dtl::hip::device_count() > 0));
    CHECK(dtl::hip::invalid_device_id == dtl::no_device);
  }
}

TEST_SUITE("error") {
  TEST_CASE("hipSuccess is ok") { CHECK(dtl::hip::to_status(hipSuccess, "nothing").ok()); }

  TEST_CASE("a HIP error becomes hip_error (520) with its native code and name") {
    const dtl::status s = dtl::hip::to_status(hipErrorInvalidValue, "hipMemcpy(dst, src, 4)");
    CHECK(s.code() == dtl::status_code::hip_error);
    CHECK(dtl::to_int(s.code()) == 520);
    CHECK(s.native_code() == static_cast<int>(hipErrorInvalidValue));
    CHECK_FALSE(s.native_name().empty());
    CHECK(s.message() == "hipMemcpy(dst, src, 4) failed");
    CHECK(s.location().line() > 0);
  }

  TEST_CASE("an allocation failure becomes out_of_memory and keeps the native code") {
    const dtl::status s = dtl::hip::to_status(hipErrorOutOfMemory, "hipMalloc(1 TiB)");
    CHECK(s.code() == dtl::status_code::out_of_memory);
    CHECK(s.native_code() == static_cast<int>(hipErrorOutOfMemory));
    CHECK(s.native_code() == 2);  // the same number on AMD and NVIDIA
  }

  TEST_CASE("DTL_HIP_TRY returns the failing call's status") {
    auto f = []() -> dtl::result<int> {
      DTL_HIP_TRY(hipErrorInvalidDevice);
      return 1;
    };
    const auto r = f();
    CHECK(r.error() == dtl::status_code::hip_error);
    CHECK(r.error().native_code() == static_cast<int>(hipErrorInvalidDevice));
    CHECK(r.error().message().find("hipErrorInvalidDevice") != std::string_view::npos);
  }

  TEST_CASE("sticky errors") {
    CHECK(dtl::hip::is_sticky(hipErrorIllegalAddress));
    CHECK(dtl::hip::is_sticky(hipErrorLaunchFailure));
    CHECK_FALSE(dtl::hip::is_sticky(hipErrorInvalidValue));
    CHECK_FALSE(dtl::hip::is_sticky(hipErrorNotReady));
  }
}

// Meson test no_device (--requires=no-device): SKIP where a device is present.
TEST_SUITE("no_device") {
  TEST_CASE("without a device every query says so") {
    CHECK(dtl::hip::current_device().error() == dtl::status_code::backend_not_available);
    CHECK(dtl::hip::check_device(0) == dtl::status_code::backend_not_available);
    CHECK(dtl::hip::get_device_properties(0).error() == dtl::status_code::backend_not_available);
    CHECK(dtl::hip::get_static_device_properties(0).error() == dtl::status_code::backend_not_available);
    CHECK(dtl::hip::can_access_peer(0, 0).error() == dtl::status_code::backend_not_available);
    CHECK(dtl::hip::get_memory_info(0).error() == dtl::status_code::backend_not_available);
    CHECK(dtl::hip::device_guard::enter(0).error() == dtl::status_code::backend_not_available);
    CHECK(dtl::hip::current_device_id() == dtl::hip::invalid_device_id);
    CHECK_FALSE(dtl::hip::device_guard(0).switched());
    CHECK_FALSE(dtl::hip::device_guard::available());
    CHECK(dtl::hip::resolve_device(std::nullopt).error() == dtl::status_code::backend_not_available);
    CHECK(dtl::hip::resolve_device(0).error() == dtl::status_code::backend_not_available);
  }

  TEST_CASE("without a device stream_ref says so, like every other call") {
    const dtl::hip::stream_ref s;
    CHECK(s.synchronize().error() == dtl::status_code::backend_not_available);
    const dtl::event_status q = s.query();
    CHECK(q.is_failed());
    CHECK_FALSE(static_cast<bool>(q));
    CHECK(q.error() == dtl::status_code::backend_not_available);
    CHECK(s.synchronize().error().message().find("no HIP device") != std::string_view::npos);
  }
}

// Meson test gpu-device-ids (--requires=devices:1): SKIP without a device.
TEST_SUITE("gpu.device_ids") {
  TEST_CASE("an id past the last device is invalid_argument") {
    const int n = dtl::hip::device_count();
    CHECK(dtl::hip::check_device(n) == dtl::status_code::invalid_argument);
    CHECK(dtl::hip::device_guard::enter(n).error() == dtl::status_code::invalid_argument);
    CHECK(dtl::hip::get_device_properties(n + 7).error() == dtl::status_code::invalid_argument);
    CHECK(dtl::hip::can_access_peer(0, n).error() == dtl::status_code::invalid_argument);
    CHECK(dtl::hip::resolve_device(n).error() == dtl::status_code::invalid_argument);
    CHECK(dtl::hip::resolve_device(n - 1).value() == n - 1);
    CHECK(dtl::hip::resolve_device(std::nullopt).value() == dtl::hip::current_device().value());
  }

  TEST_CASE("upstream's device_guard(d) makes d current for its scope, and current_device_id() says so") {
    const int n = dtl::hip::device_count();
    const int before = dtl::hip::current_device_id();
    CHECK(before == dtl::hip::current_device().value());
    const int other = (before + 1) % n;  // the current one itself where there is one device
    {
      dtl::hip::device_guard guard(other);
      CHECK(guard.switched() == (other != before));
      CHECK(dtl::hip::current_device_id() == other);
      {
        dtl::hip::device_guard bad(n);  // past the last device: nothing switches
        CHECK_FALSE(bad.switched());
        CHECK(dtl::hip::current_device_id() == other);
      }
      CHECK(dtl::hip::current_device_id() == other);
    }
    CHECK(dtl::hip::current_device_id() == before);
  }
}

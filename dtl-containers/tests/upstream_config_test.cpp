// SPDX-License-Identifier: MIT
// <dtl/core/config.hpp>, upstream DTL's build macros: each one says what this build really is. Meson
// passes the truth (DTL_TEST_WANT_*) from the configuration it built dtl-containers with.
#include <dtl/core/config.hpp>  // first: the header compiles on its own with the C++ compiler

#include "doctest.hpp"

#include <string_view>

#if !defined(DTL_TEST_WANT_MPI) || !defined(DTL_TEST_WANT_HIP) || !defined(DTL_TEST_WANT_NCCL) || \
    !defined(DTL_TEST_WANT_CUDA) || !defined(DTL_TEST_WANT_VERSION)
#error "tests/meson.build passes the build's configuration as DTL_TEST_WANT_*"
#endif

// The macros are usable in #if, as upstream programs use them.
#if DTL_ENABLE_MPI != DTL_TEST_WANT_MPI
#error "DTL_ENABLE_MPI differs from the build's MPI setting"
#endif
#if DTL_ENABLE_HIP != DTL_TEST_WANT_HIP
#error "DTL_ENABLE_HIP differs from the build's HIP setting"
#endif
#if DTL_ENABLE_NCCL != DTL_TEST_WANT_NCCL
#error "DTL_ENABLE_NCCL differs from the build's RCCL/NCCL setting"
#endif
#if DTL_ENABLE_CUDA != DTL_TEST_WANT_CUDA
#error "DTL_ENABLE_CUDA differs from the build's platform (1 on HIP's NVIDIA platform only)"
#endif
#if DTL_ENABLE_SHMEM != 0 || DTL_ENABLE_UCX != 0 || DTL_ENABLE_GASNET != 0 || DTL_ENABLE_SYCL != 0
#error "a backend DTL HIP does not have is enabled"
#endif
#if DTL_ENABLE_MPI != defined(DTL_HAS_MPI)
#error "DTL_HAS_MPI is defined exactly in MPI builds"
#endif

TEST_SUITE("upstream_config") {
  TEST_CASE("DTL_ENABLE_*, dtl::config and dtl::build say the same, and what meson configured") {
    CHECK(DTL_ENABLE_MPI == DTL_TEST_WANT_MPI);
    CHECK(DTL_ENABLE_HIP == DTL_TEST_WANT_HIP);
    CHECK(DTL_ENABLE_NCCL == DTL_TEST_WANT_NCCL);
    CHECK(DTL_ENABLE_CUDA == DTL_TEST_WANT_CUDA);  // CUDA is underneath HIP's NVIDIA platform
    CHECK(dtl::config::mpi_enabled == (DTL_TEST_WANT_MPI != 0));
    CHECK(dtl::config::hip_enabled == (DTL_TEST_WANT_HIP != 0));
    CHECK(dtl::config::nccl_enabled == (DTL_TEST_WANT_NCCL != 0));
    CHECK(dtl::config::cuda_enabled == (DTL_TEST_WANT_CUDA != 0));
    CHECK_FALSE(dtl::config::shmem_enabled);
    CHECK_FALSE(dtl::config::ucx_enabled);
    CHECK_FALSE(dtl::config::gasnet_enabled);
    CHECK_FALSE(dtl::config::sycl_enabled);
    CHECK(dtl::config::concepts_supported);
    // Our own spelling of the same facts.
    CHECK(dtl::build::has_mpi == dtl::config::mpi_enabled);
    CHECK(dtl::build::has_hip == dtl::config::hip_enabled);
    CHECK(dtl::build::has_nccl == dtl::config::nccl_enabled);
    CHECK(dtl::build::has_cuda == dtl::config::cuda_enabled);
    CHECK(dtl::build::has_cuda == (std::string_view(dtl::build::hip_platform) == "nvidia"));
    CHECK((std::string_view(dtl::build::hip_platform) != "none") == dtl::config::hip_enabled);
  }

  TEST_CASE("DTL_DEBUG follows NDEBUG") {
#ifdef NDEBUG
    CHECK(DTL_DEBUG == 0);
#else
    CHECK(DTL_DEBUG == 1);
#endif
    CHECK(dtl::config::debug_enabled == (DTL_DEBUG != 0));
  }

  TEST_CASE("the version macros and dtl::version are the project's version") {
    CHECK(std::string_view(DTL_VERSION_STRING) == DTL_TEST_WANT_VERSION);
    CHECK(std::string_view(DTL_VERSION_FULL) == DTL_TEST_WANT_VERSION);
    CHECK(std::string_view(DTL_VERSION_PRERELEASE).empty());
    CHECK(DTL_VERSION == DTL_VERSION_MAJOR * 10000 + DTL_VERSION_MINOR * 100 + DTL_VERSION_PATCH);
    // "MAJOR.MINOR.PATCH", rebuilt from the numeric macros.
    const std::string_view want = DTL_TEST_WANT_VERSION;
    const auto first_dot = want.find('.');
    const auto second_dot = want.find('.', first_dot + 1);
    REQUIRE(second_dot != std::string_view::npos);
    auto number = [](std::string_view digits) {
      unsigned value = 0;
      for (const char c : digits) value = value * 10 + static_cast<unsigned>(c - '0');
      return value;
    };
    CHECK(DTL_VERSION_MAJOR == number(want.substr(0, first_dot)));
    CHECK(DTL_VERSION_MINOR == number(want.substr(first_dot + 1, second_dot - first_dot - 1)));
    CHECK(DTL_VERSION_PATCH == number(want.substr(second_dot + 1)));
    CHECK(dtl::version::encoded == DTL_VERSION);
    CHECK(dtl::version::string == want);
    CHECK(dtl::get_version_string() == want);
    CHECK(dtl::get_version() == static_cast<unsigned>(DTL_VERSION));
    CHECK(dtl::version::at_least(DTL_VERSION_MAJOR, DTL_VERSION_MINOR, DTL_VERSION_PATCH));
    CHECK_FALSE(dtl::version::at_least(DTL_VERSION_MAJOR + 1));
    CHECK(dtl::version::is_stable());
    CHECK_FALSE(dtl::version::is_prerelease());
  }
}

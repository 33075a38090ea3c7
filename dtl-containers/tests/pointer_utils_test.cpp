// SPDX-License-Identifier: MIT
// Upstream's pointer utilities on host memory: what is known about a pointer, and staging that leaves
// host memory alone (device memory: the GPU tests).
#include "doctest.hpp"

#include <dtl/containers/config.hpp>
#include <dtl/memory/pointer_utils.hpp>

#include <utility>
#include <vector>

TEST_SUITE("pointer_utils") {
  TEST_CASE("host memory is host memory; nullptr and builds without HIP know nothing") {
    std::vector<double> data(64, 1.0);
    CHECK(dtl::query_pointer_kind(nullptr) == dtl::pointer_kind::unknown);
    CHECK(dtl::is_host_accessible(data.data()));
    CHECK_FALSE(dtl::is_device_accessible(data.data()));
    CHECK_FALSE(dtl::is_device_accessible(nullptr));
    if (!dtl::build::has_hip) {
      CHECK(dtl::query_pointer_kind(data.data()) == dtl::pointer_kind::unknown);
      CHECK_FALSE(dtl::is_gpu_aware_mpi());
    }
  }

  TEST_CASE("host memory is handed to MPI as it is, for sends and receives, moved or not") {
    std::vector<int> data(16, 7);
    dtl::device_staging_buffer send(data.data(), data.size() * sizeof(int), true);
    CHECK_FALSE(send.is_staged());
    CHECK(send.data() == data.data());
    CHECK(send.size() == data.size() * sizeof(int));
    dtl::device_staging_buffer receive(data.data(), data.size() * sizeof(int), false);
    CHECK(receive.copy_back().ok());
    dtl::device_staging_buffer moved(std::move(receive));
    CHECK(std::as_const(moved).data() == data.data());
    CHECK(data[15] == 7);
  }
}

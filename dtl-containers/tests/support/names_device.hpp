// SPDX-License-Identifier: MIT
#pragma once
// The context of upstream's device tests: rank 0 of 1, and every domain asked for (has<D>(), get<D>())
// is there, on device `id`.

#include <dtl/core/types.hpp>

namespace test_support {

struct names_device {
  int id = 0;
  [[nodiscard]] dtl::rank_t rank() const noexcept { return 0; }
  [[nodiscard]] dtl::rank_t size() const noexcept { return 1; }
  template <class Domain>
  [[nodiscard]] bool has() const noexcept {
    return true;
  }
  template <class Domain>
  [[nodiscard]] auto get() const noexcept {
    struct domain {
      int device;
      [[nodiscard]] int device_id() const noexcept { return device; }
    };
    return domain{id};
  }
};

}  // namespace test_support

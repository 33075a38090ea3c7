// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's abstract communicator interface and its properties record. Nothing of DTL HIP
// derives from it (upstream's own mpi_comm_adapter does not either); it is there for programs that
// write their own communicator types against it.

#include <dtl/core/types.hpp>

namespace dtl {

struct communicator_properties {
  rank_t size = 1;
  rank_t rank = 0;
  bool is_inter = false;
  bool is_derived = false;
  const char* name = nullptr;
};

class communicator_base {
 public:
  using size_type = dtl::size_type;

  virtual ~communicator_base() = default;

  [[nodiscard]] virtual rank_t rank() const noexcept = 0;
  [[nodiscard]] virtual rank_t size() const noexcept = 0;
  [[nodiscard]] virtual communicator_properties properties() const noexcept = 0;

  [[nodiscard]] bool is_root() const noexcept { return rank() == 0; }
  [[nodiscard]] bool is_rank(rank_t r) const noexcept { return rank() == r; }

 protected:
  communicator_base() = default;
  communicator_base(const communicator_base&) = default;
  communicator_base& operator=(const communicator_base&) = default;
  communicator_base(communicator_base&&) = default;
  communicator_base& operator=(communicator_base&&) = default;
};

}  // namespace dtl

// SPDX-License-Identifier: MIT
// The containers' requirements and session, added to the shared test main (dtl-core's tests/support):
//   --requires=ranks:N   started on at least N ranks (mpiexec -n N)
//   --requires=mpi       ranks come from MPI (this build has it)
// Naming either starts the session: a dtl::environment for the whole run (exit 1 if it cannot be had),
// a world context on the collective path the environment chose (a skip when DTL_COLLECTIVES asks for
// one this machine cannot take, RCCL/NCCL with ranks sharing a GPU say; a failure otherwise), then the
// test cases on every rank, only rank 0 printing more than failures. The run fails when any rank failed.
#include "test_environment.hpp"
#include "test_main.hpp"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace {

class environment_session final : public dtl_test::session {
 public:
  std::optional<int> start(int& argc, char**& argv) override {
    auto made = dtl::environment::create(argc, argv);
    if (!made) {
      std::fprintf(stderr, "dtl::environment failed: %s\n", made.error().to_string().c_str());
      return 1;
    }
    test_support::environment().emplace(std::move(made).value());
    rank_ = test_support::environment()->rank();
    rank_count_ = test_support::environment()->rank_count();
    return std::nullopt;
  }

  std::optional<int> ready() override {
    const auto probe = test_support::environment()->try_make_world_context();
    if (probe) return std::nullopt;
    const bool unavailable = probe.error().code() == dtl::status_code::backend_not_available;
    if (rank_ == 0) std::printf("%s: %s\n", unavailable ? "SKIP" : "FAILED", probe.error().to_string().c_str());
    return unavailable && std::getenv("DTL_COLLECTIVES") != nullptr ? dtl_test::exit_skip : 1;
  }

  [[nodiscard]] bool prints_summary() const override { return rank_ == 0; }

  void configure(doctest::Context& context) override {
    context.setOption("no-version", true);
    if (rank_ != 0) context.setOption("minimal", true);
  }

  int total_failures(int failed) override {
    if (rank_count_ == 1) return failed;
    const int total =
        test_support::environment()->make_world_context().allreduce_value(failed, dtl::reduce_op::sum).value_or(1);
    if (rank_ == 0) std::printf("%d ranks: %d failed\n", rank_count_, total);
    return total;
  }

  void stop() override { test_support::environment().reset(); }

 private:
  int rank_ = 0;
  int rank_count_ = 1;
};

std::string too_few_ranks(int min_ranks) {
  const int ranks = test_support::environment()->rank_count();
  if (ranks >= min_ranks) return {};
  return "these tests need " + std::to_string(min_ranks) + " ranks; started with " + std::to_string(ranks);
}

std::string no_mpi() {
  if (test_support::environment()->has_mpi()) return {};
  return "these tests need MPI; this build of dtl-containers has none";
}

[[maybe_unused]] const bool registered = [] {
  dtl_test::add_requirement("ranks:N", too_few_ranks, dtl_test::stage::in_session);
  dtl_test::add_requirement(
      "mpi", [](int) { return no_mpi(); }, dtl_test::stage::in_session);
  dtl_test::set_session([] { return std::make_unique<environment_session>(); });
  return true;
}();

}  // namespace

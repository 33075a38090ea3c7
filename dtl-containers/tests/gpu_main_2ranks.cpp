// main() of the gpu test binaries that need two MPI ranks (one GPU is enough: ranks may share it).
#define DOCTEST_CONFIG_IMPLEMENT
#include "gpu_main.hpp"

#include <cstdlib>

// DTL_TEST_MIN_RANKS=1 runs the same tests on one rank (with DTL_COLLECTIVES, on a path forced for one GPU).
int main(int argc, char** argv) {
  const char* min_ranks = std::getenv("DTL_TEST_MIN_RANKS");
  return test_support::run_gpu_tests(argc, argv, min_ranks != nullptr ? std::atoi(min_ranks) : 2, /*min_devices=*/1);
}

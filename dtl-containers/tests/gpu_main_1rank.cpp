// main() of the one-rank gpu test binaries (the test cases live in .hip files too, and clang-15 cannot
// compile doctest's implementation in HIP mode, so main is always a plain C++ file).
#define DOCTEST_CONFIG_IMPLEMENT
#include "gpu_main.hpp"

int main(int argc, char** argv) { return test_support::run_gpu_tests(argc, argv); }

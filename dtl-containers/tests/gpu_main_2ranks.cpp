// main() of the gpu test binaries that need two MPI ranks (one GPU is enough: ranks may share it).
#define DOCTEST_CONFIG_IMPLEMENT
#include "gpu_main.hpp"

int main(int argc, char** argv) { return test_support::run_gpu_tests(argc, argv, /*min_ranks=*/2, /*min_devices=*/1); }

// The entry point of the dtl-hip-* doctest programs (dtl-hip-mem's and dtl-hip-exec's tests). It makes
// "this machine cannot run these tests" exit 77, which Meson counts as SKIP, never as a pass.
//
// A Meson test says what its test cases need with one argument, read before doctest sees the others:
//   --requires=any          runs everywhere (the default)
//   --requires=no-device    only where the HIP runtime finds no device (the statuses given without one)
//   --requires=devices:N    at least N devices (devices:1 for the gpu suites, devices:2 for cases that
//                           use two devices)
// A run in which no test case ran (all skipped by doctest::skip, or none selected) tested nothing: it
// exits 77 too.
#define DOCTEST_CONFIG_IMPLEMENT
#if __has_include(<doctest/doctest.h>)
#include <doctest/doctest.h>
#else
#include <doctest.h>
#endif

#include <dtl/hip/device.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr int exit_skip = 77;  // Meson's SKIP

/// What the selected test cases need from the machine.
struct requirement {
  bool no_device = false;  // only where no device is present
  int min_devices = 0;     // at least this many devices
};

/// Parses "any", "no-device" or "devices:N"; false when the text is none of them.
bool parse_requirement(std::string_view text, requirement& out) {
  if (text == "any") return true;
  if (text == "no-device") {
    out.no_device = true;
    return true;
  }
  constexpr std::string_view devices = "devices:";
  if (text.substr(0, devices.size()) != devices) return false;
  const std::string count(text.substr(devices.size()));
  char* end = nullptr;
  const long n = std::strtol(count.c_str(), &end, 10);
  if (count.empty() || *end != '\0' || n < 1 || n > 1024) return false;
  out.min_devices = static_cast<int>(n);
  return true;
}

/// Why this machine cannot run tests that need `r`; empty when it can.
std::string unmet(const requirement& r, int devices) {
  const std::string have = "this machine has " + std::to_string(devices) + " HIP device" + (devices == 1 ? "" : "s");
  if (r.no_device && devices > 0) return "these tests check what happens without a HIP device; " + have;
  if (devices < r.min_devices)
    return "these tests need " + std::to_string(r.min_devices) + " HIP device" + (r.min_devices == 1 ? "" : "s") +
           "; " + have;
  return {};
}

/// How many test cases the last run executed (filtered and doctest::skip-ped ones are not counted).
unsigned g_cases_run = 0;
bool g_run_ended = false;

struct run_counter final : doctest::IReporter {
  explicit run_counter(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats& stats) override {
    g_run_ended = true;
    g_cases_run = stats.numTestCasesPassingFilters;
  }
  void test_case_start(const doctest::TestCaseData&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};

DOCTEST_REGISTER_LISTENER("dtl-run-counter", 1, run_counter);

}  // namespace

int main(int argc, char** argv) {
  requirement need;
  std::vector<char*> args;  // for doctest: ours taken out
  constexpr std::string_view flag = "--requires=";
  for (int i = 0; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (i > 0 && arg.substr(0, flag.size()) == flag) {
      if (!parse_requirement(arg.substr(flag.size()), need)) {
        std::fprintf(stderr, "%s: unknown requirement '%s' (any, no-device or devices:N)\n", argv[0], argv[i]);
        return EXIT_FAILURE;
      }
      continue;
    }
    args.push_back(argv[i]);
  }
  if (const std::string why = unmet(need, dtl::hip::device_count()); !why.empty()) {
    std::printf("SKIP: %s\n", why.c_str());
    return exit_skip;
  }

  doctest::Context context(static_cast<int>(args.size()), args.data());
  const int failed = context.run();
  if (failed != 0 || context.shouldExit() || !g_run_ended) return failed;  // failures, --help, --list-*
  if (g_cases_run == 0) {
    std::printf("SKIP: no test case ran (every selected one is skipped here, or none matches the filters)\n");
    return exit_skip;
  }
  return EXIT_SUCCESS;
}

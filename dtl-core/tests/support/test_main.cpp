// SPDX-License-Identifier: MIT
// main() of every member's doctest programs: reads --requires (test_main.hpp says what it takes), exits
// 77 (Meson's SKIP) where the machine lacks a requirement or where no test case ran, and otherwise runs
// doctest with the other arguments, in the session when a requirement asks for one.
#define DOCTEST_CONFIG_IMPLEMENT
#include "test_main.hpp"

#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <utility>
#include <vector>

namespace dtl_test {
namespace {

struct requirement {
  std::string name;  // "devices" for "devices:N"
  bool counted;      // written "name:N"
  requirement_check check;
  stage when;
};

std::vector<requirement>& registry() {
  static std::vector<requirement> known{{"any", false, [](int) { return std::string(); }, stage::before_session}};
  return known;
}

std::function<std::unique_ptr<session>()>& session_maker() {
  static std::function<std::unique_ptr<session>()> make;
  return make;
}

std::string known_forms() {
  std::string all;
  for (const requirement& r : registry()) all += (all.empty() ? "" : ", ") + r.name + (r.counted ? ":N" : "");
  return all;
}

/// One requirement a test states, with its count.
struct need {
  const requirement* what;
  int n;
};

constexpr int max_count = 1'000'000;

/// Parses "name" or "name:N"; an error message when the text is neither form of a registered one.
std::optional<need> parse(std::string_view text, std::string& error) {
  const std::size_t colon = text.find(':');
  const std::string_view name = text.substr(0, colon);
  for (const requirement& r : registry()) {
    if (r.name != name) continue;
    if (!r.counted) {
      if (colon == std::string_view::npos) return need{&r, 0};
      break;
    }
    if (colon == std::string_view::npos) break;
    const std::string count(text.substr(colon + 1));
    char* end = nullptr;
    const long n = std::strtol(count.c_str(), &end, 10);
    if (count.empty() || *end != '\0' || n < 1 || n > max_count) break;
    return need{&r, static_cast<int>(n)};
  }
  error = "unknown requirement '" + std::string(text) + "' (known: " + known_forms() + "; N from 1 to " +
          std::to_string(max_count) + ")";
  return std::nullopt;
}

/// Why the machine lacks one of `needs` of stage `when`; empty when it has them all.
std::string first_unmet(const std::vector<need>& needs, stage when) {
  for (const need& n : needs)
    if (n.what->when == when)
      if (std::string why = n.what->check(n.n); !why.empty()) return why;
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

/// Runs doctest on argc/argv inside `s` (which may be null: no session) and gives the exit code.
int run(int argc, char** argv, const std::vector<need>& needs, session* s) {
  const bool prints = s == nullptr || s->prints_summary();
  if (const std::string why = first_unmet(needs, stage::in_session); !why.empty()) {
    if (prints) std::printf("SKIP: %s\n", why.c_str());
    return exit_skip;
  }
  if (s != nullptr)
    if (const std::optional<int> stop = s->ready()) return *stop;

  doctest::Context context(argc, argv);
  if (s != nullptr) s->configure(context);
  int failed = context.run() != 0 ? 1 : 0;
  if (s != nullptr) failed = s->total_failures(failed) != 0 ? 1 : 0;
  if (failed != 0 || context.shouldExit() || !g_run_ended) return failed;  // failures, --help, --list-*
  if (g_cases_run == 0) {
    if (prints)
      std::printf("SKIP: no test case ran (every selected one is skipped here, or none matches the filters)\n");
    return exit_skip;
  }
  return EXIT_SUCCESS;
}

}  // namespace

void add_requirement(std::string form, requirement_check check, stage when) {
  const std::size_t colon = form.find(':');
  const bool counted = colon != std::string::npos;
  registry().push_back({counted ? form.substr(0, colon) : std::move(form), counted, std::move(check), when});
}

void set_session(std::function<std::unique_ptr<session>()> make) { session_maker() = std::move(make); }

}  // namespace dtl_test

int main(int argc, char** argv) {
  using namespace dtl_test;
  std::vector<need> needs;
  std::vector<char*> args;  // for doctest: ours taken out
  constexpr std::string_view flag = "--requires=";
  for (int i = 0; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (i == 0 || arg.substr(0, flag.size()) != flag) {
      args.push_back(argv[i]);
      continue;
    }
    std::string_view list = arg.substr(flag.size());
    for (;;) {  // comma-separated: every one must hold
      const std::size_t comma = list.find(',');
      std::string error;
      const std::optional<need> n = parse(list.substr(0, comma), error);
      if (!n) {
        std::fprintf(stderr, "%s: %s\n", argv[0], error.c_str());
        return EXIT_FAILURE;
      }
      needs.push_back(*n);
      if (comma == std::string_view::npos) break;
      list.remove_prefix(comma + 1);
    }
  }
  if (const std::string why = first_unmet(needs, stage::before_session); !why.empty()) {
    std::printf("SKIP: %s\n", why.c_str());
    return exit_skip;
  }

  bool wants_session = false;
  for (const need& n : needs) wants_session = wants_session || n.what->when == stage::in_session;
  int doctest_argc = static_cast<int>(args.size());
  args.push_back(nullptr);  // argv[argc] is null (MPI_Init relies on it)
  char** doctest_argv = args.data();
  if (!wants_session) return run(doctest_argc, doctest_argv, needs, nullptr);
  if (!session_maker()) {
    std::fprintf(stderr, "%s: --requires names a requirement of a session, but none is registered\n", argv[0]);
    return EXIT_FAILURE;
  }
  const std::unique_ptr<session> s = session_maker()();
  if (const std::optional<int> stop = s->start(doctest_argc, doctest_argv)) return *stop;
  const int code = run(doctest_argc, doctest_argv, needs, s.get());
  s->stop();
  return code;
}

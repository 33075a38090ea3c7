// SPDX-License-Identifier: MIT
// value() on an error must abort with a clear message. Checked in a forked child process.
#include "doctest.hpp"

#include <dtl/core/result.hpp>

#include <csignal>
#include <string>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

struct child_outcome {
  bool aborted = false;
  std::string stderr_text;
};

template <class F>
child_outcome run_in_child(F&& body) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    // The child reports only through its exit and stderr: doctest's own crash handler and output stay out.
    std::signal(SIGABRT, SIG_DFL);
    ::dup2(fds[1], STDERR_FILENO);
    if (const int devnull = ::open("/dev/null", O_WRONLY); devnull >= 0) ::dup2(devnull, STDOUT_FILENO);
    ::close(fds[0]);
    body();
    ::_exit(0);  // reached only if body did not abort
  }
  ::close(fds[1]);
  child_outcome out;
  char buf[512];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) out.stderr_text.append(buf, static_cast<size_t>(n));
  ::close(fds[0]);
  int wstatus = 0;
  REQUIRE(::waitpid(pid, &wstatus, 0) == pid);
  out.aborted = WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGABRT;
  return out;
}

}  // namespace

TEST_SUITE("death") {
  TEST_CASE("value() on an error aborts with the status and the caller's location") {
    const auto out = run_in_child([] {
      dtl::result<int> r = dtl::status(dtl::status_code::invalid_argument, "size was 0");
      (void)r.value();
    });
    CHECK(out.aborted);
    CHECK(out.stderr_text.find("result::value() called on an error") != std::string::npos);
    CHECK(out.stderr_text.find("invalid_argument (410, bounds): size was 0") != std::string::npos);
    CHECK(out.stderr_text.find("death_test.cpp") != std::string::npos);
  }

  TEST_CASE("value() on a failed result<void> aborts too") {
    const auto out = run_in_child([] {
      dtl::result<void> r = dtl::status(dtl::status_code::hip_error, "kernel fault");
      r.value();
    });
    CHECK(out.aborted);
    CHECK(out.stderr_text.find("hip_error (520, backend): kernel fault") != std::string::npos);
  }

  TEST_CASE("operator* on an error aborts and names the caller, not result.hpp") {
    const auto out = run_in_child([] {
      dtl::result<int> r = dtl::status(dtl::status_code::timeout, "late");
      (void)*r;
    });
    CHECK(out.aborted);
    CHECK(out.stderr_text.find("operator*") != std::string::npos);
    CHECK(out.stderr_text.find("timeout (106, communication): late") != std::string::npos);
    CHECK(out.stderr_text.find("result.hpp") == std::string::npos);
    CHECK(out.stderr_text.find("dtl-core-tests") != std::string::npos);  // the calling frame's binary
  }

  TEST_CASE("operator-> on an error aborts and names the caller, not result.hpp") {
    const auto out = run_in_child([] {
      const dtl::result<std::string> r = dtl::status(dtl::status_code::not_supported, "nope");
      (void)r->size();
    });
    CHECK(out.aborted);
    CHECK(out.stderr_text.find("operator->") != std::string::npos);
    CHECK(out.stderr_text.find("not_supported (420, bounds): nope") != std::string::npos);
    CHECK(out.stderr_text.find("result.hpp") == std::string::npos);
    CHECK(out.stderr_text.find("dtl-core-tests") != std::string::npos);
  }

  TEST_CASE("the child really runs: a value does not abort") {
    const auto out = run_in_child([] {
      dtl::result<int> r = 1;
      (void)r.value();
    });
    CHECK_FALSE(out.aborted);
    CHECK(out.stderr_text.empty());
  }
}

// SPDX-License-Identifier: MIT
#pragma once
// dtl::collective_error (upstream DTL's): the failures of one collective operation gathered per rank,
// and a summary of them.
//
//   dtl::collective_error e(ctx.size());
//   for (rank r ...) e.add_error(r, status_of_r);   // ok statuses are not recorded
//   if (e.has_errors()) return e.summary();         // "2 of 4 ranks failed", the most common code

#include <dtl/core/status.hpp>
#include <dtl/core/types.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace dtl {

class collective_error {
 public:
  /// One rank's failure.
  struct rank_error {
    rank_t rank;
    status error_status;
    [[nodiscard]] bool has_error() const noexcept { return !error_status.ok(); }
  };

  collective_error() = default;
  /// The record of a collective over `num_ranks` ranks.
  explicit collective_error(rank_t num_ranks) noexcept : num_ranks_(num_ranks) {}

  /// Records `error` as `rank`'s; an ok status is not a failure and is not recorded.
  void add_error(rank_t rank, status error) {
    if (!error.ok()) errors_.push_back({rank, std::move(error)});
  }

  [[nodiscard]] bool has_errors() const noexcept { return !errors_.empty(); }
  [[nodiscard]] bool all_succeeded() const noexcept { return errors_.empty(); }
  [[nodiscard]] size_type error_count() const noexcept { return errors_.size(); }
  [[nodiscard]] rank_t num_ranks() const noexcept { return num_ranks_; }
  /// The failures, in the order they were added.
  [[nodiscard]] const std::vector<rank_error>& errors() const noexcept { return errors_; }

  /// The first failure added; ok when none.
  [[nodiscard]] status first_error() const { return errors_.empty() ? status{} : errors_.front().error_status; }

  /// The code most failures have (the lowest code among equally common ones); ok when none.
  [[nodiscard]] status_code most_common_error() const {
    std::map<status_code, size_type> counts;
    for (const auto& e : errors_) ++counts[e.error_status.code()];
    const auto most =
        std::ranges::max_element(counts, [](const auto& a, const auto& b) { return a.second < b.second; });
    return most == counts.end() ? status_code::ok : most->first;
  }

  /// ok, or the most common code with "<failed> of <num_ranks> ranks failed".
  [[nodiscard]] status summary() const {
    if (all_succeeded()) return status{};
    return status(most_common_error(), failed_of() + " ranks failed");
  }

  /// One line when all succeeded, else a line per failed rank ("rank 2: ...").
  [[nodiscard]] std::string to_string() const {
    if (all_succeeded()) return "collective operation succeeded on all " + std::to_string(num_ranks_) + " ranks";
    std::string text = "collective operation failed on " + failed_of() + " ranks:\n";
    for (const auto& e : errors_) text += "  rank " + std::to_string(e.rank) + ": " + e.error_status.to_string() + '\n';
    return text;
  }

 private:
  [[nodiscard]] std::string failed_of() const {
    return std::to_string(errors_.size()) + " of " + std::to_string(num_ranks_);
  }

  rank_t num_ranks_ = 0;
  std::vector<rank_error> errors_;
};

}  // namespace dtl

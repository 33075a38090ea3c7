// SPDX-License-Identifier: MIT
// allreduce / reduce / scan: element i holds (i + seed) mod 1000, so every sum and prefix has a closed form
// that each rank evaluates for its own block (exact in double: the totals stay below 2^53). Checked:
// reduce (sum, min, max), reduce_to_root, inclusive_scan and exclusive_scan of a distributed_vector, and
// the context's allreduce, scan and exscan of one value per rank.
// --bench: a context allreduce of 1 double against MPI_Allreduce; reduce of the vector against the local
// sum and MPI_Allreduce; inclusive_scan against the local prefix and MPI_Exscan (up to 64 ranks).
#include "scale_support.hpp"

#include <functional>
#include <numeric>

namespace {

constexpr std::uint64_t period = 1000;

/// sum of j mod period for j < k.
std::uint64_t sum_of_residues(std::uint64_t k) {
  const std::uint64_t whole = k / period, rest = k % period;
  return whole * (period * (period - 1) / 2) + rest * (rest - (rest > 0 ? 1 : 0)) / 2;
}

struct series {
  std::uint64_t shift;
  double at(std::size_t i) const { return static_cast<double>((i + shift) % period); }
  /// at(0) + ... + at(k - 1).
  double prefix(std::size_t k) const {
    return static_cast<double>(sum_of_residues(k + shift) - sum_of_residues(shift));
  }
};

std::string index_text(const char* what, std::size_t i, double got, double want) {
  return std::string(what) + " at " + std::to_string(i) + " is " + std::to_string(got) + ", expected " +
         std::to_string(want);
}

}  // namespace

int main(int argc, char** argv) {
  dtl::environment env(argc, argv);
  const dtl::context ctx = env.make_world_context();
  const scale::options opt = scale::parse(argc, argv);
  const std::size_t per_rank = opt.elements(std::size_t{1} << 16, 4096);
  const std::size_t n = per_rank * static_cast<std::size_t>(ctx.size());
  const series s{opt.seed % period};
  scale::verdict v("reduce");

  dtl::distributed_vector<double> x(n, ctx), out(n, ctx);
  const std::size_t begin = x.global_offset(), count = x.local_size();
  for (std::size_t j = 0; j < count; ++j) x.local_data()[j] = s.at(begin + j);

  const double total = s.prefix(n);
  const double low = 0.0, high = double{period - 1};  // every residue occurs once n >= period
  if (auto r = dtl::try_reduce(x, 0.0); v.expect_ok(r, "reduce"))
    v.expect(*r == total, index_text("reduce sum", n, *r, total));
  if (n >= period) {
    if (auto r = dtl::try_reduce(x, 1e9, dtl::reduce_min<double>{}); v.expect_ok(r, "reduce min"))
      v.expect(*r == low, index_text("reduce min", n, *r, low));
    if (auto r = dtl::try_reduce(x, -1.0, dtl::reduce_max<double>{}); v.expect_ok(r, "reduce max"))
      v.expect(*r == high, index_text("reduce max", n, *r, high));
  }
  if (auto r = dtl::try_reduce_to_root(x, 0.0, std::plus<>{}, 0); v.expect_ok(r, "reduce_to_root"))
    v.expect(ctx.rank() != 0 || r->value() == total, index_text("reduce_to_root", n, r->value(), total));

  v.expect_ok(dtl::inclusive_scan(x, out), "inclusive_scan");
  for (std::size_t j = 0; j < count && v.ok(); ++j)
    v.expect(out.local_data()[j] == s.prefix(begin + j + 1),
             index_text("inclusive_scan", begin + j, out.local_data()[j], s.prefix(begin + j + 1)));
  v.expect_ok(dtl::exclusive_scan(x, out, 0.0), "exclusive_scan");
  for (std::size_t j = 0; j < count && v.ok(); ++j)
    v.expect(out.local_data()[j] == s.prefix(begin + j),
             index_text("exclusive_scan", begin + j, out.local_data()[j], s.prefix(begin + j)));

  // One value per rank: rank r gives r + 1.
  const double p = ctx.size(), mine = ctx.rank() + 1.0;
  if (auto r = ctx.allreduce_value(mine, dtl::reduce_op::sum); v.expect_ok(r, "context allreduce"))
    v.expect(*r == p * (p + 1) / 2, index_text("context allreduce", 0, *r, p * (p + 1) / 2));
  if (auto r = ctx.scan_value(mine, dtl::reduce_op::sum); v.expect_ok(r, "context scan"))
    v.expect(*r == mine * (mine + 1) / 2, index_text("context scan", 0, *r, mine * (mine + 1) / 2));
  if (auto r = ctx.exscan_value(mine, dtl::reduce_op::sum); v.expect_ok(r, "context exscan"))
    v.expect(*r == mine * (mine - 1) / 2, index_text("context exscan", 0, *r, mine * (mine - 1) / 2));

  if (opt.bench) {
    scale::raw_comm raw;
    double got = 0;
    scale::print_bench(
        "reduce", "allreduce-1-double",
        scale::time_us(raw.comm, opt.reps, opt.samples,
                       [&] { v.expect_ok(ctx.allreduce(&mine, &got, 1, dtl::reduce_op::sum), "allreduce"); }),
        scale::time_us(raw.comm, opt.reps, opt.samples,
                       [&] { MPI_Allreduce(&mine, &got, 1, MPI_DOUBLE, MPI_SUM, raw.comm); }));
    const double* data = x.local_data();
    const int vector_reps = std::max(1, opt.reps / 5);  // each call also passes over the block
    scale::print_bench(
        "reduce", "reduce-vector",
        scale::time_us(raw.comm, vector_reps, opt.samples, [&] { v.expect_ok(dtl::try_reduce(x, 0.0), "reduce"); }),
        scale::time_us(raw.comm, vector_reps, opt.samples, [&] {
          const double part = std::accumulate(data, data + count, 0.0);
          MPI_Allreduce(&part, &got, 1, MPI_DOUBLE, MPI_SUM, raw.comm);
        }));
    // The scan row up to 64 ranks only: SMPI's MPI_Exscan, the raw side, posts P^2 messages, which the
    // simulator does not finish at 256 ranks in 15 minutes (docs/scaling.md).
    double* prefix = out.local_data();
    if (ctx.size() <= 64)
      scale::print_bench("reduce", "inclusive-scan",
                         scale::time_us(raw.comm, vector_reps, opt.samples,
                                        [&] { v.expect_ok(dtl::inclusive_scan(x, out), "inclusive_scan"); }),
                         scale::time_us(raw.comm, vector_reps, opt.samples, [&] {
                           std::inclusive_scan(data, data + count, prefix);
                           double offset = 0, block = count > 0 ? prefix[count - 1] : 0.0;
                           MPI_Exscan(&block, &offset, 1, MPI_DOUBLE, MPI_SUM, raw.comm);
                           if (ctx.rank() == 0) offset = 0;  // MPI_Exscan leaves rank 0's undefined
                           for (std::size_t j = 0; j < count; ++j) prefix[j] += offset;
                         }));
  }
  return v.finish("elements=" + std::to_string(n));
}

// SPDX-License-Identifier: MIT
// sort and stable_sort of random, skewed and all-equal keys. Element i starts with the key drawn for i
// (random: 64 bits; skewed: the number of leading zeros of 64 random bits, so half the keys are 0, a
// quarter 1, ...; equal: 42) and, for stable_sort, its origin i. Each rank checks, for its own block:
// - it holds as many elements as before, in order, and its last is not above the next rank's first;
// - the multiset of every rank's elements is the one drawn (an order-free fingerprint, over all ranks);
// - stable_sort: (key, origin) strictly increases, so equal keys keep their order across ranks too;
// - skewed and equal keys: the element at each global position is the key that the histogram of the
//   drawn keys (one allreduce of 65 counts) puts there.
// --bench: sort of random keys against MPI_Alltoallv of the same bytes (an even share to every rank).
#include "scale_support.hpp"

#include <array>
#include <bit>
#include <tuple>

namespace {

enum class shape { random, skewed, equal };
constexpr std::array<const char*, 3> shape_names{"random", "skewed", "equal"};

std::uint64_t drawn(shape s, std::uint64_t seed, std::size_t i) {
  switch (s) {
    case shape::random: return scale::key(seed, i);
    case shape::skewed: return static_cast<std::uint64_t>(std::countl_zero(scale::key(seed, i)));
    case shape::equal: break;
  }
  return 42;
}

struct record {
  std::uint64_t key;
  std::uint64_t origin;
};
std::uint64_t fold(std::uint64_t key) { return key; }
std::uint64_t fold(const record& r) { return scale::mix(r.key) ^ r.origin; }
std::uint64_t key_of(std::uint64_t key) { return key; }
std::uint64_t key_of(const record& r) { return r.key; }
/// The order the result must have: by key; for records also by origin (stable_sort keeps it).
bool in_order(std::uint64_t a, std::uint64_t b) { return a <= b; }
bool in_order(const record& a, const record& b) { return std::tie(a.key, a.origin) < std::tie(b.key, b.origin); }

/// Global offsets of the skewed and equal shapes' keys in sorted order: first[k] = how many keys are
/// below k (keys are 0..64).
std::array<std::uint64_t, 66> key_offsets(shape s, std::uint64_t seed, std::size_t begin, std::size_t count) {
  std::array<std::uint64_t, 66> mine{}, all{};
  for (std::size_t j = 0; j < count; ++j) ++mine[drawn(s, seed, begin + j) % 65 + 1];
  MPI_Allreduce(mine.data(), all.data(), 66, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  for (std::size_t k = 1; k < all.size(); ++k) all[k] += all[k - 1];
  return all;
}

template <class T>
void check_sorted(scale::verdict& v, const std::string& what, shape s, std::uint64_t seed,
                  const dtl::distributed_vector<T>& vec, std::size_t count_before, const scale::fingerprint& before) {
  const T* data = vec.local_data();
  const std::size_t count = vec.local_size(), begin = vec.global_offset();
  v.expect(count == count_before,
           what + ": the block holds " + std::to_string(count) + " elements, had " + std::to_string(count_before));
  for (std::size_t j = 1; j < count && v.ok(); ++j)
    v.expect(in_order(data[j - 1], data[j]), what + ": out of order at " + std::to_string(begin + j));
  // The next rank's first element beside this rank's last (the last rank receives nothing to compare).
  const int rank = vec.rank(), ranks = vec.num_ranks();
  T next_first{};
  MPI_Sendrecv(data, sizeof(T), MPI_BYTE, rank > 0 ? rank - 1 : MPI_PROC_NULL, 7, &next_first, sizeof(T), MPI_BYTE,
               rank + 1 < ranks ? rank + 1 : MPI_PROC_NULL, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (rank + 1 < ranks && count > 0)
    v.expect(in_order(data[count - 1], next_first), what + ": rank boundary out of order");
  scale::fingerprint after;
  for (std::size_t j = 0; j < count; ++j) after.add(fold(data[j]));
  v.expect(after.global() == before, what + ": the elements are not the ones drawn");
  if (s == shape::random) return;
  const auto first = key_offsets(s, seed, begin, count);  // the drawn keys: the same multiset
  std::uint64_t k = 0;
  for (std::size_t j = 0; j < count && v.ok(); ++j) {
    while (first[k + 1] <= begin + j) ++k;
    v.expect(key_of(data[j]) == k,
             what + ": the key at " + std::to_string(begin + j) + " should be " + std::to_string(k));
  }
}

template <bool Stable>
void sort_case(scale::verdict& v, const dtl::context& ctx, shape s, std::uint64_t seed, std::size_t n) {
  using T = std::conditional_t<Stable, record, std::uint64_t>;
  const std::string what = std::string(Stable ? "stable_sort " : "sort ") + shape_names[static_cast<int>(s)];
  dtl::distributed_vector<T> vec(n, ctx);
  const std::size_t begin = vec.global_offset(), count = vec.local_size();
  scale::fingerprint before;
  for (std::size_t j = 0; j < count; ++j) {
    const std::uint64_t k = drawn(s, seed, begin + j);
    if constexpr (Stable)
      vec.local_data()[j] = record{k, begin + j};
    else
      vec.local_data()[j] = k;
    before.add(fold(vec.local_data()[j]));
  }
  const scale::fingerprint expected = before.global();
  if constexpr (Stable)
    v.expect_ok(dtl::stable_sort(vec, [](const record& a, const record& b) { return a.key < b.key; }), what);
  else
    v.expect_ok(dtl::sort(vec), what);
  if (v.ok()) check_sorted(v, what, s, seed, vec, count, expected);
}

}  // namespace

int main(int argc, char** argv) {
  dtl::environment env(argc, argv);
  const dtl::context ctx = env.make_world_context();
  const scale::options opt = scale::parse(argc, argv);
  const std::size_t per_rank = opt.elements(std::size_t{1} << 16, 1024);
  const std::size_t p = static_cast<std::size_t>(ctx.size()), n = per_rank * p;
  scale::verdict v("sort");

  for (const shape s : {shape::random, shape::skewed, shape::equal}) {
    sort_case<false>(v, ctx, s, opt.seed, n);
    sort_case<true>(v, ctx, s, opt.seed, n);
  }

  if (opt.bench) {
    scale::raw_comm raw;
    dtl::distributed_vector<std::uint64_t> keys(n, ctx);
    const std::size_t count = keys.local_size();
    std::vector<std::uint64_t> drawn_keys(count);
    for (std::size_t j = 0; j < count; ++j) drawn_keys[j] = scale::key(opt.seed, keys.global_offset() + j);
    // The raw exchange: this rank's keys in p even shares, one to each rank (every rank holds `count`,
    // so each receives share `rank` from every rank).
    auto share = [&](std::size_t r) { return static_cast<int>((r + 1) * count / p - r * count / p); };
    const int mine = share(static_cast<std::size_t>(ctx.rank()));
    std::vector<int> counts(p), displs(p), recv_counts(p, mine), recv_displs(p);
    for (std::size_t r = 0; r < p; ++r) {
      counts[r] = share(r);
      displs[r] = static_cast<int>(r * count / p);
      recv_displs[r] = static_cast<int>(r) * mine;
    }
    std::vector<std::uint64_t> received(p * static_cast<std::size_t>(mine));
    scale::print_bench("sort", "random-keys",
                       scale::time_us(raw.comm, 1, opt.samples,
                                      [&] {
                                        std::copy(drawn_keys.begin(), drawn_keys.end(), keys.local_data());
                                        v.expect_ok(dtl::sort(keys), "sort (bench)");
                                      }),
                       scale::time_us(raw.comm, 1, opt.samples, [&] {
                         MPI_Alltoallv(drawn_keys.data(), counts.data(), displs.data(), MPI_UINT64_T, received.data(),
                                       recv_counts.data(), recv_displs.data(), MPI_UINT64_T, raw.comm);
                       }));
  }
  return v.finish("keys=" + std::to_string(n) + " cases=6");
}

#include "parallel_copy.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

namespace dtl::hip::detail {

namespace {

constexpr std::size_t min_part = std::size_t{256} << 10;

// One copy, split into equal parts that the caller and the helpers take in turn. It lives on the caller's
// stack: the caller returns only when every part is done and no helper still holds it.
struct copy_job {
  unsigned char* dst;
  const unsigned char* src;
  std::size_t bytes;
  std::size_t part;
  unsigned parts;
  std::atomic<unsigned> next{0};
  unsigned finished = 0;  // parts done (under the helpers' mutex)
  unsigned holders = 0;   // helpers working on it (under the helpers' mutex)

  unsigned run() noexcept {
    unsigned done = 0;
    for (unsigned i = next.fetch_add(1, std::memory_order_relaxed); i < parts;
         i = next.fetch_add(1, std::memory_order_relaxed)) {
      const std::size_t offset = i * part;
      std::memcpy(dst + offset, src + offset, std::min(part, bytes - offset));
      ++done;
    }
    return done;
  }
};

class helpers {
 public:
  /// Starts helpers until there are `count` (as many as the system allows); how many there are.
  std::size_t ensure(std::size_t count) noexcept {
    const std::lock_guard lock(mutex_);
    try {
      while (threads_.size() < count) threads_.emplace_back([this] { work(); });
    } catch (...) {  // no more threads: copy with those there are
    }
    return threads_.size();
  }

  /// Runs `job` with the caller and the helpers; returns when all of it is copied.
  void copy(copy_job& job) noexcept {
    {
      const std::lock_guard lock(mutex_);
      current_ = &job;
      ++generation_;
    }
    wake_.notify_all();
    const unsigned mine = job.run();
    std::unique_lock lock(mutex_);
    job.finished += mine;
    done_.wait(lock, [&] { return job.finished == job.parts && job.holders == 0; });
    current_ = nullptr;
  }

  std::mutex& busy() noexcept { return busy_; }

 private:
  void work() {
    unsigned long long seen = 0;
    for (;;) {
      copy_job* job = nullptr;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return current_ != nullptr && generation_ != seen; });
        seen = generation_;
        job = current_;
        ++job->holders;
      }
      const unsigned mine = job->run();
      const std::lock_guard lock(mutex_);
      job->finished += mine;
      --job->holders;
      if (job->finished == job->parts && job->holders == 0) done_.notify_all();
    }
  }

  std::mutex busy_;  // held by the one caller that uses the helpers
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::vector<std::thread> threads_;
  copy_job* current_ = nullptr;
  unsigned long long generation_ = 0;
};

// Never destroyed: the helpers wait for work until the process ends.
helpers& shared_helpers() {
  static helpers* const instance = new helpers;
  return *instance;
}

}  // namespace

void parallel_copy(void* dst, const void* src, std::size_t bytes, unsigned threads) noexcept {
  const std::size_t most = std::max<std::size_t>(1, bytes / min_part);
  const unsigned parts = static_cast<unsigned>(std::min<std::size_t>(std::max(threads, 1u), most));
  if (parts <= 1) {
    std::memcpy(dst, src, bytes);
    return;
  }
  helpers& h = shared_helpers();
  std::unique_lock busy(h.busy(), std::try_to_lock);
  if (!busy.owns_lock()) {  // another copy has the helpers: do not wait for it
    std::memcpy(dst, src, bytes);
    return;
  }
  if (h.ensure(parts - 1) == 0) {
    std::memcpy(dst, src, bytes);
    return;
  }
  copy_job job{static_cast<unsigned char*>(dst), static_cast<const unsigned char*>(src), bytes,
               (bytes + parts - 1) / parts, parts};
  h.copy(job);
}

}  // namespace dtl::hip::detail

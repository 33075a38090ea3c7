// SPDX-License-Identifier: MIT
#include <dtl/hip/device.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>

#include "engine_core.hpp"
#include "event_query.hpp"

#include <fmt/format.h>

#include <utility>

namespace dtl::hip::detail {

namespace {

/// Above this many stream queues, empty ones are dropped when a new one is made (streams come and go).
constexpr std::size_t queue_prune_threshold = 64;
/// A sleeping background thread still wakes this often, as a safety net.
constexpr auto background_idle_wake = std::chrono::milliseconds(100);

status canceled_status(const char* what) {
  return status(status_code::canceled, fmt::format("{}: the progress engine was destroyed first", what));
}

/// The per-thread scratch list of one stream harvest. Harvesting runs no user code, so it never
/// re-enters itself on a thread, and the list can be reused without allocating on every poll.
struct harvested {
  std::shared_ptr<shared_state<void>> state;
  hipEvent_t event;
  hipError_t error;
  event_pool_core* pool;
};
thread_local std::vector<harvested> harvest_scratch;

/// How many watch() poll functions this thread is inside (of any engine). unwatch() called from inside
/// one never waits for another thread's poll function: that thread may be waiting for us.
thread_local int poll_function_depth = 0;

/// Counts the calling thread as inside a poll function for the duration of one call.
struct inside_poll_function {
  inside_poll_function() noexcept { ++poll_function_depth; }
  ~inside_poll_function() { --poll_function_depth; }
  inside_poll_function(const inside_poll_function&) = delete;
  inside_poll_function& operator=(const inside_poll_function&) = delete;
};

/// The status of GPU work whose event query failed.
status gpu_failure(hipError_t error, int device) noexcept {
  try {
    return to_status(error, fmt::format("the GPU work behind a future (hipEventQuery, device {})", device));
  } catch (...) {
    return dtl::current_exception_status("event_poller::poll");
  }
}

}  // namespace

engine_core::engine_core() {
  const int count = device_count();
  pools_.reserve(static_cast<std::size_t>(count));
  for (int d = 0; d < count; ++d)
    pools_.push_back(std::make_unique<event_pool_core>(d, event_pool::default_max_cached));
}

engine_core::~engine_core() { shutdown(); }

event_pool_core* engine_core::pool(int device) noexcept {
  if (device < 0 || static_cast<std::size_t>(device) >= pools_.size()) return nullptr;
  return pools_[static_cast<std::size_t>(device)].get();
}

engine_core::queue_key engine_core::key_for(hipStream_t stream, int device) noexcept {
  return queue_key{stream, device, stream == hipStreamPerThread ? std::this_thread::get_id() : std::thread::id{}};
}

// ---- GPU operations ----

std::shared_ptr<engine_core::stream_queue> engine_core::queue_for(const queue_key& key, event_pool_core* events) {
  {
    std::shared_lock lock(queues_mutex_);
    if (auto it = queues_.find(key); it != queues_.end()) return it->second;
  }
  std::unique_lock lock(queues_mutex_);
  if (auto it = queues_.find(key); it != queues_.end()) return it->second;
  if (queues_.size() >= queue_prune_threshold) {
    // Streams come and go: drop idle queues. One whose lock is taken is in use and stays.
    std::erase_if(queues_, [](const auto& kv) {
      stream_queue& q = *kv.second;
      if (!q.mutex.try_lock()) return false;
      const bool idle = q.ops.empty();
      if (idle) q.dropped = true;
      q.mutex.unlock();
      return idle;
    });
  }
  return queues_.emplace(key, std::make_shared<stream_queue>(events)).first->second;
}

future<void> engine_core::enqueue_current(hipStream_t stream, int device) {
  event_pool_core* events = pool(device);
  if (events == nullptr)
    return make_failed_future<void>(
        status(status_code::invalid_argument, fmt::format("event_poller: no device {}", device)));
  hipEvent_t event = nullptr;
  if (status s = events->acquire(event, true); !s.ok()) return make_failed_future<void>(std::move(s));

  std::shared_ptr<shared_state<void>> state;
  hipError_t recorded = hipSuccess;
  try {
    state = std::make_shared<shared_state<void>>(weak_from_this());
    const queue_key key = key_for(stream, device);
    for (;;) {
      const std::shared_ptr<stream_queue> q = queue_for(key, events);
      // Record and append under the queue's lock, so that the queue's order is the stream's order.
      // The map's lock is not held: if the stream's command queue is full, hipEventRecord blocks
      // until the GPU makes room, and meanwhile pollers skip this queue and serve the others.
      std::lock_guard lock(q->mutex);
      if (q->dropped) continue;  // dropped between lookup and lock: look again
      recorded = hipEventRecord(event, stream);
      if (recorded != hipSuccess) break;
      q->ops.push_back(gpu_op{event, state});
      q->size.fetch_add(1, std::memory_order_release);
      pending_.fetch_add(1, std::memory_order_seq_cst);
      break;
    }
  } catch (...) {
    events->recycle(event);
    return make_failed_future<void>(dtl::current_exception_status("event_poller::enqueue"));
  }
  if (recorded != hipSuccess) {
    status s = to_status(recorded, fmt::format("hipEventRecord (progress engine, device {})", device));
    if (is_sticky(recorded)) {
      events->destroy(event);
    } else {
      events->recycle(event);
    }
    return make_failed_future<void>(std::move(s));
  }
  wake_background();
  return future_access::make<void>(std::move(state));
}

void engine_core::harvest_streams() noexcept {
  auto& batch = harvest_scratch;
  bool saw_not_ready = false;
  {
    std::shared_lock lock(queues_mutex_);
    for (auto& [key, q] : queues_) {
      if (q->size.load(std::memory_order_acquire) == 0) continue;
      // Taken: another poller is polling this queue right now (it makes the progress), or an enqueue
      // is recording into it (possibly blocked while the stream's command queue is full).
      std::unique_lock qlock(q->mutex, std::try_to_lock);
      if (!qlock.owns_lock()) continue;
      std::size_t done = 0;
      for (; done < q->ops.size(); ++done) {
        gpu_op& op = q->ops[done];
        const hipError_t e = hipEventQuery(op.event);
        // In stream order: once one is pending, every later one on this stream is too.
        if (e == hipErrorNotReady) {
          saw_not_ready = true;
          break;
        }
        batch.push_back(harvested{std::move(op.state), op.event, e, q->pool});
      }
      if (done > 0) {
        q->ops.erase(q->ops.begin(), q->ops.begin() + static_cast<std::ptrdiff_t>(done));
        q->size.fetch_sub(done, std::memory_order_release);
      }
    }
  }
  if (saw_not_ready) forget_not_ready();
  if (batch.empty()) return;

  std::vector<ready_item> items;
  try {
    items.reserve(batch.size());
  } catch (...) {
    // no memory for the list: complete each one here instead (no engine lock is held)
  }
  for (auto& h : batch) {
    status outcome;
    if (h.error == hipSuccess) {
      h.pool->recycle(h.event);
    } else {
      h.pool->destroy(h.event);  // after a device error the event's state is unknown
      outcome = gpu_failure(h.error, h.pool->device());
    }
    if (items.size() < items.capacity()) {
      items.push_back(ready_item{std::move(h.state), std::move(outcome)});
    } else {
      h.state->set_status(std::move(outcome));
      pending_.fetch_sub(1, std::memory_order_acq_rel);
    }
  }
  batch.clear();
  push_ready(items);
}

void engine_core::push_ready(std::vector<ready_item>& items) noexcept {
  if (items.empty()) return;
  std::size_t queued = 0;
  {
    std::lock_guard lock(ready_mutex_);
    try {
      for (; queued < items.size(); ++queued) ready_.push_back(std::move(items[queued]));
    } catch (...) {
      // out of memory: the rest is completed below, outside the lock
    }
    ready_count_.fetch_add(queued, std::memory_order_release);
  }
  for (std::size_t i = queued; i < items.size(); ++i) {
    items[i].state->set_status(std::move(items[i].outcome));
    pending_.fetch_sub(1, std::memory_order_acq_rel);
  }
  items.clear();
}

std::size_t engine_core::drain() noexcept {
  std::size_t completed = 0;
  while (ready_count_.load(std::memory_order_acquire) > 0) {
    ready_item item;
    {
      std::lock_guard lock(ready_mutex_);
      if (ready_.empty()) break;
      item = std::move(ready_.front());
      ready_.pop_front();
      ready_count_.fetch_sub(1, std::memory_order_acq_rel);
    }
    // One at a time and outside every lock: a continuation may poll (and take the next item) itself.
    item.state->set_status(std::move(item.outcome));
    pending_.fetch_sub(1, std::memory_order_acq_rel);
    ++completed;
  }
  return completed;
}

std::size_t engine_core::poll() noexcept {
  if (pending_.load(std::memory_order_acquire) == 0) return 0;
  harvest_streams();
  harvest_sources();
  return drain();
}

// ---- host completion sources ----

watch_handle engine_core::watch(std::unique_ptr<source_node> node) {
  try {
    auto entry = std::make_shared<source_entry>();
    entry->node = std::move(node);
    entry->state = std::make_shared<shared_state<void>>(weak_from_this());
    future<void> done = future_access::make<void>(entry->state);
    std::uint64_t id = 0;
    {
      std::lock_guard lock(sources_mutex_);
      id = next_source_id_++;
      entry->id = id;
      entry->index = sources_.size();
      sources_.push_back(entry);
      try {
        source_index_.emplace(id, entry);
      } catch (...) {
        sources_.pop_back();
        throw;
      }
      source_count_.fetch_add(1, std::memory_order_release);
      pending_.fetch_add(1, std::memory_order_seq_cst);
    }
    wake_background();
    return watch_handle{id, std::move(done)};
  } catch (...) {
    return watch_handle{0, make_failed_future<void>(dtl::current_exception_status("event_poller::watch"))};
  }
}

void engine_core::remove_source(source_entry& entry, std::vector<std::unique_ptr<source_node>>& dead) noexcept {
  if (!entry.in_list) return;
  entry.in_list = false;
  try {
    dead.push_back(std::move(entry.node));
  } catch (...) {
    // no room: the node is destroyed with the entry, under the lock; only its function object is affected
  }
  source_count_.fetch_sub(1, std::memory_order_release);
  const std::size_t i = entry.index;
  const std::uint64_t id = entry.id;
  // From here `entry` may be freed: keep it alive until the end of this function.
  std::shared_ptr<source_entry> keep = std::move(sources_[i]);
  if (i + 1 != sources_.size()) {
    sources_[i] = std::move(sources_.back());
    sources_[i]->index = i;
  }
  sources_.pop_back();
  source_index_.erase(id);
}

void engine_core::harvest_sources() noexcept {
  if (source_count_.load(std::memory_order_acquire) == 0) return;
  const auto me = std::this_thread::get_id();
  // Entries claimed here stay alive: only the claiming poller removes a busy entry, and unwatch()
  // waits for busy entries (or, from inside the poll function itself, leaves removal to us).
  std::vector<source_entry*> claimed;
  std::vector<event_status> results;
  std::vector<ready_item> finished;
  std::vector<std::unique_ptr<source_node>> dead;
  try {
    {
      std::lock_guard lock(sources_mutex_);
      claimed.reserve(sources_.size());
      for (auto& s : sources_) {
        if (s->busy || s->removed) continue;
        s->busy = true;
        s->poller = me;
        claimed.push_back(s.get());
      }
    }
    results.reserve(claimed.size());
    finished.reserve(claimed.size());
    dead.reserve(claimed.size());
  } catch (...) {
    std::lock_guard lock(sources_mutex_);
    for (source_entry* s : claimed) s->busy = false;
    if (unwatch_waiters_ > 0) sources_cv_.notify_all();
    return;  // out of memory: try again on the next poll
  }

  // User code, no engine lock held. A source unwatched meanwhile (by another thread, or by an earlier
  // poll function on this thread) is not called again.
  for (source_entry* s : claimed) {
    if (s->removed.load(std::memory_order_acquire)) {
      results.push_back(event_status::pending());
      continue;
    }
    const inside_poll_function inside;
    results.push_back(s->node->poll());
  }

  {
    std::lock_guard lock(sources_mutex_);
    for (std::size_t i = 0; i < claimed.size(); ++i) {
      source_entry& s = *claimed[i];
      s.busy = false;
      if (s.removed) {  // unwatch() canceled its future already
        remove_source(s, dead);
        continue;
      }
      if (results[i].is_pending()) continue;
      finished.push_back(ready_item{std::move(s.state), results[i].is_complete() ? status{} : results[i].error()});
      remove_source(s, dead);
    }
    if (unwatch_waiters_ > 0) sources_cv_.notify_all();
  }
  push_ready(finished);
  // `dead` (the users' poll functions) is destroyed here, outside every lock.
}

bool engine_core::unwatch(std::uint64_t id) {
  std::shared_ptr<source_entry> entry;
  std::vector<std::unique_ptr<source_node>> dead;
  {
    std::unique_lock lock(sources_mutex_);
    auto it = source_index_.find(id);
    if (it == source_index_.end() || it->second->removed) return false;
    entry = it->second;
    entry->removed.store(true, std::memory_order_release);
    // From outside every poll function, wait for a call running on another thread to return. From
    // inside one, do not: the other poller may itself be waiting for this thread (two poll functions
    // that unwatch each other would wait forever).
    if (entry->busy && entry->poller != std::this_thread::get_id() && poll_function_depth == 0) {
      ++unwatch_waiters_;
      sources_cv_.wait(lock, [&] { return !entry->busy; });
      --unwatch_waiters_;
    }
    // Still busy: its poller (this thread or another) removes it when the call returns.
    if (!entry->busy) remove_source(*entry, dead);
  }
  entry->state->set_error(status(status_code::canceled, fmt::format("watch {} was removed by unwatch()", id)));
  pending_.fetch_sub(1, std::memory_order_acq_rel);
  return true;
}

// ---- background progress ----

status engine_core::start_background(std::chrono::microseconds interval) {
  if (interval.count() < 0)
    return status(status_code::invalid_argument,
                  fmt::format("start_background: the interval ({} us) is negative", interval.count()));
  std::lock_guard lock(bg_mutex_);
  if (bg_thread_.joinable())
    return status(status_code::invalid_state, "the background progress thread is already running");
  try {
    auto stop = std::make_shared<std::atomic<bool>>(false);
    bg_thread_ = std::thread([this, interval, stop] { background_loop(interval, stop); });
    bg_stop_ = std::move(stop);
    bg_running_.store(true, std::memory_order_release);
  } catch (...) {
    return dtl::current_exception_status("starting the background progress thread");
  }
  return {};
}

status engine_core::stop_background() {
  std::thread thread;
  {
    std::lock_guard lock(bg_mutex_);
    if (!bg_thread_.joinable()) return {};
    if (bg_thread_.get_id() == std::this_thread::get_id())
      return status(status_code::invalid_state,
                    "stop_background() was called from the background progress thread (from a continuation)");
    bg_running_.store(false, std::memory_order_release);  // waiters go back to polling themselves
    bg_stop_->store(true, std::memory_order_seq_cst);
    bg_cv_.notify_all();
    thread = std::move(bg_thread_);
    bg_stop_.reset();
  }
  thread.join();
  return {};
}

bool engine_core::background_running() const noexcept {
  std::lock_guard lock(bg_mutex_);
  return bg_thread_.joinable();
}

void engine_core::wake_background() noexcept {
  if (!bg_sleeping_.load(std::memory_order_seq_cst)) return;
  std::lock_guard lock(bg_mutex_);
  bg_cv_.notify_all();
}

void engine_core::background_loop(std::chrono::microseconds interval,
                                  const std::shared_ptr<std::atomic<bool>>& stop) noexcept {
  while (!stop->load(std::memory_order_acquire)) {
    poll();
    std::unique_lock lock(bg_mutex_);
    if (pending_.load(std::memory_order_seq_cst) == 0) {
      // Sleep until work arrives. `sleeping` is published before pending_ is re-read, and enqueue
      // bumps pending_ before reading `sleeping`: one of the two always sees the other.
      bg_sleeping_.store(true, std::memory_order_seq_cst);
      bg_cv_.wait_for(lock, background_idle_wake, [&] {
        return stop->load(std::memory_order_seq_cst) || pending_.load(std::memory_order_seq_cst) > 0;
      });
      bg_sleeping_.store(false, std::memory_order_seq_cst);
    } else {
      bg_cv_.wait_for(lock, interval, [&] { return stop->load(std::memory_order_seq_cst); });
    }
  }
}

// ---- events and shutdown ----

status engine_core::reserve_events(int device, std::size_t count) {
  if (count > event_pool::default_max_cached)  // the arguments first, with a device or without
    return status(status_code::invalid_argument,
                  fmt::format("event_poller::reserve_events({}, {}): more than an engine's pool keeps idle "
                              "(event_pool::default_max_cached {})",
                              device, count, event_pool::default_max_cached));
  if (status s = check_device(device); !s.ok()) return s;
  event_pool_core* events = pool(device);
  if (events == nullptr)
    return status(status_code::invalid_argument, fmt::format("event_poller: no device {}", device));
  return events->reserve(count);
}

void engine_core::shutdown() noexcept {
  if (status s = stop_background(); !s.ok()) report_unhandled(s);

  std::vector<gpu_op> ops;
  {
    std::unique_lock lock(queues_mutex_);
    for (auto& [key, q] : queues_) {
      std::lock_guard qlock(q->mutex);
      for (auto& op : q->ops) {
        q->pool->destroy(op.event);  // may still be pending on the GPU: HIP frees it once it completes
        try {
          ops.push_back(std::move(op));
        } catch (...) {
          op.state->set_error(canceled_status("a GPU operation"));
          pending_.fetch_sub(1, std::memory_order_acq_rel);
        }
      }
      q->ops.clear();
      q->size.store(0, std::memory_order_release);
    }
  }
  for (auto& op : ops) {
    op.state->set_error(canceled_status("a GPU operation"));
    pending_.fetch_sub(1, std::memory_order_acq_rel);
  }

  std::vector<std::shared_ptr<source_entry>> sources;
  std::vector<std::unique_ptr<source_node>> dead;
  {
    std::lock_guard lock(sources_mutex_);
    for (auto& s : sources_) {
      if (s->removed.load(std::memory_order_relaxed)) continue;
      s->removed.store(true, std::memory_order_relaxed);
      try {
        sources.push_back(s);
      } catch (...) {
        s->state->set_error(canceled_status("a watched source"));
        pending_.fetch_sub(1, std::memory_order_acq_rel);
      }
    }
    while (!sources_.empty()) remove_source(*sources_.back(), dead);
  }
  for (auto& s : sources) {
    s->state->set_error(canceled_status("a watched source"));
    pending_.fetch_sub(1, std::memory_order_acq_rel);
  }
  drain();  // work that had finished keeps its real outcome
}

void drive_engine(const std::weak_ptr<engine_core>& engine) noexcept {
  if (auto core = engine.lock()) core->poll();
}

bool engine_polled_in_background(const std::weak_ptr<engine_core>& engine) noexcept {
  const auto core = engine.lock();
  return core != nullptr && core->polled_in_background();
}

}  // namespace dtl::hip::detail

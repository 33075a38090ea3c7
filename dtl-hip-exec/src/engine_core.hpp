// SPDX-License-Identifier: MIT
#pragma once
// Private: the shared core of a event_poller. Futures keep a weak_ptr to it, so waiting on a
// future whose engine is gone is safe (nothing left to drive).

#include <dtl/hip/event_pool.hpp>
#include <dtl/hip/future.hpp>
#include <dtl/hip/event_poller.hpp>
#include <dtl/hip/runtime.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <unordered_map>
#include <vector>

namespace dtl::hip::detail {

class engine_core : public std::enable_shared_from_this<engine_core> {
 public:
  engine_core();
  engine_core(const engine_core&) = delete;
  engine_core& operator=(const engine_core&) = delete;
  ~engine_core();

  /// Records a pooled event on `stream` and tracks it. The caller has made `device` current.
  future<void> enqueue_current(hipStream_t stream, int device);
  watch_handle watch(std::unique_ptr<source_node> node);
  bool unwatch(std::uint64_t id);

  std::size_t poll() noexcept;
  [[nodiscard]] std::size_t pending() const noexcept { return pending_.load(std::memory_order_acquire); }

  status start_background(std::chrono::microseconds interval);
  status stop_background();
  [[nodiscard]] bool background_running() const noexcept;
  /// Like background_running(), without a lock (for waiters deciding whether to sleep).
  [[nodiscard]] bool polled_in_background() const noexcept { return bg_running_.load(std::memory_order_acquire); }
  status reserve_events(int device, std::size_t count);

  /// Stops the background thread and completes everything still pending with status_code::canceled.
  void shutdown() noexcept;

 private:
  /// One GPU operation: its event (recorded on the queue's stream) and the state it completes.
  struct gpu_op {
    hipEvent_t event;
    std::shared_ptr<shared_state<void>> state;
  };
  /// The pending operations of one stream, oldest first (events on a stream complete in order).
  /// `mutex` is held while an event is recorded (so the queue's order is the stream's order) and while
  /// the queue is polled; never while user code runs.
  struct stream_queue {
    explicit stream_queue(event_pool_core* p) noexcept : pool(p) {}
    std::mutex mutex;
    std::deque<gpu_op> ops;
    std::atomic<std::size_t> size{0};
    event_pool_core* pool;
    bool dropped = false;  // taken out of queues_ (empty); an enqueue that finds it so looks again
  };
  struct queue_key {
    hipStream_t stream;
    int device;
    std::thread::id thread;  // only for hipStreamPerThread, which is a different stream per thread
    friend bool operator==(const queue_key&, const queue_key&) = default;
  };
  struct queue_key_hash {
    std::size_t operator()(const queue_key& k) const noexcept {
      return std::hash<const void*>{}(k.stream) ^ (std::hash<int>{}(k.device) * 0x9e3779b97f4a7c15ull) ^
             std::hash<std::thread::id>{}(k.thread);
    }
  };
  struct ready_item {
    std::shared_ptr<shared_state<void>> state;
    status outcome;
  };
  struct source_entry {
    std::uint64_t id = 0;
    std::unique_ptr<source_node> node;
    std::shared_ptr<shared_state<void>> state;
    std::size_t index = 0;  // position in sources_
    bool in_list = true;
    bool busy = false;                 // a poller is inside node->poll()
    std::atomic<bool> removed{false};  // unwatch() was called (read by a poller outside the lock)
    std::thread::id poller;
  };

  event_pool_core* pool(int device) noexcept;
  static queue_key key_for(hipStream_t stream, int device) noexcept;
  /// The queue of `key`, made when missing (dropping idle queues when there are many).
  std::shared_ptr<stream_queue> queue_for(const queue_key& key, event_pool_core* events);
  void harvest_streams() noexcept;
  void harvest_sources() noexcept;
  std::size_t drain() noexcept;
  void push_ready(std::vector<ready_item>& items) noexcept;
  /// Takes `entry` out of sources_ (under sources_mutex_); its node goes to `dead` for destruction later.
  void remove_source(source_entry& entry, std::vector<std::unique_ptr<source_node>>& dead) noexcept;
  void wake_background() noexcept;
  void background_loop(std::chrono::microseconds interval, const std::shared_ptr<std::atomic<bool>>& stop) noexcept;

  std::vector<std::unique_ptr<event_pool_core>> pools_;  // one per device, indexed by device id

  std::shared_mutex queues_mutex_;
  std::unordered_map<queue_key, std::shared_ptr<stream_queue>, queue_key_hash> queues_;

  std::mutex ready_mutex_;
  std::deque<ready_item> ready_;
  std::atomic<std::size_t> ready_count_{0};

  std::mutex sources_mutex_;
  std::condition_variable sources_cv_;
  std::vector<std::shared_ptr<source_entry>> sources_;
  std::unordered_map<std::uint64_t, std::shared_ptr<source_entry>> source_index_;
  std::uint64_t next_source_id_ = 1;
  int unwatch_waiters_ = 0;
  std::atomic<std::size_t> source_count_{0};

  std::atomic<std::size_t> pending_{0};

  mutable std::mutex bg_mutex_;
  std::condition_variable bg_cv_;
  std::thread bg_thread_;
  std::shared_ptr<std::atomic<bool>> bg_stop_;
  std::atomic<bool> bg_sleeping_{false};
  std::atomic<bool> bg_running_{false};  // a background thread runs and has not been asked to stop
};

}  // namespace dtl::hip::detail

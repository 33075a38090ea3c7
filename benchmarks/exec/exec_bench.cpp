// SPDX-License-Identifier: MIT
// dtl-hip-exec benchmark: DTL against raw HIP, measured in the same run on the same device.
//
//   1. Submitting a kernel with an event: hip_executor::execute + hip_event::record, and
//      hip_executor::submit (pooled event + future), against an error-checked launch + hipEventRecord.
//   2. The same, waited on to completion (query loop / future::get) one operation at a time.
//   3. Poll cost per pending operation with 10,000 pending: event_poller::poll against a loop of
//      hipEventQuery over 10,000 events, all held back by gate kernels so that they stay pending. The
//      operations are spread over 32 streams (a stream's command queue holds about a thousand commands);
//      if the runtime still cannot hold 10,000, the count is halved and the table says so.
//   4. Completing them once finished: poll() completing futures against querying every event.
//   5. The engine's cost per pending host completion source (no stream order to exploit).
//
// Every figure is the median of `runs` repetitions, in microseconds per operation. Exits 77 (skip)
// without a HIP device. Usage: dtl-hip-exec-bench [runs]   (default 15)
#include "bench_build.hpp"
#include "bench_kernels.hpp"
#include "bench_median.hpp"

#include <dtl/hip/device.hpp>
#include <dtl/hip/exec.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

using clock_type = std::chrono::steady_clock;
using dtl::hip::event_poller;
using dtl::hip::hip_event;
using dtl::hip::hip_executor;
using dtl::hip::hip_stream;
using dtl::hip::stream_flags;

constexpr int pending_ops = 10'000;
constexpr int enqueue_batch = 1'000;
constexpr int round_trips = 200;
constexpr long long gate_max_polls = 20'000'000;  // a gate gives up by itself after ~20-40 s

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "benchmark failed: %s\n", what.c_str());
  std::exit(1);
}

void check(hipError_t e, const char* what) {
  if (e != hipSuccess) fail(std::string(what) + ": " + hipGetErrorString(e));
}

template <class R>
void check(const R& r, const char* what) {
  if (!r.has_value()) fail(std::string(what) + ": " + r.error().to_string());
}

/// The value of a create() twin, or the benchmark fails with its status.
template <class T>
T take(dtl::result<T> r, const char* what) {
  check(r, what);
  return std::move(r).value();
}

double micros(clock_type::duration d) { return std::chrono::duration<double, std::micro>(d).count(); }

/// Runs `measure` (which returns microseconds per operation) `runs` times; the median.
template <class F>
double median_of(int runs, F&& measure) {
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(runs));
  for (int i = 0; i < runs; ++i) samples.push_back(measure());
  return median(std::move(samples));
}

/// Holds streams back until released: a kernel polling host memory mapped for the device.
class gate {
 public:
  gate() {
    check(hipHostMalloc(reinterpret_cast<void**>(&flag_), sizeof(int), hipHostMallocMapped), "hipHostMalloc");
    check(hipHostMalloc(reinterpret_cast<void**>(&outcome_), sizeof(int), hipHostMallocMapped), "hipHostMalloc");
    *flag_ = 0;
    *outcome_ = 0;
    check(hipHostGetDevicePointer(reinterpret_cast<void**>(&flag_dev_), flag_, 0), "hipHostGetDevicePointer");
    check(hipHostGetDevicePointer(reinterpret_cast<void**>(&outcome_dev_), outcome_, 0), "hipHostGetDevicePointer");
  }
  gate(const gate&) = delete;
  gate& operator=(const gate&) = delete;
  ~gate() {
    release();
    static_cast<void>(hipDeviceSynchronize());
    static_cast<void>(hipHostFree(flag_));
    static_cast<void>(hipHostFree(outcome_));
  }
  void close(hipStream_t s) {
    __atomic_store_n(flag_, 0, __ATOMIC_SEQ_CST);
    check(bench_launch_gate(flag_dev_, outcome_dev_, gate_max_polls, s), "gate launch");
  }
  void release() { __atomic_store_n(flag_, 1, __ATOMIC_SEQ_CST); }

 private:
  int* flag_ = nullptr;
  int* outcome_ = nullptr;
  int* flag_dev_ = nullptr;
  int* outcome_dev_ = nullptr;
};

struct row {
  std::string what;
  double raw;  // < 0: no raw counterpart
  double dtl;
};

void print_table(const std::vector<row>& rows) {
  std::printf("%-62s %10s %10s %8s\n", "operation (microseconds per operation)", "raw HIP", "DTL", "DTL/raw");
  for (const row& r : rows) {
    if (r.raw >= 0.0) {
      std::printf("%-62s %10.3f %10.3f %8.2f\n", r.what.c_str(), r.raw, r.dtl, r.raw > 0.0 ? r.dtl / r.raw : 0.0);
    } else {
      std::printf("%-62s %10s %10.3f %8s\n", r.what.c_str(), "-", r.dtl, "-");
    }
  }
}

// ---- 1 and 2: submitting work with an event ----

double raw_enqueue(hipStream_t s, hipEvent_t ev) {
  const auto t0 = clock_type::now();
  for (int i = 0; i < enqueue_batch; ++i) {
    bench_launch_empty(s);
    check(hipGetLastError(), "launch");
    check(hipEventRecord(ev, s), "hipEventRecord");
  }
  const double us = micros(clock_type::now() - t0) / enqueue_batch;
  check(hipStreamSynchronize(s), "hipStreamSynchronize");
  return us;
}

double dtl_enqueue(hip_executor& exec, hip_event& ev) {
  const auto t0 = clock_type::now();
  for (int i = 0; i < enqueue_batch; ++i) {
    check(exec.execute([](hipStream_t s) { bench_launch_empty(s); }), "execute");
    check(ev.record(exec.stream()), "record");
  }
  const double us = micros(clock_type::now() - t0) / enqueue_batch;
  check(exec.synchronize(), "synchronize");
  return us;
}

double dtl_submit(hip_executor& exec, event_poller& engine) {
  std::vector<dtl::hip::future<void>> futures;
  futures.reserve(enqueue_batch);
  const auto t0 = clock_type::now();
  for (int i = 0; i < enqueue_batch; ++i)
    futures.push_back(exec.submit([](hipStream_t s) { bench_launch_empty(s); }, engine));
  const double us = micros(clock_type::now() - t0) / enqueue_batch;
  check(dtl::hip::when_all(std::move(futures)).get_result(std::chrono::seconds(60)), "when_all");
  return us;
}

double raw_round_trip(hipStream_t s, hipEvent_t ev) {
  const auto t0 = clock_type::now();
  for (int i = 0; i < round_trips; ++i) {
    bench_launch_empty(s);
    check(hipGetLastError(), "launch");
    check(hipEventRecord(ev, s), "hipEventRecord");
    hipError_t e = hipErrorNotReady;
    while ((e = hipEventQuery(ev)) == hipErrorNotReady) {
    }
    check(e, "hipEventQuery");
  }
  return micros(clock_type::now() - t0) / round_trips;
}

double dtl_round_trip(hip_executor& exec, hip_event& ev) {
  const auto t0 = clock_type::now();
  for (int i = 0; i < round_trips; ++i) {
    check(exec.execute([](hipStream_t s) { bench_launch_empty(s); }), "execute");
    check(ev.record(exec.stream()), "record");
    dtl::event_status st = ev.query();
    while (st.is_pending()) st = ev.query();
    if (st.is_failed()) fail("event query: " + st.error().to_string());
  }
  return micros(clock_type::now() - t0) / round_trips;
}

double dtl_submit_get(hip_executor& exec, event_poller& engine) {
  const auto t0 = clock_type::now();
  for (int i = 0; i < round_trips; ++i)
    check(exec.submit([](hipStream_t s) { bench_launch_empty(s); }, engine).get_result(std::chrono::seconds(60)),
          "get");
  return micros(clock_type::now() - t0) / round_trips;
}

// ---- 3 and 4: polling many pending operations ----

/// Pending operations are spread over this many streams: a stream's command queue holds only about a
/// thousand commands before recording blocks (on CUDA), and a gate keeps them all in the queues.
constexpr std::size_t pending_streams = 32;

/// Runs record(i) for i < n on a helper thread. If that has not finished after a few seconds, the
/// command queues are full and recording blocks: the gate is released (so the thread can finish) and
/// the answer is false.
template <class Record>
bool record_all(int n, gate& g, Record&& record) {
  std::atomic<bool> done{false};
  std::thread t([&] {
    for (int i = 0; i < n; ++i) record(i);
    done = true;
  });
  const auto deadline = clock_type::now() + std::chrono::seconds(5);
  while (!done.load() && clock_type::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const bool in_time = done.load();
  if (!in_time) g.release();
  t.join();
  return in_time;
}

struct pending_rows {
  int count;  // operations that were pending at once
  double raw_poll;
  double dtl_poll;
  double raw_finished;
  double dtl_finished;
};

/// Pending operations spread over `streams`: their poll cost while pending, then their completion cost.
/// Starts at 10,000 and halves until the command queues can hold that many.
pending_rows measure_pending(std::vector<hip_stream>& streams, event_poller& engine, int runs) {
  const std::size_t ns = streams.size();
  auto stream_of = [&](int i) -> hip_stream& { return streams[static_cast<std::size_t>(i) % ns]; };
  auto sync_all = [&] {
    for (auto& s : streams) check(s.synchronize(), "synchronize");
  };
  std::vector<hipEvent_t> events(pending_ops);
  for (auto& e : events) check(hipEventCreateWithFlags(&e, hipEventDisableTiming), "hipEventCreateWithFlags");
  pending_rows out{};

  for (int n = pending_ops;; n /= 2) {
    if (n < 500) fail("fewer than 500 operations could be kept pending");
    out.count = n;
    {  // raw HIP: n events behind the gates, each queried
      gate g;
      for (auto& s : streams) g.close(s.native_handle());
      const bool held = record_all(n, g, [&](int i) {
        check(hipEventRecord(events[static_cast<std::size_t>(i)], stream_of(i).native_handle()), "hipEventRecord");
      });
      if (held) {
        out.raw_poll = median_of(runs, [&] {
          const auto t0 = clock_type::now();
          int still_pending = 0;
          for (int i = 0; i < n; ++i)
            still_pending += hipEventQuery(events[static_cast<std::size_t>(i)]) == hipErrorNotReady ? 1 : 0;
          const double us = micros(clock_type::now() - t0) / n;
          if (still_pending != n) fail("raw events completed while the gate was closed");
          return us;
        });
        static_cast<void>(hipGetLastError());
      }
      g.release();
      sync_all();
      if (!held) continue;
    }
    {  // DTL: n operations behind the gates, one poll
      gate g;
      for (auto& s : streams) g.close(s.native_handle());
      std::vector<dtl::hip::future<void>> futures(static_cast<std::size_t>(n));
      const bool held =
          record_all(n, g, [&](int i) { futures[static_cast<std::size_t>(i)] = engine.enqueue(stream_of(i)); });
      if (held) {
        out.dtl_poll = median_of(runs, [&] {
          const auto t0 = clock_type::now();
          const std::size_t completed = engine.poll();
          const double us = micros(clock_type::now() - t0) / n;
          if (completed != 0 || engine.pending() != static_cast<std::size_t>(n))
            fail("operations completed while the gate was closed");
          return us;
        });
      }
      g.release();
      sync_all();
      check(engine.synchronize(std::chrono::seconds(60)), "synchronize");
      if (!held) continue;
      check(dtl::hip::when_all(std::move(futures)).get_result(std::chrono::seconds(1)), "futures");
    }
    break;
  }

  const int n = out.count;
  out.raw_finished = median_of(runs, [&] {
    // Recorded afresh each run, like the engine's events: the first query after the work finished is the
    // one that counts (querying an event already seen complete is cheaper).
    for (int i = 0; i < n; ++i)
      check(hipEventRecord(events[static_cast<std::size_t>(i)], stream_of(i).native_handle()), "hipEventRecord");
    sync_all();
    const auto t0 = clock_type::now();
    for (int i = 0; i < n; ++i) check(hipEventQuery(events[static_cast<std::size_t>(i)]), "hipEventQuery");
    return micros(clock_type::now() - t0) / n;
  });
  out.dtl_finished = median_of(runs, [&] {
    std::vector<dtl::hip::future<void>> futures;
    futures.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) futures.push_back(engine.enqueue(stream_of(i)));
    sync_all();
    const auto t0 = clock_type::now();
    const std::size_t completed = engine.poll();
    const double us = micros(clock_type::now() - t0) / n;
    if (completed != static_cast<std::size_t>(n)) fail("one poll did not complete every finished operation");
    return us;
  });
  for (hipEvent_t e : events) check(hipEventDestroy(e), "hipEventDestroy");
  return out;
}

/// 10,000 pending host completion sources: the engine's per-operation cost without stream ordering.
double measure_host_sources(int runs) {
  event_poller engine;
  std::vector<std::uint64_t> ids;
  ids.reserve(pending_ops);
  for (int i = 0; i < pending_ops; ++i) ids.push_back(engine.watch([] { return dtl::event_status::pending(); }).id);
  const double us = median_of(runs, [&] {
    const auto t0 = clock_type::now();
    static_cast<void>(engine.poll());
    return micros(clock_type::now() - t0) / pending_ops;
  });
  for (std::uint64_t id : ids) static_cast<void>(engine.unwatch(id));
  return us;
}

}  // namespace

int main(int argc, char** argv) {
  if (dtl::hip::device_count() == 0) {
    std::printf("no HIP device: skipping the dtl-hip-exec benchmark\n");
    return 77;
  }
  warn_if_unoptimized_build();
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 15;
  auto dev = dtl::hip::current_device();
  check(dev, "current_device");
  auto props = dtl::hip::get_device_properties(*dev);
  check(props, "get_device_properties");

  event_poller engine;
  check(engine.reserve_events(*dev, pending_ops + enqueue_batch), "reserve_events");
  const hip_stream raw_stream_owner = take(hip_stream::create(stream_flags::non_blocking), "hip_stream::create");
  const hipStream_t raw_stream = raw_stream_owner.native_handle();
  hipEvent_t raw_event = nullptr;
  check(hipEventCreateWithFlags(&raw_event, hipEventDisableTiming), "hipEventCreateWithFlags");
  hip_executor exec = take(hip_executor::create(stream_flags::non_blocking), "hip_executor::create");
  hip_event event = take(hip_event::create(), "hip_event::create");

  // Warm up both paths (module loading, first launches, pools).
  raw_round_trip(raw_stream, raw_event);
  dtl_round_trip(exec, event);
  dtl_submit_get(exec, engine);

  std::vector<row> rows;
  const double raw_enq = median_of(runs, [&] { return raw_enqueue(raw_stream, raw_event); });
  rows.push_back({"launch + event record, enqueue only (execute + record)", raw_enq,
                  median_of(runs, [&] { return dtl_enqueue(exec, event); })});
  rows.push_back({"launch + event record, enqueue only (submit: pooled event, future)", raw_enq,
                  median_of(runs, [&] { return dtl_submit(exec, engine); })});
  const double raw_rt = median_of(runs, [&] { return raw_round_trip(raw_stream, raw_event); });
  rows.push_back({"launch + event, queried until done (execute + record + query)", raw_rt,
                  median_of(runs, [&] { return dtl_round_trip(exec, event); })});
  rows.push_back({"launch + event, waited until done (submit + future::get)", raw_rt,
                  median_of(runs, [&] { return dtl_submit_get(exec, engine); })});

  {
    std::vector<hip_stream> streams;
    for (std::size_t i = 0; i < pending_streams; ++i)
      streams.push_back(take(hip_stream::create(stream_flags::non_blocking), "hip_stream::create"));
    const pending_rows p = measure_pending(streams, engine, runs);
    const std::string on = std::to_string(p.count) + " over " + std::to_string(pending_streams) + " streams";
    rows.push_back({"poll, " + on + " pending (per pending op)", p.raw_poll, p.dtl_poll});
    rows.push_back({"complete " + on + ", all finished (per op)", p.raw_finished, p.dtl_finished});
  }
  rows.push_back({"poll, 10,000 pending host completion sources (per op)", -1.0, measure_host_sources(runs)});

  check(hipEventDestroy(raw_event), "hipEventDestroy");
  std::printf("dtl-hip-exec benchmark on %s (%s), HIP platform %s, %s build, median of %d runs\n", props->name.c_str(),
              props->arch.c_str(), dtl::hip::platform_name(), DTL_BENCH_BUILD, runs);
  std::printf(
      "raw HIP: empty-kernel launch + hipGetLastError + hipEventRecord (+ hipEventQuery spin);\n"
      "         polling = hipEventQuery over every pending event. DTL: the calls named in each row.\n\n");
  print_table(rows);
  return 0;
}

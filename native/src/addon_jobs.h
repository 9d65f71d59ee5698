// The GPU controller binding's jobs (addon.cpp): a job's work runs on one of the controller's
// threads, its promise is settled on the JS thread (through the controller's thread-safe function).
#pragma once

#include <napi.h>

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "backend.h"

namespace ts::addon {

struct Job {
  std::function<void()> work;                        // a controller thread
  std::function<Napi::Value(Napi::Env)> settle;      // JS thread, after work succeeded
  std::unique_ptr<Napi::Promise::Deferred> deferred;
  std::vector<std::unique_ptr<Napi::Reference<Napi::Value>>> keep;
  std::vector<void*> release;  // page owners (Napi::Reference<Napi::Value>*) to delete on the JS thread
  bool ok = true;
  bool closeAfter = false;     // stop the worker after this job (close, failed create)
  bool closeOnError = false;
  std::string code, message;

  /** Runs work, recording its error. */
  void run() {
    try {
      work();
    } catch (const CodedError& e) {
      ok = false;
      code = e.code;
      message = e.what();
    } catch (const std::exception& e) {
      ok = false;
      code = "TS_NATIVE";
      message = e.what();
    } catch (...) {
      ok = false;
      code = "TS_NATIVE";
      message = "unknown native error";
    }
  }
};

/**
 * A thread that runs jobs in order, each handed to `after` once run (true: stop now), until told
 * to stop and its queue is empty; then `atExit`.
 */
class JobThread {
 public:
  void start(std::function<bool(Job*)> after, std::function<void()> atExit = {}) {
    thread_ = std::thread([this, after = std::move(after), atExit = std::move(atExit)] {
      for (;;) {
        Job* j = nullptr;
        {
          std::unique_lock<std::mutex> lk(m_);
          cv_.wait(lk, [this] { return stop_ || !q_.empty(); });
          if (q_.empty()) break;  // told to stop, and nothing left
          j = q_.front();
          q_.pop_front();
        }
        j->run();
        if (after(j)) break;
      }
      if (atExit) atExit();
    });
  }
  void push(Job* j) {
    {
      std::lock_guard<std::mutex> lk(m_);
      q_.push_back(j);
    }
    cv_.notify_one();
  }
  /** Tells it to stop once its queue is empty. */
  void requestStop() {
    {
      std::lock_guard<std::mutex> lk(m_);
      stop_ = true;
    }
    cv_.notify_one();
  }
  void join() {
    if (thread_.joinable()) thread_.join();
  }
  bool joinable() const { return thread_.joinable(); }

 private:
  std::thread thread_;
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<Job*> q_;
  bool stop_ = false;
};

}  // namespace ts::addon

// The controller's copy pool (controller.cpp): a few threads that split a large host copy, or any
// pass over parts (each), with the calling thread; used by the staged state copies and the pages'
// staging ring.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ts {

namespace copy_pool_detail {

// A large copy's parts with streaming stores: what the copy pool writes (a pinned buffer the DMA
// reads next, or a host array of megabytes a read-back fills) is not read again soon, and plain
// stores read each line in first, a third more host memory traffic for copies bound by it (the
// parts, 8 MiB over the threads, stay under the size where memcpy streams by itself).
// TESSERA_STREAM_COPY=0 keeps memcpy.
inline void copyPart(uint8_t* d, const uint8_t* s, size_t n) {
#if defined(__SSE2__)
  static const bool on = [] {
    const char* e = std::getenv("TESSERA_STREAM_COPY");
    return e == nullptr || std::string(e) != "0";
  }();
  if (on && n >= 4096) {
    const size_t head = (16 - ((uintptr_t)d & 15)) & 15;
    std::memcpy(d, s, head);
    size_t i = head;
    for (; i + 64 <= n; i += 64) {
      const __m128i a = _mm_loadu_si128((const __m128i*)(s + i)), b = _mm_loadu_si128((const __m128i*)(s + i + 16));
      const __m128i c = _mm_loadu_si128((const __m128i*)(s + i + 32)), e = _mm_loadu_si128((const __m128i*)(s + i + 48));
      _mm_stream_si128((__m128i*)(d + i), a);
      _mm_stream_si128((__m128i*)(d + i + 16), b);
      _mm_stream_si128((__m128i*)(d + i + 32), c);
      _mm_stream_si128((__m128i*)(d + i + 48), e);
    }
    _mm_sfence();
    std::memcpy(d + i, s + i, n - i);
    return;
  }
#endif
  std::memcpy(d, s, n);
}

}  // namespace copy_pool_detail

class CopyPool {
 public:
  explicit CopyPool(unsigned threads) {
    for (unsigned i = 1; i < threads; i++) workers_.emplace_back([this, i] { loop(i); });
  }
  ~CopyPool() {
    {
      std::lock_guard<std::mutex> lk(m_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : workers_) t.join();
  }
  void copy(void* dst, const void* src, size_t n) {
    if (workers_.empty() || n < (1u << 20)) {
      std::memcpy(dst, src, n);
      return;
    }
    const size_t part = ((n / (workers_.size() + 1)) + 4095) & ~(size_t)4095;
    each([&](unsigned i, unsigned) {
      const size_t b = std::min(n, part * i), e = std::min(n, part * (i + 1));
      if (e > b) copy_pool_detail::copyPart((uint8_t*)dst + b, (const uint8_t*)src + b, e - b);
    });
  }
  /** The pool's threads and the caller's: each()'s parts. */
  unsigned parts() const { return (unsigned)workers_.size() + 1; }
  /** Runs fn(part, parts) on each of the pool's threads and this one (parts = threads). */
  void each(const std::function<void(unsigned, unsigned)>& fn) {
    if (workers_.empty()) return fn(0, 1);
    {
      std::lock_guard<std::mutex> lk(m_);
      fn_ = &fn;
      busy_ = (unsigned)workers_.size();
      gen_++;
    }
    cv_.notify_all();
    piece(0);
    std::unique_lock<std::mutex> lk(m_);
    done_.wait(lk, [this] { return busy_ == 0; });
    fn_ = nullptr;
  }

 private:
  void piece(unsigned i) { (*fn_)(i, (unsigned)workers_.size() + 1); }
  void loop(unsigned i) {
    uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lk(m_);
        cv_.wait(lk, [&] { return stop_ || gen_ != seen; });
        if (stop_) return;
        seen = gen_;
      }
      piece(i);
      {
        std::lock_guard<std::mutex> lk(m_);
        busy_--;
      }
      done_.notify_all();
    }
  }
  std::vector<std::thread> workers_;
  std::mutex m_;
  std::condition_variable cv_, done_;
  const std::function<void(unsigned, unsigned)>* fn_ = nullptr;
  unsigned busy_ = 0;
  uint64_t gen_ = 0;
  bool stop_ = false;
};

}  // namespace ts

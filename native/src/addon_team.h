// A team's run in phases, for kernels that run whole in the addon on each thread of a socket's
// team (addon_bfs.cpp bfsTeam, addon_cpu.cpp wccTeam). Every thread of the team calls the kernel
// with the same arguments and a zeroed `ctl` (an f64 array read as 64-bit words). A phase is a
// range of chunks handed out by a counter that carries the phase's number; whichever thread
// finishes a phase's last chunk (the closer) takes the next decision and publishes the next phase;
// the others wait for it (a short spin, then a futex). No barrier: a thread that starts late (woken
// late from its futex) finds chunks taken and joins the phase in progress, and any one thread can
// finish the run alone.
//
// A phase's parameters sit in one of two slots by its number's parity: a thread that read phase
// s's number and is slow to read its parameters may meet phase s + 1's being written, never s's
// overwritten while its chunks can still be claimed (phase s + 2 is published only after s + 1's
// chunks are all done, and by then the claim word names s + 1).
#pragma once

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <climits>
#include <cstdint>
#include <ctime>

namespace ts {
namespace addon {
namespace team {

enum : size_t {
  SEQ,    // the published phase (low 32 bits: a futex word); 0 before the first
  START,  // 1 once a thread has started the run
  CLAIM,  // seq << 32 | the next chunk
  DONE,   // chunks finished in this phase
  SUMS,   // 4 words: the phase's sums (zeroed at each publish)
  STATE = SUMS + 4,  // 12 words: the closer's own, kept between phases
  SLOTS = STATE + 12,  // two slots of a phase's parameters:
  P_KIND = 0, P_LEVEL, P_TOTAL, P_WORK, P_SIZE, P_WORDS,
  WORDS = 32  // the kernel's own words from here
};
static_assert(SLOTS + 2 * P_WORDS <= WORDS, "ctl's words overlap the kernel's");

/** The phase kind that ends a run (a kernel's kinds are other numbers). */
constexpr uint64_t END = 0xffff;

inline uint64_t ld(const uint64_t* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
inline void st(uint64_t* p, uint64_t x) { __atomic_store_n(p, x, __ATOMIC_RELAXED); }

struct Phases {
  uint64_t* ctl;

  uint64_t* at(size_t i) const { return ctl + i; }
  uint64_t* sum(size_t i) const { return ctl + SUMS + i; }
  uint64_t* state(size_t i) const { return ctl + STATE + i; }
  /** Phase seq's parameter i. */
  uint64_t* slot(uint64_t seq, size_t i) const { return ctl + SLOTS + (seq & 1) * P_WORDS + i; }

  /** The last phase published (its kind and level, for the closer). */
  uint64_t kind() const { return ld(slot(ld(at(SEQ)), P_KIND)); }
  uint64_t level() const { return ld(slot(ld(at(SEQ)), P_LEVEL)); }

  /** Publishes a phase of `total` chunks (the first `work` of them work, the rest the kernel's extra chunks). */
  void publish(uint64_t kind, uint64_t level, uint64_t work, uint64_t total, uint64_t size) const {
    const uint64_t seq = (ld(at(SEQ)) & 0xffffffffu) + 1;
    st(slot(seq, P_KIND), kind), st(slot(seq, P_LEVEL), level), st(slot(seq, P_WORK), work), st(slot(seq, P_TOTAL), total), st(slot(seq, P_SIZE), size);
    for (size_t i = 0; i < 4; i++) st(sum(i), 0);
    st(at(DONE), 0);
    st(at(CLAIM), seq << 32);
    __atomic_store_n(at(SEQ), seq, __ATOMIC_RELEASE);
    syscall(SYS_futex, (uint32_t*)at(SEQ), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
  }

  /** Waits while the published phase is `seq`. */
  void waitPast(uint64_t seq) const {
    const uint32_t s32 = (uint32_t)seq;
    for (int i = 0; i < 4096; i++) {
      if ((uint32_t)__atomic_load_n(at(SEQ), __ATOMIC_ACQUIRE) != s32) return;
      __builtin_ia32_pause();
    }
    while ((uint32_t)__atomic_load_n(at(SEQ), __ATOMIC_ACQUIRE) == s32) {
      const timespec ms{0, 1000000};
      syscall(SYS_futex, (uint32_t*)at(SEQ), FUTEX_WAIT_PRIVATE, s32, &ms, nullptr, 0);
    }
  }

  /**
   * The run on this thread: start() on the first thread to arrive (it publishes the first
   * phase), then chunk(kind, level, size, j, work) for every chunk j this thread claims, and
   * advance() on the closer of each phase, until a phase of kind END. start and advance return
   * whether the phase they published has no chunk (it is then closed at once).
   */
  template <typename Start, typename Chunk, typename Advance>
  void run(Start start, Chunk chunk, Advance advance) const {
    uint64_t expected = 0;
    if (__atomic_compare_exchange_n(at(START), &expected, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED) && start())
      while (advance()) {
      }
    for (uint64_t seq = 0;;) {
      waitPast(seq);
      seq = __atomic_load_n(at(SEQ), __ATOMIC_ACQUIRE) & 0xffffffffu;
      const uint64_t kind = ld(slot(seq, P_KIND));
      if (kind == END) return;
      const uint64_t level = ld(slot(seq, P_LEVEL)), total = ld(slot(seq, P_TOTAL)), work = ld(slot(seq, P_WORK)), size = ld(slot(seq, P_SIZE));
      for (;;) {
        uint64_t c = ld(at(CLAIM));
        if ((c >> 32) != seq || (c & 0xffffffffu) >= total) break;
        if (!__atomic_compare_exchange_n(at(CLAIM), &c, c + 1, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) continue;
        chunk(kind, level, size, c & 0xffffffffu, work);
        // The phase's last chunk: this thread takes the next decision (every chunk's writes seen).
        if (__atomic_add_fetch(at(DONE), 1, __ATOMIC_ACQ_REL) == total)
          while (advance()) {
          }
      }
    }
  }
};

}  // namespace team
}  // namespace addon
}  // namespace ts

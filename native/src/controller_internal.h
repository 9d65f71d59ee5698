// Shared by the controller's .cpp files (not its interface): size helpers and Controller::Plan,
// which buildPlan (controller_plan.cpp) fills and run (controller_pages.cpp) carries out.
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "controller.h"

namespace ts {

inline size_t align8(size_t x) { return (x + 7) & ~(size_t)7; }
inline size_t align16(size_t x) { return (x + 15) & ~(size_t)15; }
inline size_t align256(size_t x) { return (x + 255) & ~(size_t)255; }
/** Threads per vertex of the vertex-group pull kernels: the page's average degree decides. */
inline uint32_t groupSize(const PageDev& pd) {
  if (pd.split) return kBlock;
  const double avg = (double)pd.edges / (double)pd.nv;
  if (avg < 3) return 1;
  if (avg < 24) return 4;
  if (avg < 192) return 32;
  return kBlock;
}
/** State copies through pinned buffers (stageState, narrowRead; pins.ts locks nothing where they apply). */
constexpr size_t kStageChunk = 8u << 20, kStageBuffers = 4, kStageMin = 1u << 20;
/** Whether [host, host + n) lies in a range some controller pinned aside and the device locked (controller_pins.cpp). */
bool pinnedAside(const void* host, size_t n);
inline uint32_t gridFor(size_t n) { return (uint32_t)std::max<size_t>(1, std::min<size_t>((n + kBlock - 1) / kBlock, 4096)); }

/**
 * KTwcBlock's grid for a push page (0: no vertex of a block's degree). A huge vertex's edges go
 * over the whole grid, and a page holding one (an RMAT hub) has few vertices: sized by them, the
 * grid was a few blocks (BFS's first level on RMAT 25, a source of ~0.5 M out-edges, ~1 ms on an
 * H100). Sized by the page's edges too where it may hold one: ~8 edges a thread.
 */
inline uint32_t twcBlockGrid(const PageDev& pd) {
  const uint32_t big = std::min(pd.nv, pd.edges / kTwcLarge);
  if (big == 0) return 0;
  return std::min<uint32_t>(pd.edges >= kTwcHuge ? std::max<uint32_t>(big, pd.edges / (kBlock * 8)) : big, 1024);
}

inline std::string mib(size_t b) {
  std::ostringstream o;
  o.setf(std::ios::fixed);
  o.precision(b < (1u << 20) ? 3 : 1);
  o << (double)b / (1024.0 * 1024.0) << " MiB";
  return o.str();
}

/** The state array `name`, or TS_NO_STATE naming `op`. */
inline StateArr& findState(std::map<std::string, StateArr>& m, const std::string& name, const char* op) {
  auto it = m.find(name);
  if (it == m.end()) throw CodedError("TS_NO_STATE", std::string(op) + ": no state array named '" + name + "' (allocState it first)");
  return it->second;
}

struct Controller::Plan {
  std::function<void()> pre;
  std::function<void(HostPage&, const PageDev&, int)> page;
  /**
   * Optional: pages already resident on stream s, launched together (Controller::launchPages);
   * run() uses it where no load of this call can evict a slot (the whole set fits the cache).
   */
  std::function<void(const PageDev*, uint32_t, int)> batch;
  std::function<void()> post;
  bool outbox = false;
  Outbox ob{};
  double obIdentity = 0;
  std::vector<uint32_t> keep32;  // host arrays uploaded during the call
  std::vector<uint32_t> keep32b;
  std::vector<HostPage*> pin;          // made resident (and kept) before the pages are processed
  std::function<void()> afterPin;      // stream 0, once the pinned pages have slots
  std::string pinWhat;                 // for the error when they cannot all be resident
  std::vector<std::shared_ptr<void>> keep;
  std::function<void(RunStats&)> finish;  // after the call's work is done (stream 0 synced)
};

}  // namespace ts

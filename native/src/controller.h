// The GPU controller: one per device. Keeps vertex state arrays on the device, an LRU cache of
// graph pages in the device memory left under memoryLimit (GTS), streams missing pages in
// through pinned staging buffers on K streams while kernels run, and runs the kernels. Plain C++
// (no Node-API); every method is called on the controller's own worker thread (addon.cpp).
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "backend.h"
#include "kernels.h"

namespace ts {

enum class SType : uint32_t { U8 = kTypeU8, U32 = kTypeU32, I32 = kTypeI32, F32 = kTypeF32, F64 = kTypeF64 };
size_t stypeSize(SType t);
const char* stypeName(SType t);
bool parseSType(const std::string& s, SType* out);

struct StateArr {
  SType type = SType::F64;
  size_t n = 0;
  size_t bytes = 0;
  void* dev = nullptr;
};

/** What registerPage receives: the host bytes stay owned by JS (owner is released by the addon). */
struct PageSpec {
  int setId = 0;
  uint32_t index = 0;
  const uint8_t* data = nullptr;
  size_t dataBytes = 0;
  // A page read from a file when it is loaded (a graph larger than host memory, GTS): data is
  // null, the blob is dataBytes at fileOffset of fd, read into the staging ring and copied on.
  int fd = -1;
  uint64_t fileOffset = 0;
  uint32_t vBegin = 0, vEnd = 0, edges = 0, wbytes = 0;
  int split = -1;  // 1 / 0, or -1: inferred (a one-vertex page next to a page of the same vertex)
  void* owner = nullptr;
};

/**
 * A streaming page's host bytes page-locked off the controller's thread (pinPage, the pinner
 * thread): queued, then locked or declined (or cancelled: the page went first).
 */
struct PagePin {
  void* p = nullptr;
  size_t bytes = 0;
  std::atomic<int> state{0};  // 0 queued or running, 1 locked, 2 declined or cancelled
};

struct HostPage {
  PageSpec spec;
  size_t bytes = 0;  // logical page bytes [offsets | nbrs | weights]
  uint32_t maxNbr = 0;
  bool anyNbr = false;
  std::vector<Tile> tiles;
  uint32_t R = 1;
  size_t imageBytes = 0;  // bytes + tiles, as held in a cache slot
  int slot = -1;
  bool hostPinned = false;  // its host bytes are page-locked and its loads copy from them directly
  std::shared_ptr<PagePin> pinJob;  // the lock asked for when the cache first evicted it (pinPage)
  Tile* tilesPinned = nullptr;  // a page-locked copy of tiles once it streams (one DMA, no staging)
  uint8_t* buffered = nullptr;  // file-backed: its image (bytes, tiles) in the host buffer (GTS's MMBuf)
  int bufChunk = -1;
  uint32_t nv() const { return spec.vEnd - spec.vBegin; }
};

/**
 * Kernel "levels" (controller_levels.cpp): a claim traversal's levels in one call, each pushed
 * (kernel `push` over the request's set and pages) or pulled (`pull` over inSet / inPages).
 */
struct LevelsSpec {
  std::string push, pull;
  int inSet = 0;
  std::vector<uint32_t> inPages;
};

class Controller;

/**
 * A run's exchange with GPU peers (GTS §4.1's peer copies, overlapped with the kernels): at its
 * start the run posts its array `slot` under `tag`; once its own kernels are done it copies its
 * `ranges` of `slot` into each peer's posted array on its own stream, while the peers' kernels
 * may still run (they write other ranges). Every member of one exchange passes the same tag.
 */
struct ExchangeSpec {
  uint64_t tag = 0;  // 0: no exchange
  std::string slot;
  std::vector<std::pair<size_t, size_t>> ranges;
  std::vector<Controller*> peers;
  bool on() const { return tag != 0 && !peers.empty(); }
};

struct RunRequest {
  std::string kernel;
  int setId = 0;
  std::vector<uint32_t> pages;
  std::map<std::string, double> params;
  std::map<std::string, std::string> state;
  LevelsSpec levels;
  ExchangeSpec exchange;
  // pr_pull inside pr_iterations: peers' contribution arrays its apply writes too (peer access).
  std::vector<double*> remote;
  // bfs_push / bfs_pull inside levels: a device Claims (peers' copies the claims go to as well).
  const void* claims = nullptr;
};

struct RunStats {
  std::string kernel;
  uint32_t pages = 0, hits = 0, misses = 0, evictions = 0;
  uint64_t bytesCopied = 0;
  uint64_t fileBytes = 0;    // page bytes read from files (disk)
  uint32_t bufferHits = 0;   // file-backed pages loaded from the host buffer instead
  double copyMs = 0, kernelMs = 0, wallMs = 0;
  uint64_t activated = 0;
  uint32_t cacheSlots = 0;
  size_t slotBytes = 0;
  bool hasSum = false;
  double sum = 0;  // pr_pull with outDeg + nextContrib: the dangling rank of the applied range
  bool hasOutbox = false;
  uint64_t outboxSent = 0;  // messages put before aggregation
  std::vector<uint32_t> outIds;
  std::vector<double> outVals;
  uint64_t peerBytes = 0;  // an exchange: bytes copied into peers' arrays, and the ms waited for their posts
  double peerWaitMs = 0;
  uint32_t levels = 0;  // kernel "levels": the levels run, the edges they walked, and each
  double edges = 0;     // level's direction ('T' top-down: push, 'B' bottom-up: pull; Beamer's terms)
  std::string directions;
  // Kernel "levels": each level's wall ms in four parts (the pages to walk, the kernel's call, the
  // meeting with the peers, the next frontier's count and swap), four numbers a level.
  std::vector<double> levelTimes;
};

struct Totals {
  uint64_t calls = 0, hits = 0, misses = 0, evictions = 0, bytesCopied = 0, cacheResets = 0, fileBytes = 0, bufferHits = 0;
  uint64_t narrowReads = 0;  // state read-backs packed into 1 or 2 bytes a value (readState)
  double copyMs = 0, kernelMs = 0, wallMs = 0;
};

struct ControllerInfo {
  int device = 0;
  DeviceProps props;
  bool cudaBuild = false;
  size_t memoryLimit = 0, used = 0, stateBytes = 0, scratchBytes = 0, cacheBytes = 0, slotBytes = 0;
  uint32_t cacheSlots = 0, residentPages = 0, registeredPages = 0, pinnedPages = 0;
  size_t pinnedHostBytes = 0;
  size_t pinnedAsideBytes = 0;  // of pinnedHostBytes, those pinAside locked
  size_t hostBufferBytes = 0, hostBufferLimit = 0;  // the host buffer's page-locked bytes, and its limit
  uint32_t bufferedPages = 0;
  int streams = 0;
  Totals totals;
};

/** Splits large host memcpys (pageable page bytes -> pinned staging) over a few threads. */
class CopyPool;

class Controller {
 public:
  /** hostBuffer: page-locked host bytes it may keep file-backed pages in (GTS's MMBuf; 0: none). */
  Controller(int device, bool emulated, double memoryLimit, int streams, double hostBuffer = 0);
  ~Controller();
  /** Creates the backend (on the worker thread). Throws CodedError for a missing device. */
  void init();
  ControllerInfo info();

  void allocState(const std::string& name, SType type, size_t n);
  void freeState(const std::string& name);
  /** Frees the scratch buffers (another program runs next: under a memoryLimit an earlier program's would crowd it out). */
  void freeScratch();
  void writeState(const std::string& name, const void* src, SType type, size_t count, size_t offset);
  void readState(const std::string& name, void* dst, SType type, size_t count, size_t offset);
  void fillState(const std::string& name, double value);
  /** dst[begin, end) = src[begin, end) on the device (same type): e.g. a diffed array's `before` copy. */
  void copyState(const std::string& dst, const std::string& src, size_t begin, size_t end);
  /** dst takes src's values and src is zeroed (one type and length): the device memory changes names, nothing is copied. */
  void takeState(const std::string& dst, const std::string& src, bool clear = true);
  /**
   * dst[b, e) = peer's src[b, e) for each range (same type), device to device (GTS Strategy-P's
   * peer copies, §4.1). Reads the peer's array table from this thread: the caller guarantees the
   * peer runs nothing meanwhile (the GPU actors meet at a barrier). Returns the bytes copied.
   */
  size_t copyFromPeer(Controller& peer, const std::string& src, const std::string& dst, const std::vector<std::pair<size_t, size_t>>& ranges);
  /**
   * Sum of deg[v] (u32) over v in [begin, end) with flags[v] (u8) set. With `ranges` (disjoint
   * vertex ranges, ascending, two numbers each) also marks[r] = 1 where a flagged vertex is in
   * range r.
   */
  double flaggedDegrees(const std::string& flags, const std::string& deg, size_t begin, size_t end, const std::vector<uint32_t>* ranges = nullptr,
                        std::vector<uint8_t>* marks = nullptr);
  /** name[ids[i]] = vals[i] for i < count (vals of the array's type). */
  void scatterState(const std::string& name, const uint32_t* ids, const void* vals, SType type, size_t count);
  /** name[ids[i]] reduced with vals[i] (op kMergeClaim/Min/Max), marking u8 array `next` where it changed; returns the fresh marks. */
  uint32_t mergeState(const std::string& name, const uint32_t* ids, const void* vals, SType type, size_t count, uint32_t op, const std::string& next);
  /**
   * The pages of `pages` (set setId) with a vertex whose i32 state[v] == value (a pull's pullIf:
   * only they need a walk); every page for a state of another type.
   */
  std::vector<uint32_t> activePages(int setId, const std::vector<uint32_t>& pages, const std::string& state, double value);
  /**
   * Copies registered pages of set setId into the page cache ahead of any run, where every
   * registered page has a slot and `reserve` bytes stay free under the limit (else nothing):
   * returns how many it copied.
   */
  size_t preload(int setId, const std::vector<uint32_t>& pages, size_t reserve);
  /** Direct access to the peer's memory (NVLink/PCIe P2P); false: copies go through the host. */
  bool enablePeer(Controller& peer);
  /**
   * Ends, with TS_PEER, every wait of this controller's runs for a peer's post with a tag up to
   * `tag` (a run torn down while a member never reached its kernels). Any thread.
   */
  void abortExchanges(uint64_t tag);
  int device() const { return device_; }
  bool emulated() const { return emulated_; }
  /**
   * Page-locks host memory the caller keeps alive until unpinHost (counted per pointer), so state
   * copies from/to it run as direct DMA. False when the device cannot: copies still work, slower.
   */
  bool pinHost(void* p, size_t bytes);
  /**
   * The vertices v in [begin, end) with flags[v] != 0 (a u8 state array) and state[v] as a
   * double, in no particular order: a changed-set read back in O(changed) bytes. A non-empty
   * `mask` names a u8 array: only vertices whose byte is set (an owner of several ranges). A
   * non-empty `before` (an array of state's type) lists instead the vertices whose value differs
   * from it (flags unused), with `delta` their difference rather than the value.
   */
  void compact(const std::string& flags, const std::string& state, size_t begin, size_t end, std::vector<uint32_t>& ids,
               std::vector<double>& vals, const std::string& mask = std::string(), const std::string& before = std::string(),
               bool delta = false);
  void unpinHost(void* p);
  /**
   * Page-locks [p, p + bytes) from a thread other than the controller's (the addon's side thread),
   * for a result array pooled ahead of the run that reads back into it: every controller's staged()
   * then copies straight into it (one DMA instead of a DMA and a copy on the host; cudaHostRegister
   * of 64 MiB took 5-8 ms on an H200 host, too long for a run's critical path). Thread-safe; false
   * where the device declined. unpinAside(p) undoes it once no copy uses the range; close does too.
   */
  bool pinAside(void* p, size_t bytes);
  void unpinAside(void* p);
  /** Returns the owner of the page it replaces (or null). */
  void* registerPage(const PageSpec& spec);
  /**
   * registerPage for each of specs, checked and tiled on the copy threads together (one page a
   * thread at a time); the first failing page's error (in order) thrown with none registered.
   * Returns the owners of the pages replaced.
   */
  std::vector<void*> registerPages(const std::vector<PageSpec>& specs);
  /** Forgets a page set; returns the owners to release. */
  std::vector<void*> unregisterSet(int setId);
  std::vector<void*> allOwners() const;
  RunStats run(const RunRequest& rq);
  /**
   * Loads the user operator module `key` (kernels_user.h; controller_user.cpp): emulated, the
   * shared object at `path`; CUDA, `cubin`, else `source` compiled by NVRTC (the cubin is
   * returned so the caller can cache it). Kernel "user:<key>:<operator>:<push|pull|vertex>" runs it.
   */
  std::string loadOperators(const std::string& key, const std::string& path, const std::string& source, const std::string& cubin);
  /** Frees device memory and the backend; the controller is unusable afterwards. */
  void shutdown();

 private:
  struct Slot {
    uint8_t* dev = nullptr;
    int64_t key = -1;
    uint64_t lastUse = 0;
    Event ready = nullptr, used = nullptr;
    bool readyRecorded = false, usedRecorded = false;
    bool pinned = false;  // held for the whole call (pages a kernel reads at random)
    bool buffered = false;  // its page is in the host buffer too
  };
  struct Chunk {
    uint8_t* buf = nullptr;
    Event ev = nullptr;
    bool pending = false;
  };
  struct Buf {
    void* p = nullptr;
    size_t bytes = 0;
  };
  struct Plan;

  static int64_t key(int setId, uint32_t index) { return ((int64_t)setId << 32) | (int64_t)index; }
  size_t used() const { return stateBytes_ + scratchBytes_ + arenaBytes_; }
  [[noreturn]] void throwOom(const std::string& what, size_t need, bool deviceFull);
  void* dalloc(size_t bytes, const std::string& what);
  void* scratch(const std::string& name, size_t bytes, bool* fresh = nullptr);
  /** scatterState's and mergeState's checks of (ids, values) against `a`, then both copied into scratch on the device. */
  std::pair<uint32_t*, void*> scatterInputs(const StateArr& a, const std::string& what, const uint32_t* ids, const void* vals, SType type, size_t count);
  /**
   * Frees the cache's allocations from the last one down (their slots' pages lose their slots)
   * until `need` more bytes fit under the limit; every one with need SIZE_MAX. The slots of the
   * allocations kept keep their pages (a scratch buffer grown past the limit costs a few slots,
   * not every resident page); at most `most` allocations. Whether any was freed.
   */
  bool shrinkCache(size_t need, size_t most = SIZE_MAX);
  /** Adds up to n slots of slotBytes_ in allocations of about kArenaChunk; the slots it added. */
  size_t growCache(size_t n);
  void ensureCache();
  /** Bytes of a cache slot: the largest registered page's image (ensureCache, preload). */
  size_t slotSize() const;
  void addSlots(uint8_t* arena, size_t n);
  static constexpr size_t kArenaChunk = (size_t)256 << 20;
  void ensureStaging();
  void stageChunks(uint8_t* dst, size_t n, int s, const std::function<void(uint8_t*, size_t, size_t)>& fill);
  void copyChunks(uint8_t* dst, const void* src, size_t n, int s);
  void copyFileChunks(uint8_t* dst, int fd, uint64_t at, size_t n, int s);
  /** Whether a state copy of n bytes to/from host goes through stageState (large, pageable, CUDA). */
  bool staged(const void* host, size_t n);
  /** stageState's pinned buffers, made on first use. */
  void ensureStateStage();
  void stageState(uint8_t* dev, uint8_t* host, size_t n, bool toDevice);
  /**
   * Chunks [0, m) back from the device through stateStage_'s buffers, as many in flight as there
   * are buffers: fetch(i, buf) queues chunk i's copy into buf on stream 0, use(i, buf) reads it
   * once it has landed (stageState, narrowRead).
   */
  void drainStaged(size_t m, const std::function<void(size_t, uint8_t*)>& fetch, const std::function<void(size_t, const uint8_t*)>& use);
  /** readState of a large i32/u32 range whose values span under 2^16: packed on the device, widened on the host (controller_state.cpp). */
  bool narrowRead(StateArr& a, void* dst, size_t count, size_t offset);
  /** fn(part, parts) on the copy pool's threads and this one (this one alone without a pool). */
  void parallel(const std::function<void(unsigned, unsigned)>& fn);
  int acquire(HostPage& hp, int s, RunStats& st, Event copyStart);
  PageDev pageDev(const HostPage& hp) const;
  bool isSplit(const HostPage& hp) const;
  /** Asks the pinner thread to page-lock a page that streams; its loads go on through staging till then. */
  void pinPage(HostPage& hp);
  /** Once its lock is done: its loads copy from its host bytes directly, its tiles from a pinned copy. */
  void adoptPin(HostPage& hp);
  /** Undoes pinPage (the page is replaced, unregistered, or the controller closes): a queued lock is cancelled, a running one waited for. */
  void unpinPage(HostPage& hp);
  /** The pinner thread: page locks one after another (cudaHostRegister takes ms a page; the copies go on meanwhile). */
  void pinnerLoop();
  /** Waits until no page lock is queued or running (info: the counts settle). */
  void waitPins();
  void stopPinner();
  StateArr* role(const RunRequest& rq, const std::string& role, std::initializer_list<SType> types, bool required);
  Event timingEvent();
  template <class K>
  void launch(uint32_t grid, size_t smem, int s, const typename K::Args& a) {
    be_->launch(KernelIdOf<K>::value, grid, kBlock, smem, s, &a);
  }
  template <class Op>
  void pushPage(PushArgs a, const PageDev& pd, int s, uint8_t* twc, size_t per);
  template <class Op>
  void pullPage(PullArgs a, const PageDev& pd, int s);
  /**
   * K over the resident pages pds[0, n) on stream s in KPages launches (kPageBatch pages each):
   * a page's threads per vertex G = g(page), its blocks ceil(nv / (kBlock / G)).
   */
  template <class K, class GFn>
  void launchPages(const typename K::Args& base, const PageDev* pds, uint32_t n, int s, size_t smem, GFn g) {
    typename KPages<K>::Args a{};
    a.base = base;
    pageBatches(a, pds, n, g, [&](const typename KPages<K>::Args& b) { launch<KPages<K>>(b.blocks[b.count], smem, s, b); });
  }
  /** Fills `a` (a KPages Args, its base set) with pds[0, n) kPageBatch pages at a time, go(a) for each batch (its grid: a.blocks[a.count]). */
  template <class A, class GFn, class Go>
  static void pageBatches(A& a, const PageDev* pds, uint32_t n, GFn g, Go go) {
    auto flush = [&] {
      if (a.count > 0) go(a);
      a.count = 0;
    };
    for (uint32_t i = 0; i < n; i++) {
      const uint32_t G = g(pds[i]), per = kBlock / G, blocks = (pds[i].nv + per - 1) / per;
      if (blocks == 0) continue;
      a.pg[a.count] = pds[i];
      a.G[a.count] = G;
      a.blocks[a.count + 1] = a.blocks[a.count] + blocks;
      if (++a.count == kPageBatch) flush();
    }
    flush();
  }
  void buildPlan(const RunRequest& rq, std::vector<HostPage*>& pages, Plan& pl);
  void buildUserPlan(const RunRequest& rq, std::vector<HostPage*>& pages, Plan& pl);
  void buildTriPlan(const RunRequest& rq, Plan& pl);
  void buildLouvainPlan(const RunRequest& rq, Plan& pl);
  void buildAffPlan(const RunRequest& rq, std::vector<HostPage*>& pages, Plan& pl);
  /** Kernel "levels": the traversal's loop on this thread (controller_levels.cpp). */
  RunStats runLevels(const RunRequest& rq);
  /** Kernel "sssp_steps": delta-stepping's buckets on this thread (controller_levels.cpp). */
  RunStats runSsspSteps(const RunRequest& rq);
  /** Exclusive scan of n u64 in place on stream 0 (tiles, then their totals, recursively). */
  void scanU64(u64* a, uint64_t n, int level);
  /**
   * The call's split vertices and their pages (index order); a split vertex some of whose
   * registered pages the call does not name is TS_ARG "...; why".
   */
  std::map<uint32_t, std::vector<HostPage*>> splitGroups(const RunRequest& rq, const std::vector<HostPage*>& pages, const char* why);
  void* userFn(const std::string& key, const std::string& name);
  /** Posts the run's exchange array (ExchangeSpec) for its peers to copy into. */
  void postExchange(const ExchangeSpec& ex);
  /** Copies the run's exchange ranges into every peer's posted array on stream s (after its kernels). */
  void pushExchange(const ExchangeSpec& ex, int s, RunStats& st);
  /**
   * Each peer's arrays of a loop (pr_iterations: its two of contributions, its ranks; levels: its
   * frontier, next flags and depth), by the peers' order in the exchange.
   */
  using PeerBuffers = std::vector<std::array<void*, 3>>;
  struct HeldPeers;
  /**
   * Kernel "levels" on several GPUs owning every vertex together, without peer access: posts this
   * level's next flags (its kernels done), ORs each peer's in (KOrNext: fresh flags get depth
   * `value`) and returns the fresh marks, so every member ends the level with the same flags and
   * depths.
   */
  uint64_t exchangeLevel(const ExchangeSpec& ex, uint32_t level, StateArr& next, StateArr& depth, int32_t value);
  /**
   * Levels whose claims go into the peers' copies too: posts `mine` (this level's claims, its
   * kernels done) and `arrays` at loop step `step`, waits for every peer's post (holding them in
   * `held`), learns their arrays into `learn` (unless null) and returns the claims summed.
   */
  uint64_t meetLevel(const ExchangeSpec& ex, uint32_t step, const StateArr& next, uint64_t mine, const std::array<void*, 3>& arrays, PeerBuffers* learn,
                     HeldPeers& held);
  /** Kernel "aff_merge": Afforest's forests merged across GPUs (controller_aff.cpp). */
  RunStats runAffMerge(const RunRequest& rq);
  /**
   * An all-gather between GPUs owning every vertex together: posts `a` at `step`, copies each
   * peer's posted array of the same size into `into` (peer i at i * a's bytes), then posts
   * step + 1 and waits for every peer's: no member changes its array before all have copied it.
   * Returns the bytes copied.
   */
  uint64_t gatherPeers(const ExchangeSpec& ex, uint32_t step, const StateArr& a, void* into);
  /** Kernel "pr_iterations": PageRank's iterations in one call (controller_levels.cpp). */
  RunStats runPrIterations(const RunRequest& rq);
  std::set<int> direct_;  // peers whose memory this device's kernels write (enablePeer succeeded)
  /** Whether this device's kernels write every peer of `ex` directly (peer access). */
  bool directTo(const ExchangeSpec& ex) const;
  /**
   * pr_iterations on several GPUs owning every vertex together, at iteration `it`'s end: posts
   * `posted` (the array its kernels and pushes finished: contributions, or the last iteration's
   * ranks), its own arrays `arrays` and its dangling mass `mine`, waits for every peer's post
   * (holding the peers in `held`), learns their arrays (`bufs`) and, with `copy`, copies each
   * peer's owned ranges of its posted array into `posted`. Returns the iteration's dangling mass
   * over every GPU (added in device order, so every member computes the same base).
   */
  double meetIteration(const ExchangeSpec& ex, uint32_t it, const StateArr& posted, const std::array<void*, 3>& arrays, double mine, bool copy, PeerBuffers& bufs, HeldPeers& held);
  /** Posts `a` (and `sum`, and the exchange's ranges) as this controller's loop step `step`. */
  void postLoop(const ExchangeSpec& ex, uint32_t step, const StateArr& a, double sum = 0, const std::array<void*, 3>& arrays = {});
  struct LoopPost;
  /**
   * meetLevel's and meetIteration's meeting: posts `posted` (with `sum` and `arrays`) as loop step
   * `step`, waits for every peer's post of it (holding each in `held`) and returns their posts in
   * the exchange's peer order (TS_TYPE naming `what` where a peer's length differs).
   */
  std::vector<const LoopPost*> meetPeers(const ExchangeSpec& ex, uint32_t step, const StateArr& posted, double sum, const std::array<void*, 3>& arrays, HeldPeers& held,
                                         const char* what);
  /** Waits for peer p's loop post of `step` (n entries, else TS_TYPE naming `what`) and holds p (letGo when done with it). */
  const LoopPost& awaitLoop(Controller& p, const ExchangeSpec& ex, uint32_t step, size_t n, const std::chrono::steady_clock::time_point& t0, const char* what);
  /** Waits for peer p's post matching `ready` (abort, close and a minute's timeout end it with TS_PEER), then holds p (inbound_). */
  template <class Ready>
  void awaitPeer(Controller& p, uint64_t tag, const std::chrono::steady_clock::time_point& t0, Ready ready);
  // What this controller's current exchange posted (read by the peers' threads under postMu_).
  struct Posted {
    uint64_t tag = 0;
    void* dev = nullptr;
    SType type = SType::F64;
    size_t n = 0;
  };
  std::mutex postMu_;
  std::condition_variable postCv_;
  Posted posted_;
  bool postClosed_ = false;
  // Kernels "levels" and "pr_iterations" across GPUs: this controller's array by step (a peer
  // reads step L while this one may have posted L + 1 already; never further ahead: L + 2 waits
  // for the peer's L + 1), with pr_iterations' partial sum and the ranges the peers copy.
  struct LoopPost {
    uint64_t tag = 0;
    uint32_t step = 0;
    const void* dev = nullptr;
    size_t n = 0;
    double sum = 0;
    std::vector<std::pair<size_t, size_t>> ranges;
    std::array<void*, 3> arrays{};  // the arrays peers write into (pr_iterations: contributions' two and ranks; levels: frontier, next, depth)
  };
  LoopPost loopPosts_[2];
  int inbound_ = 0;  // peers copying from or into this one's posted arrays now (under postMu_)
  /** A peer's copies from or into this one are done (inbound_). */
  void letGo();
  /** The peers a call copies from or into, let go when the copies are done or failed. */
  struct HeldPeers {
    std::vector<Controller*> peers;
    ~HeldPeers();
  };
  std::atomic<uint64_t> abortTag_{0};
  void unloadOperators();
  struct UserModule {
    void* mod = nullptr;
    std::map<std::string, void*> fns;
  };
  std::map<std::string, UserModule> modules_;

  int device_;
  bool emulated_;
  double requestedLimit_;
  int nstreams_;
  std::unique_ptr<Backend> be_;
  DeviceProps props_;
  size_t limit_ = 0;
  size_t stateBytes_ = 0, scratchBytes_ = 0, arenaBytes_ = 0;
  std::map<std::string, StateArr> state_;
  std::map<std::string, Buf> scratch_;
  std::unordered_map<int64_t, HostPage> pages_;
  size_t maxImage_ = 0;
  // page cache: slots of slotBytes_ in device allocations of about kArenaChunk, slots in allocation
  // order (a cache grown for pages registered later keeps its resident pages: the new slots come in
  // allocations of their own; one shrunk for an allocation frees its last ones only)
  struct Arena {
    uint8_t* p;
    size_t slots;
  };
  std::vector<Arena> arenas_;
  size_t slotBytes_ = 0;
  std::vector<Slot> slots_;
  uint64_t tick_ = 0;
  // page-locked host ranges: pointer -> (bytes, references)
  struct Pin {
    size_t bytes = 0;
    int refs = 0;
  };
  std::unordered_map<void*, Pin> pins_;
  /** Drops this controller's hold on a page-locked range (unregistered when no controller holds it). */
  void releasePin(void* p);
  /** Unpins every range this controller pinned aside (close: the addon's side thread has stopped). */
  void releaseAside();
  size_t asideBytes() const;
  bool pinPages_ = true;  // TESSERA_PIN_PAGES=0: stream every page through the staging ring
  size_t arenaChunk_ = kArenaChunk;  // TESSERA_ARENA_CHUNK (bytes)
  std::thread pinner_;
  std::mutex pinMu_;
  std::condition_variable pinCv_;
  std::deque<std::shared_ptr<PagePin>> pinQueue_;
  int pinBusy_ = 0;
  bool pinStop_ = false;
  // GTS's main-memory buffer (MMBuf, Algorithm 1 lines 18-25) of file-backed pages: page-locked
  // chunks filled as pages first load from disk and kept while their set is registered; a cyclic
  // scan (PageRank) then reads from disk only what neither the device cache nor it holds.
  struct BufChunk {
    uint8_t* p = nullptr;
    size_t size = 0, used = 0;
    uint32_t live = 0;
  };
  std::vector<BufChunk> bufChunks_;
  size_t hostBufLimit_ = 0, hostBufBytes_ = 0;  // allowed, allocated
  /** Room for n bytes in the host buffer, or nullptr when it is full. */
  uint8_t* bufferAlloc(size_t n, int* chunk);
  void releaseBuffered(HostPage& hp);
  // staging
  std::unique_ptr<CopyPool> copyPool_;
  /** The largest of n ids, on the copy pool's threads where it has some and n is large. */
  uint32_t maxOf(const uint32_t* a, size_t n, bool pooled = true);
  /** A page's checks, largest neighbour and tiles (registerPage's part that touches no member but the pool). */
  HostPage checkPage(const PageSpec& sp, bool pooled);
  /** Puts a checked page in the registry; returns the owner of the page it replaces (or null). */
  void* insertPage(HostPage&& hp);
  std::vector<void*> insertPages(std::vector<HostPage>& pages);
  std::vector<Chunk> ring_;
  std::vector<Chunk> stateStage_;  // pinned buffers of stageState
  size_t chunkBytes_ = 0;
  size_t ringNext_ = 0;
  // timing events
  std::vector<Event> evPool_;
  size_t evUsed_ = 0;
  // outbox bookkeeping
  size_t outboxN_ = 0;
  uint32_t outboxOp_ = kReduceNone;
  Totals totals_;
};

}  // namespace ts

// The page registry (registerPage: checks, Garaph tiles, the device view of a cached page), the
// LRU cache slot a page is loaded into (acquire), and run(): a call's pages streamed through its Plan.
#include "controller_internal.h"
#include "copy_pool.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <atomic>
#include <exception>
#include <chrono>
#include <set>
#include <sstream>

namespace ts {

namespace {

// File-backed pages a run asks the kernel to read ahead of the one it loads.
constexpr size_t kFileAhead = 4;
// The host buffer is page-locked in chunks of this size as pages fill it.
constexpr size_t kBufferChunk = (size_t)64 << 20;

// n bytes at `at` of fd into buf, whole or a TS_PAGE error naming `what`; the kernel's cache of the
// range is let go after (the page store keeps host memory to its limit).
void readRange(int fd, uint8_t* buf, size_t n, uint64_t at, const std::string& what) {
  for (size_t got = 0; got < n;) {
    const ssize_t r = pread(fd, buf + got, n - got, (off_t)(at + got));
    if (r <= 0) throw CodedError("TS_PAGE", what + ": reading it from its file: " + (r == 0 ? std::string("the file ends early") : std::string(std::strerror(errno))));
    got += (size_t)r;
  }
  posix_fadvise(fd, (off_t)at, (off_t)n, POSIX_FADV_DONTNEED);
}

std::vector<Tile> buildTiles(const uint32_t* off, uint32_t nv, uint32_t R) {
  std::vector<Tile> tiles;
  const uint32_t tileV = std::min<uint32_t>(kTileVMax, kAccDoubles / R);
  uint32_t v = 0, e = off[0];
  while (v < nv) {
    Tile t{v, v, e, e};
    uint32_t budget = kTileEdges, cnt = 0;
    bool partial = false;
    while (v < nv && cnt < tileV) {
      const uint32_t rem = off[v + 1] - e;
      if (rem <= budget) {
        budget -= rem;
        e += rem;
        v++;
        cnt++;
      } else {
        if (cnt > 0 && budget < kTileEdges / 4) break;
        e += budget;
        budget = 0;
        cnt++;
        partial = true;
        break;
      }
    }
    t.vHi = partial ? v + 1 : v;
    t.eHi = e;
    tiles.push_back(t);
  }
  return tiles;
}

}  // namespace

// ---- pages ----------------------------------------------------------------------------------

void* Controller::registerPage(const PageSpec& sp) { return insertPage(checkPage(sp, true)); }

std::vector<void*> Controller::registerPages(const std::vector<PageSpec>& specs) {
  // Fewer pages than twice the threads (a few large ones): each page's scan split over them instead.
  if (!copyPool_ || specs.size() < 2 * (size_t)copyPool_->parts()) {
    std::vector<HostPage> pages;
    for (auto& sp : specs) pages.push_back(checkPage(sp, true));
    return insertPages(pages);
  }
  std::vector<HostPage> pages(specs.size());
  std::vector<std::exception_ptr> errs(specs.size());
  std::atomic<size_t> next{0};
  auto work = [&](unsigned, unsigned) {
    for (size_t i; (i = next.fetch_add(1)) < specs.size();) {
      try {
        pages[i] = checkPage(specs[i], false);
      } catch (...) {
        errs[i] = std::current_exception();
      }
    }
  };
  copyPool_->each(work);
  for (auto& e : errs)
    if (e) std::rethrow_exception(e);
  return insertPages(pages);
}

std::vector<void*> Controller::insertPages(std::vector<HostPage>& pages) {
  std::vector<void*> replaced;
  for (auto& hp : pages)
    if (void* old = insertPage(std::move(hp))) replaced.push_back(old);
  return replaced;
}

HostPage Controller::checkPage(const PageSpec& sp, bool pooled) {
  if (sp.vEnd <= sp.vBegin)
    throw CodedError("TS_PAGE", "registerPage: vEnd (" + std::to_string(sp.vEnd) + ") must be greater than vBegin (" +
                                    std::to_string(sp.vBegin) + ")");
  if (sp.wbytes != 0 && sp.wbytes != 4 && sp.wbytes != 8)
    throw CodedError("TS_PAGE", "registerPage: weightBytes must be 0, 4 or 8, got " + std::to_string(sp.wbytes));
  HostPage hp;
  hp.spec = sp;
  const uint32_t nv = sp.vEnd - sp.vBegin;
  const size_t nbrOff = align8(4 * ((size_t)nv + 1));
  hp.bytes = nbrOff + align8(4 * (size_t)sp.edges) + (size_t)sp.wbytes * sp.edges;
  const std::string where = "registerPage(set " + std::to_string(sp.setId) + ", page " + std::to_string(sp.index) + ")";
  // A file-backed page is read once here to be checked and tiled, then only when it is loaded.
  std::vector<uint8_t> blob;
  const uint8_t* data = sp.data;
  if (sp.fd >= 0 && sp.dataBytes >= hp.bytes) {
    blob.resize(hp.bytes);
    readRange(sp.fd, blob.data(), hp.bytes, sp.fileOffset, where);
    data = blob.data();
  }
  if (sp.dataBytes < hp.bytes)
    throw CodedError("TS_PAGE", where + ": the buffer has " + std::to_string(sp.dataBytes) + " bytes but " + std::to_string(nv) +
                                    " vertices and " + std::to_string(sp.edges) + " edges need " + std::to_string(hp.bytes) +
                                    " ([offsets u32 x (vEnd-vBegin+1) | nbrs u32 x edges | weights], 8-byte aligned)");
  const uint32_t* off = (const uint32_t*)data;
  if (off[0] != 0 || off[nv] != sp.edges)
    throw CodedError("TS_PAGE", where + ": offsets must start at 0 and end at edges (" + std::to_string(sp.edges) + "), found " +
                                    std::to_string(off[0]) + " .. " + std::to_string(off[nv]));
  for (uint32_t i = 0; i < nv; i++)
    if (off[i] > off[i + 1]) throw CodedError("TS_PAGE", where + ": offsets decrease at vertex " + std::to_string(sp.vBegin + i));
  const uint32_t* nbr = (const uint32_t*)(data + nbrOff);
  hp.maxNbr = maxOf(nbr, sp.edges, pooled);
  hp.anyNbr = sp.edges > 0;
  hp.R = replicationFactor(sp.edges, nv);
  hp.tiles = buildTiles(off, nv, hp.R);
  hp.imageBytes = align16(hp.bytes) + hp.tiles.size() * sizeof(Tile);
  return hp;
}

void* Controller::insertPage(HostPage&& hp) {
  maxImage_ = std::max(maxImage_, hp.imageBytes);
  void* old = nullptr;
  const int64_t k = key(hp.spec.setId, hp.spec.index);
  auto it = pages_.find(k);
  if (it != pages_.end()) {
    old = it->second.spec.owner;
    if (it->second.slot >= 0) {
      be_->syncAll();
      slots_[it->second.slot].key = -1;
    }
    unpinPage(it->second);
    releaseBuffered(it->second);
    it->second = std::move(hp);
  } else {
    pages_.emplace(k, std::move(hp));
  }
  return old;
}

std::vector<void*> Controller::unregisterSet(int setId) {
  std::vector<void*> owners;
  be_->syncAll();
  for (auto it = pages_.begin(); it != pages_.end();) {
    if (it->second.spec.setId == setId) {
      if (it->second.slot >= 0) slots_[it->second.slot].key = -1;
      unpinPage(it->second);
      releaseBuffered(it->second);
      owners.push_back(it->second.spec.owner);
      it = pages_.erase(it);
    } else {
      ++it;
    }
  }
  maxImage_ = 0;
  for (auto& kv : pages_) maxImage_ = std::max(maxImage_, kv.second.imageBytes);
  return owners;
}

std::vector<void*> Controller::allOwners() const {
  std::vector<void*> o;
  for (auto& kv : pages_) o.push_back(kv.second.spec.owner);
  return o;
}

bool Controller::isSplit(const HostPage& hp) const {
  if (hp.spec.split >= 0) return hp.spec.split != 0;
  if (hp.nv() != 1) return false;
  for (int d : {-1, 1}) {
    if (d < 0 && hp.spec.index == 0) continue;
    auto it = pages_.find(key(hp.spec.setId, hp.spec.index + d));
    if (it != pages_.end() && it->second.spec.vBegin == hp.spec.vBegin) return true;
  }
  return false;
}

PageDev Controller::pageDev(const HostPage& hp) const {
  const uint8_t* base = slots_[hp.slot].dev;
  PageDev pd{};
  const uint32_t nv = hp.nv();
  const size_t nbrOff = align8(4 * ((size_t)nv + 1));
  pd.off = (const uint32_t*)base;
  pd.nbr = (const uint32_t*)(base + nbrOff);
  pd.w = hp.spec.wbytes ? (const void*)(base + nbrOff + align8(4 * (size_t)hp.spec.edges)) : nullptr;
  pd.tiles = (const Tile*)(base + align16(hp.bytes));
  pd.vBegin = hp.spec.vBegin;
  pd.nv = nv;
  pd.edges = hp.spec.edges;
  pd.wbytes = hp.spec.wbytes;
  pd.split = isSplit(hp) ? 1 : 0;
  pd.ntiles = (uint32_t)hp.tiles.size();
  pd.R = hp.R;
  return pd;
}

// GTS's disk -> pinned staging -> device: each chunk read straight into a staging buffer.
void Controller::copyFileChunks(uint8_t* dst, int fd, uint64_t at, size_t n, int s) {
  stageChunks(dst, n, s, [&](uint8_t* buf, size_t off, size_t len) { readRange(fd, buf, len, at + off, "a page"); });
}

uint8_t* Controller::bufferAlloc(size_t n, int* chunk) {
  n = align16(n);
  if (bufChunks_.empty() || !bufChunks_.back().p || bufChunks_.back().size - bufChunks_.back().used < n) {
    const size_t size = std::max(n, std::min(kBufferChunk, hostBufLimit_ - std::min(hostBufLimit_, hostBufBytes_)));
    if (hostBufBytes_ + size > hostBufLimit_) return nullptr;
    uint8_t* p = nullptr;
    try {
      p = (uint8_t*)be_->pinnedAlloc(size);
    } catch (const std::exception&) {
    }
    if (!p) {
      hostBufLimit_ = hostBufBytes_;  // out of page-locked memory: buffer no more
      return nullptr;
    }
    bufChunks_.push_back({p, size, 0, 0});
    hostBufBytes_ += size;
  }
  BufChunk& c = bufChunks_.back();
  uint8_t* p = c.p + c.used;
  c.used += n;
  c.live++;
  *chunk = (int)bufChunks_.size() - 1;
  return p;
}

void Controller::releaseBuffered(HostPage& hp) {
  if (!hp.buffered) return;
  BufChunk& c = bufChunks_[hp.bufChunk];
  hp.buffered = nullptr;
  if (--c.live == 0) {
    be_->syncAll();  // no copy out of it still runs
    be_->pinnedFree(c.p);
    hostBufBytes_ -= c.size;
    c = BufChunk{};
  }
}

int Controller::acquire(HostPage& hp, int s, RunStats& st, Event copyStart) {
  if (hp.slot >= 0) {
    Slot& sl = slots_[hp.slot];
    st.hits++;
    sl.lastUse = ++tick_;
    if (sl.readyRecorded) be_->wait(s, sl.ready);
    return hp.slot;
  }
  st.misses++;
  int victim = -1;
  uint64_t oldest = UINT64_MAX;
  bool cheap = false;
  for (size_t i = 0; i < slots_.size(); i++) {
    if (slots_[i].pinned) continue;
    if (slots_[i].key < 0) {
      victim = (int)i;
      break;
    }
    // LRU, but a page the host buffer holds first (reloading it reads no disk), once the kernels of
    // the last few loads (one per stream) have moved on from it.
    const bool c = slots_[i].buffered && tick_ - slots_[i].lastUse >= (uint64_t)nstreams_;
    if ((c && !cheap) || (c == cheap && slots_[i].lastUse < oldest)) {
      oldest = slots_[i].lastUse;
      victim = (int)i;
      cheap = c;
    }
  }
  if (victim < 0)
    throw CodedError("TS_OOM", "GPU out of memory: every page cache slot is held by pages this call needs at once. Fix: lower pageEdges / raise memoryLimit");
  Slot& sl = slots_[victim];
  if (sl.key >= 0) {
    auto it = pages_.find(sl.key);
    if (it != pages_.end()) {
      // The working set outgrows the cache: this page's later loads stream (GTS). Its host bytes
      // are page-locked from now (off this thread), so that its next load is one direct DMA at
      // link speed instead of a memcpy into the staging ring plus a DMA. Not a page whose slot
      // went with a shrinking cache: a lock for a page that then stays resident gains nothing and
      // costs the GPUs' copies and kernels while it is made.
      it->second.slot = -1;
      if (pinPages_) pinPage(it->second);
    }
    st.evictions++;
    sl.key = -1;
  }
  if (sl.usedRecorded) be_->wait(s, sl.used);  // kernels still reading the old page finish first
  if (copyStart) be_->record(copyStart, s);
  const size_t tileBytes = hp.tiles.size() * sizeof(Tile);
  // A page read from disk goes to the host buffer while it has room, unless the device cache holds
  // every registered page (no page will be loaded twice: page-locked memory for nothing).
  if (hp.spec.fd >= 0 && !hp.buffered && slots_.size() < pages_.size() && (hp.buffered = bufferAlloc(hp.imageBytes, &hp.bufChunk))) {
    // First load from disk with room in the host buffer: read it there, tiles beside (one DMA).
    readRange(hp.spec.fd, hp.buffered, hp.bytes, hp.spec.fileOffset, "a page");
    std::memcpy(hp.buffered + align16(hp.bytes), hp.tiles.data(), tileBytes);
    st.fileBytes += hp.bytes;
  } else if (hp.buffered) {
    st.bufferHits++;
  }
  if (hp.buffered) {
    be_->h2d(sl.dev, hp.buffered, hp.imageBytes, s);
  } else {
    if (!hp.hostPinned && hp.pinJob && hp.pinJob->state.load(std::memory_order_acquire) == 1) adoptPin(hp);
    if (hp.spec.fd >= 0)
      copyFileChunks(sl.dev, hp.spec.fd, hp.spec.fileOffset, hp.bytes, s), st.fileBytes += hp.bytes;
    else if (hp.hostPinned)
      be_->h2d(sl.dev, hp.spec.data, hp.bytes, s);
    else
      copyChunks(sl.dev, hp.spec.data, hp.bytes, s);
    if (hp.tilesPinned)
      be_->h2d(sl.dev + align16(hp.bytes), hp.tilesPinned, tileBytes, s);
    else if (tileBytes > 0)
      copyChunks(sl.dev + align16(hp.bytes), hp.tiles.data(), tileBytes, s);
  }
  be_->record(sl.ready, s);
  sl.readyRecorded = true;
  sl.key = key(hp.spec.setId, hp.spec.index);
  sl.buffered = hp.buffered != nullptr;
  sl.lastUse = ++tick_;
  hp.slot = victim;
  st.bytesCopied += hp.imageBytes;
  return victim;
}

size_t Controller::preload(int setId, const std::vector<uint32_t>& pages, size_t reserve) {
  std::vector<HostPage*> todo;
  for (uint32_t idx : pages) {
    auto it = pages_.find(key(setId, idx));
    if (it == pages_.end()) throw CodedError("TS_BAD_PAGE", "preload: page " + std::to_string(idx) + " of set " + std::to_string(setId) + " is not registered");
    if (it->second.slot < 0) todo.push_back(&it->second);
  }
  if (todo.empty()) return 0;
  // Only where a slot for every registered page and `reserve` fit: a cache that streams would evict
  // what this loads, and state allocated past the limit frees the cache's last allocations.
  const size_t sb = slotSize();
  const size_t cache = arenas_.empty() || slotBytes_ < sb ? pages_.size() * sb : arenaBytes_ + (pages_.size() - std::min(pages_.size(), slots_.size())) * slotBytes_;
  if (stateBytes_ + scratchBytes_ + cache + reserve > limit_) return 0;
  ensureCache();
  if (slots_.size() < pages_.size()) return 0;
  RunStats st;
  for (size_t i = 0; i < todo.size(); i++) acquire(*todo[i], (int)(i % (size_t)nstreams_), st, nullptr);
  be_->syncAll();
  for (auto& sl : slots_) sl.readyRecorded = sl.usedRecorded = false;
  return todo.size();
}

// Graphie's active pages: a pull with pullIf walks only the pages holding a vertex in that state;
// a push from a frontier held on the device (u8 flags), those holding a flagged vertex.
std::vector<uint32_t> Controller::activePages(int setId, const std::vector<uint32_t>& pages, const std::string& state, double value) {
  StateArr& s = findState(state_, state, "activePages");
  if ((s.type != SType::I32 && s.type != SType::U8) || pages.empty()) return pages;
  std::vector<u32> ranges(2 * pages.size());
  for (size_t i = 0; i < pages.size(); i++) {
    auto it = pages_.find(key(setId, pages[i]));
    if (it == pages_.end()) throw CodedError("TS_BAD_PAGE", "activePages: page " + std::to_string(pages[i]) + " of set " + std::to_string(setId) + " is not registered");
    ranges[2 * i] = it->second.spec.vBegin, ranges[2 * i + 1] = std::min<u32>(it->second.spec.vEnd, (u32)s.n);
  }
  u32* dr = (u32*)scratch("@active.ranges", ranges.size() * 4);
  u8* flags = (u8*)scratch("@active.flags", pages.size());
  be_->h2d(dr, ranges.data(), ranges.size() * 4, 0);
  be_->memset(flags, 0, pages.size(), 0);
  const u32 split = (u32)std::max<size_t>(1, (2048 + pages.size() - 1) / pages.size());
  launch<KPageActive>((u32)std::min<size_t>(pages.size() * split, 65535), 0, 0, PageActiveArgs{s.type == SType::I32 ? (const i32*)s.dev : nullptr, dr, (u32)pages.size(), (i32)value, flags, (const u8*)s.dev, split});
  std::vector<u8> f(pages.size());
  be_->d2h(f.data(), flags, f.size(), 0);
  be_->syncStream(0);
  std::vector<uint32_t> out;
  for (size_t i = 0; i < pages.size(); i++)
    if (f[i]) out.push_back(pages[i]);
  return out;
}

// ---- run ------------------------------------------------------------------------------------

RunStats Controller::run(const RunRequest& rq) {
  if (rq.kernel == "levels") return runLevels(rq);
  if (rq.kernel == "pr_iterations") return runPrIterations(rq);
  if (rq.kernel == "sssp_steps") return runSsspSteps(rq);
  if (rq.kernel == "aff_merge") return runAffMerge(rq);
  const auto wall0 = std::chrono::steady_clock::now();
  evUsed_ = 0;
  std::pair<Event, Event> pinCopy{nullptr, nullptr};
  RunStats st;
  st.kernel = rq.kernel;
  std::vector<HostPage*> pages;
  {
    std::set<uint32_t> seen;
    for (uint32_t idx : rq.pages) {
      if (!seen.insert(idx).second) continue;
      auto it = pages_.find(key(rq.setId, idx));
      if (it == pages_.end())
        throw CodedError("TS_BAD_PAGE", rq.kernel + ": page " + std::to_string(idx) + " of set " + std::to_string(rq.setId) +
                                            " is not registered");
      pages.push_back(&it->second);
    }
  }
  st.pages = (uint32_t)pages.size();
  Plan pl;
  buildPlan(rq, pages, pl);
  if (rq.exchange.on()) postExchange(rq.exchange);
  ensureCache();
  struct Unpin {
    std::vector<Slot>& slots;
    ~Unpin() {
      for (auto& s : slots) s.pinned = false;
    }
  } unpin{slots_};
  if (!pl.pin.empty()) {
    std::set<HostPage*> pinSet(pl.pin.begin(), pl.pin.end());
    bool extra = false;
    for (auto* hp : pages) extra = extra || !pinSet.count(hp);
    const size_t need = pinSet.size() + (extra ? 1 : 0);
    if (need > slots_.size()) {
      size_t bytes = 0;
      for (auto* hp : pinSet) bytes += hp->imageBytes;
      std::ostringstream m;
      m << "GPU out of memory: " << rq.kernel << " needs " << pl.pinWhat << " resident at once (" << pinSet.size() << " pages, "
        << mib(bytes) << " in " << mib(slotBytes_) << " slots) plus one page to stream, but the page cache holds " << slots_.size()
        << " slots under memoryLimit " << mib(limit_) << ". Fix: lower pageEdges / raise memoryLimit";
      throw CodedError("TS_OOM", m.str());
    }
    Event c0 = timingEvent();
    be_->record(c0, 0);
    for (auto* hp : pl.pin) {
      if (hp->slot >= 0 && slots_[hp->slot].pinned) continue;  // listed twice
      slots_[acquire(*hp, 0, st, nullptr)].pinned = true;
    }
    Event c1 = timingEvent();
    be_->record(c1, 0);
    pinCopy = {c0, c1};
    if (pl.afterPin) pl.afterPin();
  }
  // Graphie: pages already resident first, so that loading the others cannot evict them unused.
  std::stable_partition(pages.begin(), pages.end(), [](HostPage* hp) { return hp->slot >= 0; });

  std::vector<std::pair<Event, Event>> copyEv, kernEv;
  uint32_t* ctr = (uint32_t*)scratch_["ctr"].p;
  be_->memset(ctr, 0, 16, 0);
  {
    Event a = timingEvent(), b = timingEvent();
    be_->record(a, 0);
    if (pl.pre) pl.pre();
    be_->record(b, 0);
    kernEv.push_back({a, b});
    for (int s = 1; s < nstreams_; s++) be_->wait(s, b);
  }
  // Per-page API calls are the fixed cost of a superstep over a resident graph (261 pages at RMAT 24):
  // consecutive cache hits on a stream share one timed span, and a slot's `used` event is recorded
  // only where a later load could evict it (the cache holds fewer slots than registered pages).
  const bool mayEvict = slots_.size() < pages_.size();
  std::vector<Event> open((size_t)nstreams_, nullptr);
  // Hits a plan launches together (Plan::batch): only where no load can evict a waiting page's slot.
  const bool batching = pl.batch && !mayEvict;
  std::vector<std::vector<PageDev>> waiting(batching ? (size_t)nstreams_ : 0);
  auto flush = [&](int s) {
    if (!batching || waiting[s].empty()) return;
    pl.batch(waiting[s].data(), (uint32_t)waiting[s].size(), s);
    waiting[s].clear();
  };
  auto closeSpan = [&](int s) {
    flush(s);
    if (!open[s]) return;
    Event e = timingEvent();
    be_->record(e, s);
    kernEv.push_back({open[s], e});
    open[s] = nullptr;
  };
  for (size_t i = 0; i < pages.size(); i++) {
    HostPage& hp = *pages[i];
    // Pages read from a file: the kernel reads the next ones ahead while this one is read and copied.
    for (size_t j = i + 1; j < std::min(pages.size(), i + 1 + kFileAhead); j++) {
      const HostPage& n = *pages[j];
      if (n.spec.fd >= 0 && n.slot < 0 && !n.buffered && (j == i + kFileAhead || i == 0)) posix_fadvise(n.spec.fd, (off_t)n.spec.fileOffset, (off_t)n.bytes, POSIX_FADV_WILLNEED);
    }
    const int s = (int)(i % (size_t)nstreams_);
    const bool hit = hp.slot >= 0;
    if (hit) {
      const int slot = acquire(hp, s, st, nullptr);
      if (!open[s]) {
        open[s] = timingEvent();
        be_->record(open[s], s);
      }
      if (batching) {
        waiting[s].push_back(pageDev(hp));
        if (waiting[s].size() == kPageBatch) flush(s);
        continue;
      }
      pl.page(hp, pageDev(hp), s);
      if (mayEvict) be_->record(slots_[slot].used, s), slots_[slot].usedRecorded = true;
      continue;
    }
    closeSpan(s);
    Event c0 = timingEvent();
    const int slot = acquire(hp, s, st, c0);
    Event k0 = timingEvent();
    be_->record(k0, s);
    copyEv.push_back({c0, k0});
    pl.page(hp, pageDev(hp), s);
    Event k1 = timingEvent();
    be_->record(k1, s);
    kernEv.push_back({k0, k1});
    be_->record(slots_[slot].used, s);
    slots_[slot].usedRecorded = true;
  }
  for (int s = 0; s < nstreams_; s++) closeSpan(s);
  for (int s = 1; s < nstreams_; s++) {
    Event e = timingEvent();
    be_->record(e, s);
    be_->wait(0, e);
  }
  {
    Event a = timingEvent(), b = timingEvent();
    be_->record(a, 0);
    if (pl.post) pl.post();
    be_->record(b, 0);
    kernEv.push_back({a, b});
  }
  // After every kernel of the call (stream 0 waits for the others): the peers' kernels may still
  // run, and these copies overlap them on the link.
  if (rq.exchange.on()) pushExchange(rq.exchange, 0, st);
  uint32_t counts[4] = {0, 0, 0, 0};
  be_->d2h(counts, ctr, 16, 0);
  be_->syncAll();
  // Every copy and kernel of the call is done: no later call need wait on these slots' events.
  for (auto& sl : slots_) sl.readyRecorded = sl.usedRecorded = false;
  st.activated = counts[0];
  if (pl.finish) pl.finish(st);
  if (pl.outbox) {
    st.hasOutbox = true;
    st.outboxSent = counts[2];
    const uint32_t n = counts[1];
    if (n > 0) {
      double* outv = (double*)scratch_["outbox.out"].p;
      OutboxArgs oa{pl.ob.ids, pl.ob.count, pl.ob.val, pl.ob.flag, outv, pl.obIdentity};
      launch<KOutboxGather>(gridFor(n), 0, 0, oa);
      st.outIds.resize(n);
      st.outVals.resize(n);
      be_->d2h(st.outIds.data(), pl.ob.ids, (size_t)n * 4, 0);
      be_->d2h(st.outVals.data(), outv, (size_t)n * 8, 0);
      launch<KOutboxReset>(gridFor(n), 0, 0, oa);
      be_->memset(pl.ob.count, 0, 4, 0);
      be_->syncAll();
    }
  }
  for (auto& p : copyEv) st.copyMs += be_->elapsedMs(p.first, p.second);
  if (pinCopy.first) st.copyMs += be_->elapsedMs(pinCopy.first, pinCopy.second);
  for (auto& p : kernEv) st.kernelMs += be_->elapsedMs(p.first, p.second);
  st.cacheSlots = (uint32_t)slots_.size();
  st.slotBytes = slotBytes_;
  st.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall0).count();
  totals_.calls++;
  totals_.hits += st.hits;
  totals_.misses += st.misses;
  totals_.evictions += st.evictions;
  totals_.bytesCopied += st.bytesCopied;
  totals_.fileBytes += st.fileBytes;
  totals_.bufferHits += st.bufferHits;
  totals_.copyMs += st.copyMs;
  totals_.kernelMs += st.kernelMs;
  totals_.wallMs += st.wallMs;
  return st;
}

}  // namespace ts

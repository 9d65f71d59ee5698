// The controller core: device setup, memory accounting, the page cache's slots and pinned staging
// ring, vertex state arrays and host page-locking. Pages and run(): controller_pages.cpp; the copy
// pool: copy_pool.h.
#include "controller_internal.h"
#include "copy_pool.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <sstream>
#include <thread>

namespace ts {

namespace {

constexpr size_t kStagingChunk = 4u << 20;  // pinned staging chunk (bytes)
constexpr double kDefaultEmulatedLimit = 2.0 * (1u << 30);
constexpr int kMaxEmulatedDevices = 16;

}  // namespace

uint32_t Controller::maxOf(const uint32_t* a, size_t n, bool pooled) {
  // One thread reads ~8-10 GB/s: RMAT 24's registration (527 pages of up to 2^20 edges) scanned 2 GB
  // of neighbour ids in ~400 ms on the H100 host.
  if (!pooled || !copyPool_ || n < (1u << 16)) {
    uint32_t m = 0;
    for (size_t i = 0; i < n; i++) m = std::max(m, a[i]);
    return m;
  }
  std::vector<uint32_t> part(64, 0);
  copyPool_->each([&](unsigned i, unsigned k) {
    const size_t b = n * i / k, e = n * (i + 1) / k;
    uint32_t m = 0;
    for (size_t x = b; x < e; x++) m = std::max(m, a[x]);
    part[i] = m;
  });
  return *std::max_element(part.begin(), part.end());
}

size_t stypeSize(SType t) {
  switch (t) {
    case SType::U8: return 1;
    case SType::F64: return 8;
    default: return 4;
  }
}
const char* stypeName(SType t) {
  switch (t) {
    case SType::U8: return "u8";
    case SType::U32: return "u32";
    case SType::I32: return "i32";
    case SType::F32: return "f32";
    default: return "f64";
  }
}
bool parseSType(const std::string& s, SType* out) {
  if (s == "u8") *out = SType::U8;
  else if (s == "u32") *out = SType::U32;
  else if (s == "i32") *out = SType::I32;
  else if (s == "f32") *out = SType::F32;
  else if (s == "f64") *out = SType::F64;
  else return false;
  return true;
}

// ---- lifecycle ------------------------------------------------------------------------------

Controller::Controller(int device, bool emulated, double memoryLimit, int streams, double hostBuffer)
    : device_(device), emulated_(emulated), requestedLimit_(memoryLimit), nstreams_(streams), hostBufLimit_((size_t)hostBuffer) {
  if (const char* e = std::getenv("TESSERA_PIN_PAGES")) pinPages_ = std::string(e) != "0";
  // Tests split a small cache into several allocations (shrinkCache's partial frees).
  if (const char* e = std::getenv("TESSERA_ARENA_CHUNK")) arenaChunk_ = std::max<size_t>(1, std::strtoull(e, nullptr, 10));
}

Controller::~Controller() { shutdown(); }

void Controller::init() {
  if (emulated_) {
    if (device_ < 0 || device_ >= kMaxEmulatedDevices)
      throw CodedError("TS_BAD_DEVICE", "GPU device " + std::to_string(device_) +
                                            " does not exist: emulated devices are numbered 0.." +
                                            std::to_string(kMaxEmulatedDevices - 1));
    be_ = makeHostBackend(nstreams_);
    props_ = be_->props();
    limit_ = (size_t)(requestedLimit_ > 0 ? requestedLimit_ : kDefaultEmulatedLimit);
    props_.totalMemory = limit_;
    props_.freeMemory = limit_;
    // Two threads: the pool's parallel paths (maxOf, copyChunks) run in emulated tests too.
    copyPool_ = std::make_unique<CopyPool>(2);
  } else {
    if (device_ < 0)
      throw CodedError("TS_BAD_DEVICE", "GPU device " + std::to_string(device_) + " does not exist: device indices start at 0");
    be_ = makeCudaBackend(device_, nstreams_);
    props_ = be_->props();
    // Half the cores, up to 16: two H200s reading 134 MB each back at once took 5.25 ms with 16
    // threads each against 7.07 with 8 on a 32-core host (bench/results/h200-x2-2026-11-27-exchange).
    unsigned threads = std::max(1u, std::min(16u, std::thread::hardware_concurrency() / 2));
    if (const char* e = std::getenv("TESSERA_STAGING_THREADS")) threads = (unsigned)std::max(1, std::min(64, std::atoi(e)));
    copyPool_ = std::make_unique<CopyPool>(threads);
    // Leave room for the CUDA context, CUB temporaries and other processes.
    const size_t reserve = std::max<size_t>(512u << 20, props_.freeMemory / 20);
    const size_t dflt = props_.freeMemory > reserve ? props_.freeMemory - reserve : props_.freeMemory / 2;
    limit_ = requestedLimit_ > 0 ? std::min<size_t>((size_t)requestedLimit_, props_.totalMemory) : dflt;
  }
}

void Controller::shutdown() {
  {
    // Peers copying into a posted array finish first (they sync their stream before letting go).
    std::unique_lock<std::mutex> lk(postMu_);
    postClosed_ = true;
    postCv_.notify_all();
    postCv_.wait(lk, [this] { return inbound_ == 0; });
  }
  // No page lock may run once the backend goes (queued ones are cancelled).
  stopPinner();
  if (!be_) return;
  try {
    be_->syncAll();
  } catch (...) {
  }
  unloadOperators();
  for (auto& a : arenas_) be_->devFree(a.p);
  arenas_.clear();
  for (auto& s : slots_) {
    be_->freeEvent(s.ready);
    be_->freeEvent(s.used);
  }
  slots_.clear();
  for (auto& c : ring_) {
    be_->pinnedFree(c.buf);
    be_->freeEvent(c.ev);
  }
  ring_.clear();
  for (auto& c : stateStage_) {
    be_->pinnedFree(c.buf);
    be_->freeEvent(c.ev);
  }
  stateStage_.clear();
  for (auto& kv : state_) be_->devFree(kv.second.dev);
  state_.clear();
  for (auto& kv : scratch_) be_->devFree(kv.second.p);
  scratch_.clear();
  for (auto e : evPool_) be_->freeEvent(e);
  evPool_.clear();
  for (auto& kv : pages_) unpinPage(kv.second), releaseBuffered(kv.second);
  for (auto& kv : pins_) releasePin(kv.first);
  pins_.clear();
  releaseAside();
  be_.reset();
  copyPool_.reset();
}

ControllerInfo Controller::info() {
  ControllerInfo in;
  in.device = device_;
  in.props = props_;
  if (!emulated_) {
    DeviceProps now = be_->props();
    in.props.freeMemory = now.freeMemory;
  } else {
    in.props.freeMemory = limit_ - used();
  }
  in.cudaBuild = builtWithCuda();
  in.memoryLimit = limit_;
  in.used = used();
  in.stateBytes = stateBytes_;
  in.scratchBytes = scratchBytes_;
  in.cacheBytes = arenaBytes_;
  in.slotBytes = slotBytes_;
  in.cacheSlots = (uint32_t)slots_.size();
  for (auto& s : slots_)
    if (s.key >= 0) in.residentPages++;
  in.registeredPages = (uint32_t)pages_.size();
  waitPins();
  std::set<const void*> locked;
  for (auto& kv : pages_) {
    const PagePin* j = kv.second.pinJob.get();
    if (j == nullptr || j->state.load(std::memory_order_acquire) != 1) continue;
    in.pinnedPages++;
    if (locked.insert(j->p).second) in.pinnedHostBytes += j->bytes;
  }
  for (auto& kv : pins_) in.pinnedHostBytes += kv.second.bytes;
  in.pinnedAsideBytes = asideBytes();
  in.pinnedHostBytes += in.pinnedAsideBytes;
  for (auto& kv : pages_) in.bufferedPages += kv.second.buffered ? 1 : 0;
  in.hostBufferBytes = hostBufBytes_;
  in.hostBufferLimit = hostBufLimit_;
  in.streams = nstreams_;
  in.totals = totals_;
  return in;
}

// ---- memory -------------------------------------------------------------------------------

void Controller::throwOom(const std::string& what, size_t need, bool deviceFull) {
  std::ostringstream m;
  m << "GPU out of memory: " << what << " needs " << mib(need) << " but ";
  if (deviceFull)
    m << "the device itself has no memory left (memoryLimit " << mib(limit_) << " is more than it can give)";
  else
    m << "only " << mib(limit_ > stateBytes_ + scratchBytes_ ? limit_ - stateBytes_ - scratchBytes_ : 0) << " of memoryLimit "
      << mib(limit_) << " are left after " << mib(stateBytes_) << " of vertex state and " << mib(scratchBytes_) << " of scratch";
  m << ". Fix: lower pageEdges / raise memoryLimit";
  if (!emulated_) m << " (or free GPU memory used by other processes)";
  throw CodedError("TS_OOM", m.str());
}

void* Controller::dalloc(size_t bytes, const std::string& what) {
  const size_t need = align256(std::max<size_t>(bytes, 1));
  if (used() + need > limit_) shrinkCache(need);
  if (used() + need > limit_) throwOom(what, need, false);
  void* p = be_->devAlloc(need);
  // The device itself is full (other processes): give back cache allocations one at a time.
  while (!p && shrinkCache(SIZE_MAX, 1)) p = be_->devAlloc(need);
  if (!p) throwOom(what, need, true);
  return p;
}

void* Controller::scratch(const std::string& name, size_t bytes, bool* fresh) {
  bytes = align256(std::max<size_t>(bytes, 1));
  Buf& b = scratch_[name];
  if (fresh) *fresh = false;
  if (b.p && b.bytes >= bytes) return b.p;
  if (b.p) {
    be_->syncAll();
    be_->devFree(b.p);
    scratchBytes_ -= b.bytes;
    b = Buf{};
  }
  b.p = dalloc(bytes, "scratch buffer '" + name + "'");
  b.bytes = bytes;
  scratchBytes_ += bytes;
  if (fresh) *fresh = true;
  return b.p;
}

bool Controller::shrinkCache(size_t need, size_t most) {
  if (arenas_.empty()) return false;
  be_->syncAll();
  size_t freed = 0;
  while (!arenas_.empty() && freed < most && (need == SIZE_MAX || used() + need > limit_)) {
    const Arena a = arenas_.back();
    arenas_.pop_back();
    for (size_t i = slots_.size() - a.slots; i < slots_.size(); i++) {
      Slot& s = slots_[i];
      if (s.key >= 0) {
        auto it = pages_.find(s.key);
        if (it != pages_.end()) it->second.slot = -1;
      }
      be_->freeEvent(s.ready);
      be_->freeEvent(s.used);
    }
    slots_.resize(slots_.size() - a.slots);
    be_->devFree(a.p);
    arenaBytes_ -= a.slots * slotBytes_;
    freed++;
  }
  if (freed > 0) totals_.cacheResets++;
  return freed > 0;
}

size_t Controller::growCache(size_t n) {
  // At most ~16 allocations for a large cache (each cudaMalloc costs), none over ~arenaChunk_ below that.
  const size_t per = std::max<size_t>({1, arenaChunk_ / slotBytes_, (n + 15) / 16});
  size_t added = 0;
  while (added < n) {
    size_t k = std::min(per, n - added);
    void* p = nullptr;
    while (k > 0 && !(p = be_->devAlloc(k * slotBytes_))) k /= 2;
    if (!p) break;  // the device itself is full: the cache keeps what it has
    addSlots((uint8_t*)p, k);
    added += k;
  }
  return added;
}

size_t Controller::slotSize() const { return align256(std::max<size_t>(maxImage_, 256)); }

void Controller::ensureCache() {
  const size_t sb = slotSize();
  const size_t want = std::max<size_t>(1, pages_.size());
  const size_t avail = limit_ > stateBytes_ + scratchBytes_ ? limit_ - stateBytes_ - scratchBytes_ : 0;
  if (!arenas_.empty() && slotBytes_ >= sb) {
    // Slots still big enough: grow by the pages registered since (page stealing registers the
    // victim's pages mid-run) in a new allocation, so the resident pages stay (Graphie's reuse);
    // dropping the cache here re-copied every page of the next superstep.
    const size_t cap = std::min(want, avail / slotBytes_);
    if (cap > slots_.size()) growCache(cap - slots_.size());
    return;
  }
  shrinkCache(SIZE_MAX);
  size_t n = std::min(want, avail / sb);
  if (n == 0) {
    std::ostringstream m;
    m << "GPU out of memory: one page does not fit: the largest registered page needs a cache slot of " << mib(sb)
      << " (offsets, neighbours, weights and tiles), but memoryLimit " << mib(limit_) << " minus " << mib(stateBytes_)
      << " of vertex state and " << mib(scratchBytes_) << " of scratch leaves " << mib(avail)
      << ". Fix: lower pageEdges / raise memoryLimit";
    throw CodedError("TS_OOM", m.str());
  }
  slotBytes_ = sb;
  if (growCache(n) == 0) throwOom("the page cache (one slot)", sb, true);
  ensureStaging();
}

void Controller::addSlots(uint8_t* arena, size_t n) {
  arenas_.push_back(Arena{arena, n});
  arenaBytes_ += n * slotBytes_;
  const size_t first = slots_.size();
  slots_.resize(first + n);
  for (size_t i = 0; i < n; i++) {
    slots_[first + i].dev = arena + i * slotBytes_;
    slots_[first + i].ready = be_->newEvent(false);
    slots_[first + i].used = be_->newEvent(false);
  }
}

void Controller::ensureStaging() {
  const size_t chunk = std::min(kStagingChunk, (slotBytes_ + 4095) & ~(size_t)4095);
  const size_t count = (size_t)std::max(2, 2 * nstreams_);
  if (!ring_.empty() && chunkBytes_ >= chunk && ring_.size() == count) return;
  be_->syncAll();
  for (auto& c : ring_) {
    be_->pinnedFree(c.buf);
    be_->freeEvent(c.ev);
  }
  ring_.assign(count, Chunk{});
  for (auto& c : ring_) {
    c.buf = (uint8_t*)be_->pinnedAlloc(chunk);
    c.ev = be_->newEvent(false);
  }
  chunkBytes_ = chunk;
  ringNext_ = 0;
}

// Host bytes to the device through the pinned staging ring: `fill` puts each chunk's bytes in its
// buffer (a copy from host memory, or a read from a file), the DMA goes on stream s.
void Controller::stageChunks(uint8_t* dst, size_t n, int s, const std::function<void(uint8_t*, size_t, size_t)>& fill) {
  for (size_t off = 0; off < n; off += chunkBytes_) {
    Chunk& c = ring_[ringNext_++ % ring_.size()];
    if (c.pending) be_->sync(c.ev);  // the previous copy out of this buffer is done
    const size_t len = std::min(chunkBytes_, n - off);
    fill(c.buf, off, len);
    be_->h2d(dst + off, c.buf, len, s);
    be_->record(c.ev, s);
    c.pending = true;
  }
}

void Controller::copyChunks(uint8_t* dst, const void* src, size_t n, int s) {
  const uint8_t* from = (const uint8_t*)src;
  stageChunks(dst, n, s, [&](uint8_t* buf, size_t off, size_t len) {
    if (copyPool_)
      copyPool_->copy(buf, from + off, len);
    else
      std::memcpy(buf, from + off, len);
  });
}

Event Controller::timingEvent() {
  if (evUsed_ == evPool_.size()) evPool_.push_back(be_->newEvent(true));
  return evPool_[evUsed_++];
}

// ---- state ----------------------------------------------------------------------------------

void Controller::allocState(const std::string& name, SType type, size_t n) {
  if (name.empty()) throw CodedError("TS_ARG", "allocState: the state name is empty");
  auto it = state_.find(name);
  if (it != state_.end()) {
    if (it->second.type == type && it->second.n == n) return;
    freeState(name);
  }
  StateArr a;
  a.type = type;
  a.n = n;
  a.bytes = align256(std::max<size_t>(n * stypeSize(type), 4));
  a.dev = dalloc(a.bytes, "vertex state '" + name + "' (" + std::to_string(n) + " x " + stypeName(type) + ")");
  stateBytes_ += a.bytes;
  be_->memset(a.dev, 0, a.bytes, 0);
  be_->syncStream(0);
  state_[name] = a;
}

void Controller::freeState(const std::string& name) {
  auto it = state_.find(name);
  if (it == state_.end()) return;
  be_->syncAll();
  be_->devFree(it->second.dev);
  stateBytes_ -= it->second.bytes;
  state_.erase(it);
}

void Controller::freeScratch() {
  be_->syncAll();
  // 'ctr' and 'outbox.out' stay: some paths read them by name without asking scratch() first.
  for (auto it = scratch_.begin(); it != scratch_.end();) {
    if (it->first == "ctr" || it->first == "outbox.out") {
      ++it;
      continue;
    }
    be_->devFree(it->second.p);
    scratchBytes_ -= it->second.bytes;
    it = scratch_.erase(it);
  }
}

void Controller::writeState(const std::string& name, const void* src, SType type, size_t count, size_t offset) {
  StateArr& a = findState(state_, name, "writeState");
  if (a.type != type)
    throw CodedError("TS_TYPE", "writeState('" + name + "'): the array holds " + stypeName(a.type) + " but a " + stypeName(type) +
                                    " typed array was given");
  if (offset + count > a.n)
    throw CodedError("TS_RANGE", "writeState('" + name + "'): offset " + std::to_string(offset) + " + length " +
                                     std::to_string(count) + " exceeds its length " + std::to_string(a.n));
  if (count == 0) return;
  if (staged(src, count * stypeSize(type))) return stageState((uint8_t*)a.dev + offset * stypeSize(type), (uint8_t*)src, count * stypeSize(type), true);
  be_->h2d((uint8_t*)a.dev + offset * stypeSize(type), src, count * stypeSize(type), 0);
  be_->syncStream(0);
}

void Controller::readState(const std::string& name, void* dst, SType type, size_t count, size_t offset) {
  StateArr& a = findState(state_, name, "readState");
  if (a.type != type)
    throw CodedError("TS_TYPE", "readState('" + name + "'): the array holds " + stypeName(a.type) + " but a " + stypeName(type) +
                                    " typed array was given");
  if (offset + count > a.n)
    throw CodedError("TS_RANGE", "readState('" + name + "'): offset " + std::to_string(offset) + " + length " +
                                     std::to_string(count) + " exceeds its length " + std::to_string(a.n));
  if (count == 0) return;
  if (narrowRead(a, dst, count, offset)) return;
  if (staged(dst, count * stypeSize(type))) return stageState((uint8_t*)a.dev + offset * stypeSize(type), (uint8_t*)dst, count * stypeSize(type), false);
  be_->d2h(dst, (const uint8_t*)a.dev + offset * stypeSize(type), count * stypeSize(type), 0);
  be_->syncStream(0);
}

// Large state copies to or from pageable host memory (a coordinator array copied once, before it
// is worth page-locking): the driver's own pageable path moved 8-13 GB/s on the H100/H200 hosts.
// Through a few pinned buffers instead, the memcpy of one chunk split over the copy pool while the
// DMA of the next runs. TESSERA_STAGE_STATE=0 keeps the driver's path.
bool Controller::staged(const void* host, size_t n) {
  static const bool on = [] {
    const char* e = std::getenv("TESSERA_STAGE_STATE");
    return e == nullptr || std::string(e) != "0";
  }();
  if (!on || emulated_ || !copyPool_ || n < kStageMin) return false;
  const uint8_t* q = (const uint8_t*)host;
  for (const auto& kv : pins_)
    if (q >= (const uint8_t*)kv.first && q + n <= (const uint8_t*)kv.first + kv.second.bytes) return false;  // page-locked: direct DMA
  if (pinnedAside(host, n)) return false;
  ensureStateStage();
  return true;
}

void Controller::ensureStateStage() {
  if (!stateStage_.empty()) return;
  stateStage_.assign(kStageBuffers, Chunk{});
  for (auto& c : stateStage_) {
    c.buf = (uint8_t*)be_->pinnedAlloc(kStageChunk);
    c.ev = be_->newEvent(false);
  }
}

void Controller::parallel(const std::function<void(unsigned, unsigned)>& fn) {
  if (copyPool_) copyPool_->each(fn);
  else fn(0, 1);
}

void Controller::stageState(uint8_t* dev, uint8_t* host, size_t n, bool toDevice) {
  const size_t m = (n + kStageChunk - 1) / kStageChunk;
  auto len = [&](size_t i) { return std::min(kStageChunk, n - i * kStageChunk); };
  if (toDevice) {
    for (size_t i = 0; i < m; i++) {
      Chunk& c = stateStage_[i % stateStage_.size()];
      if (c.pending) be_->sync(c.ev);  // its previous DMA has read the buffer
      copyPool_->copy(c.buf, host + i * kStageChunk, len(i));
      be_->h2d(dev + i * kStageChunk, c.buf, len(i), 0);
      be_->record(c.ev, 0);
      c.pending = true;
    }
    be_->syncStream(0);
    for (auto& c : stateStage_) c.pending = false;
  } else {
    drainStaged(
        m, [&](size_t i, uint8_t* buf) { be_->d2h(buf, dev + i * kStageChunk, len(i), 0); },
        [&](size_t i, const uint8_t* buf) { copyPool_->copy(host + i * kStageChunk, buf, len(i)); });
  }
}

void Controller::drainStaged(size_t m, const std::function<void(size_t, uint8_t*)>& fetch, const std::function<void(size_t, const uint8_t*)>& use) {
  const size_t k = stateStage_.size();
  auto issue = [&](size_t i) {
    Chunk& c = stateStage_[i % k];
    fetch(i, c.buf);
    be_->record(c.ev, 0);
  };
  for (size_t i = 0; i < std::min(k, m); i++) issue(i);
  for (size_t i = 0; i < m; i++) {
    Chunk& c = stateStage_[i % k];
    be_->sync(c.ev);
    use(i, c.buf);
    if (i + k < m) issue(i + k);
  }
  be_->syncStream(0);
  for (auto& c : stateStage_) c.pending = false;
}

void Controller::compact(const std::string& flags, const std::string& state, size_t begin, size_t end,
                         std::vector<uint32_t>& ids, std::vector<double>& vals, const std::string& mask, const std::string& before, bool delta) {
  StateArr& v = findState(state_, state, "compact");
  StateArr& f = before.empty() ? findState(state_, flags, "compact") : v;
  if (before.empty() && f.type != SType::U8) throw CodedError("TS_TYPE", "compact('" + flags + "'): the flag array must hold u8");
  const void* beforeDev = nullptr;
  if (!before.empty()) {
    StateArr& b = findState(state_, before, "compact");
    if (b.type != v.type || b.n < end) throw CodedError("TS_TYPE", "compact: '" + before + "' must have the type of '" + state + "' and cover the range");
    beforeDev = b.dev;
  }
  if (begin > end || end > f.n || end > v.n)
    throw CodedError("TS_RANGE", "compact: range [" + std::to_string(begin) + ", " + std::to_string(end) + ") exceeds the arrays ('" +
                                     flags + "' " + std::to_string(f.n) + ", '" + state + "' " + std::to_string(v.n) + ")");
  const u8* maskDev = nullptr;
  if (!mask.empty()) {
    StateArr& m = findState(state_, mask, "compact");
    if (m.type != SType::U8) throw CodedError("TS_TYPE", "compact: the mask array '" + mask + "' must hold u8");
    if (end > m.n) throw CodedError("TS_RANGE", "compact: range end " + std::to_string(end) + " exceeds the mask '" + mask + "' (" + std::to_string(m.n) + ")");
    maskDev = (const u8*)m.dev;
  }
  ids.clear();
  vals.clear();
  if (begin == end) return;
  uint32_t* count = (uint32_t*)scratch("compact.count", 4);
  be_->memset(count, 0, 4, 0);
  CompactArgs a{(const u8*)f.dev, v.dev, (u32)v.type, (u32)begin, (u32)end, nullptr, nullptr, count, maskDev, beforeDev, delta ? 1u : 0u};
  const uint32_t grid = gridFor(end - begin);
  launch<KCompact>(grid, kCompactSmem, 0, a);
  uint32_t n = 0;
  be_->d2h(&n, count, 4, 0);
  be_->syncStream(0);
  if (n == 0) return;
  // Sized by what changed (a second pass lists): the page cache keeps the rest of the memory.
  count = (uint32_t*)scratch("compact.count", 4);
  a.ids = (u32*)scratch("compact.ids", (size_t)n * 4);
  a.vals = (double*)scratch("compact.vals", (size_t)n * 8);
  a.count = count;
  be_->memset(count, 0, 4, 0);
  launch<KCompact>(grid, kCompactSmem, 0, a);
  ids.resize(n);
  vals.resize(n);
  be_->d2h(ids.data(), a.ids, (size_t)n * 4, 0);
  be_->d2h(vals.data(), a.vals, (size_t)n * 8, 0);
  be_->syncStream(0);
}

void Controller::fillState(const std::string& name, double value) {
  StateArr& a = findState(state_, name, "fillState");
  if (value == 0 && !std::signbit(value)) {
    be_->memset(a.dev, 0, a.n * stypeSize(a.type), 0);
  } else {
    FillArgs f{a.dev, 0, (uint32_t)a.n, (uint32_t)a.type, value};
    launch<KFill>(gridFor(a.n), 0, 0, f);
  }
  be_->syncStream(0);
}

}  // namespace ts

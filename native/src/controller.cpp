#include "controller.h"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

namespace ts {

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
    {
      std::lock_guard<std::mutex> lk(m_);
      dst_ = (uint8_t*)dst;
      src_ = (const uint8_t*)src;
      n_ = n;
      part_ = ((n / (workers_.size() + 1)) + 4095) & ~(size_t)4095;
      busy_ = (unsigned)workers_.size();
      gen_++;
    }
    cv_.notify_all();
    piece(0);
    std::unique_lock<std::mutex> lk(m_);
    done_.wait(lk, [this] { return busy_ == 0; });
  }

 private:
  void piece(unsigned i) {
    const size_t b = std::min(n_, part_ * i), e = std::min(n_, part_ * (i + 1));
    if (e > b) std::memcpy(dst_ + b, src_ + b, e - b);
  }
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
  uint8_t* dst_ = nullptr;
  const uint8_t* src_ = nullptr;
  size_t n_ = 0, part_ = 0;
  unsigned busy_ = 0;
  uint64_t gen_ = 0;
  bool stop_ = false;
};

namespace {

constexpr size_t kStagingChunk = 4u << 20;  // pinned staging chunk (bytes)
constexpr double kDefaultEmulatedLimit = 2.0 * (1u << 30);
constexpr int kMaxEmulatedDevices = 16;

size_t align8(size_t x) { return (x + 7) & ~(size_t)7; }
size_t align16(size_t x) { return (x + 15) & ~(size_t)15; }
size_t align256(size_t x) { return (x + 255) & ~(size_t)255; }
uint32_t gridFor(size_t n) { return (uint32_t)std::max<size_t>(1, std::min<size_t>((n + kBlock - 1) / kBlock, 4096)); }

std::string mib(size_t b) {
  std::ostringstream o;
  o.setf(std::ios::fixed);
  o.precision(b < (1u << 20) ? 3 : 1);
  o << (double)b / (1024.0 * 1024.0) << " MiB";
  return o.str();
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

uint32_t groupSize(const PageDev& pd) {
  if (pd.split) return kBlock;
  const double avg = (double)pd.edges / (double)pd.nv;
  if (avg < 3) return 1;
  if (avg < 24) return 4;
  if (avg < 192) return 32;
  return kBlock;
}

}  // namespace

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

Controller::Controller(int device, bool emulated, double memoryLimit, int streams)
    : device_(device), emulated_(emulated), requestedLimit_(memoryLimit), nstreams_(streams) {
  if (const char* e = std::getenv("TESSERA_PIN_PAGES")) pinPages_ = std::string(e) != "0";
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
  } else {
    if (device_ < 0)
      throw CodedError("TS_BAD_DEVICE", "GPU device " + std::to_string(device_) + " does not exist: device indices start at 0");
    be_ = makeCudaBackend(device_, nstreams_);
    props_ = be_->props();
    unsigned threads = std::max(1u, std::min(8u, std::thread::hardware_concurrency() / 2));
    if (const char* e = std::getenv("TESSERA_STAGING_THREADS")) threads = (unsigned)std::max(1, std::min(64, std::atoi(e)));
    copyPool_ = std::make_unique<CopyPool>(threads);
    // Leave room for the CUDA context, CUB temporaries and other processes.
    const size_t reserve = std::max<size_t>(512u << 20, props_.freeMemory / 20);
    const size_t dflt = props_.freeMemory > reserve ? props_.freeMemory - reserve : props_.freeMemory / 2;
    limit_ = requestedLimit_ > 0 ? std::min<size_t>((size_t)requestedLimit_, props_.totalMemory) : dflt;
  }
}

void Controller::shutdown() {
  if (!be_) return;
  try {
    be_->syncAll();
  } catch (...) {
  }
  for (auto* a : arenas_) be_->devFree(a);
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
  for (auto& kv : state_) be_->devFree(kv.second.dev);
  state_.clear();
  for (auto& kv : scratch_) be_->devFree(kv.second.p);
  scratch_.clear();
  for (auto e : evPool_) be_->freeEvent(e);
  evPool_.clear();
  for (auto& kv : pages_) unpinPage(kv.second);
  for (auto& kv : pins_) be_->hostUnregister(kv.first);
  pins_.clear();
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
  for (auto& kv : pages_) in.pinnedPages += kv.second.hostPinned ? 1 : 0;
  for (auto& kv : pins_) in.pinnedHostBytes += kv.second.bytes;
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
  if (used() + need > limit_ && !arenas_.empty()) dropArena();
  if (used() + need > limit_) throwOom(what, need, false);
  void* p = be_->devAlloc(need);
  if (!p && !arenas_.empty()) {
    dropArena();
    p = be_->devAlloc(need);
  }
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

void Controller::dropArena() {
  if (arenas_.empty()) return;
  be_->syncAll();
  for (auto& s : slots_) {
    if (s.key >= 0) {
      auto it = pages_.find(s.key);
      if (it != pages_.end()) it->second.slot = -1;
    }
    be_->freeEvent(s.ready);
    be_->freeEvent(s.used);
  }
  slots_.clear();
  for (auto* a : arenas_) be_->devFree(a);
  arenas_.clear();
  arenaBytes_ = 0;
  totals_.cacheResets++;
}

void Controller::ensureCache() {
  const size_t sb = align256(std::max<size_t>(maxImage_, 256));
  const size_t want = std::max<size_t>(1, pages_.size());
  const size_t avail = limit_ > stateBytes_ + scratchBytes_ ? limit_ - stateBytes_ - scratchBytes_ : 0;
  if (!arenas_.empty() && slotBytes_ >= sb) {
    // Slots still big enough: grow by the pages registered since (page stealing registers the
    // victim's pages mid-run) in a new allocation, so the resident pages stay (Graphie's reuse);
    // dropping the cache here re-copied every page of the next superstep.
    const size_t cap = std::min(want, avail / slotBytes_);
    if (cap <= slots_.size()) return;
    size_t extra = cap - slots_.size();
    void* p = nullptr;
    while (extra > 0 && !(p = be_->devAlloc(extra * slotBytes_))) extra /= 2;
    if (p) addSlots((uint8_t*)p, extra);
    return;
  }
  dropArena();
  size_t n = std::min(want, avail / sb);
  if (n == 0) {
    std::ostringstream m;
    m << "GPU out of memory: one page does not fit: the largest registered page needs a cache slot of " << mib(sb)
      << " (offsets, neighbours, weights and tiles), but memoryLimit " << mib(limit_) << " minus " << mib(stateBytes_)
      << " of vertex state and " << mib(scratchBytes_) << " of scratch leaves " << mib(avail)
      << ". Fix: lower pageEdges / raise memoryLimit";
    throw CodedError("TS_OOM", m.str());
  }
  void* p = nullptr;
  while (n > 0 && !(p = be_->devAlloc(n * sb))) n /= 2;
  if (!p) throwOom("the page cache (one slot)", sb, true);
  slotBytes_ = sb;
  addSlots((uint8_t*)p, n);
  ensureStaging();
}

void Controller::addSlots(uint8_t* arena, size_t n) {
  arenas_.push_back(arena);
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

void Controller::copyChunks(uint8_t* dst, const void* src, size_t n, int s) {
  const uint8_t* from = (const uint8_t*)src;
  for (size_t off = 0; off < n; off += chunkBytes_) {
    Chunk& c = ring_[ringNext_++ % ring_.size()];
    if (c.pending) be_->sync(c.ev);  // the previous copy out of this buffer is done
    const size_t len = std::min(chunkBytes_, n - off);
    if (copyPool_)
      copyPool_->copy(c.buf, from + off, len);
    else
      std::memcpy(c.buf, from + off, len);
    be_->h2d(dst + off, c.buf, len, s);
    be_->record(c.ev, s);
    c.pending = true;
  }
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

static StateArr& findState(std::map<std::string, StateArr>& m, const std::string& name, const char* op) {
  auto it = m.find(name);
  if (it == m.end()) throw CodedError("TS_NO_STATE", std::string(op) + ": no state array named '" + name + "' (allocState it first)");
  return it->second;
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
  be_->d2h(dst, (const uint8_t*)a.dev + offset * stypeSize(type), count * stypeSize(type), 0);
  be_->syncStream(0);
}

void Controller::compact(const std::string& flags, const std::string& state, size_t begin, size_t end,
                         std::vector<uint32_t>& ids, std::vector<double>& vals, const std::string& mask) {
  StateArr& f = findState(state_, flags, "compact");
  StateArr& v = findState(state_, state, "compact");
  if (f.type != SType::U8) throw CodedError("TS_TYPE", "compact('" + flags + "'): the flag array must hold u8");
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
  CompactArgs a{(const u8*)f.dev, v.dev, (u32)v.type, (u32)begin, (u32)end, nullptr, nullptr, count, maskDev};
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

bool Controller::pinHost(void* p, size_t bytes) {
  if (p == nullptr || bytes == 0) return false;
  auto it = pins_.find(p);
  if (it != pins_.end()) {
    if (it->second.bytes < bytes) return false;  // a larger range over the same start: leave it pageable
    it->second.refs++;
    return true;
  }
  if (!be_->hostRegister(p, bytes)) return false;
  pins_[p] = Pin{bytes, 1};
  return true;
}

void Controller::pinPage(HostPage& hp) {
  hp.hostPinned = pinHost((void*)hp.spec.data, hp.bytes);
  // The tiles' staged copy would wait on the staging ring (a host-side sync per page) and add a
  // small DMA through it: a pinned copy of them streams as directly as the page.
  const size_t tileBytes = hp.tiles.size() * sizeof(Tile);
  if (hp.hostPinned && tileBytes > 0 && hp.tilesPinned == nullptr) {
    try {
      hp.tilesPinned = (Tile*)be_->pinnedAlloc(tileBytes);
      if (hp.tilesPinned) std::memcpy(hp.tilesPinned, hp.tiles.data(), tileBytes);
    } catch (const CodedError&) {
      hp.tilesPinned = nullptr;  // out of page-locked memory: the tiles keep going through staging
    }
  }
}

void Controller::unpinPage(HostPage& hp) {
  if (hp.hostPinned) unpinHost((void*)hp.spec.data);
  hp.hostPinned = false;
  if (hp.tilesPinned) {
    be_->syncAll();  // no copy may still be reading it
    be_->pinnedFree(hp.tilesPinned);
    hp.tilesPinned = nullptr;
  }
}

void Controller::unpinHost(void* p) {
  auto it = pins_.find(p);
  if (it == pins_.end()) return;
  if (--it->second.refs > 0) return;
  be_->syncAll();  // no copy may still be reading it
  be_->hostUnregister(p);
  pins_.erase(it);
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

// ---- pages ----------------------------------------------------------------------------------

void* Controller::registerPage(const PageSpec& sp) {
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
  if (sp.dataBytes < hp.bytes)
    throw CodedError("TS_PAGE", where + ": the buffer has " + std::to_string(sp.dataBytes) + " bytes but " + std::to_string(nv) +
                                    " vertices and " + std::to_string(sp.edges) + " edges need " + std::to_string(hp.bytes) +
                                    " ([offsets u32 x (vEnd-vBegin+1) | nbrs u32 x edges | weights], 8-byte aligned)");
  const uint32_t* off = (const uint32_t*)sp.data;
  if (off[0] != 0 || off[nv] != sp.edges)
    throw CodedError("TS_PAGE", where + ": offsets must start at 0 and end at edges (" + std::to_string(sp.edges) + "), found " +
                                    std::to_string(off[0]) + " .. " + std::to_string(off[nv]));
  for (uint32_t i = 0; i < nv; i++)
    if (off[i] > off[i + 1]) throw CodedError("TS_PAGE", where + ": offsets decrease at vertex " + std::to_string(sp.vBegin + i));
  const uint32_t* nbr = (const uint32_t*)(sp.data + nbrOff);
  for (uint32_t e = 0; e < sp.edges; e++) hp.maxNbr = std::max(hp.maxNbr, nbr[e]);
  hp.anyNbr = sp.edges > 0;
  hp.R = replicationFactor(sp.edges, nv);
  hp.tiles = buildTiles(off, nv, hp.R);
  hp.imageBytes = align16(hp.bytes) + hp.tiles.size() * sizeof(Tile);
  maxImage_ = std::max(maxImage_, hp.imageBytes);

  void* old = nullptr;
  const int64_t k = key(sp.setId, sp.index);
  auto it = pages_.find(k);
  if (it != pages_.end()) {
    old = it->second.spec.owner;
    if (it->second.slot >= 0) {
      be_->syncAll();
      slots_[it->second.slot].key = -1;
    }
    unpinPage(it->second);
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
  for (size_t i = 0; i < slots_.size(); i++) {
    if (slots_[i].pinned) continue;
    if (slots_[i].key < 0) {
      victim = (int)i;
      break;
    }
    if (slots_[i].lastUse < oldest) {
      oldest = slots_[i].lastUse;
      victim = (int)i;
    }
  }
  if (victim < 0)
    throw CodedError("TS_OOM", "GPU out of memory: every page cache slot is held by pages this call needs at once. Fix: lower pageEdges / raise memoryLimit");
  Slot& sl = slots_[victim];
  if (sl.key >= 0) {
    auto it = pages_.find(sl.key);
    if (it != pages_.end()) it->second.slot = -1;
    st.evictions++;
    sl.key = -1;
  }
  if (sl.usedRecorded) be_->wait(s, sl.used);  // kernels still reading the old page finish first
  if (copyStart) be_->record(copyStart, s);
  // A page loaded a second time streams (GTS): page-lock its host bytes once so every later load
  // is one direct DMA at link speed instead of a memcpy into the staging ring plus a DMA.
  if (++hp.loads == 2 && pinPages_) pinPage(hp);
  if (hp.hostPinned)
    be_->h2d(sl.dev, hp.spec.data, hp.bytes, s);
  else
    copyChunks(sl.dev, hp.spec.data, hp.bytes, s);
  const size_t tileBytes = hp.tiles.size() * sizeof(Tile);
  if (hp.tilesPinned)
    be_->h2d(sl.dev + align16(hp.bytes), hp.tilesPinned, tileBytes, s);
  else if (tileBytes > 0)
    copyChunks(sl.dev + align16(hp.bytes), hp.tiles.data(), tileBytes, s);
  be_->record(sl.ready, s);
  sl.readyRecorded = true;
  sl.key = key(hp.spec.setId, hp.spec.index);
  sl.lastUse = ++tick_;
  hp.slot = victim;
  st.bytesCopied += hp.imageBytes;
  return victim;
}

StateArr* Controller::role(const RunRequest& rq, const std::string& r, std::initializer_list<SType> types, bool required) {
  auto m = rq.state.find(r);
  const std::string name = m != rq.state.end() ? m->second : r;
  auto it = state_.find(name);
  if (it == state_.end()) {
    if (!required && m == rq.state.end()) return nullptr;
    throw CodedError("TS_NO_STATE", rq.kernel + ": state '" + r + "' -> no array named '" + name + "' (allocState it first)");
  }
  bool ok = false;
  std::string list;
  for (SType t : types) {
    ok = ok || it->second.type == t;
    list += std::string(list.empty() ? "" : "/") + stypeName(t);
  }
  // an optional role binds to the array of its own name only when the type fits
  if (!ok && !required && m == rq.state.end()) return nullptr;
  if (!ok)
    throw CodedError("TS_TYPE", rq.kernel + ": state '" + r + "' ('" + name + "') must be " + list + ", it is " +
                                    stypeName(it->second.type));
  return &it->second;
}

// ---- kernels --------------------------------------------------------------------------------

struct Controller::Plan {
  std::function<void()> pre;
  std::function<void(HostPage&, const PageDev&, int)> page;
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

template <class Op>
void Controller::pushPage(PushArgs a, const PageDev& pd, int s, uint8_t* twc, size_t per) {
  a.pg = pd;
  a.lists.mid = (uint32_t*)(twc + per * s);
  a.lists.big = (uint32_t*)(twc + per * s + per / 2);
  a.lists.counts = (uint32_t*)scratch_["ctr"].p + 4 + 4 * s;
  be_->memset(a.lists.counts, 0, 16, s);
  launch<KTwcBin<Op>>(gridFor(pd.nv), 0, s, a);
  const uint32_t maxMid = std::min(pd.nv, pd.edges / kTwcSmall);
  if (maxMid > 0) launch<KTwcWarp<Op>>(std::min<uint32_t>((maxMid + 7) / 8, 2048), 0, s, a);
  const uint32_t maxBig = std::min(pd.nv, pd.edges / kTwcLarge);
  if (maxBig > 0) launch<KTwcBlock<Op>>(std::min<uint32_t>(maxBig, 1024), 0, s, a);
}

template <class Op>
void Controller::pullPage(PullArgs a, const PageDev& pd, int s) {
  a.pg = pd;
  a.G = groupSize(pd);
  const uint32_t per = kBlock / a.G;
  launch<KGroupPull<Op>>((pd.nv + per - 1) / per, kGroupPullSmem, s, a);
}

void Controller::buildPlan(const RunRequest& rq, std::vector<HostPage*>& pages, Plan& pl) {
  const std::string& k = rq.kernel;
  auto param = [&](const char* name, double dflt) {
    auto it = rq.params.find(name);
    return it == rq.params.end() ? dflt : it->second;
  };
  auto need = [&](const char* name) {
    auto it = rq.params.find(name);
    if (it == rq.params.end()) throw CodedError("TS_ARG", k + ": params." + name + " is required");
    return it->second;
  };
  uint32_t maxNv = 1, maxE = 1;
  for (auto* hp : pages) {
    maxNv = std::max(maxNv, hp->nv());
    maxE = std::max(maxE, hp->spec.edges);
  }
  uint32_t* ctr = (uint32_t*)scratch("ctr", 4 * (4 + 4 * (size_t)nstreams_));
  // vertex ranges must lie inside targets, neighbour ids inside sources
  auto checkTarget = [&](StateArr* a, const char* r) {
    if (!a) return;
    for (auto* hp : pages)
      if (hp->spec.vEnd > a->n)
        throw CodedError("TS_RANGE", k + ": page " + std::to_string(hp->spec.index) + " holds vertices up to " +
                                         std::to_string(hp->spec.vEnd - 1) + " but state '" + r + "' has length " +
                                         std::to_string(a->n));
  };
  auto checkSource = [&](StateArr* a, const char* r) {
    if (!a) return;
    for (auto* hp : pages)
      if (hp->anyNbr && hp->maxNbr >= a->n)
        throw CodedError("TS_RANGE", k + ": page " + std::to_string(hp->spec.index) + " has neighbour id " +
                                         std::to_string(hp->maxNbr) + " but state '" + r + "' has length " + std::to_string(a->n));
  };
  auto checkBoth = [&](StateArr* a, const char* r) {
    checkTarget(a, r);
    checkSource(a, r);
  };
  // frontier: bitmap (u32 words) or bytes (u8), or a list scattered into a bitmap
  auto frontier = [&](uint32_t n, bool required) {
    Frontier f{nullptr, nullptr};
    StateArr* fl = role(rq, "frontierList", {SType::U32}, false);
    StateArr* fr = role(rq, "frontier", {SType::U32, SType::U8}, required && !fl);
    if (fl) {
      const uint32_t count = (uint32_t)param("frontierSize", (double)fl->n);
      if (count > fl->n) throw CodedError("TS_RANGE", k + ": params.frontierSize exceeds the frontierList length");
      const size_t words = (n + 31) / 32;
      uint32_t* bits = (uint32_t*)scratch("frontierBits", words * 4);
      const uint32_t* list = (const uint32_t*)fl->dev;
      pl.pre = [this, bits, words, list, count, prev = pl.pre] {
        if (prev) prev();
        be_->memset(bits, 0, words * 4, 0);
        launch<KScatter>(gridFor(count), 0, 0, ScatterArgs{list, count, bits, nullptr});
      };
      f.bits = bits;
    } else if (fr) {
      if (fr->type == SType::U8) {
        if (fr->n < n) throw CodedError("TS_RANGE", k + ": frontier bytes are shorter than the vertex state (" + std::to_string(n) + ")");
        f.bytes = (const uint8_t*)fr->dev;
      } else {
        if (fr->n * 32 < n) throw CodedError("TS_RANGE", k + ": frontier bitmap has " + std::to_string(fr->n) + " words, " + std::to_string(n) + " vertices need " + std::to_string((n + 31) / 32));
        f.bits = (const uint32_t*)fr->dev;
      }
    }
    return f;
  };
  auto next = [&](uint32_t n) {
    NextSet s{nullptr, nullptr, ctr};
    StateArr* nx = role(rq, "next", {SType::U32, SType::U8}, false);
    if (nx) {
      if (nx->type == SType::U8) {
        if (nx->n < n) throw CodedError("TS_RANGE", k + ": next bytes are shorter than the vertex state");
        s.bytes = (uint8_t*)nx->dev;
      } else {
        if (nx->n * 32 < n) throw CodedError("TS_RANGE", k + ": next bitmap has too few words for " + std::to_string(n) + " vertices");
        s.bits = (uint32_t*)nx->dev;
      }
    }
    return s;
  };
  // Owned vertices: params ownedBegin/ownedEnd (one range), or state role `owned` (a u8 byte map,
  // for an owner of several ranges); updates to any other vertex go to the outbox.
  auto outbox = [&](uint32_t n, uint32_t op) {
    StateArr* om = role(rq, "owned", {SType::U8}, false);
    if (om && om->n < n) throw CodedError("TS_RANGE", k + ": the owned byte map is shorter than the vertex state (" + std::to_string(n) + ")");
    if (om && (rq.params.count("ownedBegin") || rq.params.count("ownedEnd")))
      throw CodedError("TS_ARG", k + ": name the owned vertices by params.ownedBegin/ownedEnd or by state.owned, not both");
    const double b = om ? 0 : param("ownedBegin", 0), e = om ? 0 : param("ownedEnd", (double)n);
    if (!om && b <= 0 && e >= n) return Outbox{nullptr, nullptr, nullptr, nullptr, 0, 0, kReduceNone, nullptr, nullptr};
    if (b < 0 || e < b) throw CodedError("TS_ARG", k + ": params.ownedBegin/ownedEnd must satisfy 0 <= begin <= end");
    const size_t words = (n + 31) / 32;
    bool f1 = false, f2 = false;
    double* val = (double*)scratch("outbox.val", (size_t)n * 8, &f1);
    uint32_t* flag = (uint32_t*)scratch("outbox.flag", words * 4, &f2);
    uint32_t* ids = (uint32_t*)scratch("outbox.ids", (size_t)n * 4);
    scratch("outbox.out", (size_t)n * 8);
    const double ident = op == kReduceMin ? INFINITY : 0.0;
    if (f1 || f2 || outboxN_ < n || outboxOp_ != op) {
      launch<KFill>(gridFor(n), 0, 0, FillArgs{val, 0, n, kTypeF64, ident});
      be_->memset(flag, 0, words * 4, 0);
      outboxN_ = n;
      outboxOp_ = op;
    }
    pl.outbox = true;
    pl.obIdentity = ident;
    pl.ob = Outbox{val, flag, ids, ctr + 1, (uint32_t)b, (uint32_t)std::min<double>(e, 4294967295.0), op, ctr + 2, om ? (const u8*)om->dev : nullptr};
    return pl.ob;
  };
  // TWC lists per stream: [mid | big], each maxNv u32
  const size_t twcPer = align256((size_t)maxNv * 4) * 2;
  auto twcScratch = [&] { return (uint8_t*)scratch("twc", (size_t)nstreams_ * twcPer); };

  if (k == "pr_pull") {
    StateArr* contrib = role(rq, "contrib", {SType::F64}, true);
    StateArr* nxt = role(rq, "next", {SType::F64}, true);
    checkSource(contrib, "contrib");
    checkTarget(nxt, "next");
    const double base = param("base", 0), d = param("d", 1);
    // merged vertex ranges of the call's pages: zeroed before, base + d * sum after
    std::vector<std::pair<uint32_t, uint32_t>> ranges;
    for (auto* hp : pages) ranges.push_back({hp->spec.vBegin, hp->spec.vEnd});
    std::sort(ranges.begin(), ranges.end());
    std::vector<std::pair<uint32_t, uint32_t>> merged;
    for (auto& r : ranges) {
      if (!merged.empty() && r.first <= merged.back().second)
        merged.back().second = std::max(merged.back().second, r.second);
      else
        merged.push_back(r);
    }
    double* out = (double*)nxt->dev;
    const double* cb = (const double*)contrib->dev;
    pl.pre = [this, merged, out] {
      for (auto& r : merged) be_->memset(out + r.first, 0, (size_t)(r.second - r.first) * 8, 0);
    };
    pl.page = [this, cb, out](HostPage&, const PageDev& pd, int s) {
      launch<KPrPull>(pd.ntiles, kPrPullSmem, s, PrPullArgs{pd, cb, out});
    };
    // Optional vertex apply (the CPU kernel's next contribution and dangling mass) over the
    // merged ranges clipped to [applyBegin, applyEnd).
    StateArr* deg = role(rq, "outDeg", {SType::U32}, false);
    StateArr* nc = role(rq, "nextContrib", {SType::F64}, false);
    if ((deg == nullptr) != (nc == nullptr)) throw CodedError("TS_ARG", "pr_pull: name both outDeg and nextContrib for the vertex apply, or neither");
    checkTarget(deg, "outDeg");
    checkTarget(nc, "nextContrib");
    double* dangling = nullptr;
    if (deg) {
      dangling = (double*)scratch("pr.dangling", 8);
      pl.pre = [this, merged, out, dangling] {
        be_->memset(dangling, 0, 8, 0);
        for (auto& r : merged) be_->memset(out + r.first, 0, (size_t)(r.second - r.first) * 8, 0);
      };
      pl.finish = [this, dangling](RunStats& st) {
        be_->d2h(&st.sum, dangling, 8, 0);
        be_->syncStream(0);
        st.hasSum = true;
      };
    }
    const double ab = param("applyBegin", 0), ae = param("applyEnd", 4294967295.0);
    // ...and, with state role `owned` (a u8 byte map), to the vertices whose byte is set: a GPU
    // actor owning several ranges applies its own vertices of the pages in one call.
    StateArr* om = role(rq, "owned", {SType::U8}, false);
    if (om && !deg) throw CodedError("TS_ARG", "pr_pull: state.owned restricts the vertex apply: name outDeg and nextContrib too");
    checkTarget(om, "owned");
    const u8* mask = om ? (const u8*)om->dev : nullptr;
    const uint32_t* dg = deg ? (const uint32_t*)deg->dev : nullptr;
    double* ncp = nc ? (double*)nc->dev : nullptr;
    pl.post = [this, merged, out, base, d, dg, ncp, dangling, ab, ae, mask] {
      if (!(base == 0 && d == 1))
        for (auto& r : merged) launch<KAxpb>(gridFor(r.second - r.first), 0, 0, AxpbArgs{out, r.first, r.second, base, d});
      if (!dg) return;
      for (auto& r : merged) {
        const uint32_t b = (uint32_t)std::max<double>(r.first, ab), e = (uint32_t)std::min<double>(r.second, ae);
        if (e > b) launch<KPrApply>(gridFor(e - b), kPrApplySmem, 0, PrApplyArgs{out, ncp, dg, dangling, b, e, mask});
      }
    };
    return;
  }

  if (k == "bfs_push" || k == "sssp_push" || k == "wcc_push" || k == "pr_push" || k == "bc_forward") {
    PushArgs a{};
    uint32_t n = 0;
    uint32_t op = kReduceMin;
    if (k == "bfs_push" || k == "bc_forward") {
      StateArr* depth = role(rq, "depth", {SType::U32, SType::I32}, true);
      checkBoth(depth, "depth");
      a.s0 = depth->dev;
      n = (uint32_t)depth->n;
      a.level = (uint32_t)need("level");
      if (k == "bc_forward") {
        StateArr* sigma = role(rq, "sigma", {SType::F64}, true);
        checkBoth(sigma, "sigma");
        a.s1 = sigma->dev;
      }
    } else if (k == "sssp_push") {
      StateArr* dist = role(rq, "dist", {SType::F64}, true);
      checkBoth(dist, "dist");
      a.s0 = dist->dev;
      n = (uint32_t)dist->n;
    } else if (k == "wcc_push") {
      StateArr* label = role(rq, "label", {SType::U32, SType::I32}, true);
      checkBoth(label, "label");
      a.s0 = label->dev;
      n = (uint32_t)label->n;
    } else {
      StateArr* contrib = role(rq, "contrib", {SType::F64}, true);
      StateArr* acc = role(rq, "next", {SType::F64}, true);
      checkTarget(contrib, "contrib");
      checkSource(acc, "next");
      a.s0 = contrib->dev;
      a.s1 = acc->dev;
      n = (uint32_t)acc->n;
      op = kReduceSum;
    }
    const bool frontierRequired = k == "bfs_push" || k == "sssp_push" || k == "bc_forward";
    a.fr = frontier(n, frontierRequired);
    if (k != "pr_push") a.next = next(n);
    a.ob = outbox(n, op);
    if (k == "bc_forward" && a.ob.op != kReduceNone)
      throw CodedError("TS_ARG", "bc_forward: an outbox (ownedBegin/ownedEnd) is not supported: the forward pass updates depth and sigma together");
    uint8_t* twc = twcScratch();
    pl.page = [this, a, k, twc, twcPer](HostPage&, const PageDev& pd, int s) {
      if (k == "bfs_push") pushPage<BfsPushOp>(a, pd, s, twc, twcPer);
      else if (k == "sssp_push") pushPage<SsspPushOp>(a, pd, s, twc, twcPer);
      else if (k == "wcc_push") pushPage<WccPushOp>(a, pd, s, twc, twcPer);
      else if (k == "pr_push") pushPage<PrPushOp>(a, pd, s, twc, twcPer);
      else pushPage<BcForwardOp>(a, pd, s, twc, twcPer);
    };
    return;
  }

  if (k == "bfs_pull" || k == "wcc_pull" || k == "bc_backward") {
    PullArgs a{};
    if (k == "bfs_pull") {
      StateArr* depth = role(rq, "depth", {SType::U32, SType::I32}, true);
      checkBoth(depth, "depth");
      a.s0 = depth->dev;
      a.level = (uint32_t)need("level");
      a.fr = frontier((uint32_t)depth->n, true);
      a.next = next((uint32_t)depth->n);
    } else if (k == "wcc_pull") {
      StateArr* label = role(rq, "label", {SType::U32, SType::I32}, true);
      checkBoth(label, "label");
      a.s0 = label->dev;
      a.next = next((uint32_t)label->n);
    } else {
      StateArr* depth = role(rq, "depth", {SType::U32, SType::I32}, true);
      StateArr* sigma = role(rq, "sigma", {SType::F64}, true);
      StateArr* delta = role(rq, "delta", {SType::F64}, true);
      StateArr* bc = role(rq, "bc", {SType::F64}, false);
      checkBoth(depth, "depth");
      checkBoth(sigma, "sigma");
      checkBoth(delta, "delta");
      checkTarget(bc, "bc");
      a.s0 = depth->dev;
      a.s1 = sigma->dev;
      a.s2 = delta->dev;
      a.s3 = bc ? bc->dev : nullptr;
      a.level = (uint32_t)need("level");
      a.source = (uint32_t)param("source", 4294967295.0);
      a.next = NextSet{nullptr, nullptr, ctr};
    }
    pl.page = [this, a, k](HostPage&, const PageDev& pd, int s) {
      if (k == "bfs_pull") pullPage<BfsPullOp>(a, pd, s);
      else if (k == "wcc_pull") pullPage<WccPullOp>(a, pd, s);
      else pullPage<BcBackwardOp>(a, pd, s);
    };
    return;
  }

  if (k == "cdlp_pull") {
    StateArr* label = role(rq, "label", {SType::U32, SType::I32}, true);
    StateArr* nxt = role(rq, "next", {SType::U32, SType::I32}, true);
    checkSource(label, "label");
    checkTarget(label, "label");
    checkTarget(nxt, "next");
    if (label == nxt) throw CodedError("TS_ARG", "cdlp_pull: label and next must be different arrays (synchronous update)");
    const uint32_t* lab = (const uint32_t*)label->dev;
    uint32_t* out = (uint32_t*)nxt->dev;
    // per stream: keys, alt (maxE each) and sort temporaries
    const size_t tmp = align256(be_->sortTempBytes(maxE, maxNv));
    const size_t per = align256((size_t)maxE * 4) * 2 + tmp;
    uint8_t* cs = (uint8_t*)scratch("cdlp", per * nstreams_);
    // split vertices: every page of the vertex must be in this call; their keys go to one buffer
    std::map<uint32_t, std::vector<HostPage*>> splitPages;  // vertex -> pages in index order
    for (auto* hp : pages)
      if (isSplit(*hp)) splitPages[hp->spec.vBegin].push_back(hp);
    std::unordered_map<int64_t, size_t> pos;  // page key -> position in split keys
    size_t total = 0;
    pl.keep32.clear();
    pl.keep32b.clear();
    if (!splitPages.empty()) {
      std::map<uint32_t, size_t> registered;
      for (auto& kv : pages_)
        if (kv.second.spec.setId == rq.setId && splitPages.count(kv.second.spec.vBegin) && isSplit(kv.second))
          registered[kv.second.spec.vBegin]++;
      for (auto& sv : splitPages) {
        if (registered[sv.first] != sv.second.size())
          throw CodedError("TS_ARG", "cdlp_pull: vertex " + std::to_string(sv.first) + " spans " + std::to_string(registered[sv.first]) +
                                         " split pages but the call names " + std::to_string(sv.second.size()) +
                                         " of them; the most frequent label needs all of a vertex's pages in one call");
        std::sort(sv.second.begin(), sv.second.end(), [](HostPage* x, HostPage* y) { return x->spec.index < y->spec.index; });
        pl.keep32.push_back((uint32_t)total);
        pl.keep32b.push_back(sv.first);
        for (auto* hp : sv.second) {
          pos[key(hp->spec.setId, hp->spec.index)] = total;
          total += hp->spec.edges;
        }
      }
      pl.keep32.push_back((uint32_t)total);
    }
    uint8_t* ss = nullptr;
    size_t stmp = 0;
    const uint32_t nsplit = (uint32_t)pl.keep32b.size();
    if (nsplit > 0) {
      stmp = align256(be_->sortTempBytes(total, nsplit));
      ss = (uint8_t*)scratch("cdlp.split", align256(total * 4) * 2 + stmp + align256(((size_t)nsplit + 1) * 4) + align256((size_t)nsplit * 4));
    }
    pl.page = [this, cs, per, lab, out, ss, pos](HostPage& hp, const PageDev& pd, int s) {
      if (pd.split) {
        uint32_t* keys = (uint32_t*)ss + pos.at(key(hp.spec.setId, hp.spec.index));
        launch<KCdlpGather>(gridFor(pd.edges), 0, s, CdlpGatherArgs{pd, lab, keys});
        return;
      }
      uint8_t* mine = cs + per * s;
      uint32_t* keys = (uint32_t*)mine;
      uint32_t* alt = (uint32_t*)(mine + align256((size_t)pd.edges * 4));
      void* temp = mine + 2 * align256((size_t)pd.edges * 4);
      const size_t tempBytes = per - 2 * align256((size_t)pd.edges * 4);
      launch<KCdlpGather>(gridFor(pd.edges), 0, s, CdlpGatherArgs{pd, lab, keys});
      uint32_t* sorted = be_->sortSegments(keys, alt, pd.edges, pd.off, pd.nv, temp, tempBytes, s);
      const uint32_t G = groupSize(pd);
      CdlpModeArgs m{pd.off, sorted, nullptr, lab, out, pd.nv, G, pd.vBegin, 0};
      launch<KCdlpMode>((pd.nv + (kBlock / G) - 1) / (kBlock / G), kCdlpModeSmem, s, m);
    };
    if (nsplit > 0) {
      pl.post = [this, ss, total, stmp, nsplit, lab, out, &pl] {
        uint32_t* keys = (uint32_t*)ss;
        uint32_t* alt = (uint32_t*)(ss + align256(total * 4));
        uint8_t* temp = ss + 2 * align256(total * 4);
        uint32_t* segOff = (uint32_t*)(temp + stmp);
        uint32_t* vids = (uint32_t*)((uint8_t*)segOff + align256(((size_t)nsplit + 1) * 4));
        be_->h2d(segOff, pl.keep32.data(), pl.keep32.size() * 4, 0);
        be_->h2d(vids, pl.keep32b.data(), pl.keep32b.size() * 4, 0);
        uint32_t* sorted = be_->sortSegments(keys, alt, total, segOff, nsplit, temp, stmp, 0);
        CdlpModeArgs m{segOff, sorted, vids, lab, out, nsplit, kBlock, 0, 0};
        launch<KCdlpMode>(nsplit, kCdlpModeSmem, 0, m);
      };
    }
    return;
  }

  if (k == "lcc") {
    StateArr* out = role(rq, "lcc", {SType::F64}, true);
    checkTarget(out, "lcc");
    const int outSet = (int)need("outSet");
    const uint32_t n = (uint32_t)out->n;
    std::vector<HostPage*> opages;
    for (auto& kv : pages_)
      if (kv.second.spec.setId == outSet) opages.push_back(&kv.second);
    if (opages.empty()) throw CodedError("TS_ARG", "lcc: params.outSet " + std::to_string(outSet) + " has no registered pages");
    std::sort(opages.begin(), opages.end(), [](HostPage* x, HostPage* y) { return x->spec.index < y->spec.index; });
    // split vertices of the neighbour set: all their pages in this call, resident together
    std::map<uint32_t, std::vector<HostPage*>> splitPages;
    for (auto* hp : pages)
      if (isSplit(*hp)) splitPages[hp->spec.vBegin].push_back(hp);
    if (!splitPages.empty()) {
      std::map<uint32_t, size_t> registered;
      for (auto& kv : pages_)
        if (kv.second.spec.setId == rq.setId && splitPages.count(kv.second.spec.vBegin) && isSplit(kv.second))
          registered[kv.second.spec.vBegin]++;
      for (auto& sv : splitPages) {
        if (registered[sv.first] != sv.second.size())
          throw CodedError("TS_ARG", "lcc: vertex " + std::to_string(sv.first) + " spans " + std::to_string(registered[sv.first]) +
                                         " split pages but the call names " + std::to_string(sv.second.size()) + " of them; they must come together");
        std::sort(sv.second.begin(), sv.second.end(), [](HostPage* x, HostPage* y) { return x->spec.index < y->spec.index; });
      }
    }
    pl.pin = opages;
    for (auto& sv : splitPages) pl.pin.insert(pl.pin.end(), sv.second.begin(), sv.second.end());
    pl.pinWhat = "every page of out-set " + std::to_string(outSet) + (splitPages.empty() ? "" : " and of its split vertices");
    // first page of each vertex in the out set
    auto first = std::make_shared<std::vector<uint32_t>>(n, 0xffffffffu);
    for (size_t i = 0; i < opages.size(); i++)
      for (uint32_t v = opages[i]->spec.vBegin; v < opages[i]->spec.vEnd && v < n; v++)
        if ((*first)[v] == 0xffffffffu) (*first)[v] = (uint32_t)i;
    auto table = std::make_shared<std::vector<PageRef>>(opages.size());
    auto pieces = std::make_shared<std::vector<Piece>>();
    auto start = std::make_shared<std::vector<uint32_t>>();
    auto vids = std::make_shared<std::vector<uint32_t>>();
    pl.keep = {first, table, pieces, start, vids};
    PageRef* dTable = (PageRef*)scratch("lcc.pages", table->size() * sizeof(PageRef));
    uint32_t* dFirst = (uint32_t*)scratch("lcc.first", (size_t)n * 4);
    size_t npieces = 0;
    for (auto& sv : splitPages) npieces += sv.second.size();
    Piece* dPieces = (Piece*)scratch("lcc.pieces", std::max<size_t>(1, npieces) * sizeof(Piece));
    uint32_t* dStart = (uint32_t*)scratch("lcc.start", (splitPages.size() + 1) * 4);
    uint32_t* dVids = (uint32_t*)scratch("lcc.vids", std::max<size_t>(1, splitPages.size()) * 4);
    const OutIndex oi{dTable, dFirst, (uint32_t)opages.size(), n};
    double* lcc = (double*)out->dev;
    pl.afterPin = [this, opages, splitPages, first, table, pieces, start, vids, dTable, dFirst, dPieces, dStart, dVids] {
      for (size_t i = 0; i < opages.size(); i++) {
        const PageDev pd = pageDev(*opages[i]);
        (*table)[i] = PageRef{pd.off, pd.nbr, pd.vBegin, pd.nv};
      }
      be_->h2d(dTable, table->data(), table->size() * sizeof(PageRef), 0);
      be_->h2d(dFirst, first->data(), first->size() * 4, 0);
      if (splitPages.empty()) return;
      for (auto& sv : splitPages) {
        start->push_back((uint32_t)pieces->size());
        vids->push_back(sv.first);
        for (auto* hp : sv.second) {
          const PageDev pd = pageDev(*hp);
          const uint32_t* hn = (const uint32_t*)(hp->spec.data + ((4 * ((size_t)hp->nv() + 1) + 7) & ~(size_t)7));
          const uint32_t cnt = hp->spec.edges;
          pieces->push_back(Piece{pd.nbr, cnt, cnt ? hn[0] : 1u, cnt ? hn[cnt - 1] : 0u, 0});
        }
      }
      start->push_back((uint32_t)pieces->size());
      be_->h2d(dPieces, pieces->data(), pieces->size() * sizeof(Piece), 0);
      be_->h2d(dStart, start->data(), start->size() * 4, 0);
      be_->h2d(dVids, vids->data(), vids->size() * 4, 0);
    };
    pl.page = [this, oi, lcc](HostPage&, const PageDev& pd, int s) {
      if (pd.split) return;  // with the other pieces of its vertex, after the pages
      const uint32_t G = groupSize(pd);
      launch<KLcc>((pd.nv + (kBlock / G) - 1) / (kBlock / G), kLccSmem, s, LccArgs{pd, oi, lcc, G, 0});
    };
    const uint32_t nsplit = (uint32_t)splitPages.size();
    if (nsplit > 0)
      pl.post = [this, oi, lcc, nsplit, dPieces, dStart, dVids] {
        launch<KLccSplit>(nsplit, kLccSmem, 0, LccSplitArgs{dPieces, dStart, dVids, oi, lcc});
      };
    return;
  }

  throw CodedError("TS_KERNEL", "unknown kernel '" + k +
                                    "': one of pr_pull, pr_push, bfs_push, bfs_pull, sssp_push, wcc_pull, wcc_push, cdlp_pull, "
                                    "bc_forward, bc_backward, lcc");
}

RunStats Controller::run(const RunRequest& rq) {
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
  for (size_t i = 0; i < pages.size(); i++) {
    HostPage& hp = *pages[i];
    const int s = (int)(i % (size_t)nstreams_);
    const bool hit = hp.slot >= 0;
    Event c0 = hit ? nullptr : timingEvent();
    const int slot = acquire(hp, s, st, c0);
    Event k0 = timingEvent();
    be_->record(k0, s);
    if (!hit) copyEv.push_back({c0, k0});
    pl.page(hp, pageDev(hp), s);
    Event k1 = timingEvent();
    be_->record(k1, s);
    kernEv.push_back({k0, k1});
    be_->record(slots_[slot].used, s);
    slots_[slot].usedRecorded = true;
  }
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
  uint32_t counts[4] = {0, 0, 0, 0};
  be_->d2h(counts, ctr, 16, 0);
  be_->syncAll();
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
  totals_.copyMs += st.copyMs;
  totals_.kernelMs += st.kernelMs;
  totals_.wallMs += st.wallMs;
  return st;
}

}  // namespace ts

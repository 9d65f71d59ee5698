// Device-side state operations between kernels: copies within a device and from a peer device
// (GTS's peer-to-peer synchronisation), flag sums and scattered writes (a frontier list, the host's
// folded changes) that spare copying whole ranges across the host link.
#include "controller_internal.h"

#include <cstdlib>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ts {

namespace {

/** Emulated devices pack from this many values, in chunks of this many bytes (tests reach the path, its chunks and its ring's reuse on small graphs). */
constexpr size_t kNarrowMinEmulated = 4096, kNarrowChunkEmulated = 16u << 10;

/**
 * dst[i] = base + src[i] (wrapping) for src of `width` bytes: the host's half of a packed
 * read-back. Streaming stores where SSE2 has them: the result is written once and larger than the
 * caches, and plain stores would read each line of it first.
 */
void widen(uint32_t* dst, const uint8_t* src, size_t n, size_t width, uint32_t base) {
  size_t i = 0;
  auto one = [&](size_t j) { dst[j] = base + (width == 1 ? src[j] : ((const uint16_t*)src)[j]); };
#if defined(__SSE2__)
  for (; i < n && ((uintptr_t)(dst + i) & 15) != 0; i++) one(i);
  const __m128i z = _mm_setzero_si128(), b = _mm_set1_epi32((int)base);
  if (width == 1) {
    for (; i + 16 <= n; i += 16) {
      const __m128i v = _mm_loadu_si128((const __m128i*)(src + i));
      const __m128i lo = _mm_unpacklo_epi8(v, z), hi = _mm_unpackhi_epi8(v, z);
      _mm_stream_si128((__m128i*)(dst + i), _mm_add_epi32(_mm_unpacklo_epi16(lo, z), b));
      _mm_stream_si128((__m128i*)(dst + i + 4), _mm_add_epi32(_mm_unpackhi_epi16(lo, z), b));
      _mm_stream_si128((__m128i*)(dst + i + 8), _mm_add_epi32(_mm_unpacklo_epi16(hi, z), b));
      _mm_stream_si128((__m128i*)(dst + i + 12), _mm_add_epi32(_mm_unpackhi_epi16(hi, z), b));
    }
  } else {
    for (; i + 8 <= n; i += 8) {
      const __m128i v = _mm_loadu_si128((const __m128i*)(src + 2 * i));
      _mm_stream_si128((__m128i*)(dst + i), _mm_add_epi32(_mm_unpacklo_epi16(v, z), b));
      _mm_stream_si128((__m128i*)(dst + i + 4), _mm_add_epi32(_mm_unpackhi_epi16(v, z), b));
    }
  }
  _mm_sfence();
#endif
  for (; i < n; i++) one(i);
}

}  // namespace

// A large integer array read back whole moved 4 bytes a value through the link and ~3 times
// that through host memory (the DMA into pinned buffers, the memcpy's read and write): bfs's
// 134 MB depth on RMAT 25 took 3.4 ms on one GPU and on two, bound by host memory. Its values
// span a few levels: packed on the device into 1 or 2 bytes a value (KMinMax, then KPack a chunk
// at a time), the link and the pinned buffers carry a quarter or half of it and the host widens
// each chunk on the copy pool while the next one's DMA runs. TESSERA_NARROW_READ=0 turns it off.
bool Controller::narrowRead(StateArr& a, void* dst, size_t count, size_t offset) {
  static const bool on = [] {
    const char* e = std::getenv("TESSERA_NARROW_READ");
    return e == nullptr || std::string(e) != "0";
  }();
  if (!on || (a.type != SType::I32 && a.type != SType::U32)) return false;
  if (emulated_ ? count < kNarrowMinEmulated : !staged(dst, count * 4)) return false;
  const size_t k = kStageBuffers, chunk = emulated_ ? kNarrowChunkEmulated : kStageChunk;
  const size_t need = 256 + k * chunk;
  // The ring only where it fits beside the page cache (a scratch past the limit drops the cache).
  auto it = scratch_.find("narrow");
  if ((it == scratch_.end() || it->second.bytes < need) && used() + need > limit_) return false;
  uint32_t* range = (uint32_t*)scratch("narrow", need);
  uint8_t* ring = (uint8_t*)range + 256;
  const uint32_t flip = a.type == SType::I32 ? 0x80000000u : 0u;
  const u32* src = (const u32*)a.dev + offset;
  be_->memset(range, 0xff, 8, 0);
  launch<KMinMax>(gridFor(count), kBlock * 2 * sizeof(u32), 0, MinMaxArgs{src, (u32)count, flip, range});
  uint32_t mm[2];
  be_->d2h(mm, range, 8, 0);
  be_->syncStream(0);
  const uint32_t span = ~mm[1] - mm[0];
  const size_t width = span < 256 ? 1 : span < 65536 ? 2 : 0;
  if (width == 0) return false;
  const uint32_t base = mm[0] ^ flip;  // the smallest value's bits
  ensureStateStage();
  const size_t per = chunk / width, m = (count + per - 1) / per;
  auto len = [&](size_t i) { return std::min(per, count - i * per); };
  drainStaged(
      m,
      [&](size_t i, uint8_t* buf) {
        // Packed into the device ring's slot of the pinned buffer it goes to (both reused every k chunks).
        uint8_t* packed = ring + (i % k) * chunk;
        launch<KPack>(gridFor(len(i)), 0, 0, PackArgs{src + i * per, (u32)len(i), base, (u32)width, packed});
        be_->d2h(buf, packed, len(i) * width, 0);
      },
      [&](size_t i, const uint8_t* buf) {
        uint32_t* out = (uint32_t*)dst + i * per;
        const size_t n = len(i);
        parallel([&](unsigned t, unsigned parts) {
          // Parts of whole 64-byte lines of the output.
          const size_t b = std::min(n, (n * t / parts) & ~(size_t)15), e = t + 1 == parts ? n : std::min(n, (n * (t + 1) / parts) & ~(size_t)15);
          if (e > b) widen(out + b, buf + b * width, e - b, width, base);
        });
      });
  totals_.narrowReads++;
  return true;
}

void Controller::copyState(const std::string& dst, const std::string& src, size_t begin, size_t end) {
  StateArr& d = findState(state_, dst, "copyState");
  StateArr& s = findState(state_, src, "copyState");
  if (d.type != s.type)
    throw CodedError("TS_TYPE", "copyState('" + dst + "', '" + src + "'): the arrays hold " + stypeName(d.type) + " and " + stypeName(s.type));
  if (begin > end || end > d.n || end > s.n)
    throw CodedError("TS_RANGE", "copyState: range [" + std::to_string(begin) + ", " + std::to_string(end) + ") exceeds the arrays ('" + dst +
                                     "' " + std::to_string(d.n) + ", '" + src + "' " + std::to_string(s.n) + ")");
  if (begin == end || d.dev == s.dev) return;
  const size_t e = stypeSize(d.type);
  be_->d2d((uint8_t*)d.dev + begin * e, (const uint8_t*)s.dev + begin * e, (end - begin) * e, 0);
  be_->syncStream(0);
}

void Controller::takeState(const std::string& dst, const std::string& src, bool clear) {
  StateArr& d = findState(state_, dst, "takeState");
  StateArr& s = findState(state_, src, "takeState");
  if (&d == &s) throw CodedError("TS_ARG", "takeState('" + dst + "', '" + src + "'): name two different arrays");
  if (d.type != s.type || d.n != s.n)
    throw CodedError("TS_TYPE", "takeState('" + dst + "', '" + src + "'): the arrays must have one type and length (" + stypeName(d.type) + " x " +
                                    std::to_string(d.n) + ", " + stypeName(s.type) + " x " + std::to_string(s.n) + ")");
  be_->syncAll();  // no kernel still reads either under its old name
  std::swap(d.dev, s.dev);
  if (!clear) return;
  be_->memset(s.dev, 0, s.bytes, 0);
  be_->syncStream(0);
}

size_t Controller::copyFromPeer(Controller& peer, const std::string& src, const std::string& dst, const std::vector<std::pair<size_t, size_t>>& ranges) {
  if (peer.emulated_ != emulated_)
    throw CodedError("TS_ARG", "copyFromPeer: an emulated and a real device cannot copy to each other");
  if (peer.be_ == nullptr) throw CodedError("TS_CLOSED", "copyFromPeer: the peer controller is closed");
  StateArr& d = findState(state_, dst, "copyFromPeer");
  StateArr& s = findState(peer.state_, src, "copyFromPeer (peer)");
  if (d.type != s.type)
    throw CodedError("TS_TYPE", "copyFromPeer('" + dst + "', '" + src + "'): the arrays hold " + stypeName(d.type) + " and " + stypeName(s.type));
  const size_t e = stypeSize(d.type);
  size_t bytes = 0;
  for (const auto& [b, en] : ranges) {
    if (b > en || en > d.n || en > s.n)
      throw CodedError("TS_RANGE", "copyFromPeer: range [" + std::to_string(b) + ", " + std::to_string(en) + ") exceeds the arrays");
    if (b == en) continue;
    be_->peerCopy((uint8_t*)d.dev + b * e, (const uint8_t*)s.dev + b * e, peer.device_, (en - b) * e, 0);
    bytes += (en - b) * e;
  }
  be_->syncStream(0);
  return bytes;
}

double Controller::flaggedDegrees(const std::string& flags, const std::string& deg, size_t begin, size_t end, const std::vector<uint32_t>* ranges, std::vector<uint8_t>* marks) {
  StateArr& f = findState(state_, flags, "flaggedDegrees");
  StateArr& d = findState(state_, deg, "flaggedDegrees");
  if (f.type != SType::U8 || d.type != SType::U32) throw CodedError("TS_TYPE", "flaggedDegrees: the flags must hold u8 and the degrees u32");
  if (begin > end || end > f.n || end > d.n) throw CodedError("TS_RANGE", "flaggedDegrees: range [" + std::to_string(begin) + ", " + std::to_string(end) + ") exceeds the arrays");
  if (begin == end) return 0;
  // The sum, then the marks, read back at once.
  const size_t nr = ranges != nullptr ? ranges->size() / 2 : 0;
  uint8_t* sc = (uint8_t*)scratch("@flagdeg", sizeof(double) + nr);
  double* out = (double*)sc;
  u8* mark = sc + sizeof(double);
  u32* dr = nr > 0 ? (u32*)scratch("@flagdeg.ranges", nr * 8) : nullptr;
  if (nr > 0) be_->h2d(dr, ranges->data(), nr * 8, 0), marks->assign(nr, 0);
  be_->memset(out, 0, sizeof(double) + nr, 0);
  launch<KFlagDeg>(gridFor(end - begin), kBlock * sizeof(double), 0, FlagDegArgs{(const u8*)f.dev, (const u32*)d.dev, (u32)begin, (u32)end, out, dr, (u32)nr, mark});
  std::vector<uint8_t> host(sizeof(double) + nr);
  be_->d2h(host.data(), sc, host.size(), 0);
  be_->syncStream(0);
  double r = 0;
  std::memcpy(&r, host.data(), sizeof(double));
  if (nr > 0) std::memcpy(marks->data(), host.data() + sizeof(double), nr);
  return r;
}

std::pair<uint32_t*, void*> Controller::scatterInputs(const StateArr& a, const std::string& what, const uint32_t* ids, const void* vals, SType type, size_t count) {
  if (a.type != type)
    throw CodedError("TS_TYPE", what + ": the array holds " + stypeName(a.type) + " but a " + stypeName(type) + " typed array was given");
  for (size_t i = 0; i < count; i++)
    if (ids[i] >= a.n) throw CodedError("TS_RANGE", what + ": id " + std::to_string(ids[i]) + " exceeds its length " + std::to_string(a.n));
  if (count == 0) return {nullptr, nullptr};
  const size_t e = stypeSize(type);
  uint32_t* dids = (uint32_t*)scratch("@scatterIds", count * 4);
  void* dvals = scratch("@scatterVals", count * e);
  be_->h2d(dids, ids, count * 4, 0);
  be_->h2d(dvals, vals, count * e, 0);
  return {dids, dvals};
}

void Controller::scatterState(const std::string& name, const uint32_t* ids, const void* vals, SType type, size_t count) {
  StateArr& a = findState(state_, name, "scatterState");
  const auto [dids, dvals] = scatterInputs(a, "scatterState('" + name + "')", ids, vals, type, count);
  if (count == 0) return;
  launch<KScatterVals>(gridFor(count), 0, 0, ScatterValsArgs{a.dev, dids, dvals, (u32)count, (u32)a.type});
  be_->syncStream(0);
}

uint32_t Controller::mergeState(const std::string& name, const uint32_t* ids, const void* vals, SType type, size_t count, uint32_t op, const std::string& next) {
  StateArr& a = findState(state_, name, "mergeState");
  StateArr& f = findState(state_, next, "mergeState");
  if (f.type != SType::U8 || f.n < a.n) throw CodedError("TS_TYPE", "mergeState: the next flags '" + next + "' must be u8, one per entry");
  if (a.type == type && (type == SType::U8 || (op == kMergeClaim && type != SType::I32 && type != SType::F64) || op < kMergeClaim || op > kMergeMax))
    throw CodedError("TS_TYPE", "mergeState('" + name + "'): " + stypeName(type) + " does not merge that way (claim: i32, f64; min/max: u32, i32, f32, f64)");
  const auto [dids, dvals] = scatterInputs(a, "mergeState('" + name + "')", ids, vals, type, count);
  if (count == 0) return 0;
  uint32_t* counter = (uint32_t*)scratch("@mergeCount", 4);
  be_->memset(counter, 0, 4, 0);
  launch<KMergeVals>(gridFor(count), 0, 0, MergeValsArgs{a.dev, dids, dvals, (u32)count, (u32)type, op, NextSet{nullptr, (u8*)f.dev, counter}});
  uint32_t fresh = 0;
  be_->d2h(&fresh, counter, 4, 0);
  be_->syncStream(0);
  return fresh;
}

bool Controller::enablePeer(Controller& peer) {
  if (peer.emulated_ != emulated_) return false;
  // TESSERA_NO_PEER_ACCESS=1: as on hosts without it (copies staged by the driver; tests take the
  // paths that do not write a peer's memory from a kernel).
  const char* off = std::getenv("TESSERA_NO_PEER_ACCESS");
  if (off != nullptr && std::string(off) == "1") return false;
  const bool ok = be_->enablePeer(peer.device_);
  if (ok) direct_.insert(peer.device_);
  return ok;
}

bool Controller::directTo(const ExchangeSpec& ex) const {
  for (Controller* p : ex.peers)
    if (direct_.count(p->device_) == 0) return false;
  return ex.on();
}

}  // namespace ts

namespace ts {

void Controller::abortExchanges(uint64_t tag) {
  uint64_t cur = abortTag_.load();
  while (cur < tag && !abortTag_.compare_exchange_weak(cur, tag)) {
  }
}

void Controller::postExchange(const ExchangeSpec& ex) {
  StateArr& a = findState(state_, ex.slot, "exchange");
  for (const auto& [b, e] : ex.ranges)
    if (b > e || e > a.n) throw CodedError("TS_RANGE", "exchange: range [" + std::to_string(b) + ", " + std::to_string(e) + ") exceeds '" + ex.slot + "'");
  for (Controller* p : ex.peers) {
    if (p == this || p->emulated_ != emulated_) throw CodedError("TS_ARG", "exchange: the peers must be other controllers, all real or all emulated");
  }
  {
    std::lock_guard<std::mutex> lk(postMu_);
    posted_ = Posted{ex.tag, a.dev, a.type, a.n};
  }
  postCv_.notify_all();
}

template <class Ready>
void Controller::awaitPeer(Controller& p, uint64_t tag, const std::chrono::steady_clock::time_point& t0, Ready ready) {
  // A peer posts at its run's start (or a level's end), so the wait is short unless it failed:
  // then the run is torn down (abortExchanges) or, as a last resort, this gives up after a minute.
  std::unique_lock<std::mutex> lk(p.postMu_);
  for (;;) {
    if (p.postClosed_) throw CodedError("TS_PEER", "exchange: GPU " + std::to_string(p.device_) + " closed before its superstep");
    if (ready()) break;
    if (abortTag_.load() >= tag) throw CodedError("TS_PEER", "exchange: the run was torn down while this GPU waited for GPU " + std::to_string(p.device_));
    if (p.posted_.tag > tag) throw CodedError("TS_PEER", "exchange: GPU " + std::to_string(p.device_) + " is past this superstep");
    if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(60))
      throw CodedError("TS_PEER", "exchange: GPU " + std::to_string(p.device_) + " did not start its superstep within 60 s");
    p.postCv_.wait_for(lk, std::chrono::milliseconds(20));
  }
  p.inbound_++;  // its shutdown waits until this one's copies from or to it are done
}

Controller::HeldPeers::~HeldPeers() {
  for (Controller* p : peers) p->letGo();
}

void Controller::pushExchange(const ExchangeSpec& ex, int s, RunStats& st) {
  const StateArr& a = findState(state_, ex.slot, "exchange");
  const size_t e = stypeSize(a.type);
  const auto t0 = std::chrono::steady_clock::now();
  HeldPeers held;
  for (Controller* p : ex.peers) {
    awaitPeer(*p, ex.tag, t0, [&] { return p->posted_.tag == ex.tag; });
    held.peers.push_back(p);
    const Posted q = p->posted_;  // stable: the peer posts again only after a meeting this run's vote allows
    if (q.type != a.type || q.n != a.n)
      throw CodedError("TS_TYPE", "exchange: GPU " + std::to_string(p->device_) + " posted " + std::to_string(q.n) + " x " + stypeName(q.type) + " for '" +
                                      ex.slot + "' (" + std::to_string(a.n) + " x " + stypeName(a.type) + " here)");
    for (const auto& [b, en] : ex.ranges) {
      if (b == en) continue;
      be_->peerCopyTo((uint8_t*)q.dev + b * e, p->device_, (const uint8_t*)a.dev + b * e, (en - b) * e, s);
      st.peerBytes += (en - b) * e;
    }
  }
  st.peerWaitMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  be_->syncStream(s);
}

void Controller::postLoop(const ExchangeSpec& ex, uint32_t step, const StateArr& a, double sum, const std::array<void*, 3>& arrays) {
  {
    std::lock_guard<std::mutex> lk(postMu_);
    loopPosts_[step % 2] = LoopPost{ex.tag, step, a.dev, a.n, sum, ex.ranges, arrays};
  }
  postCv_.notify_all();
}

const Controller::LoopPost& Controller::awaitLoop(Controller& p, const ExchangeSpec& ex, uint32_t step, size_t n, const std::chrono::steady_clock::time_point& t0, const char* what) {
  const LoopPost& q = p.loopPosts_[step % 2];
  awaitPeer(p, ex.tag, t0, [&] { return q.tag == ex.tag && q.step == step; });
  if (q.n != n) {
    p.letGo();
    throw CodedError("TS_TYPE", std::string(what) + ": GPU " + std::to_string(p.device_) + " posted " + std::to_string(q.n) + " entries against " + std::to_string(n) + " here");
  }
  return q;
}

uint64_t Controller::exchangeLevel(const ExchangeSpec& ex, uint32_t level, StateArr& next, StateArr& depth, int32_t value) {
  if (next.type != SType::U8 || depth.type != SType::I32 || depth.n < next.n)
    throw CodedError("TS_TYPE", "levels on several GPUs: next must hold u8 flags and depth i32 values over the same vertices");
  // The level's kernels are done (run() synced): its flags are final but for the peers' ORs.
  postLoop(ex, level, next);
  const size_t n = next.n;
  uint8_t* other = (uint8_t*)scratch("@levels.other", n);
  double* fresh = (double*)scratch("@levels.fresh", sizeof(double));
  be_->memset(fresh, 0, sizeof(double), 0);
  const auto t0 = std::chrono::steady_clock::now();
  HeldPeers held;
  for (Controller* p : ex.peers) {
    const LoopPost& q = awaitLoop(*p, ex, level, n, t0, "levels on several GPUs");
    held.peers.push_back(p);
    // What it ORed in of this one's flags meanwhile changes nothing (OR twice is OR once).
    be_->peerCopy(other, q.dev, p->device_, n, 0);
    launch<KOrNext>(gridFor(n), kBlock * sizeof(double), 0, OrNextArgs{other, (u8*)next.dev, (i32*)depth.dev, (u32)n, value, fresh});
  }
  double r = 0;
  be_->d2h(&r, fresh, sizeof(double), 0);
  be_->syncStream(0);
  return (uint64_t)r;
}

std::vector<const Controller::LoopPost*> Controller::meetPeers(const ExchangeSpec& ex, uint32_t step, const StateArr& posted, double sum, const std::array<void*, 3>& arrays,
                                                               HeldPeers& held, const char* what) {
  postLoop(ex, step, posted, sum, arrays);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<const LoopPost*> posts;
  for (Controller* p : ex.peers) {
    posts.push_back(&awaitLoop(*p, ex, step, posted.n, t0, what));
    held.peers.push_back(p);
  }
  return posts;
}

uint64_t Controller::meetLevel(const ExchangeSpec& ex, uint32_t step, const StateArr& next, uint64_t mine, const std::array<void*, 3>& arrays, PeerBuffers* learn,
                               HeldPeers& held) {
  // The level's kernels, and with them their stores into the peers' copies, are done (run() synced).
  const auto posts = meetPeers(ex, step, next, (double)mine, arrays, held, "levels on several GPUs");
  if (learn) learn->resize(posts.size());
  uint64_t total = mine;
  for (size_t i = 0; i < posts.size(); i++) {
    if (learn) (*learn)[i] = posts[i]->arrays;
    total += (uint64_t)posts[i]->sum;
  }
  return total;
}

double Controller::meetIteration(const ExchangeSpec& ex, uint32_t it, const StateArr& posted, const std::array<void*, 3>& mine3, double mine, bool copy, PeerBuffers& bufs, HeldPeers& held) {
  // The iteration's kernels are done (run() synced) and so are its pushes: its owned values are final.
  const auto posts = meetPeers(ex, it, posted, mine, mine3, held, "pr_iterations on several GPUs");
  std::vector<std::pair<int, double>> sums{{device_, mine}};
  bufs.resize(posts.size());
  for (size_t i = 0; i < posts.size(); i++) {
    const LoopPost& q = *posts[i];
    const int dev = ex.peers[i]->device_;
    bufs[i] = q.arrays;
    sums.push_back({dev, q.sum});
    if (!copy) continue;
    // Its post stays until it posts it + 2, which waits for this one's it + 1 (after these copies).
    for (const auto& [b, e] : q.ranges) {
      if (b >= e) continue;
      if (e > posted.n) throw CodedError("TS_RANGE", "pr_iterations: GPU " + std::to_string(dev) + " owns a range past the contributions");
      be_->peerCopy((double*)posted.dev + b, (const double*)q.dev + b, dev, (e - b) * sizeof(double), 0);
    }
  }
  if (copy) be_->syncStream(0);
  std::sort(sums.begin(), sums.end());
  double total = 0;
  for (const auto& s : sums) total += s.second;
  return total;
}

uint64_t Controller::gatherPeers(const ExchangeSpec& ex, uint32_t step, const StateArr& a, void* into) {
  const size_t bytes = a.n * stypeSize(a.type);
  const auto t0 = std::chrono::steady_clock::now();
  postLoop(ex, step, a);
  {
    HeldPeers held;
    for (size_t i = 0; i < ex.peers.size(); i++) {
      Controller* p = ex.peers[i];
      const LoopPost& q = awaitLoop(*p, ex, step, a.n, t0, "exchange");
      held.peers.push_back(p);
      be_->peerCopy((uint8_t*)into + i * bytes, q.dev, p->device_, bytes, 0);
    }
    be_->syncStream(0);
  }
  // Every peer has copied this one's array once it posts step + 1: it may change after that.
  postLoop(ex, step + 1, a);
  for (Controller* p : ex.peers) {
    awaitLoop(*p, ex, step + 1, a.n, t0, "exchange");
    p->letGo();  // awaitLoop held it; nothing is copied from it
  }
  return bytes * ex.peers.size();
}

void Controller::letGo() {
  {
    std::lock_guard<std::mutex> lk(postMu_);
    inbound_--;
  }
  postCv_.notify_all();
}

}  // namespace ts

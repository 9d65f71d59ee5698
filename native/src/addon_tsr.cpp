// tsrCheck and tsrLoad: a .tsr load's blob checks, and its reads with them (src/graph/tsr-read.ts),
// on up to one thread per core. The checksum is a sequential chain per blob, so the threads share
// out whole blobs.
#include "addon.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <thread>
#include <vector>

#if !defined(_WIN32)
#include <unistd.h>
#endif

namespace ts {
namespace addon {

namespace {

inline uint32_t imul(uint32_t a, uint32_t b) { return a * b; }

inline uint32_t wordAt(const uint8_t* p) {
  // Little-endian as the JS Int32Array view on the hosts Node runs on; memcpy for unaligned views.
  uint32_t w;
  std::memcpy(&w, p, 4);
  return w;
}

struct BlobCheck {
  const uint8_t* bytes;
  size_t length;
  // Offsets: words [0, nv] (nv + 1 of them); none when hasOffsets is false. Neighbour ids: words [from, to).
  bool hasOffsets;
  size_t nv, from, to;
  uint32_t checksum = 0, flags = 0;
};

constexpr uint32_t kOffsetsBad = 1, kOutOfRange = 2;

/**
 * tsrChecksum (src/graph/tsr-format.ts) of a blob's bytes, bit for bit, with the id check (any
 * word of [from, to) >= n) riding on the same pass. Fed in order as the bytes arrive (tsrLoad
 * hashes each chunk it reads while it is still in cache), then finished.
 */
class Hasher {
 public:
  Hasher(const BlobCheck& c, uint32_t n)
      : b_(c.bytes), len_(c.length), n4_(len_ >> 2), pairsEnd_(n4_ & ~size_t(1)), from_(c.from), to_(std::min(c.to, n4_)), n_(n),
        h1_(0x811c9dc5u ^ (uint32_t)len_) {}

  /** Hashes the words below `upTo` not hashed yet (whole pairs only; the rest waits). */
  void feed(size_t upTo) {
    const size_t hi = std::min(upTo & ~size_t(1), pairsEnd_), from = from_, to = to_;
    const uint32_t n = n_;
    const uint8_t* b = b_;
    uint32_t h1 = h1_, h2 = h2_;
    size_t i = i_;
    bool bad = false;
    // A pair of words (lanes alternate by word index), its words in [from, to) checked.
    auto pair = [&](size_t i) {
      const uint32_t w0 = wordAt(b + 4 * i), w1 = wordAt(b + 4 * i + 4);
      h1 = imul(h1 ^ w0, 0x9e3779b1u);
      h2 = imul(h2 ^ w1, 0x85ebca77u);
      bad |= (i >= from && i < to && w0 >= n) | (i + 1 >= from && i + 1 < to && w1 >= n);
    };
    for (; i + 2 <= hi && i + 2 <= from; i += 2) {
      h1 = imul(h1 ^ wordAt(b + 4 * i), 0x9e3779b1u);
      h2 = imul(h2 ^ wordAt(b + 4 * i + 4), 0x85ebca77u);
    }
    if (i < from && i + 2 <= hi) pair(i), i += 2;  // an odd `from`
    // Inside [from, to): four words a step, the check without branches.
    uint32_t orBad = 0;
    for (; i + 4 <= to && i + 4 <= hi; i += 4) {
      const uint32_t w0 = wordAt(b + 4 * i), w1 = wordAt(b + 4 * i + 4), w2 = wordAt(b + 4 * i + 8), w3 = wordAt(b + 4 * i + 12);
      h1 = imul(imul(h1 ^ w0, 0x9e3779b1u) ^ w2, 0x9e3779b1u);
      h2 = imul(imul(h2 ^ w1, 0x85ebca77u) ^ w3, 0x85ebca77u);
      orBad |= (uint32_t)(w0 >= n) | (uint32_t)(w1 >= n) | (uint32_t)(w2 >= n) | (uint32_t)(w3 >= n);
    }
    for (; i + 2 <= hi; i += 2) pair(i);
    h1_ = h1, h2_ = h2, i_ = i;
    bad_ = bad_ || bad || orBad != 0;
  }

  /** The checksum of the whole blob (every byte read by now); outOfRange() after. */
  uint32_t finish() {
    feed(pairsEnd_);
    uint32_t h1 = h1_;
    if (i_ < n4_) {
      const uint32_t w0 = wordAt(b_ + 4 * i_);
      h1 = imul(h1 ^ w0, 0x9e3779b1u);
      bad_ = bad_ || (i_ >= from_ && i_ < to_ && w0 >= n_);
    }
    for (size_t k = n4_ * 4; k < len_; k++) h1 = imul(h1 ^ b_[k], 0x9e3779b1u);
    uint32_t h = h1 ^ imul(h2_, 0xc2b2ae35u);
    h ^= h >> 16;
    h = imul(h, 0x85ebca6bu);
    h ^= h >> 13;
    return h;
  }
  bool outOfRange() const { return bad_; }

 private:
  const uint8_t* b_;
  size_t len_, n4_, pairsEnd_, from_, to_;
  uint32_t n_, h1_, h2_ = 0x01000193u;
  size_t i_ = 0;
  bool bad_ = false;
};

/** The checksum and flags of a blob hashed by h: with the offsets' shape (from 0, never decreasing, ending at to - from). */
void finishCheck(BlobCheck& c, Hasher& h) {
  c.checksum = h.finish();
  c.flags = h.outOfRange() ? kOutOfRange : 0;
  if (!c.hasOffsets) return;
  bool ok = c.nv + 1 <= (c.length >> 2);
  if (ok) {
    uint32_t prev = wordAt(c.bytes);
    ok = prev == 0;
    uint32_t dec = 0;
    for (size_t k = 1; k <= c.nv; k++) {
      const uint32_t o = wordAt(c.bytes + 4 * k);
      dec |= (uint32_t)(o < prev);
      prev = o;
    }
    ok = ok && dec == 0 && (uint64_t)prev == (uint64_t)(c.to - c.from);
  }
  if (!ok) c.flags |= kOffsetsBad;
}

void checkOne(BlobCheck& c, uint32_t n) {
  Hasher h(c, n);
  finishCheck(c, h);
}

/** Runs fn(i) for i in [0, count), each on the next free one of up to one thread per core. */
template <typename F>
void eachBlob(size_t count, F fn) {
  std::atomic<size_t> next{0};
  auto work = [&]() {
    for (size_t i; (i = next.fetch_add(1)) < count;) fn(i);
  };
  const size_t threads = std::min<size_t>(count, std::max<size_t>(1, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; t++) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
}

/** The blobs (argument bi) and their specs (argument si) of tsrCheck / tsrLoad. */
std::vector<BlobCheck> blobsArg(const Napi::CallbackInfo& info, size_t bi, size_t si, const char* fn) {
  Napi::Env env = info.Env();
  const std::string f(fn);
  if (!info[bi].IsArray()) throw codedError(env, "TS_ARG", f + ": blobs must be an array of Uint8Arrays");
  Napi::Array arr = info[bi].As<Napi::Array>();
  TA spec;
  if (!getTypedArray(env, info[si], &spec) || spec.type != napi_float64_array) throw codedError(env, "TS_ARG", f + ": spec must be a Float64Array");
  const size_t count = arr.Length();
  if (spec.length < 3 * count) throw codedError(env, "TS_ARG", f + ": spec needs 3 entries per blob");
  const double* sp = (const double*)spec.data;
  std::vector<BlobCheck> blobs(count);
  for (size_t i = 0; i < count; i++) {
    TA t;
    if (!getTypedArray(env, arr.Get((uint32_t)i), &t) || t.type != napi_uint8_array) throw codedError(env, "TS_ARG", f + ": blobs must be Uint8Arrays");
    const double nv = sp[3 * i], from = sp[3 * i + 1], to = sp[3 * i + 2];
    if (!(from >= 0 && to >= from && nv >= -1)) throw codedError(env, "TS_ARG", f + ": spec needs 0 <= from <= to and nv >= -1");
    blobs[i] = BlobCheck{(const uint8_t*)t.data, t.length, nv >= 0, nv >= 0 ? (size_t)nv : 0, (size_t)from, (size_t)to};
  }
  return blobs;
}

}  // namespace

// tsrCheck(blobs: Uint8Array[], spec: Float64Array, n, out: Uint32Array): for blob i, spec[3i..3i+2]
// = [nv, from, to] (nv = -1: no offsets, a plain checksum); out[2i] = its tsrChecksum, out[2i+1] =
// flags (1: the offsets are not from 0, never decreasing, ending at to - from; 2: a word of
// [from, to) is >= n). Several blobs are checked at once, one per thread.
Napi::Value TsrCheck(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 4) throw codedError(env, "TS_ARG", "tsrCheck(blobs, spec, n, out)");
  std::vector<BlobCheck> blobs = blobsArg(info, 0, 1, "tsrCheck");
  const uint32_t n = (uint32_t)uintArg(info, 2, "tsrCheck: n", 0, true);
  TA out;
  if (!getTypedArray(env, info[3], &out) || out.type != napi_uint32_array || out.length < 2 * blobs.size())
    throw codedError(env, "TS_ARG", "tsrCheck: out must be a Uint32Array with 2 entries per blob");
  eachBlob(blobs.size(), [&](size_t i) { checkOne(blobs[i], n); });
  uint32_t* o = (uint32_t*)out.data;
  for (size_t i = 0; i < blobs.size(); i++) (o[2 * i] = blobs[i].checksum, o[2 * i + 1] = blobs[i].flags);
  return env.Undefined();
}

#if !defined(_WIN32)
namespace {

// Set once the process is exiting (tsrStop): node waits for the work of its thread pool at exit,
// and a load's call reads up to a GiB, so the reads stop at their next chunk instead.
std::atomic<bool> gStop{false};

// Reads each blob with pread on the threads, and (with `check`) checks it there too; off
// the JS thread (an AsyncWorker whose Execute runs the threads), so the event loop goes on.
class LoadWorker : public Napi::AsyncWorker {
  static constexpr size_t kChunk = size_t(256) << 10;

 public:
  LoadWorker(Napi::Env env, int fd, std::vector<BlobCheck> blobs, std::vector<double> pos, uint32_t n, bool check, Napi::Object keepBlobs, Napi::Object out,
             uint8_t* whole, size_t wholeBytes)
      : Napi::AsyncWorker(env), deferred_(Napi::Promise::Deferred::New(env)), fd_(fd), blobs_(std::move(blobs)), pos_(std::move(pos)),
        status_(blobs_.size(), 0), n_(n), check_(check), whole_(whole), wholeBytes_(wholeBytes) {
    keepBlobs_ = Napi::Persistent(keepBlobs);
    out_ = Napi::Persistent(out);
  }
  Napi::Promise Promise() { return deferred_.Promise(); }

  void Execute() override {
    // Fresh buffers: read into 2 MiB pages (far fewer faults, and a faster exit). Blobs that share
    // one buffer (`whole`) are advised together: one blob's advice covers only the 2 MiB pages
    // wholly inside it, which for blobs of a few MiB is about half of them.
    if (wholeBytes_ > 0) adviseHugePages(whole_, wholeBytes_);
    eachBlob(blobs_.size(), [&](size_t i) {
      BlobCheck& c = blobs_[i];
      Hasher h(c, n_);
      uint8_t* p = const_cast<uint8_t*>(c.bytes);
      if (!(p >= whole_ && p + c.length <= whole_ + wholeBytes_)) adviseHugePages(p, c.length);
      size_t off = 0;
      while (off < c.length) {
        if (gStop.load(std::memory_order_relaxed)) {
          status_[i] = 2;
          return;
        }
        // A chunk at a time, hashed while it is in cache.
        const size_t len = std::min<size_t>(c.length - off, kChunk);
        const ssize_t r = pread(fd_, p + off, len, (off_t)(pos_[i] + (double)off));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
          status_[i] = r == 0 ? 1 : 2;  // the file ends early, or an error: the caller reads it again to say which
          return;
        }
        off += (size_t)r;
        if (check_) h.feed(off >> 2);
      }
      if (check_) finishCheck(c, h);
    });
  }

  void OnOK() override {
    TA out;
    getTypedArray(Env(), out_.Value(), &out);
    uint32_t* o = (uint32_t*)out.data;
    for (size_t i = 0; i < blobs_.size() && 3 * i + 2 < out.length; i++) (o[3 * i] = blobs_[i].checksum, o[3 * i + 1] = blobs_[i].flags, o[3 * i + 2] = status_[i]);
    deferred_.Resolve(Env().Undefined());
  }
  void OnError(const Napi::Error& e) override { deferred_.Reject(e.Value()); }

 private:
  Napi::Promise::Deferred deferred_;
  int fd_;
  std::vector<BlobCheck> blobs_;
  std::vector<double> pos_;
  std::vector<uint32_t> status_;
  uint32_t n_;
  bool check_;
  uint8_t* whole_;
  size_t wholeBytes_;
  Napi::ObjectReference keepBlobs_, out_;
};

}  // namespace

// tsrStop(): every load in flight stops at its next chunk, its unread blobs failed (the process
// is exiting; loads after it read nothing).
Napi::Value TsrStop(const Napi::CallbackInfo& info) {
  gStop.store(true);
  return info.Env().Undefined();
}

// tsrLoad(fd, blobs: Uint8Array[], positions: Float64Array, spec, n, check, out: Uint32Array,
// whole?: Uint8Array) -> Promise<void>: reads blob i (blobs[i].length bytes at positions[i] of fd)
// and with `check` checks it as tsrCheck does (spec, n); out[3i], out[3i + 1] = its checksum and
// flags, out[3i + 2] = 0 when it was read whole, else not (the caller reads it again for the error).
// whole: the one fresh buffer the blobs lie in, if they share one (huge pages asked for it once).
Napi::Value TsrLoad(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 7) throw codedError(env, "TS_ARG", "tsrLoad(fd, blobs, positions, spec, n, check, out)");
  const int fd = (int)uintArg(info, 0, "tsrLoad: fd", 0, true);
  std::vector<BlobCheck> blobs = blobsArg(info, 1, 3, "tsrLoad");
  const size_t count = blobs.size();
  TA pos, out;
  if (!getTypedArray(env, info[2], &pos) || pos.type != napi_float64_array || pos.length < count)
    throw codedError(env, "TS_ARG", "tsrLoad: positions must be a Float64Array with an entry per blob");
  const double* ps = (const double*)pos.data;
  std::vector<double> positions(ps, ps + count);
  for (double x : positions)
    if (!(x >= 0)) throw codedError(env, "TS_ARG", "tsrLoad: positions must be >= 0");
  const uint32_t n = (uint32_t)uintArg(info, 4, "tsrLoad: n", 0, true);
  const bool check = info[5].ToBoolean().Value();
  if (!getTypedArray(env, info[6], &out) || out.type != napi_uint32_array || out.length < 3 * count)
    throw codedError(env, "TS_ARG", "tsrLoad: out must be a Uint32Array with 3 entries per blob");
  TA whole{};
  if (info.Length() > 7 && !info[7].IsUndefined() && (!getTypedArray(env, info[7], &whole) || whole.type != napi_uint8_array))
    throw codedError(env, "TS_ARG", "tsrLoad: whole must be a Uint8Array when given");
  auto* w = new LoadWorker(env, fd, std::move(blobs), std::move(positions), n, check, info[1].As<Napi::Object>(), info[6].As<Napi::Object>(),
                           (uint8_t*)whole.data, whole.data == nullptr ? 0 : whole.length);
  Napi::Promise p = w->Promise();
  w->Queue();
  return p;
}
#endif

}  // namespace addon
}  // namespace ts

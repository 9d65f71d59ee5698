// lcc_tri's plan: the forward triangle enumeration of kernels_tri.h over N+ lists in state arrays
// (no pages: the call names none). Roles: fwdOff (f64, n + 1), fwd (u32, T), mult (u8, T;
// optional: every multiplicity 1), tri (f64, n: the per-vertex counts, zeroed here), work (f64,
// T + 1: scratch, the scan as u64), acc (u32, T: scratch), touched (u8, n: tri != 0 after the
// call, for compact); owned vertices as for the outbox kernels: params ownedBegin/ownedEnd or
// state role `owned` (u8 byte map). stats.sum: the searches made.
#include "controller_internal.h"

namespace ts {

void Controller::scanU64(u64* a, uint64_t n, int level) {
  const uint64_t tiles = (n + kScanTile - 1) / kScanTile;
  if (tiles == 0) return;
  u64* sums = (u64*)scratch("tri.sums" + std::to_string(level), (size_t)tiles * 8);
  launch<KScanTile>((uint32_t)tiles, kScanSmem, 0, ScanArgs{a, sums, n});
  if (tiles == 1) return;
  scanU64(sums, tiles, level + 1);
  launch<KScanAdd>((uint32_t)tiles, 0, 0, ScanArgs{a, sums, n});
}

void Controller::buildTriPlan(const RunRequest& rq, Plan& pl) {
  const std::string& k = rq.kernel;
  scratch("ctr", 4 * (4 + 4 * (size_t)nstreams_));  // run() clears the counters of every call
  StateArr* off = role(rq, "fwdOff", {SType::F64}, true);
  StateArr* fwd = role(rq, "fwd", {SType::U32}, true);
  StateArr* mult = role(rq, "mult", {SType::U8}, false);
  StateArr* tri = role(rq, "tri", {SType::F64}, true);
  StateArr* work = role(rq, "work", {SType::F64}, true);
  StateArr* acc = role(rq, "acc", {SType::U32}, true);
  StateArr* touched = role(rq, "touched", {SType::U8}, true);
  StateArr* om = role(rq, "owned", {SType::U8}, false);
  const uint32_t n = (uint32_t)tri->n;
  if (off->n != (size_t)n + 1) throw CodedError("TS_RANGE", k + ": fwdOff must have n + 1 = " + std::to_string(n + 1) + " entries");
  if (touched->n < n || (om && om->n < n)) throw CodedError("TS_RANGE", k + ": touched and owned need an entry per vertex");
  // The slot count T = fwdOff[n], read once here (the offsets are uploaded before the call).
  double last = 0;
  be_->d2h(&last, (const double*)off->dev + n, 8, 0);
  be_->syncStream(0);
  const uint64_t T = (uint64_t)last;
  if (fwd->n < T || acc->n < T || work->n < T + 1 || (mult && mult->n < T))
    throw CodedError("TS_RANGE", k + ": fwd, acc and mult need fwdOff[n] = " + std::to_string(T) + " entries, work one more");
  auto param = [&](const char* name, double dflt) {
    auto it = rq.params.find(name);
    return it == rq.params.end() ? dflt : it->second;
  };
  const TriOwned own{om ? (const u8*)om->dev : nullptr, (u32)param("ownedBegin", 0), (u32)std::min<double>(param("ownedEnd", n), n)};
  const double* offp = (const double*)off->dev;
  const u32* fwdp = (const u32*)fwd->dev;
  const u8* multp = mult ? (const u8*)mult->dev : nullptr;
  double* trip = (double*)tri->dev;
  u64* workp = (u64*)work->dev;
  u32* accp = (u32*)acc->dev;
  u8* touchedp = (u8*)touched->dev;
  auto total = std::make_shared<uint64_t>(0);
  pl.keep = {total};
  pl.pre = [=] {
    be_->memset(trip, 0, (size_t)n * 8, 0);
    be_->memset(accp, 0, (size_t)T * 4, 0);
    launch<KTriCost>(gridFor(n), 0, 0, TriCostArgs{offp, fwdp, workp, own, n, 0});
    scanU64(workp, T + 1, 0);
    be_->d2h(total.get(), workp + T, 8, 0);
    be_->syncStream(0);
    const uint64_t threads = (*total + kTriChunk - 1) / kTriChunk;
    if (threads > 0) {
      const uint64_t grid = std::min<uint64_t>((threads + kBlock - 1) / kBlock, 1u << 16);
      launch<KTri>((uint32_t)grid, 0, 0, TriArgs{offp, fwdp, multp, workp, accp, trip, *total, T, n, 0});
    }
    const TriFlushArgs f{fwdp, accp, trip, touchedp, T, n, 0};
    launch<KTriFlush>(gridFor(T), 0, 0, f);
    launch<KTriMark>(gridFor(n), 0, 0, f);
  };
  pl.finish = [total](RunStats& st) {
    st.sum = (double)*total;
    st.hasSum = true;
  };
}

}  // namespace ts

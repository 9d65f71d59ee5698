// Kernel bodies, written once for both builds (see ts_common.h). A kernel is a struct with
//   using Args = ...;                 plain-old-data arguments (device pointers, sizes)
//   static constexpr int phases = N;  parts separated by __syncthreads()
//   static void phase(int p, const Ctx&, const Args&)
// The CUDA backend launches it as one __global__ that runs the phases with __syncthreads()
// between them; the host backend runs, per block, each phase for every thread before the next.
// So a kernel never relies on registers surviving a phase boundary (state that crosses goes
// through shared memory) nor on warp-synchronous execution.
// The families live in kernels_*.h (included below); this file adds the kernel registry.
#pragma once

#include "ts_common.h"
#include "kernels_common.h"
#include "kernels_util.h"
#include "kernels_pr.h"
#include "kernels_push.h"
#include "kernels_pull.h"
#include "kernels_cdlp.h"
#include "kernels_tri.h"
#include "kernels_louvain.h"
#include "kernels_aff.h"

namespace ts {

// ---- kernel registry ----------------------------------------------------------------------------

using KBinBfs = KTwcBin<BfsPushOp>;
using KWarpBfs = KTwcWarp<BfsPushOp>;
using KBlockBfs = KTwcBlock<BfsPushOp>;
using KBinSssp = KTwcBin<SsspPushOp>;
using KWarpSssp = KTwcWarp<SsspPushOp>;
using KBlockSssp = KTwcBlock<SsspPushOp>;
using KBinWcc = KTwcBin<WccPushOp>;
using KWarpWcc = KTwcWarp<WccPushOp>;
using KBlockWcc = KTwcBlock<WccPushOp>;
using KBinPr = KTwcBin<PrPushOp>;
using KWarpPr = KTwcWarp<PrPushOp>;
using KBlockPr = KTwcBlock<PrPushOp>;
using KBinBc = KTwcBin<BcForwardOp>;
using KWarpBc = KTwcWarp<BcForwardOp>;
using KBlockBc = KTwcBlock<BcForwardOp>;
using KPullBfs = KGroupPull<BfsPullOp>;
using KPullWcc = KGroupPull<WccPullOp>;
using KPullBc = KGroupPull<BcBackwardOp>;
using KPullBcFwd = KGroupPull<BcForwardPullOp>;
using KPagesPullBfs = KPages<KPullBfs>;
using KPagesPullWcc = KPages<KPullWcc>;
using KPagesPullBc = KPages<KPullBc>;
using KPagesPullBcFwd = KPages<KPullBcFwd>;
using KPagesAffLink = KPages<KAffLink>;
using KPagesTouch = KPages<KTouch>;

#define TS_KERNEL_LIST(X)                                                                      \
  X(Fill) X(Scatter) X(Axpb) X(OutboxGather) X(OutboxReset) X(Compact) X(PrPull) X(PrPull0) X(PrApply) X(BinBfs)    \
  X(WarpBfs)                                                                                   \
  X(BlockBfs) X(BinSssp) X(WarpSssp) X(BlockSssp) X(BinWcc) X(WarpWcc) X(BlockWcc) X(BinPr)  \
  X(WarpPr) X(BlockPr) X(BinBc) X(WarpBc) X(BlockBc) X(PullBfs) X(PullWcc) X(PullBc) X(PullBcFwd) \
  X(CdlpGather) X(CdlpMode) X(TriCost) X(ScanTile) X(ScanAdd) X(Tri) X(TriFlush) X(TriMark) X(FlagDeg) X(MergeVals) \
  X(PageActive) X(LvDeg) X(LvNarrow) X(LvGather) X(LvMove) X(ScatterVals) X(AffLink) X(AffVertex) \
  X(PagesPullBfs) X(PagesPullWcc) X(PagesPullBc) X(PagesPullBcFwd) X(PagesAffLink) X(OrNext) X(AffMerge) X(PrZero) X(PrFinish) \
  X(MinMax) X(Pack) X(SsspSelect) X(Touch) X(PagesTouch)

enum KernelId : int {
#define TS_KID(name) kid_##name,
  TS_KERNEL_LIST(TS_KID)
#undef TS_KID
  kid_Count
};

template <class K>
struct KernelIdOf;
#define TS_KIDOF(name) \
  template <>          \
  struct KernelIdOf<K##name> { static constexpr int value = kid_##name; };
TS_KERNEL_LIST(TS_KIDOF)
#undef TS_KIDOF

}  // namespace ts

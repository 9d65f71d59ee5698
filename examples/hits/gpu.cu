// HITS's GPU operator (the CPU kernel it mirrors: kernels.ts). hitsGather pulls: dst[v] is the sum
// of src over v's list (in-list for authorities, out-list for hubs; the engine picks the pages),
// and the step's sum is the sum of squares, as out.sum on the CPU. Compiled at run time by NVRTC,
// or by the host compiler for the emulated GPU (docs/PROGRAMS.md).
struct hitsGather {
  static TS_OP double identity() { return 0.0; }
  static TS_OP double gather(const Env<hitsGather>& e, u32, u32 u, double) { return e.src[u]; }
  static TS_OP double combine(double a, double b) { return a + b; }
  static TS_OP bool apply(const Env<hitsGather>& e, u32 v, double r) {
    e.dst[v] = r;
    e.addSum(r * r);
    return false;  // activates nothing: every iteration pulls over all vertices
  }
};

// hitsScale (kernels.ts): x *= f, a vertex pass (vertexMap on GPUs owning every vertex).
struct hitsScale {
  static TS_OP bool vertex(const Env<hitsScale>& e, u32 v) {
    e.x[v] *= e.f;
    return false;
  }
};
